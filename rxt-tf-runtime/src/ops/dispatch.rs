//! Typed dispatch: the traits through which every op row is checked at
//! compile time and run. The build script implements them from the op table
//! (`OUT_DIR/ops.rs`): one marker type per op in [`op`](super::op), one
//! accepted-operand set per distinct set in [`accepts`](super::accepts), and
//! a [`Signature`] impl per accepted combination of operands and typed
//! keywords. `tf!` expands to one [`execute`] whose operands are each
//! checked through [`OperandOf`] at their own span.

use rxt_tf_spec::{Op, Value};

use crate::error::Result;
use crate::ops::execute::{run_row, Input};
use crate::tensor::{TensorF32Cpu1D, TensorF32Cpu2D, TensorI64Cpu1D, TensorType};

/// An op of the table, as a type.
pub trait OpRow {
    /// Its row.
    const ROW: &'static Op;
}

/// What an op accepts as its operand number `POSITION` (from 1) when its
/// typed keywords are `Variant`.
pub trait Slot<const POSITION: usize, Variant> {
    /// The set of operand types accepted there (a type of `accepts`).
    type Accepts;
}

/// Operand types accepted at one position of one op: implemented for each
/// member of each accepted set.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Op}` needs a `{Accepts}` as operand {POSITION}; `{Self}` is not one",
    label = "expected a `{Accepts}`",
    note = "`TensorF32Cpu2D` is a rank-2 and `TensorF32Cpu1D` a rank-1 float32 CPU tensor"
)]
pub trait OperandOf<Op, Accepts, const POSITION: usize> {
    /// The operand itself, once accepted.
    type Checked: OperandInput;
    /// The operand, as its checked type.
    fn checked(&self) -> &Self::Checked;
}

/// The result of an op for a tuple of operand types and the values of its
/// typed keywords (`()`, or a tuple of [`Flag`] / [`Int`]).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` does not accept operands `{Operands}` with keywords `{Variant}`",
    label = "unsupported combination of operands and keywords",
    note = "each op's accepted ranks and keywords are listed in the README's op table"
)]
pub trait Signature<Operands, Variant> {
    /// The result tensor type.
    type Output: TensorType;
}

/// The result type of `Op` on `Operands` with typed keywords `Variant`.
pub type Output<Op, Operands, Variant> = <Op as Signature<Operands, Variant>>::Output;

/// The operand type behind `T` (through any references).
pub type OperandType<T> = <T as AsOperand>::Operand;

/// A boolean typed-keyword value.
pub struct Flag<const VALUE: bool>;

/// An integer typed-keyword value.
pub struct Int<const VALUE: i64>;

/// Something `tf!` can take as an operand: an rxt-tf tensor or a reference
/// to one (any depth).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an rxt-tf tensor",
    label = "expected an rxt-tf tensor",
    note = "`tf!` operands are rxt-tf tensors (`TensorF32Cpu2D`, `TensorF32Cpu1D`), float literals such as `0.5`, or `rxt_tf::ops::Scalar(value)` for an `f32` known at run time"
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
    fn input(&self) -> Input<'_>;
}

macro_rules! tensor_operand {
    ($($tensor:ty),*) => {$(
        impl AsOperand for $tensor {
            type Operand = $tensor;
            fn as_operand(&self) -> &$tensor {
                self
            }
        }

        impl OperandInput for $tensor {
            fn input(&self) -> Input<'_> {
                Input::Tensor(self.core(), <$tensor as TensorType>::KIND.rank)
            }
        }
    )*};
}
tensor_operand!(TensorF32Cpu2D, TensorF32Cpu1D, TensorI64Cpu1D);

/// A float32 scalar operand, run as a scalar constant as eager TensorFlow
/// converts a Python float. `tf!` makes one of a float literal
/// (`tf!(0.5 * x)`); wrap a value known only at run time to pass it:
/// `tf!(x * Scalar(scale))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scalar(pub f32);

impl AsOperand for Scalar {
    type Operand = Scalar;
    fn as_operand(&self) -> &Scalar {
        self
    }
}

impl OperandInput for Scalar {
    fn input(&self) -> Input<'_> {
        Input::Scalar(self.0)
    }
}

/// The operands of one call, as a tuple of references.
pub trait OperandList {
    /// The tuple of operand types, matched against [`Signature`].
    type Types;
    /// Calls `f` with the inputs, in order.
    fn with_inputs<R>(&self, f: impl FnOnce(&[Input<'_>]) -> R) -> R;
}

macro_rules! operand_list {
    ($(($($name:ident),+)),*) => {$(
        impl<$($name: OperandInput),+> OperandList for ($(&$name,)+) {
            type Types = ($($name,)+);
            #[allow(non_snake_case)]
            fn with_inputs<R>(&self, f: impl FnOnce(&[Input<'_>]) -> R) -> R {
                let ($($name,)+) = *self;
                f(&[$($name.input()),+])
            }
        }
    )*};
}
operand_list!((A), (A, B));

/// Runs the op `Op` on `operands`, with `keywords` given in the row's
/// keyword order (omitted ones at their defaults). `Variant` carries the
/// typed keywords' values, so the result type follows from the signature.
pub fn execute<Op, Operands, Variant>(
    operands: Operands,
    keywords: &[Value],
) -> Result<<Op as Signature<Operands::Types, Variant>>::Output>
where
    Op: OpRow + Signature<Operands::Types, Variant>,
    Operands: OperandList,
{
    operands
        .with_inputs(|inputs| {
            let kind = <Output<Op, Operands::Types, Variant> as TensorType>::KIND;
            run_row(Op::ROW, inputs, keywords, kind)
        })
        .map(TensorType::from_core)
}
