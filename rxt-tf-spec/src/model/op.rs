//! One op row, and the texts derived from it.

use core::ffi::CStr;

use super::dtype::DType;
use super::kernel::{Attr, Batched, Input, Promotion, Work};
use super::keyword::Keyword;
use super::python::PythonRule;
use super::rule::{Role, Rule, MAX_LIST};
use super::wording::join_or;

/// One op of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Op {
    /// Its name in `tf!`.
    pub name: &'static str,
    /// The binary operator `tf!` also accepts for it (`+` for `add`).
    pub operator: Option<&'static str>,
    /// One line saying what it computes.
    pub summary: &'static str,
    /// The TensorFlow op it executes.
    pub tf_op: &'static CStr,
    /// How it types operands and result.
    pub rule: Rule,
    /// The element types it takes (those TensorFlow's CPU kernels register).
    pub dtypes: &'static [DType],
    /// Its keywords, in the order `tf!` documents them.
    pub keywords: &'static [Keyword],
    /// Attributes it always sets.
    pub attrs: &'static [Attr],
    /// The kernel it runs above rank 2, if another.
    pub batched: Option<Batched>,
    /// Operand element types cast to another before it runs, if any.
    pub promotion: Option<Promotion>,
    /// The element type of its results whatever its operands' (`bool` for
    /// comparisons); `None`: the kernel's.
    pub result_type: Option<DType>,
    /// Keywords `tf!` also takes by position, after the operands, in this
    /// order (`cast(x, f32)`).
    pub positional: &'static [&'static str],
    /// The TensorFlow op's inputs, in order.
    pub inputs: &'static [Input],
    /// How its work grows with its inputs.
    pub work: Work,
    /// How the runtime runs it: its TensorFlow op, or several.
    pub steps: Steps,
    /// The Python forms the plugin lowers to it.
    pub python: &'static [PythonRule],
}

impl Op {
    /// The element type its kernel runs on for operands of `operand`: the
    /// promoted one where the op promotes it.
    #[inline]
    pub fn kernel_element(&self, operand: DType) -> DType {
        match self.promotion {
            Some(promotion) if promotion.from.contains(&operand) => promotion.to,
            _ => operand,
        }
    }

    /// The element type of its result for operands of `operand`.
    #[inline]
    pub fn result_element(&self, operand: DType) -> DType {
        self.result_type
            .unwrap_or_else(|| self.kernel_element(operand))
    }

    /// Its name in messages: its name in `tf!`, which picks the rows
    /// `einsum_one` and `einsum_three` for `einsum` by operand count.
    pub fn called(&self) -> &'static str {
        match self.rule {
            Rule::Einsum { .. } => crate::ops::EINSUM.name,
            _ => self.name,
        }
    }

    /// The number of operands.
    #[inline]
    pub fn arity(&self) -> usize {
        self.rule.arity()
    }

    /// The name of the op's marker type in the runtime's typed dispatch
    /// (`MatmulOp`, `ReduceMeanOp`): unique, so compile errors print it
    /// without a path.
    pub fn marker_name(&self) -> String {
        let camel: String = self
            .name
            .split('_')
            .map(|part| {
                let mut chars = part.chars();
                chars
                    .next()
                    .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                    .unwrap_or_default()
            })
            .collect();
        format!("{camel}Op")
    }

    /// Names for the operands in documentation: `x`, or `a`, `b`, ….
    pub fn operand_names(&self) -> Vec<String> {
        match self.arity() {
            1 => vec!["x".to_owned()],
            arity => ["a", "b", "c", "d", "e"]
                .iter()
                .take(arity)
                .map(|name| (*name).to_owned())
                .collect(),
        }
    }

    /// The keyword named `name`.
    pub fn keyword(&self, name: &str) -> Option<&'static Keyword> {
        self.keywords.iter().find(|k| k.name == name)
    }

    /// The typed keywords, in order.
    pub fn typed_keywords(&self) -> impl Iterator<Item = &'static Keyword> {
        self.keywords.iter().filter(|k| k.typed)
    }

    /// The accepted operands, for messages: `float32, int32 or int64 at
    /// ranks 0–4`.
    pub fn operands_text(&self) -> String {
        let types: Vec<String> = self.dtypes.iter().map(|d| d.name().to_owned()).collect();
        let positions: Vec<String> = (0..self.arity())
            .filter(|position| !matches!(self.rule.role(*position), Role::Dims | Role::Pairs))
            .map(|position| {
                let ranks = match self.rule.ranks(position) {
                    (low, high) if low == high => format!("rank {low}"),
                    (low, high) => format!("ranks {low}–{high}"),
                };
                match self.rule.role(position) {
                    Role::Indices => format!("int32 or int64 indices of {ranks}"),
                    _ => ranks,
                }
            })
            .collect();
        let mut ranks = positions.clone();
        ranks.dedup();
        let condition = match (0..self.arity()).any(|p| self.rule.role(p) == Role::Condition) {
            true => "a bool condition, then ",
            false => "",
        };
        let tensors = match (0..self.arity()).any(|p| self.rule.role(p) == Role::Tensors) {
            true => format!("a list of 2–{MAX_LIST} tensors of "),
            false => String::new(),
        };
        let list = match (0..self.arity())
            .any(|p| matches!(self.rule.role(p), Role::Dims | Role::Pairs))
        {
            true => ", and a list of integers",
            false => "",
        };
        format!(
            "{condition}{tensors}{} at {}{list}",
            join_or(&types),
            ranks.join(" × ")
        )
    }
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
