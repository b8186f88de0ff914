//! The typing rules of the op table (`rxt_tf_spec::Rule`), each one generic
//! [`Signature`] implementation: every op of a rule types its operands and
//! result the same way, whatever its element types and ranks. The rank
//! arithmetic they use ([`BroadcastWith`], [`MatMulWith`], [`ReduceBy`],
//! [`AxesFit`]) is implemented by the build script, for every rank.

mod einsum;
#[cfg(test)]
mod wording;

pub use einsum::{EinsumResult, FitsRank, Letters, RankIs, Widest};

use crate::ops::typed::{
    Axes, Contracted, ContractedTo, Count, Dims, Flag, FloatLiteral, FromFloatLiteral,
    FromIntLiteral, IntLiteral, JoinKind, KindElement, Known, Outputs, Pairs, Perm, ResultOf,
    Reversed, SameElement, Scalar, ScalarKind, Signature, Size, TensorList,
};
use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType};

/// One tensor; the result has its type (`relu`, `exp`, …).
pub struct SameRank;
/// Two operands broadcasting (`add`, `mul`, …).
pub struct Broadcast;
/// Matrix products with broadcasting batch dimensions (`matmul`).
pub struct MatMul;
/// A tensor and a rank-1 bias (`bias_add`).
pub struct BiasAdd;
/// Reductions over axes (`reduce_mean`, …).
pub struct Reduce;
/// Ops along an axis or axes (`softmax`, `cumsum`, `reverse`, …).
pub struct AlongAxis;
/// Indices along one axis (`argmax`).
pub struct ArgReduce;
/// Axis permutations (`transpose`).
pub struct Permute;
/// Element type conversions (`cast`).
pub struct Convert;
/// A new axis (`expand_dims`).
pub struct ExpandDims;
/// The sizes of the axes (`shape`).
pub struct Shape;
/// Axes of size 1 removed (`squeeze`).
pub struct Squeeze;
/// A selection by a bool condition (`where`).
pub struct Select;
/// A new shape of the same elements (`reshape`).
pub struct Reshape;
/// One integer per axis (`tile`).
pub struct PerAxis;
/// Slices at indices (`gather`, `embedding_lookup`).
pub struct Gather;
/// A window by a begin and sizes per axis (`slice`).
pub struct Window;
/// Tensors joined along an axis (`concat`).
pub struct Join;
/// Tensors stacked along a new axis (`stack`).
pub struct Stack;
/// Python's indexing (`x[:, 0]`).
pub struct Index;
/// Equal parts along an axis (`split`).
pub struct Split;
/// The slices along an axis (`unstack`).
pub struct Unstack;
/// Parts of given sizes along an axis (`split_v`).
pub struct SplitSizes;
/// The largest entries and their indices (`top_k`).
pub struct TopK;
/// One-hot vectors of indices (`one_hot`).
pub struct OneHot;
/// Padding before and after each axis (`pad`, `mirror_pad`).
pub struct Pad;
/// A new tensor filled with a scalar operand (`fill`).
pub struct Fill;
/// A new tensor filled with one value of a typed element type (`zeros`).
pub struct Filled;
/// A sequence of numbers (`range`).
pub struct Sequence;
/// A tensor between two scalar bounds (`clip_by_value`).
pub struct Clip;
/// A tensor sorted along an axis (`sort`, `argsort`).
pub struct Sort;
/// A new identity matrix (`eye`).
pub struct Eye;
/// The mean and the variance over axes (`moments`).
pub struct Moments;
/// A tensor and four statistics broadcasting into it
/// (`batch_normalization`).
pub struct Normalize;
/// Tensors contracted by an einsum equation (`einsum`).
pub struct Einsum;
/// An NHWC image and four per-channel statistics (`fused_batch_norm`).
pub struct FusedNormalize;
/// Two tensors contracted over axes (`tensordot`).
pub struct Contract;
/// An image and filters of its rank (`conv2d`, `conv1d`).
pub struct Conv;
/// A window over an image (`max_pool2d`, `avg_pool1d`).
pub struct Pool;

/// The element types of indices (`gather`'s indices, `argmax`'s
/// `output_type`).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: indices (and `output_type`, `out_type`) are `i32` or `i64`, not `{Self}`",
    label = "not an index type"
)]
pub trait IndexElement: Element {}

impl IndexElement for i32 {}
impl IndexElement for i64 {}

/// The rank of two broadcast operands: the larger.
pub trait BroadcastWith<const B: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// The rank of three broadcast operands: the largest.
pub trait BroadcastWithBoth<const B: usize, const C: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// The element type of a condition: `bool`.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the condition of `where` is a bool tensor, not a tensor of `{Self}`",
    label = "not a bool tensor",
    note = "compare first: `where(greater(x, 0.0), a, b)`, or `cast(x, bool)`"
)]
pub trait Condition: Element {}

impl Condition for bool {}

/// The rank of a matrix product of ranks 2 to 5: the larger.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `matmul` takes ranks 2 to 5 on both sides, not `{Self}` × rank {B}",
    label = "unsupported ranks"
)]
pub trait MatMulWith<const B: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// A tensor of this rank with one more axis: the rank it grows to. Keyed
/// on the operand's rank alone, so the axis never decides (by inference)
/// which rank the operand has.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: a tensor of `{Self}` takes no new axis (the result would be above rank 5)",
    label = "no new axis here"
)]
pub trait Grow {
    /// The grown rank.
    type Next;
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// The grown rank a new axis (`Axes<1, FITS>`) must fit.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the new axis does not fit: a result of `{Self}` takes an axis in \
               -rank..rank (for the operand, -(r + 1)..=r)",
    label = "axis out of range"
)]
pub trait NewAxisFits<const FITS: u8> {}

/// The rank after reducing `N` axes (kept with `KEEP`).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: a tensor of `{Self}` has fewer than {N} axes to reduce",
    label = "too many axes"
)]
pub trait ReduceBy<const N: usize, const KEEP: bool> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// The rank of two tensors contracted over `N` axes of each: their free
/// axes together.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `tensordot` of a `{Self}` tensor and a rank-{B} tensor over {N} axes \
               each: an operand has fewer axes, or the result would have more than 5",
    label = "no tensor rxt-tf has",
    note = "the result has the axes of both operands but the contracted ones: a + b − 2n, at \
            most 5"
)]
pub trait ContractWith<const B: usize, const N: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// Contracted axes of one operand (bit `r` of `FITS` for rank `r`) that fit
/// a tensor of this rank.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `tensordot`'s `axes` do not fit a `{Self}` operand (out of range, or \
               one axis twice)",
    label = "axes out of range for the operand",
    note = "an axis of a rank-r tensor is in -r..r; negative axes count from the last"
)]
pub trait ContractionFits<const FITS: u8> {}

/// Axes that fit a tensor of rank `R`: each in `-R..R`, none twice.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `axis` is out of range for a rank-{R} tensor, or names an axis twice",
    label = "the axes do not fit the operand's rank {R}",
    note = "an axis of a rank-{R} tensor is in -{R}..{R}; negative axes count from the last"
)]
pub trait AxesFit<const R: usize> {}

/// The `perm` a tensor of this rank takes: one entry per axis. Keyed on
/// the operand's rank alone, so the `perm` never decides (by inference)
/// which rank the operand has.
pub trait Permutable {
    /// `Perm<R>`.
    type Perm;
}

/// The list a tensor of this rank takes with one entry per axis (`tile`'s
/// multiples). Keyed on the operand's rank alone.
pub trait PerAxisList {
    /// `Dims<R>`.
    type List;
}

/// A list of the length a tensor's rank asks for (`Self`).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: the list needs one entry per axis: the tensor takes a `{Self}`, not a `{L}`",
    label = "wrong list length"
)]
pub trait ListFits<L> {}

impl<L> ListFits<L> for L {}

/// The rank a list of `N` sizes gives (at most 5).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: a list of {N} sizes would give a rank-{N} tensor; rxt-tf tensors have \
               ranks 0 to 5",
    label = "too many sizes"
)]
pub trait ShapeOf<const N: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// The rank of a gather from a tensor of this rank by indices of rank `I`
/// with `B` batch dimensions: `rank − 1 + I − B`, at most 5.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: a gather from a tensor of `{Self}` by rank-{I} indices with batch_dims = \
               {B} has no rxt-tf result (rank − 1 + {I} − {B} must be 0 to 5, and batch_dims at \
               most the indices' rank and below the tensor's)",
    label = "unsupported ranks"
)]
pub trait GatherRank<const I: usize, const B: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// The rank an index of `K` axes, dropping `S` and adding `N`, gives a
/// tensor of this rank: `rank − S + N`, with `K` at most the rank.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: an index reading {K} axes (dropping {S}, adding {N}) does not fit a \
               tensor of `{Self}`: it reads at most its rank, and the result has rank 0 to 5",
    label = "index past the rank"
)]
pub trait IndexRank<const K: usize, const S: usize, const N: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

/// A `perm` of the length a tensor's rank asks for (`Self`).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `perm` needs one entry per axis: the tensor takes a `{Self}`, not a `{P}`",
    label = "wrong `perm` length"
)]
pub trait PermFits<P> {}

impl<P> PermFits<P> for P {}

impl<Op, T: Element + ResultOf<Op>, const R: usize> Signature<Op, (Tensor<T, R>,), ()> for SameRank
where
    Rank<R>: SupportedRank,
{
    // `is_nan` of floats is a bool tensor.
    type Output = Tensor<<T as ResultOf<Op>>::Element, R>;
}

impl<Op, A, B, const RA: usize, const RB: usize> Signature<Op, (Tensor<A, RA>, Tensor<B, RB>), ()>
    for Broadcast
where
    A: Element + ResultOf<Op>,
    B: Element + SameElement<A>,
    Rank<RA>: BroadcastWith<RB>,
{
    type Output = <Rank<RA> as BroadcastWith<RB>>::Output<<A as ResultOf<Op>>::Element>;
}

/// A tensor beside a scalar operand, on either side, broadcasts to the
/// tensor's rank: a run-time [`Scalar`] of its element type, or a literal
/// that converts to it.
macro_rules! beside_a_scalar {
    ($([$($generics:tt)*] $scalar:ty;)*) => {$(
        impl<Op, $($generics)*, const R: usize> Signature<Op, (Tensor<T, R>, $scalar), ()>
            for Broadcast
        where
            T: ResultOf<Op>,
            Rank<R>: SupportedRank,
        {
            type Output = Tensor<<T as ResultOf<Op>>::Element, R>;
        }

        impl<Op, $($generics)*, const R: usize> Signature<Op, ($scalar, Tensor<T, R>), ()>
            for Broadcast
        where
            T: ResultOf<Op>,
            Rank<R>: SupportedRank,
        {
            type Output = Tensor<<T as ResultOf<Op>>::Element, R>;
        }
    )*};
}

beside_a_scalar! {
    [T: Element, U: SameElement<T>] Scalar<U>;
    [T: FromIntLiteral] IntLiteral;
    [T: FromFloatLiteral] FloatLiteral;
}

impl<Op, A, B, const RA: usize, const RB: usize> Signature<Op, (Tensor<A, RA>, Tensor<B, RB>), ()>
    for MatMul
where
    A: Element,
    B: Element + SameElement<A>,
    Rank<RA>: MatMulWith<RB>,
{
    type Output = <Rank<RA> as MatMulWith<RB>>::Output<A>;
}

impl<Op, T, TS, TO, TM, TV, const R: usize>
    Signature<
        Op,
        (
            Tensor<T, R>,
            Tensor<TS, 1>,
            Tensor<TO, 1>,
            Tensor<TM, 1>,
            Tensor<TV, 1>,
        ),
        (),
    > for FusedNormalize
where
    T: Element,
    TS: Element + SameElement<T>,
    TO: Element + SameElement<T>,
    TM: Element + SameElement<T>,
    TV: Element + SameElement<T>,
    // The image's rank is 4 (`RankOf` checks each operand's).
    Rank<R>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<Op, T, U, V, const A: usize, const B: usize> Signature<Op, (Tensor<T, A>, Tensor<U, B>), (V,)>
    for Contract
where
    T: Element,
    U: Element + SameElement<T>,
    V: ContractionOf<A, B>,
{
    type Output = <V as ContractionOf<A, B>>::Output<T>;
}

/// `tensordot`'s `axes` for operands of ranks `A` and `B`: the result.
pub trait ContractionOf<const A: usize, const B: usize> {
    /// The result tensor of element type `T`.
    type Output<T: Element>: TensorType + Outputs;
}

impl<const N: usize, const FA: u8, const FB: u8, const A: usize, const B: usize> ContractionOf<A, B>
    for Contracted<N, FA, FB>
where
    Rank<A>: ContractionFits<FA> + ContractWith<B, N>,
    Rank<B>: ContractionFits<FB>,
{
    type Output<T: Element> = <Rank<A> as ContractWith<B, N>>::Output<T>;
}

impl<const OUT: usize, const A: usize, const B: usize> ContractionOf<A, B> for ContractedTo<OUT>
where
    Rank<A>: SupportedRank,
    Rank<B>: SupportedRank,
    Rank<OUT>: SupportedRank,
{
    type Output<T: Element> = Tensor<T, OUT>;
}

impl<Op, T, U, const R: usize> Signature<Op, (Tensor<T, R>, Tensor<U, 1>), ()> for BiasAdd
where
    T: Element,
    U: Element + SameElement<T>,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<Op, T, const R: usize, const N: usize, const FITS: u8, const KEEP: bool>
    Signature<Op, (Tensor<T, R>,), (Axes<N, FITS>, Flag<KEEP>)> for Reduce
where
    T: Element,
    Axes<N, FITS>: AxesFit<R>,
    Rank<R>: ReduceBy<N, KEEP>,
{
    type Output = <Rank<R> as ReduceBy<N, KEEP>>::Output<T>;
}

impl<Op, T, const R: usize, const N: usize, const FITS: u8>
    Signature<Op, (Tensor<T, R>,), (Axes<N, FITS>,)> for AlongAxis
where
    T: Element,
    Axes<N, FITS>: AxesFit<R>,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<Op, T, const R: usize, const FITS: u8> Signature<Op, (Tensor<T, R>,), (Axes<1, FITS>,)>
    for ExpandDims
where
    T: Element,
    Rank<R>: Grow,
    <Rank<R> as Grow>::Next: NewAxisFits<FITS>,
{
    type Output = <Rank<R> as Grow>::Output<T>;
}

impl<Op, T, const R: usize, const N: usize, const FITS: u8>
    Signature<Op, (Tensor<T, R>,), (Axes<N, FITS>,)> for Squeeze
where
    T: Element,
    Axes<N, FITS>: AxesFit<R>,
    Rank<R>: ReduceBy<N, false>,
{
    type Output = <Rank<R> as ReduceBy<N, false>>::Output<T>;
}

impl<Op, T, O, const R: usize> Signature<Op, (Tensor<T, R>,), (O,)> for Shape
where
    T: Element,
    O: IndexElement,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<O, 1>;
}

impl<Op, T, U, const R: usize> Signature<Op, (Tensor<T, R>,), (U,)> for Convert
where
    T: Element,
    U: Element,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<U, R>;
}

impl<Op, T, O, const R: usize, const FITS: u8> Signature<Op, (Tensor<T, R>,), (Axes<1, FITS>, O)>
    for ArgReduce
where
    T: Element,
    O: IndexElement,
    Axes<1, FITS>: AxesFit<R>,
    Rank<R>: ReduceBy<1, false>,
{
    type Output = <Rank<R> as ReduceBy<1, false>>::Output<O>;
}

impl<Op, T, const R: usize, const N: usize> Signature<Op, (Tensor<T, R>,), (Perm<N>,)> for Permute
where
    T: Element,
    Rank<R>: SupportedRank + Permutable,
    <Rank<R> as Permutable>::Perm: PermFits<Perm<N>>,
{
    type Output = Tensor<T, R>;
}

impl<Op, T, const R: usize> Signature<Op, (Tensor<T, R>,), (Reversed,)> for Permute
where
    T: Element,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<Op, C, A, B, const RC: usize, const RA: usize, const RB: usize>
    Signature<Op, (Tensor<C, RC>, Tensor<A, RA>, Tensor<B, RB>), ()> for Select
where
    C: Condition,
    A: Element,
    B: Element + SameElement<A>,
    Rank<RC>: BroadcastWithBoth<RA, RB>,
{
    type Output = <Rank<RC> as BroadcastWithBoth<RA, RB>>::Output<A>;
}

/// A selection between a tensor and a scalar operand, on either side: a
/// run-time [`Scalar`] of its element type, or a literal that converts to it.
macro_rules! select_with_a_scalar {
    ($([$($generics:tt)*] $scalar:ty;)*) => {$(
        impl<Op, C: Condition, $($generics)*, const RC: usize, const R: usize>
            Signature<Op, (Tensor<C, RC>, Tensor<T, R>, $scalar), ()> for Select
        where
            Rank<RC>: BroadcastWith<R>,
        {
            type Output = <Rank<RC> as BroadcastWith<R>>::Output<T>;
        }

        impl<Op, C: Condition, $($generics)*, const RC: usize, const R: usize>
            Signature<Op, (Tensor<C, RC>, $scalar, Tensor<T, R>), ()> for Select
        where
            Rank<RC>: BroadcastWith<R>,
        {
            type Output = <Rank<RC> as BroadcastWith<R>>::Output<T>;
        }
    )*};
}

select_with_a_scalar! {
    [T: Element, U: SameElement<T>] Scalar<U>;
    [T: FromIntLiteral] IntLiteral;
    [T: FromFloatLiteral] FloatLiteral;
}

impl<Op, T, const R: usize, const N: usize> Signature<Op, (Tensor<T, R>, Dims<N>), ()> for Reshape
where
    T: Element,
    Rank<R>: SupportedRank,
    Dims<N>: ShapeOf<N>,
{
    type Output = <Dims<N> as ShapeOf<N>>::Output<T>;
}

impl<Op, T, const R: usize, const N: usize> Signature<Op, (Tensor<T, R>, Dims<N>), ()> for PerAxis
where
    T: Element,
    Rank<R>: SupportedRank + PerAxisList,
    <Rank<R> as PerAxisList>::List: ListFits<Dims<N>>,
{
    type Output = Tensor<T, R>;
}

impl<Op, T, I, const RP: usize, const RI: usize, const FITS: u8, const B: usize>
    Signature<Op, (Tensor<T, RP>, Tensor<I, RI>), (Axes<1, FITS>, Count<B>)> for Gather
where
    T: Element,
    I: IndexElement,
    Axes<1, FITS>: AxesFit<RP>,
    Rank<RP>: GatherRank<RI, B>,
{
    type Output = <Rank<RP> as GatherRank<RI, B>>::Output<T>;
}

impl<Op, T, const R: usize, const B: usize, const S: usize>
    Signature<Op, (Tensor<T, R>, Dims<B>, Dims<S>), ()> for Window
where
    T: Element,
    Rank<R>: SupportedRank + PerAxisList,
    <Rank<R> as PerAxisList>::List: ListFits<Dims<B>> + ListFits<Dims<S>>,
{
    type Output = Tensor<T, R>;
}

impl<'a, Op, T, const R: usize, const N: usize, const FITS: u8>
    Signature<Op, (TensorList<'a, T, R, N>,), (Axes<1, FITS>,)> for Join
where
    T: Element,
    Axes<1, FITS>: AxesFit<R>,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<'a, Op, T, const R: usize, const N: usize, const FITS: u8>
    Signature<Op, (TensorList<'a, T, R, N>,), (Axes<1, FITS>,)> for Stack
where
    T: Element,
    Rank<R>: SupportedRank + Grow,
    <Rank<R> as Grow>::Next: NewAxisFits<FITS>,
{
    type Output = <Rank<R> as Grow>::Output<T>;
}

impl<Op, T, const R: usize, const L: usize, const K: usize, const S: usize, const N: usize>
    Signature<Op, (Tensor<T, R>, Dims<L>, Dims<L>, Dims<L>), (Count<K>, Count<S>, Count<N>)>
    for Index
where
    T: Element,
    Rank<R>: IndexRank<K, S, N>,
{
    type Output = <Rank<R> as IndexRank<K, S, N>>::Output<T>;
}

impl<Op, T, const R: usize, const FITS: u8, const N: usize>
    Signature<Op, (Tensor<T, R>,), (Axes<1, FITS>, Count<N>)> for Split
where
    T: Element,
    Axes<1, FITS>: AxesFit<R>,
    Rank<R>: SupportedRank,
{
    type Output = [Tensor<T, R>; N];
}

impl<Op, T, const R: usize, const FITS: u8, const N: usize>
    Signature<Op, (Tensor<T, R>, Dims<N>), (Axes<1, FITS>,)> for SplitSizes
where
    T: Element,
    Axes<1, FITS>: AxesFit<R>,
    Rank<R>: SupportedRank,
{
    type Output = [Tensor<T, R>; N];
}

impl<Op, T, const R: usize, const N: usize, const FITS: u8>
    Signature<Op, (Tensor<T, R>,), (Count<N>, Axes<1, FITS>)> for Unstack
where
    T: Element,
    Axes<1, FITS>: AxesFit<R>,
    Rank<R>: ReduceBy<1, false>,
{
    type Output = [<Rank<R> as ReduceBy<1, false>>::Output<T>; N];
}

impl<Op, T, const R: usize> Signature<Op, (Tensor<T, R>,), ()> for TopK
where
    T: Element,
    Rank<R>: SupportedRank,
{
    type Output = (Tensor<T, R>, Tensor<i32, R>);
}

impl<Op, I, const R: usize, const FITS: u8> Signature<Op, (Tensor<I, R>, Size), (Axes<1, FITS>,)>
    for OneHot
where
    I: IndexElement,
    Rank<R>: Grow,
    <Rank<R> as Grow>::Next: NewAxisFits<FITS>,
{
    type Output = <Rank<R> as Grow>::Output<f32>;
}

impl<Op, T, const R: usize, const N: usize> Signature<Op, (Tensor<T, R>, Pairs<N>), ()> for Pad
where
    T: Element,
    Rank<R>: SupportedRank + PerAxisList,
    <Rank<R> as PerAxisList>::List: ListFits<Dims<N>>,
{
    type Output = Tensor<T, R>;
}

impl<Op, V, const N: usize> Signature<Op, (Dims<N>, V), ()> for Fill
where
    V: ScalarKind,
    V::Kind: KindElement,
    Dims<N>: ShapeOf<N>,
{
    type Output = <Dims<N> as ShapeOf<N>>::Output<<V::Kind as KindElement>::Element>;
}

impl<Op, U: Element, const N: usize> Signature<Op, (Dims<N>,), (U,)> for Filled
where
    Dims<N>: ShapeOf<N>,
{
    type Output = <Dims<N> as ShapeOf<N>>::Output<U>;
}

impl<Op, A, B, C> Signature<Op, (A, B, C), ()> for Sequence
where
    A: ScalarKind,
    B: ScalarKind,
    C: ScalarKind,
    A::Kind: JoinKind<B::Kind>,
    <A::Kind as JoinKind<B::Kind>>::Kind: JoinKind<C::Kind>,
    <<A::Kind as JoinKind<B::Kind>>::Kind as JoinKind<C::Kind>>::Kind: KindElement,
{
    type Output = Tensor<
        <<<A::Kind as JoinKind<B::Kind>>::Kind as JoinKind<C::Kind>>::Kind as KindElement>::Element,
        1,
    >;
}

impl<Op, T, B, C, const R: usize> Signature<Op, (Tensor<T, R>, B, C), ()> for Clip
where
    T: Element,
    Rank<R>: SupportedRank,
    B: ScalarKind,
    C: ScalarKind,
    Known<T>: JoinKind<B::Kind, Kind = Known<T>> + JoinKind<C::Kind, Kind = Known<T>>,
{
    type Output = Tensor<T, R>;
}

impl<Op, T, const R: usize, const FITS: u8> Signature<Op, (Tensor<T, R>,), (Axes<1, FITS>,)>
    for Sort
where
    T: Element + ResultOf<Op>,
    Axes<1, FITS>: AxesFit<R>,
    Rank<R>: SupportedRank,
{
    type Output = Tensor<<T as ResultOf<Op>>::Element, R>;
}

impl<Op, T, const R: usize, const N: usize, const FITS: u8, const KEEP: bool>
    Signature<Op, (Tensor<T, R>,), (Axes<N, FITS>, Flag<KEEP>)> for Moments
where
    T: Element,
    Axes<N, FITS>: AxesFit<R>,
    Rank<R>: ReduceBy<N, KEEP>,
{
    type Output = (
        <Rank<R> as ReduceBy<N, KEEP>>::Output<T>,
        <Rank<R> as ReduceBy<N, KEEP>>::Output<T>,
    );
}

impl<Op, T, U, const R: usize, const RF: usize> Signature<Op, (Tensor<T, R>, Tensor<U, RF>), ()>
    for Conv
where
    T: Element,
    U: Element + SameElement<T>,
    // The ranks each operand takes (`RankOf`) are the image's for both.
    Rank<R>: SupportedRank,
    Rank<RF>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<
        Op,
        T,
        TM,
        TV,
        TO,
        TS,
        const R: usize,
        const M: usize,
        const V: usize,
        const O: usize,
        const S: usize,
    >
    Signature<
        Op,
        (
            Tensor<T, R>,
            Tensor<TM, M>,
            Tensor<TV, V>,
            Tensor<TO, O>,
            Tensor<TS, S>,
        ),
        (),
    > for Normalize
where
    T: Element,
    TM: Element + SameElement<T>,
    TV: Element + SameElement<T>,
    TO: Element + SameElement<T>,
    TS: Element + SameElement<T>,
    Rank<R>: SupportedRank
        + BroadcastWith<M, Output<T> = Tensor<T, R>>
        + BroadcastWith<V, Output<T> = Tensor<T, R>>
        + BroadcastWith<O, Output<T> = Tensor<T, R>>
        + BroadcastWith<S, Output<T> = Tensor<T, R>>,
{
    type Output = Tensor<T, R>;
}

impl<Op, T: Element, const R: usize> Signature<Op, (Tensor<T, R>,), ()> for Pool
where
    Rank<R>: SupportedRank,
{
    type Output = Tensor<T, R>;
}

impl<Op, U: Element> Signature<Op, (Size,), (U,)> for Eye {
    type Output = Tensor<U, 2>;
}

impl<const N: usize, const R: usize> AxesFit<R> for Axes<N, { u8::MAX }> {}

include!(concat!(env!("OUT_DIR"), "/rules.rs"));
