//! Comparisons, logical ops, float checks (`is_nan`) and selection
//! (`where`): the ops with a bool result or condition.

use super::build::{
    broadcasting, calls, compare, elementwise, BINARY_DETAIL, BOOLS, FLOATS, NUMBERS, T,
    UNARY_DETAIL,
};
use crate::model::{DType, Input, Op, Rule, Steps, Work};

/// The rest of an ordering comparison's constraint (`a < b`), after its
/// tensors.
const COMPARE_DETAIL: &str =
    ", broadcasting, or one of them and a literal (Rextio 0.1.5 and later)";

/// The rest of `a == b` / `a != b`: `Tensor.__eq__` gives a scalar `False`
/// (`True`) where the shapes do not broadcast, which no typed result holds,
/// so only a literal, which always broadcasts, is claimed beside a tensor.
const COMPARE_SCALAR_DETAIL: &str =
    " and a number literal (a tensor against a tensor stays on Python: `Tensor.__eq__` gives \
     a scalar where shapes do not broadcast; write tf.equal); Rextio 0.1.5 and later";

/// `equal(a, b)`: a bool tensor.
pub const EQUAL: Op = Op {
    result_type: Some(DType::Bool),
    ..broadcasting(
        "equal",
        None,
        "element-wise `a == b`, broadcasting: a bool tensor",
        c"Equal",
        DType::ALL,
        &[
            calls(
                &["tensorflow.equal", "tensorflow.math.equal"],
                "rxt-tf/equal-cpu",
                38,
                BINARY_DETAIL,
            ),
            compare(
                &["=="],
                "rxt-tf/equal-operator-cpu",
                117,
                COMPARE_SCALAR_DETAIL,
                true,
            ),
        ],
    )
};

/// `not_equal(a, b)`: a bool tensor.
pub const NOT_EQUAL: Op = Op {
    result_type: Some(DType::Bool),
    ..broadcasting(
        "not_equal",
        None,
        "element-wise `a != b`, broadcasting: a bool tensor",
        c"NotEqual",
        DType::ALL,
        &[
            calls(
                &["tensorflow.not_equal", "tensorflow.math.not_equal"],
                "rxt-tf/not-equal-cpu",
                39,
                BINARY_DETAIL,
            ),
            compare(
                &["!="],
                "rxt-tf/not-equal-operator-cpu",
                118,
                COMPARE_SCALAR_DETAIL,
                true,
            ),
        ],
    )
};

/// `less(a, b)`: a bool tensor.
pub const LESS: Op = Op {
    result_type: Some(DType::Bool),
    ..broadcasting(
        "less",
        None,
        "element-wise `a < b`, broadcasting: a bool tensor",
        c"Less",
        NUMBERS,
        &[
            calls(
                &["tensorflow.less", "tensorflow.math.less"],
                "rxt-tf/less-cpu",
                40,
                BINARY_DETAIL,
            ),
            compare(
                &["<"],
                "rxt-tf/less-operator-cpu",
                119,
                COMPARE_DETAIL,
                false,
            ),
        ],
    )
};

/// `less_equal(a, b)`: a bool tensor.
pub const LESS_EQUAL: Op = Op {
    result_type: Some(DType::Bool),
    ..broadcasting(
        "less_equal",
        None,
        "element-wise `a <= b`, broadcasting: a bool tensor",
        c"LessEqual",
        NUMBERS,
        &[
            calls(
                &["tensorflow.less_equal", "tensorflow.math.less_equal"],
                "rxt-tf/less-equal-cpu",
                41,
                BINARY_DETAIL,
            ),
            compare(
                &["<="],
                "rxt-tf/less-equal-operator-cpu",
                120,
                COMPARE_DETAIL,
                false,
            ),
        ],
    )
};

/// `greater(a, b)`: a bool tensor.
pub const GREATER: Op = Op {
    result_type: Some(DType::Bool),
    ..broadcasting(
        "greater",
        None,
        "element-wise `a > b`, broadcasting: a bool tensor",
        c"Greater",
        NUMBERS,
        &[
            calls(
                &["tensorflow.greater", "tensorflow.math.greater"],
                "rxt-tf/greater-cpu",
                42,
                BINARY_DETAIL,
            ),
            compare(
                &[">"],
                "rxt-tf/greater-operator-cpu",
                121,
                COMPARE_DETAIL,
                false,
            ),
        ],
    )
};

/// `greater_equal(a, b)`: a bool tensor.
pub const GREATER_EQUAL: Op = Op {
    result_type: Some(DType::Bool),
    ..broadcasting(
        "greater_equal",
        None,
        "element-wise `a >= b`, broadcasting: a bool tensor",
        c"GreaterEqual",
        NUMBERS,
        &[
            calls(
                &["tensorflow.greater_equal", "tensorflow.math.greater_equal"],
                "rxt-tf/greater-equal-cpu",
                43,
                BINARY_DETAIL,
            ),
            compare(
                &[">="],
                "rxt-tf/greater-equal-operator-cpu",
                122,
                COMPARE_DETAIL,
                false,
            ),
        ],
    )
};

/// `logical_and(a, b)` of bool tensors.
pub const LOGICAL_AND: Op = Op {
    // Bool only: the kernel has no element type attribute.
    attrs: &[],
    ..broadcasting(
        "logical_and",
        None,
        "element-wise `a && b` of bool tensors, broadcasting",
        c"LogicalAnd",
        BOOLS,
        &[calls(
            &["tensorflow.logical_and", "tensorflow.math.logical_and"],
            "rxt-tf/logical-and-cpu",
            44,
            BINARY_DETAIL,
        )],
    )
};

/// `logical_or(a, b)` of bool tensors.
pub const LOGICAL_OR: Op = Op {
    // Bool only: the kernel has no element type attribute.
    attrs: &[],
    ..broadcasting(
        "logical_or",
        None,
        "element-wise `a || b` of bool tensors, broadcasting",
        c"LogicalOr",
        BOOLS,
        &[calls(
            &["tensorflow.logical_or", "tensorflow.math.logical_or"],
            "rxt-tf/logical-or-cpu",
            45,
            BINARY_DETAIL,
        )],
    )
};

/// `logical_not(x)` of a bool tensor.
pub const LOGICAL_NOT: Op = Op {
    // Bool only: the kernel has no element type attribute.
    attrs: &[],
    ..elementwise(
        "logical_not",
        "element-wise `!x` of a bool tensor",
        c"LogicalNot",
        BOOLS,
        &[calls(
            &["tensorflow.logical_not", "tensorflow.math.logical_not"],
            "rxt-tf/logical-not-cpu",
            46,
            UNARY_DETAIL,
        )],
    )
};

/// `is_nan(x)`: a bool tensor.
pub const IS_NAN: Op = Op {
    result_type: Some(DType::Bool),
    ..elementwise(
        "is_nan",
        "whether each element is NaN: a bool tensor",
        c"IsNan",
        FLOATS,
        &[calls(
            &["tensorflow.math.is_nan"],
            "rxt-tf/is-nan-cpu",
            60,
            UNARY_DETAIL,
        )],
    )
};

/// `is_finite(x)`: a bool tensor.
pub const IS_FINITE: Op = Op {
    result_type: Some(DType::Bool),
    ..elementwise(
        "is_finite",
        "whether each element is finite: a bool tensor",
        c"IsFinite",
        FLOATS,
        &[calls(
            &["tensorflow.math.is_finite"],
            "rxt-tf/is-finite-cpu",
            61,
            UNARY_DETAIL,
        )],
    )
};

/// `where(c, a, b)`: `a` where `c` is true, else `b` (`where` is also the
/// op's name in `tf!`, though a Rust keyword).
pub const WHERE: Op = Op {
    name: "where",
    operator: None,
    summary: "`a` where the bool `c` is true, else `b`, all three broadcasting",
    tf_op: c"SelectV2",
    rule: Rule::Select,
    dtypes: DType::ALL,
    keywords: &[],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Operand(1), Input::Operand(2)],
    work: Work::LargerInput,
    steps: Steps::One,
    python: &[calls(
        &["tensorflow.where"],
        "rxt-tf/where-cpu",
        77,
        " (or one of them and a literal), broadcasting; no keywords",
    )],
};
