//! How the Rextio plugin claims an op in typed Python: rule records and
//! their diagnostic codes.

use super::keyword::Value;

/// The kind of Python site a rule claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// A call such as `tf.matmul(a, b)`.
    Call,
    /// A binary operator such as `a + b`.
    Binop,
    /// A comparison such as `a > b` (Rextio plugin API 1.5 and later).
    Compare,
}

impl SiteKind {
    /// Rextio's name for the kind.
    pub const fn as_str(self) -> &'static str {
        match self {
            SiteKind::Call => "call",
            SiteKind::Binop => "binop",
            SiteKind::Compare => "compare",
        }
    }
}

/// How the Rextio plugin claims an op in typed Python: one rule record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PythonRule {
    /// The site kind.
    pub kind: SiteKind,
    /// Dotted call targets, canonical first (aliases after), or the operator.
    pub targets: &'static [&'static str],
    /// The rule record id.
    pub rule_id: &'static str,
    /// The number of its diagnostic code (`RXTP-RXTTF-<number>`).
    pub code: u16,
    /// What the rule requires beyond its operands' element types and
    /// ranks, in words, appended to the operands the row gives (see
    /// [`Op::constraint`](crate::model::Op::constraint)): keywords, literals,
    /// layouts. It states no type or rank (a test holds it to that);
    /// `{max_rank}`, `{dtypes}` (the row's element types) and
    /// `{default:<keyword>}` are filled in from the row.
    pub detail: &'static str,
    /// Keywords Python may also pass positionally after the operands, in
    /// order (`tf.reduce_sum(x, 0, True)`).
    pub positional: &'static [&'static str],
    /// Keywords only Python passes, accepted with one of their values and
    /// dropped when lowering (`data_format='NHWC'`).
    pub python_only: &'static [PythonKeyword],
    /// Keywords of the row that only `tf!` takes: Python's function has no
    /// such parameter (`value` of `zeros`), so a site passing one stays on
    /// Python, where TensorFlow raises.
    pub macro_only: &'static [&'static str],
    /// Whether a literal first operand keeps Python's type for it (int32
    /// for an int, float32 for a float) instead of taking the tensor's:
    /// `tf.add(2, x)` raises for a float32 `x`, where `2 + x` does not.
    pub leading_literal_keeps_its_type: bool,
    /// Keywords Python names otherwise than the row, `(python, row)`:
    /// `tf.nn.convolution`'s `strides` is `conv1d`'s `stride`.
    pub renamed: &'static [(&'static str, &'static str)],
    /// A keyword Python may pass naming the element type the call has
    /// anyway (`tf.convert_to_tensor(x, dtype="float32")` of a float32
    /// `x`): accepted only with that type's name, and dropped.
    pub matching_dtype: Option<&'static str>,
    /// Whether [`matching_dtype`](Self::matching_dtype) may also name
    /// another element type, lowered as a cast of the result:
    /// `tf.zeros_like(x, dtype="float32")` of an int32 `x` is
    /// `cast(zeros_like(x), F32)`, the same zeros TensorFlow makes.
    pub other_dtype_casts: bool,
    /// Whether one of the two operands must be a number literal: `a == b`
    /// of two tensors gives a scalar where their shapes do not broadcast,
    /// which no typed result holds, while a literal always broadcasts.
    pub needs_literal: bool,
    /// Whether the Python form leaves out the row's first operand, a shape,
    /// making a scalar: `tf.constant(2.0)` is `fill((), 2.0)`, the same
    /// float32 scalar.
    pub scalar_shape: bool,
    /// Whether leaving out `axis` reduces every axis, as TensorFlow's
    /// `axis=None` does (`tf.reduce_sum(x)` is `Sum` over `0..rank`, the
    /// axes TensorFlow writes itself for a tensor of known rank).
    pub omitted_axis_is_every_axis: bool,
}

/// A keyword only the Python form takes: accepted with one of `values`,
/// dropped when lowering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PythonKeyword {
    /// The keyword.
    pub name: &'static str,
    /// The accepted literal values.
    pub values: &'static [Value],
}

impl PythonRule {
    /// The diagnostic code, e.g. `RXTP-RXTTF-001`.
    pub fn diagnostic_code(&self) -> String {
        diagnostic_code(self.code)
    }
}

/// The diagnostic code of rule number `number`.
pub fn diagnostic_code(number: u16) -> String {
    format!("RXTP-RXTTF-{number:03}")
}
