//! Reductions over axes (`reduce_*`, `moments`), index reductions
//! (`argmax`), running sums and orderings along an axis (`sort`, `top_k`).

use core::ffi::CStr;

use super::build::{calls, BOOLS, FLOATS, NUMBERS, T, TIDX_I32, UNARY_INPUTS};
use crate::model::{
    Attr, AttrValue, Becomes, DType, Input, Keyword, Op, PythonKeyword, PythonRule, Rule, SiteKind,
    Steps, Value, ValueKind, Work,
};

/// The `axis` of a reduction: an axis or a list of them, a constant int32
/// input; typed, since the result's rank depends on how many there are.
pub(super) const AXES: Keyword = Keyword {
    name: "axis",
    kind: ValueKind::Axes,
    allowed: &[],
    default: None,
    becomes: Becomes::Input(DType::I32),
    typed: true,
};

/// The `axis` of `argmax`: one axis, a constant int32 input.
pub(super) const ONE_AXIS: Keyword = Keyword {
    name: "axis",
    kind: ValueKind::Int,
    allowed: &[],
    default: None,
    becomes: Becomes::Input(DType::I32),
    typed: true,
};

/// A reduction over `axis`; `keepdims = true` keeps the reduced axes.
const fn reduction(
    name: &'static str,
    summary: &'static str,
    tf_op: &'static CStr,
    python: &'static [PythonRule],
) -> Op {
    Op {
        name,
        operator: None,
        summary,
        tf_op,
        rule: Rule::Reduce,
        dtypes: NUMBERS,
        keywords: &[
            AXES,
            Keyword {
                name: "keepdims",
                kind: ValueKind::Bool,
                allowed: &[Value::Bool(false), Value::Bool(true)],
                default: Some(Value::Bool(false)),
                becomes: Becomes::Attr(c"keep_dims"),
                typed: true,
            },
        ],
        attrs: &[T, TIDX_I32],
        batched: None,
        promotion: None,
        result_type: None,
        positional: &[],
        inputs: &[Input::Operand(0), Input::Keyword("axis")],
        work: Work::FirstInput,
        steps: Steps::One,
        python,
    }
}

/// The rest of a reduction's constraint, after its tensor.
const REDUCTION_DETAIL: &str = ", a literal axis or tuple of distinct axes in range (keyword or \
                                positional; left out, every axis of a tensor that has one, \
                                as TensorFlow reduces them), an optional literal keepdims keyword";

/// The Rextio rule of a reduction: `axis` and `keepdims` also positional.
const fn reduction_calls(
    targets: &'static [&'static str],
    rule_id: &'static str,
    code: u16,
) -> PythonRule {
    PythonRule {
        kind: SiteKind::Call,
        targets,
        rule_id,
        code,
        detail: REDUCTION_DETAIL,
        positional: &["axis", "keepdims"],
        python_only: &[],
        macro_only: &[],
        leading_literal_keeps_its_type: false,
        renamed: &[],
        matching_dtype: None,
        other_dtype_casts: false,
        needs_literal: false,
        scalar_shape: false,
        omitted_axis_is_every_axis: true,
    }
}

/// `reduce_prod(x, axis = A)`.
pub const REDUCE_PROD: Op = reduction(
    "reduce_prod",
    "product over an axis",
    c"Prod",
    &[reduction_calls(
        &["tensorflow.reduce_prod", "tensorflow.math.reduce_prod"],
        "rxt-tf/reduce-prod-cpu",
        66,
    )],
);

/// `reduce_any(x, axis = A)` of a bool tensor.
pub const REDUCE_ANY: Op = Op {
    dtypes: BOOLS,
    // Bool only: the kernel has no element type attribute.
    attrs: &[TIDX_I32],
    ..reduction(
        "reduce_any",
        "logical or over an axis",
        c"Any",
        &[reduction_calls(
            &["tensorflow.reduce_any", "tensorflow.math.reduce_any"],
            "rxt-tf/reduce-any-cpu",
            67,
        )],
    )
};

/// `reduce_all(x, axis = A)` of a bool tensor.
pub const REDUCE_ALL: Op = Op {
    dtypes: BOOLS,
    // Bool only: the kernel has no element type attribute.
    attrs: &[TIDX_I32],
    ..reduction(
        "reduce_all",
        "logical and over an axis",
        c"All",
        &[reduction_calls(
            &["tensorflow.reduce_all", "tensorflow.math.reduce_all"],
            "rxt-tf/reduce-all-cpu",
            68,
        )],
    )
};

/// `argmin(x, axis = A)`; `axis` left out is 0, as for `argmax`.
pub const ARGMIN: Op = Op {
    name: "argmin",
    summary: "index of the smallest value along an axis (int64, or `output_type`)",
    tf_op: c"ArgMin",
    python: &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.argmin", "tensorflow.math.argmin"],
            "rxt-tf/argmin-cpu",
            69,
            ", a literal axis in range (keyword or positional, {default:axis} when left out); output_type omitted ({default:output_type}) or a dtype name",
        )
    }],
    ..ARGMAX
};

/// `reduce_mean(x, axis = A)`.
pub const REDUCE_MEAN: Op = reduction(
    "reduce_mean",
    "mean over an axis",
    c"Mean",
    &[reduction_calls(
        &["tensorflow.reduce_mean", "tensorflow.math.reduce_mean"],
        "rxt-tf/reduce-mean-cpu",
        4,
    )],
);

/// `reduce_sum(x, axis = A)`.
pub const REDUCE_SUM: Op = reduction(
    "reduce_sum",
    "sum over an axis",
    c"Sum",
    &[reduction_calls(
        &["tensorflow.reduce_sum", "tensorflow.math.reduce_sum"],
        "rxt-tf/reduce-sum-cpu",
        31,
    )],
);

/// `reduce_max(x, axis = A)`.
pub const REDUCE_MAX: Op = reduction(
    "reduce_max",
    "maximum over an axis",
    c"Max",
    &[reduction_calls(
        &["tensorflow.reduce_max", "tensorflow.math.reduce_max"],
        "rxt-tf/reduce-max-cpu",
        32,
    )],
);

/// `reduce_min(x, axis = A)`.
pub const REDUCE_MIN: Op = reduction(
    "reduce_min",
    "minimum over an axis",
    c"Min",
    &[reduction_calls(
        &["tensorflow.reduce_min", "tensorflow.math.reduce_min"],
        "rxt-tf/reduce-min-cpu",
        33,
    )],
);

/// `argmax(x, axis = A)`; `axis` left out is 0, as `tf.math.argmax`'s
/// `axis=None` is.
pub const ARGMAX: Op = Op {
    name: "argmax",
    operator: None,
    summary: "index of the largest value along an axis (int64, or `output_type`)",
    tf_op: c"ArgMax",
    rule: Rule::ArgReduce,
    dtypes: DType::ALL,
    keywords: &[
        Keyword {
            default: Some(Value::Int(0)),
            ..ONE_AXIS
        },
        Keyword {
            name: "output_type",
            kind: ValueKind::Type,
            allowed: &[Value::Type(DType::I32), Value::Type(DType::I64)],
            default: Some(Value::Type(DType::I64)),
            becomes: Becomes::Attr(c"output_type"),
            typed: true,
        },
    ],
    attrs: &[T, TIDX_I32],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio offers no site with `output_type=tf.int64` (not a literal), so
    // the Python form omits it.
    python: &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.argmax", "tensorflow.math.argmax"],
            "rxt-tf/argmax-cpu",
            36,
            ", a literal axis in range (keyword or positional, {default:axis} when left out); output_type omitted ({default:output_type})",
        )
    }],
};

/// `cumsum(x, axis = k)`: running sums along `k` (default 0), `exclusive`
/// and `reverse` as `tf.cumsum`.
pub const CUMSUM: Op = Op {
    name: "cumsum",
    operator: None,
    summary: "running sums along an axis (`exclusive`, `reverse` as `tf.cumsum`)",
    tf_op: c"Cumsum",
    rule: Rule::AlongAxis,
    dtypes: NUMBERS,
    keywords: &[
        Keyword {
            default: Some(Value::Int(0)),
            ..ONE_AXIS
        },
        Keyword {
            name: "exclusive",
            kind: ValueKind::Bool,
            allowed: &[],
            default: Some(Value::Bool(false)),
            becomes: Becomes::Attr(c"exclusive"),
            typed: false,
        },
        Keyword {
            name: "reverse",
            kind: ValueKind::Bool,
            allowed: &[],
            default: Some(Value::Bool(false)),
            becomes: Becomes::Attr(c"reverse"),
            typed: false,
        },
    ],
    attrs: &[T, TIDX_I32],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["axis", "exclusive", "reverse"],
        ..calls(
            &["tensorflow.cumsum", "tensorflow.math.cumsum"],
            "rxt-tf/cumsum-cpu",
            75,
            ", a literal axis in range (default 0) and literal exclusive and reverse flags, keyword or positional",
        )
    }],
};

/// `top_k(x, k = n)`: the `n` largest entries along the last axis and their
/// int32 indices, as `tf.math.top_k`.
pub const TOP_K: Op = Op {
    name: "top_k",
    operator: None,
    summary: "the `k` largest entries along the last axis and their int32 indices",
    tf_op: c"TopKV2",
    rule: Rule::TopK,
    dtypes: NUMBERS,
    keywords: &[
        Keyword {
            name: "k",
            kind: ValueKind::Count,
            allowed: &[],
            default: None,
            becomes: Becomes::Input(DType::I32),
            typed: false,
        },
        Keyword {
            name: "sorted",
            kind: ValueKind::Bool,
            allowed: &[],
            default: Some(Value::Bool(true)),
            becomes: Becomes::Attr(c"sorted"),
            typed: false,
        },
    ],
    attrs: &[
        T,
        Attr {
            name: c"index_type",
            value: AttrValue::Fixed(Value::Type(DType::I32)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Keyword("k")],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio has no type for a pair of results: `tf.math.top_k` stays on
    // Python.
    python: &[],
};

/// The keywords of `sort` and `argsort`: the axis, and the direction.
const SORT_KEYWORDS: [Keyword; 2] = [
    Keyword {
        name: "axis",
        kind: ValueKind::Int,
        allowed: &[],
        default: Some(Value::Int(-1)),
        becomes: Becomes::LastAxis,
        typed: true,
    },
    Keyword {
        name: "direction",
        kind: ValueKind::Str,
        allowed: &[Value::Str("ASCENDING"), Value::Str("DESCENDING")],
        default: Some(Value::Str("ASCENDING")),
        becomes: Becomes::Typing,
        typed: false,
    },
];

/// `sort(x, axis = k, direction = "ASCENDING" | "DESCENDING")`: `x` sorted
/// along `k`, as `tf.sort` runs it (the runtime runs `TopKV2` over the
/// whole axis, with the negations and transposes `tf.sort` adds).
pub const SORT: Op = Op {
    name: "sort",
    operator: None,
    summary: "the entries sorted along an axis (`TopKV2` over the axis, as `tf.sort`)",
    tf_op: c"TopKV2",
    rule: Rule::Sort,
    dtypes: NUMBERS,
    keywords: &SORT_KEYWORDS,
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::Sort,
    python: &[PythonRule {
        positional: &["axis", "direction"],
        ..calls(
            &["tensorflow.sort"],
            "rxt-tf/sort-cpu",
            85,
            ", a literal axis in range (default -1) and direction 'ASCENDING' or 'DESCENDING'",
        )
    }],
};

/// `argsort(x, axis = k, direction = …)`: the int32 indices that sort `x`
/// along `k`, as `tf.argsort`.
pub const ARGSORT: Op = Op {
    name: "argsort",
    summary: "the int32 indices that sort along an axis (as `tf.argsort`)",
    result_type: Some(DType::I32),
    python: &[PythonRule {
        positional: &["axis", "direction"],
        python_only: &[PythonKeyword {
            name: "stable",
            values: &[Value::Bool(false), Value::Bool(true)],
        }],
        ..calls(
            &["tensorflow.argsort"],
            "rxt-tf/argsort-cpu",
            86,
            ", a literal axis in range (default -1), direction 'ASCENDING' or 'DESCENDING' and an optional stable flag",
        )
    }],
    ..SORT
};

/// `moments(x, axes = [k, …], keepdims = b)`: the mean and the variance
/// over the axes, as `tf.nn.moments` computes them.
pub const MOMENTS: Op = Op {
    name: "moments",
    operator: None,
    summary: "(mean, variance) over axes, as `tf.nn.moments` computes them",
    tf_op: c"Mean",
    rule: Rule::Moments,
    dtypes: FLOATS,
    keywords: &[
        Keyword {
            name: "axes",
            becomes: Becomes::Typing,
            ..AXES
        },
        Keyword {
            name: "keepdims",
            kind: ValueKind::Bool,
            allowed: &[Value::Bool(false), Value::Bool(true)],
            default: Some(Value::Bool(false)),
            becomes: Becomes::Typing,
            typed: true,
        },
    ],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::Moments,
    // Rextio has no type for a pair of results: `tf.nn.moments` stays on
    // Python.
    python: &[],
};

/// `reduce_variance(x, axis = A)`, as `tf.math.reduce_variance`.
pub const REDUCE_VARIANCE: Op = Op {
    dtypes: FLOATS,
    steps: Steps::Variance,
    ..reduction(
        "reduce_variance",
        "variance over an axis",
        c"Mean",
        &[reduction_calls(
            &["tensorflow.math.reduce_variance"],
            "rxt-tf/reduce-variance-cpu",
            87,
        )],
    )
};

/// `reduce_std(x, axis = A)`, as `tf.math.reduce_std`.
pub const REDUCE_STD: Op = Op {
    dtypes: FLOATS,
    steps: Steps::Std,
    ..reduction(
        "reduce_std",
        "standard deviation over an axis",
        c"Sqrt",
        &[reduction_calls(
            &["tensorflow.math.reduce_std"],
            "rxt-tf/reduce-std-cpu",
            88,
        )],
    )
};

/// `reduce_logsumexp(x, axis = A)`, as `tf.math.reduce_logsumexp` (the
/// maximum taken out first).
pub const REDUCE_LOGSUMEXP: Op = Op {
    dtypes: FLOATS,
    steps: Steps::LogSumExp,
    ..reduction(
        "reduce_logsumexp",
        "log of the sum of exponentials over an axis",
        c"Log",
        &[reduction_calls(
            &[
                "tensorflow.reduce_logsumexp",
                "tensorflow.math.reduce_logsumexp",
            ],
            "rxt-tf/reduce-logsumexp-cpu",
            89,
        )],
    )
};
