//! The ops: one line each, from the table's rows.

use pyo3::prelude::*;
use rxt_tf::__private::{op, DType, FloatLiteral, IntLiteral, OpRow};
use rxt_tf::ops::{self, Dims, Pairs, Scalar, Size, TensorList};
use rxt_tf::{bf16, f16, Element, Tensor};

use crate::cases::{Case, Host, Input, Keywords, Operand};
use crate::common::to_python;
use crate::dispatch::{array, list_to_python, native, native_list, native_pair, Leftover, Native};

/// How an op's cases are drawn, run and written in Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// One tensor, no keywords.
    Unary,
    /// One float tensor and `alpha`.
    LeakyRelu,
    /// One float tensor and `approximate` (`gelu`).
    Gelu,
    /// Two operands broadcasting: tensors, or a tensor and a scalar or a
    /// literal on either side.
    Binary,
    /// `Binary` on bool tensors only: no literals.
    Logical,
    MatMul,
    BiasAdd,
    /// Axes (one or several) and `keepdims`.
    Reduce,
    /// Axes (one or several) and `keepdims`: the mean and the variance
    /// (`moments`).
    Moments,
    /// Axes (one or several) and `epsilon` (`l2_normalize`).
    L2Normalize,
    /// One axis and an index type.
    ArgReduce,
    /// One axis.
    AlongAxis,
    /// One axis, `exclusive` and `reverse`.
    Cumsum,
    /// Axes (one or several).
    Reverse,
    Transpose,
    Cast,
    ExpandDims,
    Squeeze,
    Shape,
    /// `where`: a bool condition and two values, all broadcasting (two
    /// tensors, or a tensor and a scalar or a literal on either side).
    Select,
    /// A tensor and a run-time list of sizes (`reshape`).
    Reshape,
    /// A tensor and run-time sizes it broadcasts to (`broadcast_to`).
    BroadcastTo,
    /// A tensor and one run-time integer per axis (`tile`).
    PerAxis,
    /// Params, indices, an axis and `batch_dims` (`gather`).
    Gather,
    /// A table and ids (`embedding_lookup`).
    Lookup,
    /// A tensor, a begin and sizes per axis (`slice`).
    Window,
    /// A list of tensors and an axis (`concat`).
    Join,
    /// A list of tensors and a new axis (`stack`).
    Stack,
    /// Begins, ends, strides and the five masks (`strided_slice`).
    Index,
    /// A count of equal parts and an axis: a list of tensors (`split`).
    Split,
    /// A count and an axis: a list of tensors (`unstack`).
    Unstack,
    /// A run-time list of sizes and an axis: a list of tensors
    /// (`split_v`).
    SplitSizes,
    /// `k` and `sorted`: values and indices (`top_k`).
    TopK,
    /// One axis and a direction (`sort`, `argsort`).
    Sort,
    /// Indices, a depth, `on_value`, `off_value` and an axis (`one_hot`).
    OneHot,
    /// A tensor, paddings and a constant (`pad`).
    Pad,
    /// A tensor, paddings and a mode (`mirror_pad`).
    MirrorPad,
    /// A run-time shape and a value (`fill`).
    Fill,
    /// A run-time shape and an element type (`zeros`, `ones`).
    Filled,
    /// A run-time size and an element type (`eye`).
    Eye,
    /// Start, limit and delta: scalars, rank-0 tensors or literals
    /// (`range`).
    Range,
    /// A tensor and two scalar bounds: run-time scalars, rank-0 tensors or
    /// literals (`clip_by_value`).
    Clip,
    /// An NHWC image, `[h, w, in, out]` filters, strides, padding and
    /// dilations (`conv2d`).
    Conv2d,
    /// An NHWC image, `[h, w, in, multiplier]` filters, strides and padding
    /// (`depthwise_conv2d`).
    DepthwiseConv2d,
    /// An NWC sequence, `[w, in, out]` filters, a stride, padding and a
    /// dilation (`conv1d`).
    Conv1d,
    /// An NHWC image, window sizes, strides and padding (`max_pool2d`,
    /// `avg_pool2d`).
    Pool2d,
    /// An NWC sequence, a window size, a stride and padding (`max_pool1d`,
    /// `avg_pool1d`).
    Pool1d,
    /// An NDHWC volume, `[d, h, w, in, out]` filters, strides and padding
    /// (`conv3d`).
    Conv3d,
    /// An NDHWC volume, window sizes, strides and padding (`max_pool3d`,
    /// `avg_pool3d`).
    Pool3d,
    /// A tensor, four statistics broadcasting into it and
    /// `variance_epsilon` (`batch_normalization`).
    BatchNorm,
    /// An equation and two tensors whose shapes fit its subscripts
    /// (`einsum`).
    Einsum,
    /// An NHWC image and four statistics of its channels (now and then of
    /// another length), `epsilon` (`fused_batch_norm`).
    FusedBatchNorm,
    /// A tensor of rank 2 or more and the diagonals kept below and above
    /// the main one (now and then more than it has) (`band_part`).
    BandPart,
    /// Two tensors and a count of axes to contract whose sizes match, now
    /// and then not (`tensordot`).
    Contract,
    /// An equation and one tensor (`einsum_one`).
    EinsumOne,
    /// An equation and three tensors, contracted pairwise
    /// (`einsum_three`).
    EinsumThree,
}

/// One op of the table, as the fuzzer draws it.
pub(crate) struct Op {
    pub(crate) name: &'static str,
    /// The element types of its row.
    pub(crate) dtypes: &'static [DType],
    /// The ranks its rule takes for its (first) operand.
    pub(crate) ranks: (u8, u8),
    pub(crate) family: Family,
    /// The eager function (`tf.math.maximum`), or the operator (`+`) of an
    /// op that has one: a literal beside a tensor takes the tensor's type
    /// in `2 + x`, as in `tf!`, where `tf.math.add(2, x)` converts the `2`
    /// on its own (int32) and raises for a tensor of another type.
    pub(crate) python: &'static str,
    /// The element types its dispatch below is written for.
    pub(crate) listed: &'static [DType],
    /// Runs a case through the op's plain function.
    pub(crate) run: Runner,
}

impl std::fmt::Debug for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Runs a case through its op's plain function: the result, read into
/// Python, and the case's tensors as Python objects. One function per op
/// (each a large match over types and ranks: kept apart, their stack frames
/// stay small in debug builds).
pub(crate) type Runner = for<'py> fn(Python<'py>, &Case) -> Native<'py>;

/// The element types of a dispatch list, as `DType`s.
macro_rules! dtypes {
    ([$($ty:ty),*]) => {
        [$(<$ty as Element>::DTYPE),*]
    };
}

/// The table: one line per op, `Marker: Family "eager function" => plain
/// function [element types]`. Expands to [`OPS`].
macro_rules! fuzz_table {
    ($($marker:ident: $family:ident $python:literal => $f:ident $types:tt;)+) => {
        /// Every op fuzzed, with its row's element types and ranks.
        pub(crate) const OPS: &[Op] = &[$(Op {
            name: <op::$marker as OpRow>::ROW.name,
            dtypes: <op::$marker as OpRow>::ROW.dtypes,
            ranks: <op::$marker as OpRow>::ROW.rule.ranks(0),
            family: Family::$family,
            python: $python,
            listed: &dtypes!($types),
            run: |py, case| run_family!($family, py, case, $f, $types),
        }),+];
    };
}

// The ops fuzzed: one line each (element types as the op table's rows).
fuzz_table! {
    MatmulOp: MatMul "tf.linalg.matmul" => matmul [f32, f64, bf16, f16, i32, i64];
    ReluOp: Unary "tf.nn.relu" => relu [f32, f64, bf16, f16, i32, i64];
    SigmoidOp: Unary "tf.math.sigmoid" => sigmoid [f32, f64, bf16, f16];
    TanhOp: Unary "tf.math.tanh" => tanh [f32, f64, bf16, f16];
    AbsOp: Unary "tf.math.abs" => abs [f32, f64, bf16, f16, i32, i64];
    NegOp: Unary "tf.math.negative" => neg [f32, f64, bf16, f16, i32, i64];
    SquareOp: Unary "tf.math.square" => square [f32, f64, bf16, f16, i32, i64];
    ExpOp: Unary "tf.math.exp" => exp [f32, f64, bf16, f16];
    LogOp: Unary "tf.math.log" => log [f32, f64, bf16, f16];
    SqrtOp: Unary "tf.math.sqrt" => sqrt [f32, f64, bf16, f16];
    RsqrtOp: Unary "tf.math.rsqrt" => rsqrt [f32, f64, bf16, f16];
    Relu6Op: Unary "tf.nn.relu6" => relu6 [f32, f64, bf16, f16, i32, i64];
    EluOp: Unary "tf.nn.elu" => elu [f32, f64, bf16, f16];
    SoftplusOp: Unary "tf.math.softplus" => softplus [f32, f64, bf16, f16];
    LeakyReluOp: LeakyRelu "tf.nn.leaky_relu" => leaky_relu [f32, f64, bf16, f16];
    AddOp: Binary "+" => add [f32, f64, bf16, f16, i32, i64];
    SubOp: Binary "-" => sub [f32, f64, bf16, f16, i32, i64];
    MulOp: Binary "*" => mul [f32, f64, bf16, f16, i32, i64];
    DivOp: Binary "/" => div [f32, f64, bf16, f16, i32, i64];
    MaximumOp: Binary "tf.math.maximum" => maximum [f32, f64, bf16, f16, i32, i64];
    MinimumOp: Binary "tf.math.minimum" => minimum [f32, f64, bf16, f16, i32, i64];
    BiasAddOp: BiasAdd "tf.nn.bias_add" => bias_add [f32, f64, bf16, f16, i32, i64];
    TransposeOp: Transpose "tf.transpose" => transpose [f32, f64, bf16, f16, i32, i64, bool];
    ReduceMeanOp: Reduce "tf.math.reduce_mean" => reduce_mean [f32, f64, bf16, f16, i32, i64];
    ReduceSumOp: Reduce "tf.math.reduce_sum" => reduce_sum [f32, f64, bf16, f16, i32, i64];
    ReduceMaxOp: Reduce "tf.math.reduce_max" => reduce_max [f32, f64, bf16, f16, i32, i64];
    ReduceMinOp: Reduce "tf.math.reduce_min" => reduce_min [f32, f64, bf16, f16, i32, i64];
    SoftmaxOp: AlongAxis "tf.nn.softmax" => softmax [f32, f64, bf16, f16];
    LogSoftmaxOp: AlongAxis "tf.nn.log_softmax" => log_softmax [f32, f64, bf16, f16];
    ArgmaxOp: ArgReduce "tf.math.argmax" => argmax [f32, f64, bf16, f16, i32, i64, bool];
    EqualOp: Binary "tf.math.equal" => equal [f32, f64, bf16, f16, i32, i64, bool];
    NotEqualOp: Binary "tf.math.not_equal" => not_equal [f32, f64, bf16, f16, i32, i64, bool];
    LessOp: Binary "tf.math.less" => less [f32, f64, bf16, f16, i32, i64];
    LessEqualOp: Binary "tf.math.less_equal" => less_equal [f32, f64, bf16, f16, i32, i64];
    GreaterOp: Binary "tf.math.greater" => greater [f32, f64, bf16, f16, i32, i64];
    GreaterEqualOp: Binary "tf.math.greater_equal" => greater_equal [f32, f64, bf16, f16, i32, i64];
    LogicalAndOp: Logical "tf.math.logical_and" => logical_and [bool];
    LogicalOrOp: Logical "tf.math.logical_or" => logical_or [bool];
    LogicalNotOp: Unary "tf.math.logical_not" => logical_not [bool];
    ZerosLikeOp: Unary "tf.zeros_like" => zeros_like [f32, f64, bf16, f16, i32, i64, bool];
    OnesLikeOp: Unary "tf.ones_like" => ones_like [f32, f64, bf16, f16, i32, i64, bool];
    IdentityOp: Unary "tf.identity" => identity [f32, f64, bf16, f16, i32, i64, bool];
    SignOp: Unary "tf.math.sign" => sign [f32, f64, bf16, f16, i32, i64];
    RoundOp: Unary "tf.math.round" => round [f32, f64, bf16, f16];
    FloorOp: Unary "tf.math.floor" => floor [f32, f64, bf16, f16];
    CeilOp: Unary "tf.math.ceil" => ceil [f32, f64, bf16, f16];
    ReciprocalOp: Unary "tf.math.reciprocal" => reciprocal [f32, f64, bf16, f16];
    Log1pOp: Unary "tf.math.log1p" => log1p [f32, f64, bf16, f16];
    Expm1Op: Unary "tf.math.expm1" => expm1 [f32, f64, bf16, f16];
    SinOp: Unary "tf.math.sin" => sin [f32, f64, bf16, f16];
    CosOp: Unary "tf.math.cos" => cos [f32, f64, bf16, f16];
    ErfOp: Unary "tf.math.erf" => erf [f32, f64, bf16, f16];
    IsNanOp: Unary "tf.math.is_nan" => is_nan [f32, f64, bf16, f16];
    IsFiniteOp: Unary "tf.math.is_finite" => is_finite [f32, f64, bf16, f16];
    SquaredDifferenceOp: Binary "tf.math.squared_difference"
        => squared_difference [f32, f64, bf16, f16, i32, i64];
    PowOp: Binary "tf.math.pow" => pow [f32, f64, bf16, f16, i32, i64];
    FloordivOp: Binary "tf.math.floordiv" => floordiv [f32, f64, bf16, f16, i32, i64];
    FloormodOp: Binary "tf.math.floormod" => floormod [f32, f64, bf16, f16, i32, i64];
    ReduceProdOp: Reduce "tf.math.reduce_prod" => reduce_prod [f32, f64, bf16, f16, i32, i64];
    ReduceAnyOp: Reduce "tf.math.reduce_any" => reduce_any [bool];
    ReduceAllOp: Reduce "tf.math.reduce_all" => reduce_all [bool];
    ArgminOp: ArgReduce "tf.math.argmin" => argmin [f32, f64, bf16, f16, i32, i64, bool];
    CastOp: Cast "tf.cast" => cast [f32, f64, bf16, f16, i32, i64, bool];
    ExpandDimsOp: ExpandDims "tf.expand_dims" => expand_dims [f32, f64, bf16, f16, i32, i64, bool];
    ShapeOp: Shape "tf.shape" => shape [f32, f64, bf16, f16, i32, i64, bool];
    SqueezeOp: Squeeze "tf.squeeze" => squeeze [f32, f64, bf16, f16, i32, i64, bool];
    StopGradientOp: Unary "tf.stop_gradient" => stop_gradient [f32, f64, bf16, f16, i32, i64, bool];
    CumsumOp: Cumsum "tf.math.cumsum" => cumsum [f32, f64, bf16, f16, i32, i64];
    ReverseOp: Reverse "tf.reverse" => reverse [f32, f64, bf16, f16, i32, i64, bool];
    WhereOp: Select "tf.where" => r#where [f32, f64, bf16, f16, i32, i64, bool];
    ReshapeOp: Reshape "tf.reshape" => reshape [f32, f64, bf16, f16, i32, i64, bool];
    BroadcastToOp: BroadcastTo "tf.broadcast_to" => broadcast_to [f32, f64, bf16, f16, i32, i64, bool];
    TileOp: PerAxis "tf.tile" => tile [f32, f64, bf16, f16, i32, i64, bool];
    GatherOp: Gather "tf.gather" => gather [f32, f64, bf16, f16, i32, i64, bool];
    EmbeddingLookupOp: Lookup "tf.nn.embedding_lookup"
        => embedding_lookup [f32, f64, bf16, f16, i32, i64, bool];
    SliceOp: Window "tf.slice" => slice [f32, f64, bf16, f16, i32, i64, bool];
    ConcatOp: Join "tf.concat" => concat [f32, f64, bf16, f16, i32, i64, bool];
    StackOp: Stack "tf.stack" => stack [f32, f64, bf16, f16, i32, i64, bool];
    StridedSliceOp: Index "tf.strided_slice" => strided_slice [f32, f64, bf16, f16, i32, i64, bool];
    SplitOp: Split "tf.split" => split [f32, f64, bf16, f16, i32, i64, bool];
    UnstackOp: Unstack "tf.unstack" => unstack [f32, f64, bf16, f16, i32, i64, bool];
    TopKOp: TopK "tf.math.top_k" => top_k [f32, f64, bf16, f16, i32, i64];
    OneHotOp: OneHot "tf.one_hot" => one_hot [i32, i64];
    PadOp: Pad "tf.pad" => pad [f32, f64, bf16, f16, i32, i64, bool];
    MirrorPadOp: MirrorPad "tf.pad" => mirror_pad [f32, f64, bf16, f16, i32, i64, bool];
    FillOp: Fill "tf.fill" => fill [f32, f64, bf16, f16, i32, i64, bool];
    ZerosOp: Filled "tf.zeros" => zeros [f32, f64, bf16, f16, i32, i64, bool];
    OnesOp: Filled "tf.ones" => ones [f32, f64, bf16, f16, i32, i64, bool];
    RangeOp: Range "tf.range" => range [f32, f64, i32, i64];
    SplitVOp: SplitSizes "tf.split" => split_v [f32, f64, bf16, f16, i32, i64, bool];
    ClipByValueOp: Clip "tf.clip_by_value" => clip_by_value [f32, f64, bf16, f16, i32, i64];
    SortOp: Sort "tf.sort" => sort [f32, f64, bf16, f16, i32, i64];
    ArgsortOp: Sort "tf.argsort" => argsort [f32, f64, bf16, f16, i32, i64];
    EyeOp: Eye "tf.eye" => eye [f32, f64, bf16, f16, i32, i64, bool];
    SeluOp: Unary "tf.nn.selu" => selu [f32, f64, bf16, f16];
    SoftsignOp: Unary "tf.nn.softsign" => softsign [f32, f64, bf16, f16];
    ErfcOp: Unary "tf.math.erfc" => erfc [f32, f64, bf16, f16];
    GeluOp: Gelu "tf.nn.gelu" => gelu [f32, f64, bf16, f16];
    SiluOp: Unary "tf.nn.silu" => silu [f32, f64, bf16, f16];
    SwishOp: Unary "tf.nn.swish" => swish [f32, f64, bf16, f16];
    HardSigmoidOp: Unary "tf.keras.activations.hard_sigmoid" => hard_sigmoid [f32, f64, bf16, f16];
    MomentsOp: Moments "tf.nn.moments" => moments [f32, f64, bf16, f16];
    ReduceVarianceOp: Reduce "tf.math.reduce_variance" => reduce_variance [f32, f64, bf16, f16];
    ReduceStdOp: Reduce "tf.math.reduce_std" => reduce_std [f32, f64, bf16, f16];
    ReduceLogsumexpOp: Reduce "tf.math.reduce_logsumexp" => reduce_logsumexp [f32, f64, bf16, f16];
    L2NormalizeOp: L2Normalize "tf.math.l2_normalize" => l2_normalize [f32, f64, bf16, f16];
    BatchNormalizationOp: BatchNorm "tf.nn.batch_normalization"
        => batch_normalization [f32, f64, bf16, f16];
    Conv2dOp: Conv2d "tf.nn.conv2d" => conv2d [f32, f64, bf16, f16];
    DepthwiseConv2dOp: DepthwiseConv2d "tf.nn.depthwise_conv2d" => depthwise_conv2d [f32, f64, bf16, f16];
    Conv1dOp: Conv1d "tf.nn.conv1d" => conv1d [f32, f64, bf16, f16];
    MaxPool2dOp: Pool2d "tf.nn.max_pool2d" => max_pool2d [f32, f64, bf16, f16];
    AvgPool2dOp: Pool2d "tf.nn.avg_pool2d" => avg_pool2d [f32, f64, bf16, f16];
    MaxPool1dOp: Pool1d "tf.nn.max_pool1d" => max_pool1d [f32, f64, bf16, f16];
    AvgPool1dOp: Pool1d "tf.nn.avg_pool1d" => avg_pool1d [f32, f64, bf16, f16];
    Conv3dOp: Conv3d "tf.nn.conv3d" => conv3d [f32, f64, bf16, f16];
    MaxPool3dOp: Pool3d "tf.nn.max_pool3d" => max_pool3d [f32, bf16];
    AvgPool3dOp: Pool3d "tf.nn.avg_pool3d" => avg_pool3d [f32, bf16];
    EinsumOp: Einsum "tf.einsum" => einsum [f32, f64, bf16, f16];
    TensordotOp: Contract "tf.tensordot" => tensordot [f32, f64, bf16, f16, i32, i64];
    BandPartOp: BandPart "tf.linalg.band_part" => band_part [f32, f64, bf16, f16, i32, i64, bool];
    FusedBatchNormOp: FusedBatchNorm "tf.compat.v1.nn.fused_batch_norm"
        => fused_batch_norm [f32];
    EinsumOneOp: EinsumOne "tf.einsum" => einsum_one [f32, f64, bf16, f16];
    EinsumThreeOp: EinsumThree "tf.einsum" => einsum_three [f32, f64, bf16, f16];
}
