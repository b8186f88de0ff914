// The op table: one row per op `tf!` accepts. The runtime reads what to
// execute (`tf_op`, `type_attrs`, `work`); `rxt-tf-macros` includes this file
// for names, operand counts, keywords, helpers and rank texts; a test of the
// Rextio plugin checks its own table against it. Plain data with no imports
// beyond `core`, so both crates can `include!` it.

/// A keyword an op accepts.
#[derive(Debug, PartialEq, Eq)]
pub enum Keyword {
    /// Required; must be this integer literal.
    RequiredInt(&'static str, &'static str),
    /// Optional; must be this boolean literal.
    OptionalBool(&'static str, bool),
}

impl Keyword {
    /// The keyword's name.
    pub fn name(&self) -> &'static str {
        match self {
            Keyword::RequiredInt(name, _) | Keyword::OptionalBool(name, _) => name,
        }
    }
}

/// How an op's work is estimated from its inputs (to decide whether the GIL
/// is released while it runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A matrix product: elements of the left operand × columns of the right.
    MatMul,
    /// One pass over the first input's elements (element-wise ops, reductions).
    FirstInput,
    /// One pass over the larger input's elements (broadcasting binary ops).
    LargerInput,
}

/// `TF_FLOAT`, as a type attribute value.
pub const DT_FLOAT: i32 = 1;
/// `TF_INT32`, as a type attribute value.
pub const DT_INT32: i32 = 3;

/// One op of the table.
#[derive(Debug)]
pub struct OpSpec {
    /// The op's name in `tf!` (the seed's canonical name).
    pub name: &'static str,
    /// The TensorFlow op it executes.
    pub tf_op: &'static core::ffi::CStr,
    /// Number of positional tensor operands.
    pub operands: usize,
    /// Keywords it accepts.
    pub keywords: &'static [Keyword],
    /// The helper in `macro_support` that `tf!` expands to.
    pub helper: &'static str,
    /// Ranks it accepts, for messages.
    pub ranks: &'static str,
    /// Type attributes (`TF_DataType` codes), set before any input is added.
    pub type_attrs: &'static [(&'static core::ffi::CStr, i32)],
    /// How its work grows with its inputs.
    pub work: Work,
}

/// `matmul(a, b)`: rank-2 × rank-2 → rank-2.
pub const MATMUL: OpSpec = OpSpec {
    name: "matmul",
    tf_op: c"MatMul",
    operands: 2,
    keywords: &[],
    helper: "matmul",
    ranks: "rank-2 × rank-2",
    type_attrs: &[(c"T", DT_FLOAT)],
    work: Work::MatMul,
};
/// `relu(x)`: rank-2 → rank-2.
pub const RELU: OpSpec = OpSpec {
    name: "relu",
    tf_op: c"Relu",
    operands: 1,
    keywords: &[],
    helper: "relu",
    ranks: "rank-2",
    type_attrs: &[(c"T", DT_FLOAT)],
    work: Work::FirstInput,
};
/// `sigmoid(x)`: rank-2 → rank-2.
pub const SIGMOID: OpSpec = OpSpec {
    name: "sigmoid",
    tf_op: c"Sigmoid",
    operands: 1,
    keywords: &[],
    helper: "sigmoid",
    ranks: "rank-2",
    type_attrs: &[(c"T", DT_FLOAT)],
    work: Work::FirstInput,
};
/// `add(a, b)` / `a + b`: 2D + 2D, 1D + 1D, 2D + 1D, 1D + 2D.
pub const ADD: OpSpec = OpSpec {
    name: "add",
    tf_op: c"AddV2",
    operands: 2,
    keywords: &[],
    helper: "add",
    ranks: "2D + 2D, 1D + 1D, 2D + 1D or 1D + 2D",
    type_attrs: &[(c"T", DT_FLOAT)],
    work: Work::LargerInput,
};
/// `reduce_mean(x, axis = 1)`: rank-2 → rank-1, keepdims false.
pub const REDUCE_MEAN: OpSpec = OpSpec {
    name: "reduce_mean",
    tf_op: c"Mean",
    operands: 1,
    keywords: &[
        Keyword::RequiredInt("axis", "1"),
        Keyword::OptionalBool("keepdims", false),
    ],
    helper: "reduce_mean_axis1",
    ranks: "rank-2",
    type_attrs: &[(c"T", DT_FLOAT), (c"Tidx", DT_INT32)],
    work: Work::FirstInput,
};

/// Every op, in the order messages list them.
pub const OPS: &[&OpSpec] = &[&MATMUL, &RELU, &SIGMOID, &ADD, &REDUCE_MEAN];
