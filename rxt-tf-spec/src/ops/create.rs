//! Ops that make a new tensor from sizes or values: `fill`, `zeros`,
//! `ones`, `range`, `eye`, `one_hot`, and `zeros_like` / `ones_like`.

use super::build::{calls, elementwise, BINARY_INPUTS, T, UNARY_INPUTS};
use crate::model::{
    Attr, AttrValue, Becomes, DType, Input, Keyword, Op, PythonRule, Rule, Steps, Value, ValueKind,
    Work,
};

/// The rest of `zeros_like`'s and `ones_like`'s constraints.
const LIKE_DETAIL: &str = ", positional; optional `dtype`, a type name (another type than the tensor's is a cast of the result)";

/// `zeros_like(x)`.
pub const ZEROS_LIKE: Op = elementwise(
    "zeros_like",
    "zeros of the same shape and element type",
    c"ZerosLike",
    DType::ALL,
    &[PythonRule {
        matching_dtype: Some("dtype"),
        other_dtype_casts: true,
        ..calls(
            &["tensorflow.zeros_like"],
            "rxt-tf/zeros-like-cpu",
            47,
            LIKE_DETAIL,
        )
    }],
);

/// `ones_like(x)`.
pub const ONES_LIKE: Op = elementwise(
    "ones_like",
    "ones of the same shape and element type",
    c"OnesLike",
    DType::ALL,
    &[PythonRule {
        matching_dtype: Some("dtype"),
        other_dtype_casts: true,
        ..calls(
            &["tensorflow.ones_like"],
            "rxt-tf/ones-like-cpu",
            48,
            LIKE_DETAIL,
        )
    }],
);

/// `one_hot(indices, depth)`: a float32 tensor with `on_value` (1.0) where
/// the new axis equals the index and `off_value` (0.0) elsewhere, as
/// `tf.one_hot`.
pub const ONE_HOT: Op = Op {
    name: "one_hot",
    operator: None,
    summary: "one-hot float32 vectors of the indices along a new axis",
    tf_op: c"OneHot",
    rule: Rule::OneHot,
    dtypes: &[DType::I32, DType::I64],
    keywords: &[
        Keyword {
            name: "on_value",
            kind: ValueKind::Float,
            allowed: &[],
            default: Some(Value::Float(1.0)),
            becomes: Becomes::Input(DType::F32),
            typed: false,
        },
        Keyword {
            name: "off_value",
            kind: ValueKind::Float,
            allowed: &[],
            default: Some(Value::Float(0.0)),
            becomes: Becomes::Input(DType::F32),
            typed: false,
        },
        Keyword {
            name: "axis",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(-1)),
            becomes: Becomes::Attr(c"axis"),
            typed: true,
        },
    ],
    attrs: &[
        Attr {
            name: c"T",
            value: AttrValue::Fixed(Value::Type(DType::F32)),
        },
        Attr {
            name: c"TI",
            value: AttrValue::Indices,
        },
    ],
    batched: None,
    promotion: None,
    result_type: Some(DType::F32),
    positional: &[],
    inputs: &[
        Input::Operand(0),
        Input::Operand(1),
        Input::Keyword("on_value"),
        Input::Keyword("off_value"),
    ],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["on_value", "off_value", "axis"],
        ..calls(
            &["tensorflow.one_hot"],
            "rxt-tf/one-hot-cpu",
            83,
            " and a non-negative int literal depth; axis a literal in -(rank + 1)..=rank \
             (default -1); on_value and off_value omitted",
        )
    }],
};

/// `fill([d0, …], value)`: a new tensor of that shape, every element
/// `value`, as `tf.fill`.
pub const FILL: Op = Op {
    name: "fill",
    operator: None,
    summary: "a new tensor of a shape, every element one value",
    tf_op: c"Fill",
    rule: Rule::Fill,
    dtypes: DType::ALL,
    keywords: &[],
    attrs: &[
        T,
        Attr {
            name: c"index_type",
            value: AttrValue::Fixed(Value::Type(DType::I64)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: BINARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[
        calls(
            &["tensorflow.fill"],
            "rxt-tf/fill-cpu",
            109,
            " (the value: a lone float literal or expression gives `float32`, a lone int \
             literal `int32`, as TensorFlow converts them) after a literal tuple of at most \
             {max_rank} non-negative sizes",
        ),
        PythonRule {
            scalar_shape: true,
            ..calls(
                &["tensorflow.constant"],
                "rxt-tf/constant-cpu",
                125,
                ": `tf.constant(v)` of a lone number (a float literal or expression gives a \
                 `float32` scalar, an int literal an `int32` one, as TensorFlow converts them), \
                 no `dtype` or `shape`; the scalar `fill((), v)` makes",
            )
        },
    ],
};

/// The keywords of `zeros` and `ones`: the element type, and the value.
const fn filled_keywords(value: i64) -> [Keyword; 2] {
    [
        Keyword {
            name: "dtype",
            kind: ValueKind::Type,
            allowed: &[],
            default: Some(Value::Type(DType::F32)),
            becomes: Becomes::Typing,
            typed: true,
        },
        Keyword {
            name: "value",
            kind: ValueKind::Number,
            allowed: match value {
                0 => &[Value::Int(0)],
                _ => &[Value::Int(1)],
            },
            default: Some(Value::Int(value)),
            becomes: Becomes::ElementInput,
            typed: false,
        },
    ]
}

/// `zeros([d0, …], T)`: a new tensor of zeros (float32 unless `T`).
pub const ZEROS: Op = Op {
    name: "zeros",
    summary: "a new tensor of zeros (float32, or `dtype`)",
    rule: Rule::Filled,
    keywords: &filled_keywords(0),
    positional: &["dtype"],
    inputs: &[Input::Operand(0), Input::Keyword("value")],
    python: &[PythonRule {
        positional: &["dtype"],
        macro_only: &["value"],
        ..calls(
            &["tensorflow.zeros"],
            "rxt-tf/zeros-cpu",
            103,
            FILLED_DETAIL,
        )
    }],
    ..FILL
};

/// What `tf.zeros` and `tf.ones` take in typed Python.
const FILLED_DETAIL: &str = "a literal tuple of at most {max_rank} non-negative sizes, and \
     `dtype` omitted ({default:dtype}) or a dtype name string of {dtypes} \
     (`dtype=\"int32\"`)";

/// `ones([d0, …], T)`: a new tensor of ones (float32 unless `T`).
pub const ONES: Op = Op {
    name: "ones",
    summary: "a new tensor of ones (float32, or `dtype`)",
    keywords: &filled_keywords(1),
    python: &[PythonRule {
        positional: &["dtype"],
        macro_only: &["value"],
        ..calls(&["tensorflow.ones"], "rxt-tf/ones-cpu", 104, FILLED_DETAIL)
    }],
    ..ZEROS
};

/// `range(start, limit, delta)`: `start, start + delta, …` below `limit`,
/// as `tf.range`. Not the half types: `tf.range` converts a Python float
/// beside them to float32 and ranges in float32, where a `tf!` literal
/// takes its operands' type (`Range` has half kernels; cast a range).
pub const RANGE: Op = Op {
    name: "range",
    operator: None,
    summary: "the numbers from `start` up to `limit` by `delta` (`tf.range`)",
    tf_op: c"Range",
    rule: Rule::Sequence,
    dtypes: &[DType::F32, DType::F64, DType::I32, DType::I64],
    keywords: &[],
    attrs: &[Attr {
        name: c"Tidx",
        value: AttrValue::Element,
    }],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Operand(1), Input::Operand(2)],
    work: Work::FirstInput,
    steps: Steps::One,
    // Python's `tf.range(limit)`, `(start, limit)` and `(start, limit,
    // delta)` of ints: the plugin fills in `start = 0` and `delta = 1` as
    // TensorFlow's signature does.
    python: &[calls(
        &["tensorflow.range"],
        "rxt-tf/range-cpu",
        124,
        ": one to three ints (`tf.range(n)`, `tf.range(a, b)`, `tf.range(a, b, d)`), \
         literals or int variables, giving `int32` as TensorFlow does; a value beyond \
         `int32`'s range raises `ValueError` natively (TensorFlow gives `int64` there), so keep \
         such ranges on Python",
    )],
};

/// `eye(n, dtype = T)`: the `n × n` identity matrix (float32 unless `T`),
/// as `tf.eye` makes it: ones of length `n` on the diagonal of
/// `MatrixDiagV3` (the runtime runs `ones`, then [`MATRIX_DIAG`]).
pub const EYE: Op = Op {
    name: "eye",
    operator: None,
    summary: "a new identity matrix (float32, or `dtype`)",
    tf_op: c"MatrixDiagV3",
    rule: Rule::Eye,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        name: "dtype",
        kind: ValueKind::Type,
        allowed: &[],
        default: Some(Value::Type(DType::F32)),
        becomes: Becomes::Typing,
        typed: true,
    }],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::Eye,
    python: &[calls(
        &["tensorflow.eye", "tensorflow.linalg.eye"],
        "rxt-tf/eye-cpu",
        108,
        "a non-negative int literal size, and `dtype` omitted ({default:dtype}) or a dtype \
         name string of {dtypes} (`dtype=\"int32\"`)",
    )],
};

/// The ones on the diagonal of [`EYE`], its first step: [`ONES`] under
/// `eye`'s name, so its errors name the op called. Not in [`OPS`](super::OPS).
pub const EYE_DIAGONAL: Op = Op {
    name: "eye",
    ..ONES
};

/// `MatrixDiagV3` of a diagonal, zero elsewhere (`k = 0`, as many rows
/// and columns as the diagonal's length): the second step of [`EYE`]. Not
/// in [`OPS`](super::OPS): nothing but the runtime's `eye` runs it.
pub const MATRIX_DIAG: Op = Op {
    name: "eye",
    operator: None,
    summary: "a matrix with the given diagonal",
    tf_op: c"MatrixDiagV3",
    rule: Rule::SameRank { min_rank: 1 },
    dtypes: DType::ALL,
    keywords: &[
        Keyword {
            name: "k",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(0)),
            becomes: Becomes::Input(DType::I32),
            typed: false,
        },
        Keyword {
            name: "num_rows",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(-1)),
            becomes: Becomes::Input(DType::I32),
            typed: false,
        },
        Keyword {
            name: "num_cols",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(-1)),
            becomes: Becomes::Input(DType::I32),
            typed: false,
        },
        Keyword {
            name: "padding_value",
            kind: ValueKind::Number,
            allowed: &[],
            default: Some(Value::Int(0)),
            becomes: Becomes::ElementInput,
            typed: false,
        },
    ],
    attrs: &[
        T,
        Attr {
            name: c"align",
            value: AttrValue::Fixed(Value::Str("RIGHT_LEFT")),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[
        Input::Operand(0),
        Input::Keyword("k"),
        Input::Keyword("num_rows"),
        Input::Keyword("num_cols"),
        Input::Keyword("padding_value"),
    ],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[],
};
