//! The einsum rule's typing: an equation's subscripts against the
//! operands' ranks, and the rank of the result (with `...`, the most
//! broadcast axes any operand has).

use super::Einsum;
use crate::ops::typed::{Equation, Outputs, SameElement, Signature, Subscripts};
use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType};

/// One operand's einsum subscripts: `L` letters, and `...` if `E`.
pub struct Letters<const L: usize, const E: bool>;

/// Subscripts that fit an operand of rank `R`: as many axes as letters,
/// and with `...` any number more (`Broadcast`, a `Rank`, counts them).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: einsum subscripts `{Self}` do not fit an operand of rank {R}",
    label = "an operand of another rank than its subscripts give",
    note = "`Letters<L, E>`: L letters, and `...` if E; an operand has as many axes as its \
            letters, and with `...` any number more"
)]
pub trait FitsRank<const R: usize> {
    /// The axes `...` stands for.
    type Broadcast;
}

/// The larger of two counts of broadcast axes (`Rank`s): the result keeps
/// the most any operand has.
pub trait Widest<Other> {
    /// The larger.
    type Widest;
}

/// The result of an einsum whose result has `LO` letters and `Self`
/// (a `Rank`) broadcast axes.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the einsum's result would have {LO} letters and `{Self}` broadcast \
               axes, more than 5",
    label = "a result of more axes than rxt-tf's tensors have",
    note = "rxt-tf tensors have ranks 0 to 5"
)]
pub trait EinsumResult<const LO: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

impl<Op, T, const A: usize, const LO: usize, const LA: usize, const EA: bool>
    Signature<Op, (Tensor<T, A>,), (Subscripts<LO, LA, 0, 0, EA, false, false>,)> for Einsum
where
    T: Element,
    Letters<LA, EA>: FitsRank<A>,
    <Letters<LA, EA> as FitsRank<A>>::Broadcast: EinsumResult<LO>,
{
    type Output = <<Letters<LA, EA> as FitsRank<A>>::Broadcast as EinsumResult<LO>>::Output<T>;
}

/// The broadcast axes of the widest of two operands' subscripts.
type Widest2<
    const LA: usize,
    const EA: bool,
    const A: usize,
    const LB: usize,
    const EB: bool,
    const B: usize,
> = <<Letters<LA, EA> as FitsRank<A>>::Broadcast as Widest<
    <Letters<LB, EB> as FitsRank<B>>::Broadcast,
>>::Widest;

impl<
        Op,
        T,
        U,
        const A: usize,
        const B: usize,
        const LO: usize,
        const LA: usize,
        const LB: usize,
        const EA: bool,
        const EB: bool,
    > Signature<Op, (Tensor<T, A>, Tensor<U, B>), (Subscripts<LO, LA, LB, 0, EA, EB, false>,)>
    for Einsum
where
    T: Element,
    U: Element + SameElement<T>,
    Letters<LA, EA>: FitsRank<A>,
    Letters<LB, EB>: FitsRank<B>,
    <Letters<LA, EA> as FitsRank<A>>::Broadcast:
        Widest<<Letters<LB, EB> as FitsRank<B>>::Broadcast>,
    Widest2<LA, EA, A, LB, EB, B>: EinsumResult<LO>,
{
    type Output = <Widest2<LA, EA, A, LB, EB, B> as EinsumResult<LO>>::Output<T>;
}

impl<
        Op,
        T,
        U,
        V,
        const A: usize,
        const B: usize,
        const C: usize,
        const LO: usize,
        const LA: usize,
        const LB: usize,
        const LC: usize,
        const EA: bool,
        const EB: bool,
        const EC: bool,
    >
    Signature<
        Op,
        (Tensor<T, A>, Tensor<U, B>, Tensor<V, C>),
        (Subscripts<LO, LA, LB, LC, EA, EB, EC>,),
    > for Einsum
where
    T: Element,
    U: Element + SameElement<T>,
    V: Element + SameElement<T>,
    Letters<LA, EA>: FitsRank<A>,
    Letters<LB, EB>: FitsRank<B>,
    Letters<LC, EC>: FitsRank<C>,
    <Letters<LA, EA> as FitsRank<A>>::Broadcast:
        Widest<<Letters<LB, EB> as FitsRank<B>>::Broadcast>,
    Widest2<LA, EA, A, LB, EB, B>: Widest<<Letters<LC, EC> as FitsRank<C>>::Broadcast>,
    <Widest2<LA, EA, A, LB, EB, B> as Widest<<Letters<LC, EC> as FitsRank<C>>::Broadcast>>::Widest:
        EinsumResult<LO>,
{
    type Output = <<Widest2<LA, EA, A, LB, EB, B> as Widest<
        <Letters<LC, EC> as FitsRank<C>>::Broadcast,
    >>::Widest as EinsumResult<LO>>::Output<T>;
}

/// An operand of the rank its einsum subscripts give (`R`). Checked as a
/// bound, not by the operand types' shape, so a wrong rank is this one
/// error.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the einsum equation's subscripts give an operand rank {R}, not `{Self}`",
    label = "an operand of another rank than its subscripts give",
    note = "an operand has one axis per letter of its subscripts"
)]
pub trait RankIs<const R: usize> {}

impl<const R: usize> RankIs<R> for Rank<R> {}

impl<Op, T: Element, const RA: usize, const A: usize, const OUT: usize>
    Signature<Op, (Tensor<T, RA>,), (Equation<OUT, A, 0, 0>,)> for Einsum
where
    Rank<RA>: SupportedRank + RankIs<A>,
    Rank<OUT>: SupportedRank,
{
    type Output = Tensor<T, OUT>;
}

impl<
        Op,
        T: Element,
        U: Element + SameElement<T>,
        const RA: usize,
        const RB: usize,
        const A: usize,
        const B: usize,
        const OUT: usize,
    > Signature<Op, (Tensor<T, RA>, Tensor<U, RB>), (Equation<OUT, A, B, 0>,)> for Einsum
where
    Rank<RA>: SupportedRank + RankIs<A>,
    Rank<RB>: SupportedRank + RankIs<B>,
    Rank<OUT>: SupportedRank,
{
    type Output = Tensor<T, OUT>;
}

impl<
        Op,
        T: Element,
        U: Element + SameElement<T>,
        V: Element + SameElement<T>,
        const RA: usize,
        const RB: usize,
        const RC: usize,
        const A: usize,
        const B: usize,
        const C: usize,
        const OUT: usize,
    > Signature<Op, (Tensor<T, RA>, Tensor<U, RB>, Tensor<V, RC>), (Equation<OUT, A, B, C>,)>
    for Einsum
where
    Rank<RA>: SupportedRank + RankIs<A>,
    Rank<RB>: SupportedRank + RankIs<B>,
    Rank<RC>: SupportedRank + RankIs<C>,
    Rank<OUT>: SupportedRank,
{
    type Output = Tensor<T, OUT>;
}
