//! The operands `tf!` takes: rxt-tf tensors, literals, run-time scalars,
//! sizes, pairs and lists of tensors, each with the runtime input it gives.

use crate::ops::record_or_run::{Number, Operand};
use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType};

/// The operand type behind `T` (through any references).
pub type OperandType<T> = <T as AsOperand>::Operand;

/// Something `tf!` can take as an operand: an rxt-tf tensor, a literal, a
/// run-time scalar, or a reference to one (any depth).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an rxt-tf tensor",
    label = "expected an rxt-tf tensor",
    note = "`tf!` operands are rxt-tf tensors (`TensorF32Cpu2D`, `TensorI32Cpu1D`, …), numeric \
            literals such as `0.5` or `2`, or `rxt_tf::ops::Scalar(value)` for a value known at \
            run time"
)]
pub trait AsOperand {
    /// The operand behind any references.
    type Operand: OperandInput;
    /// The operand itself.
    fn as_operand(&self) -> &Self::Operand;
}

impl<T: AsOperand + ?Sized> AsOperand for &T {
    type Operand = T::Operand;
    fn as_operand(&self) -> &T::Operand {
        (**self).as_operand()
    }
}

/// A value an op can take as an input.
pub trait OperandInput {
    /// The input it provides.
    fn input(&self) -> Operand<'_>;
}

impl<T: OperandInput + ?Sized> OperandInput for &T {
    fn input(&self) -> Operand<'_> {
        (**self).input()
    }
}

impl<T: Element, const R: usize> AsOperand for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    type Operand = Self;
    fn as_operand(&self) -> &Self {
        self
    }
}

impl<T: Element, const R: usize> OperandInput for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    fn input(&self) -> Operand<'_> {
        Operand::Tensor(self.core(), <Self as TensorType>::KIND)
    }
}

/// A scalar operand known at run time, of any element type, run as a
/// scalar constant: `tf!(x * Scalar(scale))`, `tf!(ids + Scalar(offset))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scalar<T>(pub T);

impl<T: Element> AsOperand for Scalar<T> {
    type Operand = Scalar<T>;
    fn as_operand(&self) -> &Scalar<T> {
        self
    }
}

impl<T: Element> OperandInput for Scalar<T> {
    fn input(&self) -> Operand<'_> {
        Operand::Scalar(T::DTYPE, self.0.number())
    }
}

/// An integer literal of `tf!` (`tf!(ids + 1)`, `tf!(x * 2)`): it takes the
/// other operand's element type, as TensorFlow converts a Python `int`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLiteral(pub i64);

/// A float literal of `tf!` (`tf!(x * 0.5)`): it takes the other operand's
/// element type, which must be a float type (TensorFlow raises `TypeError`
/// converting `0.5` to an integer tensor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatLiteral(pub f64);

/// A literal type is its own operand, whose input is its [`Number`].
macro_rules! literal_operand {
    ($literal:ident, $number:ident) => {
        impl AsOperand for $literal {
            type Operand = $literal;
            fn as_operand(&self) -> &$literal {
                self
            }
        }

        impl OperandInput for $literal {
            fn input(&self) -> Operand<'_> {
                Operand::Literal(Number::$number(self.0))
            }
        }
    };
}

literal_operand!(IntLiteral, Int);
literal_operand!(FloatLiteral, Float);

/// A list of `N` integers known at run time, an operand of `reshape` (the
/// sizes) or `tile` (the multiples): `tf!(reshape(x, [b, s, 4, -1]))` makes
/// one; `rxt_tf::ops::reshape(&x, &Dims([2, -1]))` passes one. Its values
/// are not part of a fused call's trace: a new batch size reuses the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims<const N: usize>(pub [i64; N]);

impl<const N: usize> AsOperand for Dims<N> {
    type Operand = Dims<N>;
    fn as_operand(&self) -> &Dims<N> {
        self
    }
}

impl<const N: usize> OperandInput for Dims<N> {
    fn input(&self) -> Operand<'_> {
        Operand::Dims(&self.0)
    }
}

/// An integer known at run time, an operand of `one_hot` (the depth):
/// `tf!(one_hot(ids, depth))` makes one from a literal or any Rust integer.
/// It runs as an int32 scalar input, not part of a fused call's trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size(pub i64);

impl AsOperand for Size {
    type Operand = Size;
    fn as_operand(&self) -> &Size {
        self
    }
}

impl OperandInput for Size {
    fn input(&self) -> Operand<'_> {
        Operand::Scalar(rxt_tf_spec::DType::I32, Number::Int(self.0))
    }
}

/// `N` pairs of integers known at run time, an operand of `pad` (before and
/// after each axis): `tf!(pad(x, [[1, 1], [0, n]]))` makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairs<const N: usize>(pub [[i64; 2]; N]);

impl<const N: usize> AsOperand for Pairs<N> {
    type Operand = Pairs<N>;
    fn as_operand(&self) -> &Pairs<N> {
        self
    }
}

impl<const N: usize> OperandInput for Pairs<N> {
    fn input(&self) -> Operand<'_> {
        Operand::Pairs(&self.0)
    }
}

/// Integers `tf!` takes in a list of sizes, and as axes known at run time:
/// any Rust integer, as an `i64` (a `u64` or `usize` above `i64::MAX`
/// becomes `i64::MAX`, which no size or axis fits, so TensorFlow refuses
/// it).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: a size or axis known at run time is a Rust integer, not `{Self}`",
    label = "not an integer",
    note = "several sizes or axes are written as a list of integers: `[a, b]`"
)]
pub trait IntoDim {
    /// The value as a size.
    fn dim(self) -> i64;
}

macro_rules! into_dim {
    ($($int:ty),*) => {$(
        impl IntoDim for $int {
            fn dim(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
        }
    )*};
}

into_dim!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// A list of `N` tensors of one element type and rank, an operand of
/// `concat` and `stack`: `tf!(concat([a, b, c], axis = 1))` makes one;
/// `rxt_tf::ops::concat(&TensorList::new([&a, &b]), 1)` passes one. It
/// holds 2 to 8 tensors (`tf!` checks the count; the plain functions when
/// they run).
pub struct TensorList<'a, T: Element, const R: usize, const N: usize>
where
    Rank<R>: SupportedRank,
{
    tensors: [&'a crate::tensor::Untyped; N],
    kind: std::marker::PhantomData<&'a Tensor<T, R>>,
}

impl<'a, T: Element, const R: usize, const N: usize> TensorList<'a, T, R, N>
where
    Rank<R>: SupportedRank,
{
    /// The list of `tensors`, borrowed.
    pub fn new(tensors: [&'a Tensor<T, R>; N]) -> Self {
        TensorList {
            tensors: tensors.map(TensorType::core),
            kind: std::marker::PhantomData,
        }
    }
}

impl<T: Element, const R: usize, const N: usize> AsOperand for TensorList<'_, T, R, N>
where
    Rank<R>: SupportedRank,
{
    type Operand = Self;
    fn as_operand(&self) -> &Self {
        self
    }
}

impl<T: Element, const R: usize, const N: usize> OperandInput for TensorList<'_, T, R, N>
where
    Rank<R>: SupportedRank,
{
    fn input(&self) -> Operand<'_> {
        Operand::List(&self.tensors, <Tensor<T, R> as TensorType>::KIND)
    }
}
