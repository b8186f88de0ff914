//! The forms `tf!` accepts: an op as a type ([`OpRow`]), the element
//! types, ranks and other operands it takes at each position, each operand
//! checked at its own span ([`OperandOf`], [`Checked`]), and the
//! [`Signature`] of its rule that gives the result type.

use rxt_tf_spec::Op;

use crate::ops::record_or_run::Operand;
use crate::ops::typed::operands::{
    Dims, FloatLiteral, IntLiteral, OperandInput, Pairs, Scalar, Size, TensorList,
};
use crate::ops::typed::outputs::Outputs;
use crate::tensor::{Element, Rank, SupportedRank, Tensor};

/// An op of the table, as a type.
pub trait OpRow {
    /// Its row.
    const ROW: &'static Op;
    /// Its rule (a type of the `ops::rules` module).
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

/// An operand on its way to the entry point `execute`: its input, and the type its check
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
/// [`Flag`](super::Flag), [`Axes`](super::Axes), [`Perm`](super::Perm), [`Reversed`](super::Reversed) or an element type).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Op}` does not accept operands `{Operands}` with keywords `{Variant}`",
    label = "unsupported combination of operands and keywords",
    note = "each op's element types, ranks and keywords are listed in the guide's op reference"
)]
pub trait Signature<Op, Operands, Variant> {
    /// The result: a tensor type, an array of them or a pair.
    type Output: Outputs;
}

/// The result type of `Op` on `Operands` with typed keywords `Variant`.
pub type Output<Op, Operands, Variant> =
    <<Op as OpRow>::Rule as Signature<Op, Operands, Variant>>::Output;

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
