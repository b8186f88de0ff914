//! Arithmetic: element-wise math of one tensor, broadcasting arithmetic of
//! two, the matrix product, conversions and clipping.

use super::build::{
    binop, broadcasting, calls, elementwise, BINARY_DETAIL, BINARY_INPUTS, FLOATS, NUMBERS,
    OPERATOR_DETAIL, T, UNARY_DETAIL, UNARY_INPUTS,
};
use crate::model::{
    Attr, AttrValue, Batched, Becomes, DType, Input, Keyword, Op, Promotion, PythonRule, Rule,
    Steps, Value, ValueKind, Work,
};

/// `matmul(a, b)`, optionally `transpose_a` / `transpose_b`.
pub const MATMUL: Op = Op {
    name: "matmul",
    operator: None,
    summary: "matrix product",
    tf_op: c"MatMul",
    rule: Rule::MatMul,
    dtypes: NUMBERS,
    keywords: &[
        Keyword {
            name: "transpose_a",
            kind: ValueKind::Bool,
            allowed: &[],
            default: Some(Value::Bool(false)),
            becomes: Becomes::Attr(c"transpose_a"),
            typed: false,
        },
        Keyword {
            name: "transpose_b",
            kind: ValueKind::Bool,
            allowed: &[],
            default: Some(Value::Bool(false)),
            becomes: Becomes::Attr(c"transpose_b"),
            typed: false,
        },
    ],
    attrs: &[T],
    batched: Some(Batched {
        // V2, as `tf.matmul` runs for one element type: V3 (per-operand
        // types) has no `T` attribute, so oneDNN does not take it over and
        // its results differ from eager's in the last bits.
        tf_op: c"BatchMatMulV2",
        attrs: &[T],
        keyword_attrs: &[c"adj_x", c"adj_y"],
    }),
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: BINARY_INPUTS,
    work: Work::MatMul,
    steps: Steps::One,
    python: &[
        calls(
            &["tensorflow.matmul", "tensorflow.linalg.matmul"],
            "rxt-tf/matmul-cpu",
            1,
            ", batch dimensions broadcasting, positional; optional literal transpose_a, transpose_b",
        ),
        binop(
            &["@"],
            "rxt-tf/matmul-binop-cpu",
            28,
            ", batch dimensions broadcasting",
        ),
    ],
};

/// `tensordot(a, b, axes = n)` or `axes = [[…], […]]`: two tensors
/// contracted over axes, as `tf.tensordot` composes it: each operand
/// transposed (contracted axes last for `a`, first for `b`) and reshaped to
/// a matrix where it is not one already, one `MatMul`, the result reshaped
/// to the free axes of `a` then `b`.
pub const TENSORDOT: Op = Op {
    name: "tensordot",
    operator: None,
    summary: "two tensors contracted over axes (`axes = 1`, `axes = [[2], [0]]`)",
    tf_op: c"MatMul",
    rule: Rule::Contract,
    dtypes: NUMBERS,
    keywords: &[Keyword {
        name: "axes",
        kind: ValueKind::Contraction,
        allowed: &[],
        default: None,
        becomes: Becomes::Typing,
        typed: true,
    }],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["axes"],
    inputs: BINARY_INPUTS,
    work: Work::MatMul,
    steps: Steps::Contract,
    python: &[PythonRule {
        positional: &["axes"],
        ..calls(
            &["tensorflow.tensordot", "tensorflow.linalg.tensordot"],
            "rxt-tf/tensordot-cpu",
            110,
            ", and `axes` as a literal count or a pair of ints (one axis of each), positional \
             or keyword, with no more axes left than tensors have",
        )
    }],
};

/// `abs(x)`.
pub const ABS: Op = elementwise(
    "abs",
    "absolute value",
    c"Abs",
    NUMBERS,
    &[calls(
        &["tensorflow.abs", "tensorflow.math.abs"],
        "rxt-tf/abs-cpu",
        8,
        UNARY_DETAIL,
    )],
);

/// `neg(x)`, `-x`.
pub const NEG: Op = Op {
    operator: Some("-"),
    ..elementwise(
        "neg",
        "numerical negative",
        c"Neg",
        NUMBERS,
        &[calls(
            &["tensorflow.negative", "tensorflow.math.negative"],
            "rxt-tf/neg-cpu",
            9,
            UNARY_DETAIL,
        )],
    )
};

/// `square(x)`.
pub const SQUARE: Op = elementwise(
    "square",
    "element-wise square",
    c"Square",
    NUMBERS,
    &[calls(
        &["tensorflow.square", "tensorflow.math.square"],
        "rxt-tf/square-cpu",
        11,
        UNARY_DETAIL,
    )],
);

/// `exp(x)`.
pub const EXP: Op = elementwise(
    "exp",
    "exponential",
    c"Exp",
    FLOATS,
    &[calls(
        &["tensorflow.exp", "tensorflow.math.exp"],
        "rxt-tf/exp-cpu",
        12,
        UNARY_DETAIL,
    )],
);

/// `log(x)`.
pub const LOG: Op = elementwise(
    "log",
    "natural logarithm",
    c"Log",
    FLOATS,
    &[calls(
        &["tensorflow.math.log"],
        "rxt-tf/log-cpu",
        13,
        UNARY_DETAIL,
    )],
);

/// `sqrt(x)`.
pub const SQRT: Op = elementwise(
    "sqrt",
    "square root",
    c"Sqrt",
    FLOATS,
    &[calls(
        &["tensorflow.sqrt", "tensorflow.math.sqrt"],
        "rxt-tf/sqrt-cpu",
        14,
        UNARY_DETAIL,
    )],
);

/// `rsqrt(x)`.
pub const RSQRT: Op = elementwise(
    "rsqrt",
    "reciprocal square root",
    c"Rsqrt",
    FLOATS,
    &[calls(
        &["tensorflow.math.rsqrt"],
        "rxt-tf/rsqrt-cpu",
        15,
        UNARY_DETAIL,
    )],
);

/// `add(a, b)`, `a + b`.
pub const ADD: Op = broadcasting(
    "add",
    Some("+"),
    "element-wise sum, broadcasting",
    c"AddV2",
    NUMBERS,
    &[
        // `tf.add(2, x)` converts the 2 to int32 on its own: eager raises
        // for a tensor of another type.
        PythonRule {
            leading_literal_keeps_its_type: true,
            ..calls(
                &["tensorflow.add", "tensorflow.math.add"],
                "rxt-tf/add-call-cpu",
                3,
                BINARY_DETAIL,
            )
        },
        binop(&["+"], "rxt-tf/add-binop-cpu", 6, OPERATOR_DETAIL),
    ],
);

/// `sub(a, b)`, `a - b`.
pub const SUB: Op = broadcasting(
    "sub",
    Some("-"),
    "element-wise difference, broadcasting",
    c"Sub",
    NUMBERS,
    &[
        calls(
            &["tensorflow.subtract", "tensorflow.math.subtract"],
            "rxt-tf/sub-call-cpu",
            20,
            BINARY_DETAIL,
        ),
        binop(&["-"], "rxt-tf/sub-binop-cpu", 21, OPERATOR_DETAIL),
    ],
);

/// `mul(a, b)`, `a * b`.
pub const MUL: Op = broadcasting(
    "mul",
    Some("*"),
    "element-wise product, broadcasting",
    c"Mul",
    NUMBERS,
    &[
        calls(
            &["tensorflow.multiply", "tensorflow.math.multiply"],
            "rxt-tf/mul-call-cpu",
            22,
            BINARY_DETAIL,
        ),
        binop(&["*"], "rxt-tf/mul-binop-cpu", 23, OPERATOR_DETAIL),
    ],
);

/// `div(a, b)`, `a / b`.
pub const DIV: Op = Op {
    // Integers as `tf.divide` (true division) takes them: cast to float64.
    promotion: Some(Promotion {
        from: &[DType::I32, DType::I64],
        to: DType::F64,
    }),
    ..broadcasting(
        "div",
        Some("/"),
        "element-wise quotient, broadcasting (integers: float64, as `tf.divide`)",
        c"RealDiv",
        NUMBERS,
        &[
            calls(
                &["tensorflow.divide", "tensorflow.math.divide"],
                "rxt-tf/div-call-cpu",
                24,
                BINARY_DETAIL,
            ),
            binop(&["/"], "rxt-tf/div-binop-cpu", 25, OPERATOR_DETAIL),
            // `tf.truediv` converts its first operand on its own, as `tf.add`.
            PythonRule {
                leading_literal_keeps_its_type: true,
                ..calls(
                    &["tensorflow.truediv", "tensorflow.math.truediv"],
                    "rxt-tf/truediv-cpu",
                    105,
                    BINARY_DETAIL,
                )
            },
        ],
    )
};

/// `maximum(a, b)`.
pub const MAXIMUM: Op = broadcasting(
    "maximum",
    None,
    "element-wise maximum, broadcasting",
    c"Maximum",
    NUMBERS,
    &[calls(
        &["tensorflow.maximum", "tensorflow.math.maximum"],
        "rxt-tf/maximum-cpu",
        26,
        BINARY_DETAIL,
    )],
);

/// `minimum(a, b)`.
pub const MINIMUM: Op = broadcasting(
    "minimum",
    None,
    "element-wise minimum, broadcasting",
    c"Minimum",
    NUMBERS,
    &[calls(
        &["tensorflow.minimum", "tensorflow.math.minimum"],
        "rxt-tf/minimum-cpu",
        27,
        BINARY_DETAIL,
    )],
);

/// `identity(x)`.
pub const IDENTITY: Op = elementwise(
    "identity",
    "the same values (a new tensor)",
    c"Identity",
    DType::ALL,
    &[
        calls(
            &["tensorflow.identity"],
            "rxt-tf/identity-cpu",
            49,
            UNARY_DETAIL,
        ),
        // Of a tensor already, `tf.convert_to_tensor` returns it: the same
        // values, as `identity` gives.
        PythonRule {
            matching_dtype: Some("dtype"),
            ..calls(
                &["tensorflow.convert_to_tensor"],
                "rxt-tf/convert-to-tensor-cpu",
                106,
                ", positional; optional `dtype`, the tensor's own type's name (another raises)",
            )
        },
    ],
);

/// `sign(x)`.
pub const SIGN: Op = elementwise(
    "sign",
    "-1, 0 or 1 by sign",
    c"Sign",
    NUMBERS,
    &[calls(
        &["tensorflow.sign", "tensorflow.math.sign"],
        "rxt-tf/sign-cpu",
        50,
        UNARY_DETAIL,
    )],
);

/// `round(x)`.
pub const ROUND: Op = elementwise(
    "round",
    "rounds half to even",
    c"Round",
    // Floats only: the CPU kernel's integer version returns zeros, where
    // `tf.round` returns an integer tensor unchanged without running it.
    FLOATS,
    &[calls(
        &["tensorflow.round", "tensorflow.math.round"],
        "rxt-tf/round-cpu",
        51,
        UNARY_DETAIL,
    )],
);

/// `floor(x)`.
pub const FLOOR: Op = elementwise(
    "floor",
    "rounds down",
    c"Floor",
    FLOATS,
    &[calls(
        &["tensorflow.floor", "tensorflow.math.floor"],
        "rxt-tf/floor-cpu",
        52,
        UNARY_DETAIL,
    )],
);

/// `ceil(x)`.
pub const CEIL: Op = elementwise(
    "ceil",
    "rounds up",
    c"Ceil",
    FLOATS,
    &[calls(
        &["tensorflow.math.ceil"],
        "rxt-tf/ceil-cpu",
        53,
        UNARY_DETAIL,
    )],
);

/// `reciprocal(x)`.
pub const RECIPROCAL: Op = elementwise(
    "reciprocal",
    "1 / x",
    c"Reciprocal",
    FLOATS,
    &[calls(
        &["tensorflow.math.reciprocal"],
        "rxt-tf/reciprocal-cpu",
        54,
        UNARY_DETAIL,
    )],
);

/// `log1p(x)`.
pub const LOG1P: Op = elementwise(
    "log1p",
    "log(1 + x)",
    c"Log1p",
    FLOATS,
    &[calls(
        &["tensorflow.math.log1p"],
        "rxt-tf/log1p-cpu",
        55,
        UNARY_DETAIL,
    )],
);

/// `expm1(x)`.
pub const EXPM1: Op = elementwise(
    "expm1",
    "exp(x) - 1",
    c"Expm1",
    FLOATS,
    &[calls(
        &["tensorflow.math.expm1"],
        "rxt-tf/expm1-cpu",
        56,
        UNARY_DETAIL,
    )],
);

/// `sin(x)`.
pub const SIN: Op = elementwise(
    "sin",
    "sine",
    c"Sin",
    FLOATS,
    &[calls(
        &["tensorflow.sin", "tensorflow.math.sin"],
        "rxt-tf/sin-cpu",
        57,
        UNARY_DETAIL,
    )],
);

/// `cos(x)`.
pub const COS: Op = elementwise(
    "cos",
    "cosine",
    c"Cos",
    FLOATS,
    &[calls(
        &["tensorflow.cos", "tensorflow.math.cos"],
        "rxt-tf/cos-cpu",
        58,
        UNARY_DETAIL,
    )],
);

/// `erf(x)`.
pub const ERF: Op = elementwise(
    "erf",
    "the error function",
    c"Erf",
    FLOATS,
    &[calls(
        &["tensorflow.math.erf"],
        "rxt-tf/erf-cpu",
        59,
        UNARY_DETAIL,
    )],
);

/// `squared_difference(a, b)`.
pub const SQUARED_DIFFERENCE: Op = broadcasting(
    "squared_difference",
    None,
    "(a - b)², broadcasting",
    c"SquaredDifference",
    NUMBERS,
    &[calls(
        &["tensorflow.math.squared_difference"],
        "rxt-tf/squared-difference-cpu",
        62,
        BINARY_DETAIL,
    )],
);

/// `pow(a, b)`.
pub const POW: Op = broadcasting(
    "pow",
    None,
    "a to the power b, broadcasting",
    c"Pow",
    NUMBERS,
    &[calls(
        &["tensorflow.pow", "tensorflow.math.pow"],
        "rxt-tf/pow-cpu",
        63,
        BINARY_DETAIL,
    )],
);

/// `floordiv(a, b)`.
pub const FLOORDIV: Op = broadcasting(
    "floordiv",
    None,
    "quotient rounded down, broadcasting",
    c"FloorDiv",
    NUMBERS,
    &[calls(
        &["tensorflow.math.floordiv"],
        "rxt-tf/floordiv-cpu",
        64,
        BINARY_DETAIL,
    )],
);

/// `floormod(a, b)`.
pub const FLOORMOD: Op = broadcasting(
    "floormod",
    None,
    "remainder of the quotient rounded down, broadcasting",
    c"FloorMod",
    NUMBERS,
    &[
        calls(
            &["tensorflow.math.floormod", "tensorflow.math.mod"],
            "rxt-tf/floormod-cpu",
            65,
            BINARY_DETAIL,
        ),
        // `Tensor.__mod__` is `floor_mod`, converting a number to the
        // tensor's element type as the other operators do.
        binop(&["%"], "rxt-tf/floormod-binop-cpu", 126, OPERATOR_DETAIL),
    ],
);

/// `cast(x, T)`: `x` converted to the element type `T` (`f32`, `i32`, …),
/// as `tf.cast`: floats to integers truncate toward zero, numbers to bool
/// are "not zero". Also what a [`Promotion`](crate::model::Promotion) runs on each operand.
pub const CAST: Op = Op {
    name: "cast",
    operator: None,
    summary: "converts the element type (`tf.cast`)",
    tf_op: c"Cast",
    rule: Rule::Convert,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        name: "dtype",
        kind: ValueKind::Type,
        // Any element type of rxt-tf.
        allowed: &[],
        default: None,
        becomes: Becomes::Attr(c"DstT"),
        typed: true,
    }],
    attrs: &[Attr {
        name: c"SrcT",
        value: AttrValue::Element,
    }],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["dtype"],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["dtype"],
        ..calls(
            &["tensorflow.cast", "tensorflow.dtypes.cast"],
            "rxt-tf/cast-cpu",
            70,
            " and the element type as a dtype name string keyword (`dtype=\"float32\"`; Rextio \
             reads no positional string)",
        )
    }],
};

/// `stop_gradient(x)`: `x` itself (nothing records gradients here).
pub const STOP_GRADIENT: Op = elementwise(
    "stop_gradient",
    "`x` itself, marked as a constant for gradients",
    c"StopGradient",
    DType::ALL,
    &[calls(
        &["tensorflow.stop_gradient"],
        "rxt-tf/stop-gradient-cpu",
        74,
        UNARY_DETAIL,
    )],
);

/// `clip_by_value(x, lo, hi)`: `x` with each element brought into
/// `lo..=hi` (scalar bounds), as `tf.clip_by_value` runs it: `Minimum`
/// with `hi`, then `Maximum` with `lo` (the runtime runs the two rows).
pub const CLIP_BY_VALUE: Op = Op {
    name: "clip_by_value",
    operator: None,
    summary: "each element brought between two scalar bounds (`Minimum`, then `Maximum`)",
    tf_op: c"Maximum",
    rule: Rule::Clip,
    dtypes: NUMBERS,
    keywords: &[],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Operand(1), Input::Operand(2)],
    work: Work::FirstInput,
    steps: Steps::Clip,
    python: &[calls(
        &["tensorflow.clip_by_value"],
        "rxt-tf/clip-by-value-cpu",
        84,
        " (the bounds: literals or CPU tensors), positional",
    )],
};

/// `erfc(x)`: the complementary error function.
pub const ERFC: Op = elementwise(
    "erfc",
    "the complementary error function",
    c"Erfc",
    FLOATS,
    &[calls(
        &["tensorflow.math.erfc"],
        "rxt-tf/erfc-cpu",
        96,
        UNARY_DETAIL,
    )],
);
