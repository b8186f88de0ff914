//! Typed dispatch: the traits through which every op call is checked at
//! compile time and run. The build script implements them from the op table
//! (`OUT_DIR/ops.rs`): one marker type per op in [`op`](super::op) with its
//! rule, the element types ([`ElementOf`]) and ranks ([`RankOf`]) it takes
//! at each operand, and the rank arithmetic of the rules. Each rule's
//! [`Signature`] is implemented once, generically, in
//! [`rules`](super::rules). `tf!` expands to one [`execute`] whose operands
//! are each checked through [`OperandOf`] at their own span.

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::error::Result;
use crate::ops::execute::{run_row, run_row_given, run_row_many, Number, Operand};
use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType, Untyped};

/// An op of the table, as a type.
pub trait OpRow {
    /// Its row.
    const ROW: &'static Op;
    /// Its rule (a type of [`rules`](super::rules)).
    type Rule;
}

/// The element types `Op` takes.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Op}` does not take `{Self}` tensors",
    label = "element type `{Self}` not accepted here",
    note = "the op reference lists each op's element types: those TensorFlow's CPU kernels of \
            this op take and rxt-tf runs as eager does (a row's doc says why a type is left out)"
)]
pub trait ElementOf<Op> {
    /// [`Accepted`], once `Self` is accepted (see [`OperandOf::Checked`]).
    /// Not a generic type of its own, so a bound can name it: the element
    /// traits ([`Float`](crate::Float), …) bound `ElementOf<Op, Accept =
    /// Accepted>` for the ops they take, and code generic over them checks.
    type Accept: Pass;
}

/// What [`ElementOf::Accept`] is for an accepted element type.
pub struct Accepted;

/// Passes a checked operand's type on (see [`OperandOf::Checked`]).
pub trait Pass {
    /// `X`, passed on.
    type Out<X>;
}

impl Pass for Accepted {
    type Out<X> = X;
}

/// The element type of `Op`'s result on operands of `Self`: their own, or
/// the one the op promotes them to (`div` of integers: `f64`, as
/// `tf.divide`). Implemented for every element type and op.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the element type of `{Op}`'s result on `{Self}` tensors is not one \
               type for every type `{Self}` may be",
    label = "result type unknown here",
    note = "in code generic over `rxt_tf::Numeric`, an op whose result type differs by type \
            (`div` of integers is float64) has none: bound `T` by `rxt_tf::Float`, or write \
            this step for a concrete type"
)]
pub trait ResultOf<Op> {
    /// The result's element type.
    type Element: Element;
}

/// The ranks `Op` takes as its operand number `POSITION` (from 1).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Op}` does not take a tensor of `{Self}` as operand {POSITION}",
    label = "rank not accepted here",
    note = "the guide's op reference lists each op's ranks"
)]
pub trait RankOf<Op, const POSITION: usize> {
    /// `X`, once `Self` is accepted (see [`OperandOf::Checked`]).
    type Accept<X>;
}

/// Ops that take a list of integers known at run time ([`Dims`]) as their
/// operand number `POSITION` (from 1).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` takes no list of sizes as operand {POSITION}",
    label = "a list is not accepted here"
)]
pub trait DimsAt<const POSITION: usize> {
    /// `X`, once `Self` is accepted (see [`OperandOf::Checked`]).
    type Accept<X>;
}

/// Ops that take an integer known at run time ([`Size`]) as their operand
/// number `POSITION` (from 1).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` takes no size as operand {POSITION}",
    label = "a size is not accepted here"
)]
pub trait SizeAt<const POSITION: usize> {
    /// `X`, once `Self` is accepted (see [`OperandOf::Checked`]).
    type Accept<X>;
}

/// Ops that take pairs of integers known at run time ([`Pairs`]) as their
/// operand number `POSITION` (from 1).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` takes no pairs as operand {POSITION}",
    label = "pairs are not accepted here"
)]
pub trait PairsAt<const POSITION: usize> {
    /// `X`, once `Self` is accepted (see [`OperandOf::Checked`]).
    type Accept<X>;
}

/// Ops whose operands may be literals (`tf!(x * 2)`).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` takes no literal operands",
    label = "a literal is not accepted here",
    note = "pass a tensor (`TensorF32Cpu0D::from_slice(py, &[v], [])` makes a scalar tensor)"
)]
pub trait TakesLiterals {
    /// `X`, once `Self` is accepted (see [`OperandOf::Checked`]).
    type Accept<X>;
}

/// An operand on its way to [`execute`]: its input, and the type its check
/// at its own position gave (`C`).
pub struct Checked<'a, C>(Operand<'a>, core::marker::PhantomData<fn() -> C>);

/// Operand types accepted at one position of one op: a tensor of an element
/// type and rank the op takes there, a literal, or a run-time scalar.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an operand `{Op}` takes at position {POSITION}",
    label = "not accepted here",
    note = "`tf!` operands are rxt-tf tensors (`TensorF32Cpu2D`, `TensorI32Cpu1D`, …), numeric \
            literals, or `rxt_tf::ops::Scalar(value)` for a value known at run time"
)]
pub trait OperandOf<Op, const POSITION: usize>: OperandInput {
    /// The operand's type, once accepted. It is computed through the
    /// associated types of the traits that accept it ([`ElementOf`],
    /// [`RankOf`], …), which only the accepted cases implement: a rejected
    /// operand's type is an error, so the rule's [`Signature`] is not
    /// checked (and not reported) a second time.
    type Checked;
    /// The operand, with its checked type.
    fn checked(&self) -> Checked<'_, Self::Checked> {
        Checked(self.input(), core::marker::PhantomData)
    }
}

/// [`OperandOf`] for an operand after the first tensor of a call: its rank
/// (or kind) is checked here, its element type by the rule, which ties it
/// to the first one's (so one wrong element type is reported once).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an operand `{Op}` takes at position {POSITION}",
    label = "not accepted here",
    note = "`tf!` operands are rxt-tf tensors (`TensorF32Cpu2D`, `TensorI32Cpu1D`, …), numeric \
            literals, or `rxt_tf::ops::Scalar(value)` for a value known at run time"
)]
pub trait OperandRankOf<Op, const POSITION: usize>: OperandInput {
    /// The operand's type, once accepted (as [`OperandOf::Checked`]).
    type Checked;
    /// The operand, with its checked type.
    fn checked(&self) -> Checked<'_, Self::Checked> {
        Checked(self.input(), core::marker::PhantomData)
    }
}

/// A checked operand of an einsum (`Self`, the type its operand check gave)
/// of the rank its equation's subscripts give (`R`). `tf!` checks each
/// operand of a three-operand einsum whose equation has no `...` through
/// [`ranked`](Self::ranked), at the operand: a wrong rank fails there, once,
/// and gives the operand an error type, so the rule's [`Signature`] is not
/// checked (and not reported) a second time.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the einsum equation's subscripts give an operand rank {R}, not `{Self}`",
    label = "an operand of another rank than its subscripts give",
    note = "an operand has one axis per letter of its subscripts"
)]
pub trait SubscriptRank<const R: usize>: Sized {
    /// The operand's type, once accepted.
    type Checked;
    /// The checked `operand`, accepted at rank `R`.
    fn ranked(operand: Checked<'_, Self>) -> Checked<'_, Self::Checked> {
        Checked(operand.0, core::marker::PhantomData)
    }
}

impl<T: Element, const R: usize> SubscriptRank<R> for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    type Checked = Self;
}

impl<Op, const P: usize, T, const R: usize> OperandOf<Op, P> for Tensor<T, R>
where
    T: Element + ElementOf<Op>,
    Rank<R>: SupportedRank + RankOf<Op, P>,
{
    type Checked =
        <Rank<R> as RankOf<Op, P>>::Accept<<<T as ElementOf<Op>>::Accept as Pass>::Out<Self>>;
}

impl<Op, const P: usize, T, const R: usize> OperandRankOf<Op, P> for Tensor<T, R>
where
    T: Element,
    Rank<R>: SupportedRank + RankOf<Op, P>,
{
    type Checked = <Rank<R> as RankOf<Op, P>>::Accept<Self>;
}

impl<Op, const P: usize, T> OperandOf<Op, P> for Scalar<T>
where
    T: Element + ElementOf<Op>,
    Rank<0>: RankOf<Op, P>,
{
    type Checked =
        <Rank<0> as RankOf<Op, P>>::Accept<<<T as ElementOf<Op>>::Accept as Pass>::Out<Self>>;
}

impl<Op, const P: usize, T> OperandRankOf<Op, P> for Scalar<T>
where
    T: Element,
    Rank<0>: RankOf<Op, P>,
{
    type Checked = <Rank<0> as RankOf<Op, P>>::Accept<Self>;
}

impl<'a, Op, const P: usize, T, const R: usize, const N: usize> OperandOf<Op, P>
    for TensorList<'a, T, R, N>
where
    T: Element + ElementOf<Op>,
    Rank<R>: SupportedRank + RankOf<Op, P>,
{
    type Checked =
        <Rank<R> as RankOf<Op, P>>::Accept<<<T as ElementOf<Op>>::Accept as Pass>::Out<Self>>;
}

impl<'a, Op, const P: usize, T, const R: usize, const N: usize> OperandRankOf<Op, P>
    for TensorList<'a, T, R, N>
where
    T: Element,
    Rank<R>: SupportedRank + RankOf<Op, P>,
{
    type Checked = <Rank<R> as RankOf<Op, P>>::Accept<Self>;
}

/// A reference to an operand is checked as the operand (`tf!(relu(&x))`,
/// or `x` a reference).
impl<Op, const P: usize, X: OperandOf<Op, P> + ?Sized> OperandOf<Op, P> for &X {
    type Checked = X::Checked;
}

impl<Op, const P: usize, X: OperandRankOf<Op, P> + ?Sized> OperandRankOf<Op, P> for &X {
    type Checked = X::Checked;
}

/// Literals carry no element type of their own: they take the other
/// operands', where the op takes literals at all.
impl<Op: TakesLiterals, const P: usize> OperandOf<Op, P> for IntLiteral {
    type Checked = <Op as TakesLiterals>::Accept<Self>;
}

impl<Op: TakesLiterals, const P: usize> OperandRankOf<Op, P> for IntLiteral {
    type Checked = <Op as TakesLiterals>::Accept<Self>;
}

impl<Op: TakesLiterals, const P: usize> OperandOf<Op, P> for FloatLiteral {
    type Checked = <Op as TakesLiterals>::Accept<Self>;
}

impl<Op: TakesLiterals, const P: usize> OperandRankOf<Op, P> for FloatLiteral {
    type Checked = <Op as TakesLiterals>::Accept<Self>;
}

/// The operands that carry no element type of their own and are taken at
/// one position only: sizes, lists and pairs of integers.
macro_rules! positional_operands {
    ($([$($generics:tt)*] $operand:ty => $check:ident;)*) => {$(
        impl<Op: $check<P>, const P: usize, $($generics)*> OperandOf<Op, P> for $operand {
            type Checked = <Op as $check<P>>::Accept<Self>;
        }

        impl<Op: $check<P>, const P: usize, $($generics)*> OperandRankOf<Op, P> for $operand {
            type Checked = <Op as $check<P>>::Accept<Self>;
        }
    )*};
}

positional_operands! {
    [const N: usize] Pairs<N> => PairsAt;
    [] Size => SizeAt;
    [const N: usize] Dims<N> => DimsAt;
}

/// The result of an op (`Op`, following its rule `Self`) for a tuple of
/// operand types and the values of its typed keywords (`()`, or a tuple of
/// [`Flag`], [`Axes`], [`Perm`], [`Reversed`] or an element type).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Op}` does not accept operands `{Operands}` with keywords `{Variant}`",
    label = "unsupported combination of operands and keywords",
    note = "each op's element types, ranks and keywords are listed in the guide's op reference"
)]
pub trait Signature<Op, Operands, Variant> {
    /// The result: a tensor type, an array of them or a pair.
    type Output: Outputs;
}

/// What an op call gives: one tensor (most ops), an array of tensors
/// (`split`, `unstack`) or a pair (`top_k`).
pub trait Outputs: Sized {
    /// Runs `row` on `inputs` with `keywords` and wraps what it gives.
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self>;

    /// [`Outputs::run`], the keywords in `runtime` (bit `i` for keyword
    /// `i`) given at run time: inputs of a fused trace, not part of its
    /// key. Ops of several outputs run at once (no trace): as `run`.
    fn run_given(
        row: &'static Op,
        inputs: &[Operand<'_>],
        keywords: &[Value],
        runtime: u32,
    ) -> Result<Self> {
        let _ = runtime;
        Self::run(row, inputs, keywords)
    }

    /// Wraps tensors already computed as `row`'s result (the last step of a
    /// composite op): as many as the result holds, of its kinds.
    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self>;

    /// The kinds of its tensors.
    fn kinds() -> Vec<TensorKind>;
}

impl<T: Element, const R: usize> Outputs for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self> {
        run_row(row, inputs, keywords, <Self as TensorType>::KIND).map(TensorType::from_core)
    }

    fn run_given(
        row: &'static Op,
        inputs: &[Operand<'_>],
        keywords: &[Value],
        runtime: u32,
    ) -> Result<Self> {
        let kind = <Self as TensorType>::KIND;
        run_row_given(row, inputs, keywords, kind, runtime).map(TensorType::from_core)
    }

    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self> {
        match <[Untyped; 1]>::try_from(cores) {
            Ok([core]) => Ok(TensorType::from_core(core)),
            Err(_) => Err(crate::eager::malformed(row)),
        }
    }

    fn kinds() -> Vec<TensorKind> {
        vec![<Self as TensorType>::KIND]
    }
}

impl<X: TensorType, const N: usize> Outputs for [X; N] {
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self> {
        let kinds = [X::KIND; N];
        Self::from_cores(row, run_row_many(row, inputs, keywords, &kinds)?)
    }

    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self> {
        let tensors: Vec<X> = cores.into_iter().map(TensorType::from_core).collect();
        tensors.try_into().map_err(|_| crate::eager::malformed(row))
    }

    fn kinds() -> Vec<TensorKind> {
        vec![X::KIND; N]
    }
}

impl<A: TensorType, B: TensorType> Outputs for (A, B) {
    fn run(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<Self> {
        let kinds = [A::KIND, B::KIND];
        Self::from_cores(row, run_row_many(row, inputs, keywords, &kinds)?)
    }

    fn from_cores(row: &'static Op, cores: Vec<Untyped>) -> Result<Self> {
        match <[Untyped; 2]>::try_from(cores) {
            Ok([a, b]) => Ok((TensorType::from_core(a), TensorType::from_core(b))),
            Err(_) => Err(crate::eager::malformed(row)),
        }
    }

    fn kinds() -> Vec<TensorKind> {
        vec![A::KIND, B::KIND]
    }
}

/// The result type of `Op` on `Operands` with typed keywords `Variant`.
pub type Output<Op, Operands, Variant> =
    <<Op as OpRow>::Rule as Signature<Op, Operands, Variant>>::Output;

/// The operand type behind `T` (through any references).
pub type OperandType<T> = <T as AsOperand>::Operand;

/// A boolean typed-keyword value.
pub struct Flag<const VALUE: bool>;

/// The typed value of an `axis` keyword: `N` axes, and in `FITS` bit
/// `r − 1` set when they fit a tensor of rank `r` (in range, none twice).
pub struct Axes<const N: usize, const FITS: u8>;

/// Axes given at run time (the plain functions of [`crate::ops`]): checked
/// against the operand's rank when the op runs.
pub type RuntimeAxes<const N: usize> = Axes<N, { u8::MAX }>;

/// A count typed keyword's value (`batch_dims = N`).
pub struct Count<const N: usize>;

/// A `perm` of `N` entries (a permutation, checked by `tf!`).
pub struct Perm<const N: usize>;

/// `perm` omitted: the axes reversed.
pub struct Reversed;

/// The typed value of an einsum `equation`: the ranks its subscripts give
/// the result (`OUT`) and the operands (`A`, `B`, `C`; 0 past the last).
pub struct Equation<const OUT: usize, const A: usize, const B: usize, const C: usize>;

/// The typed value of `tensordot`'s `axes`: `N` axes of each operand, and
/// in `FITS_A` / `FITS_B` bit `r` set when the first's / the second's axes
/// fit a tensor of rank `r` (0 to 5; in range, none twice). A count fits
/// every rank that has as many axes, which the result's rank checks.
pub struct Contracted<const N: usize, const FITS_A: u8, const FITS_B: u8>;

/// `tensordot`'s `axes` given at run time (the plain function): a count,
/// checked when the op runs against the operands' ranks and the result's
/// rank `OUT`.
pub struct ContractedTo<const OUT: usize>;

/// The typed value of an einsum `equation` with `...`: the letters of the
/// result (`OUT`) and of each operand (`A`, `B`, `C`; 0 past the last), and
/// whether each operand has `...` (the result then has it too).
pub struct Subscripts<
    const OUT: usize,
    const A: usize,
    const B: usize,
    const C: usize,
    const ELLIPSIS_A: bool,
    const ELLIPSIS_B: bool,
    const ELLIPSIS_C: bool,
>;

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

impl<T: super::rules::FromFloatLiteral> Scalar<T> {
    /// `value` as a scalar of the float type `T`, converted as TensorFlow
    /// converts a Python float to a `T` tensor: float64 exactly, the others
    /// through the nearest float32 (bfloat16 flushing a subnormal one to
    /// zero), so `tf!(x * Scalar::from_f64(scale))` is Python's `x * scale`
    /// (as a literal `tf!(x * 0.1)` is).
    pub fn from_f64(value: f64) -> Scalar<T> {
        Scalar(T::from_python_float(value))
    }
}

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

/// The operands of one call, as a tuple of references.
pub trait OperandList {
    /// The tuple of operand types, matched against [`Signature`].
    type Types;
    /// Calls `f` with the inputs, in order.
    fn with_inputs<R>(&self, f: impl FnOnce(&[Operand<'_>]) -> R) -> R;
}

macro_rules! operand_list {
    ($(($($name:ident),+)),*) => {$(
        impl<$($name: OperandInput),+> OperandList for ($(&$name,)+) {
            type Types = ($($name,)+);
            #[allow(non_snake_case)]
            fn with_inputs<R>(&self, f: impl FnOnce(&[Operand<'_>]) -> R) -> R {
                let ($($name,)+) = *self;
                f(&[$($name.input()),+])
            }
        }
    )*};
}
operand_list!((A), (A, B), (A, B, C), (A, B, C, D), (A, B, C, D, E));

/// The operands of a `tf!` call, each checked at its own position: the
/// types matched against [`Signature`] are the checked ones.
macro_rules! checked_list {
    ($(($($name:ident $checked:ident),+)),*) => {$(
        impl<$($checked),+> OperandList for ($(Checked<'_, $checked>,)+) {
            type Types = ($($checked,)+);
            #[allow(non_snake_case)]
            fn with_inputs<R>(&self, f: impl FnOnce(&[Operand<'_>]) -> R) -> R {
                let ($($name,)+) = self;
                f(&[$($name.0),+])
            }
        }
    )*};
}
checked_list!(
    (A CA),
    (A CA, B CB),
    (A CA, B CB, C CC),
    (A CA, B CB, C CC, D CD),
    (A CA, B CB, C CC, D CD, E CE)
);

/// Runs the op `Op` on `operands`, with `keywords` given in the row's
/// keyword order (omitted ones at their defaults). `Variant` carries the
/// typed keywords' values, so the result type follows from the rule.
pub fn execute<Op, Operands, Variant>(
    operands: Operands,
    keywords: &[Value],
) -> Result<Output<Op, Operands::Types, Variant>>
where
    Op: OpRow,
    Op::Rule: Signature<Op, Operands::Types, Variant>,
    Operands: OperandList,
{
    execute_given::<Op, Operands, Variant>(operands, keywords, 0)
}

/// [`execute`], the keywords in `runtime` (bit `i` for the row's keyword
/// `i`) given at run time (axes from Rust values): those that become the
/// op's inputs are inputs of a fused trace, not part of its key, so one
/// trace serves every value.
pub fn execute_given<Op, Operands, Variant>(
    operands: Operands,
    keywords: &[Value],
    runtime: u32,
) -> Result<Output<Op, Operands::Types, Variant>>
where
    Op: OpRow,
    Op::Rule: Signature<Op, Operands::Types, Variant>,
    Operands: OperandList,
{
    operands.with_inputs(|inputs| {
        if let Some(composed) = crate::ops::composite::run(Op::ROW, inputs, keywords) {
            return composed;
        }
        let row = Op::ROW;
        <Output<Op, Operands::Types, Variant> as Outputs>::run_given(row, inputs, keywords, runtime)
    })
}

/// `axes` (a run-time axis list or permutation: a plain function's, or
/// Rust values in `tf!`) as a keyword value: lists are kept for the life of
/// the process, each distinct one once; at most `MAX_RANK` entries in
/// `-MAX_RANK..MAX_RANK`, so what is kept stays small and bounded. Others
/// fit no tensor: `InvalidArgumentError`, as an axis out of range is.
pub fn interned(axes: &[i64]) -> Result<Value> {
    let max = i64::from(rxt_tf_spec::MAX_RANK);
    if axes.len() > usize::from(rxt_tf_spec::MAX_RANK)
        || axes.iter().any(|a| !(-max..max).contains(a))
    {
        return Err(crate::Error::Op {
            op: "axes",
            code: crate::error::code::INVALID_ARGUMENT,
            message: format!("`{axes:?}` is not a list of at most {max} axes in -{max}..{max}"),
        });
    }
    Ok(Value::Ints(crate::eager::kept::list(axes)))
}
