//! How TensorFlow runs an op: attributes, inputs, the batched kernel,
//! promotions, work estimates and multi-op steps.

use core::ffi::CStr;

use super::dtype::DType;
use super::keyword::Value;
use super::op::Op;

/// The value of an attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AttrValue {
    /// This value.
    Fixed(Value),
    /// The element type of the call's operands.
    Element,
    /// The element type of the call's indices operand.
    Indices,
    /// The number of entries of the call's list operand, tensors or
    /// integers (an `int`).
    ListLength,
}

/// Operands of some element types are cast to another before the op runs,
/// as TensorFlow's Python layer does: `tf.divide` of integers is a true
/// division in float64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Promotion {
    /// The element types cast.
    pub from: &'static [DType],
    /// What they become: the kernel's element type, and the result's.
    pub to: DType,
}

/// The kernel an op runs when one of its operands has a rank above 2
/// (`BatchMatMulV2` for `matmul`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Batched {
    /// The TensorFlow op.
    pub tf_op: &'static CStr,
    /// Its attributes, in place of the op's own.
    pub attrs: &'static [Attr],
    /// The attributes the keywords become instead (`transpose_a` is
    /// `adj_x`), in the op's keyword order.
    pub keyword_attrs: &'static [&'static CStr],
}

/// One input of the TensorFlow op, in the op's input order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// The `tf!` operand at this position.
    Operand(usize),
    /// The constant made from this keyword's value (see
    /// [`Becomes::Input`](crate::model::Becomes::Input)).
    Keyword(&'static str),
    /// These operands, as one list input (`Einsum`'s `inputs`).
    Operands(&'static [usize]),
}

/// An attribute the op always gets, set before any input is added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attr {
    /// The attribute's name.
    pub name: &'static CStr,
    /// Its value.
    pub value: AttrValue,
}

/// How an op's work is estimated from its inputs, to decide whether the GIL
/// is released while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A matrix product: elements of the left operand × columns of the right.
    MatMul,
    /// One pass over the first input's elements (element-wise ops, reductions).
    FirstInput,
    /// One pass over the larger input's elements (broadcasting binary ops).
    LargerInput,
}

/// How the runtime runs an op: its own TensorFlow op, or several composed
/// as TensorFlow's Python layer composes them (the same kernels in the same
/// order, so results are bitwise eager's). A composed op's `tf_op` names
/// its main kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Steps {
    /// The row's TensorFlow op.
    One,
    /// `tf.clip_by_value`: `Minimum` with the upper bound, then `Maximum`.
    Clip,
    /// `tf.sort` and `tf.argsort`: `TopKV2` over the whole axis, moved last
    /// and back, on the negated values when ascending.
    Sort,
    /// `tf.eye`: ones, then `MatrixDiagV3`.
    Eye,
    /// `tf.nn.gelu`: `0.5 * x * erfc(-x * √½)`, or with `approximate` the
    /// `tanh` form.
    Gelu,
    /// `tf.nn.silu`: `x * sigmoid(1 * x)`.
    Silu,
    /// Keras's `hard_sigmoid`: `relu6(x + 3) / 6`.
    HardSigmoid,
    /// `tf.nn.moments`: the mean (kept dims), the mean of the squared
    /// difference from it, both squeezed unless `keepdims`.
    Moments,
    /// `tf.math.reduce_variance`: the mean of the squared deviations.
    Variance,
    /// `tf.math.reduce_std`: the square root of the variance.
    Std,
    /// `tf.math.reduce_logsumexp`: the finite maximum taken out, the log of
    /// the sum of exponentials, the maximum added back.
    LogSumExp,
    /// `tf.math.l2_normalize`: `x * rsqrt(max(sum(x²), epsilon))`.
    L2Normalize,
    /// `tf.nn.batch_normalization`: `inv = rsqrt(variance + epsilon) *
    /// scale`, `x * inv + (offset - mean * inv)`.
    BatchNormalization,
    /// `tf.einsum`: for one or two operands one `Einsum` on the resolved
    /// equation, for three an `Einsum` per pair in the order `tf.einsum`
    /// takes ([`crate::einsum::order`]); after the runtime checks the ranks
    /// the equation gives.
    Einsum,
    /// A 1-D op run as this 2-D row on its input widened to height 1, the
    /// result narrowed back, as `tf.nn.conv1d` and `tf.nn.max_pool1d` do:
    /// `ExpandDims`, the 2-D op (each size `s` as `[1, s]`), `Squeeze`.
    Widened(&'static Op),
    /// `tf.tensordot`: each operand transposed and reshaped to a matrix
    /// where it is not one already, `MatMul`, the result reshaped to the
    /// free axes, as `tf.tensordot` does for shapes it knows.
    Contract,
    /// `FusedBatchNormV3` for inference: its six outputs, the first kept.
    FusedBatchNorm,
}

impl Steps {
    /// The TensorFlow ops it runs, for tables (`None`: the row's own op).
    pub fn ops(self) -> Option<String> {
        let text = match self {
            Steps::One => return None,
            Steps::Widened(op) => {
                return Some(format!(
                    "`ExpandDims`, `{}`, `Squeeze`",
                    op.tf_op.to_string_lossy()
                ))
            }
            Steps::Clip => Some("`Minimum`, `Maximum`"),
            Steps::Sort => Some("`TopKV2` (with `Neg`, `Sub` and `Transpose`, as `tf.sort`)"),
            Steps::Eye => Some("`Fill`, `MatrixDiagV3`"),
            Steps::Gelu => Some("`Mul`, `Neg`, `Erfc` (approximate: `Pow`, `AddV2`, `Tanh`)"),
            Steps::Silu => Some("`Mul`, `Sigmoid`"),
            Steps::HardSigmoid => Some("`AddV2`, `Relu6`, `RealDiv`"),
            Steps::Moments => Some("`Mean`, `SquaredDifference` (`Squeeze`; float16 through `Cast` to float32 and back)"),
            Steps::Variance => Some("`Mean`, `Sub`, `Square`"),
            Steps::Std => Some("`Mean`, `Sub`, `Square`, `Sqrt`"),
            Steps::LogSumExp => {
                Some("`Max`, `IsFinite`, `SelectV2`, `Sub`, `Exp`, `Sum`, `Log`, `AddV2`")
            }
            Steps::L2Normalize => Some("`Square`, `Sum`, `Maximum`, `Rsqrt`, `Mul`"),
            Steps::BatchNormalization => Some("`AddV2`, `Rsqrt`, `Mul`, `Sub`"),
            Steps::Einsum => Some("`Einsum`"),
            Steps::Contract => Some("`Transpose`, `Reshape`, `MatMul`, `Reshape`"),
            Steps::FusedBatchNorm => Some("`FusedBatchNormV3` (its first output)"),
        };
        text.map(str::to_owned)
    }
}
