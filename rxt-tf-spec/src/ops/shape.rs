//! Ops that move elements without computing on them: transposes,
//! reshapes, squeezes, joins and splits, tiling, reversal and padding.

use super::build::{calls, BINARY_INPUTS, T, TIDX_I32, UNARY_INPUTS};
use super::reduce::{AXES, ONE_AXIS};
use crate::model::{
    Attr, AttrValue, Becomes, DType, Input, Keyword, Op, PythonRule, Rule, Steps, Value, ValueKind,
    Work,
};

/// `transpose(x)`.
pub const TRANSPOSE: Op = Op {
    name: "transpose",
    operator: None,
    summary: "permutes the axes (reverses them by default)",
    tf_op: c"Transpose",
    rule: Rule::Permute,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        name: "perm",
        kind: ValueKind::Ints,
        allowed: &[],
        // The empty list stands for the axes reversed, as `tf.transpose`
        // does without `perm`.
        default: Some(Value::Ints(&[])),
        becomes: Becomes::Input(DType::I32),
        typed: true,
    }],
    attrs: &[
        T,
        Attr {
            name: c"Tperm",
            value: AttrValue::Fixed(Value::Type(DType::I32)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Keyword("perm")],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[calls(
        &["tensorflow.transpose"],
        "rxt-tf/transpose-cpu",
        30,
        "; perm omitted (axes reversed) or a literal tuple permuting its axes",
    )],
};

/// `squeeze(x, axis = A)`: `x` without the axes of size 1 that `A` names.
pub const SQUEEZE: Op = Op {
    name: "squeeze",
    operator: None,
    summary: "removes axes of size 1 (each named: the result's rank must not depend on data)",
    tf_op: c"Squeeze",
    rule: Rule::Squeeze,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        becomes: Becomes::Attr(c"squeeze_dims"),
        ..AXES
    }],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.squeeze"],
            "rxt-tf/squeeze-cpu",
            73,
            " and a literal axis or tuple of distinct axes in range (keyword or positional); without axis the result's rank would depend on data",
        )
    }],
};

/// `shape(x)`: the sizes of `x`'s axes, int32 (or `out_type = i64`).
pub const SHAPE: Op = Op {
    name: "shape",
    operator: None,
    summary: "the sizes of the axes (int32, or `out_type`)",
    tf_op: c"Shape",
    rule: Rule::Shape,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        name: "out_type",
        kind: ValueKind::Type,
        allowed: &[Value::Type(DType::I32), Value::Type(DType::I64)],
        default: Some(Value::Type(DType::I32)),
        becomes: Becomes::Attr(c"out_type"),
        typed: true,
    }],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[calls(
        &["tensorflow.shape"],
        "rxt-tf/shape-cpu",
        72,
        "; out_type omitted ({default:out_type}) or a dtype name",
    )],
};

/// `expand_dims(x, axis = k)`: a new axis of size 1 at `k`.
pub const EXPAND_DIMS: Op = Op {
    name: "expand_dims",
    operator: None,
    summary: "inserts an axis of size 1",
    tf_op: c"ExpandDims",
    rule: Rule::ExpandDims,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        name: "axis",
        kind: ValueKind::Int,
        allowed: &[],
        default: None,
        becomes: Becomes::Input(DType::I32),
        typed: true,
    }],
    attrs: &[
        T,
        Attr {
            name: c"Tdim",
            value: AttrValue::Fixed(Value::Type(DType::I32)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.expand_dims"],
            "rxt-tf/expand-dims-cpu",
            71,
            " and a literal axis in -(rank + 1)..=rank (keyword or positional)",
        )
    }],
};

/// `reverse(x, axis = A)`: `x` with the axes `A` reversed.
pub const REVERSE: Op = Op {
    name: "reverse",
    operator: None,
    summary: "reverses the order along the named axes",
    tf_op: c"ReverseV2",
    rule: Rule::AlongAxis,
    dtypes: DType::ALL,
    keywords: &[AXES],
    attrs: &[T, TIDX_I32],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.reverse"],
            "rxt-tf/reverse-cpu",
            76,
            " and a literal axis or tuple of distinct axes in range (keyword or positional)",
        )
    }],
};

/// `reshape(x, [d0, …])`: `x`'s elements in a new shape, sizes known at
/// run time (one may be `-1`, the rest inferred).
pub const RESHAPE: Op = Op {
    name: "reshape",
    operator: None,
    summary: "the same elements in a new shape (one size may be −1)",
    tf_op: c"Reshape",
    rule: Rule::Reshape,
    dtypes: DType::ALL,
    keywords: &[],
    attrs: &[
        T,
        Attr {
            name: c"Tshape",
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
    python: &[calls(
        &["tensorflow.reshape"],
        "rxt-tf/reshape-cpu",
        78,
        " and a literal tuple of at most {max_rank} integer sizes (one may be -1)",
    )],
};

/// `broadcast_to(x, [d0, …])`: `x` repeated along the axes where it has
/// size 1 (or lacks, leading) to the given sizes, as `tf.broadcast_to`.
pub const BROADCAST_TO: Op = Op {
    name: "broadcast_to",
    summary: "`x` broadcast to a shape of run-time sizes",
    tf_op: c"BroadcastTo",
    attrs: &[
        T,
        Attr {
            name: c"Tidx",
            value: AttrValue::Fixed(Value::Type(DType::I64)),
        },
    ],
    python: &[calls(
        &["tensorflow.broadcast_to"],
        "rxt-tf/broadcast-to-cpu",
        107,
        " and a literal tuple of at most {max_rank} sizes, as many as the tensor's rank or \
         more, each the tensor's size on the axis it aligns with (trailing) or any where that \
         size is 1",
    )],
    ..RESHAPE
};

/// `tile(x, [m0, …])`: `x` repeated `m` times along each axis.
pub const TILE: Op = Op {
    name: "tile",
    operator: None,
    summary: "repeats the tensor along each axis (one multiple per axis)",
    tf_op: c"Tile",
    rule: Rule::PerAxis,
    dtypes: DType::ALL,
    keywords: &[],
    attrs: &[
        T,
        Attr {
            name: c"Tmultiples",
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
    python: &[calls(
        &["tensorflow.tile"],
        "rxt-tf/tile-cpu",
        79,
        " and a literal tuple of one non-negative multiple per axis",
    )],
};

/// `concat([a, b, …], axis = k)`: the tensors joined along `k`.
pub const CONCAT: Op = Op {
    name: "concat",
    operator: None,
    summary: "joins 2–8 tensors of one element type and rank along an axis",
    tf_op: c"ConcatV2",
    rule: Rule::Join,
    dtypes: DType::ALL,
    keywords: &[ONE_AXIS],
    attrs: &[
        T,
        Attr {
            name: c"N",
            value: AttrValue::ListLength,
        },
        TIDX_I32,
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["axis"],
    inputs: &[Input::Operand(0), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio offers no list operand: `tf.concat([a, b], 0)` stays on Python.
    python: &[],
};

/// `stack([a, b, …], axis = k)`: the tensors stacked along a new axis `k`.
pub const STACK: Op = Op {
    name: "stack",
    operator: None,
    summary: "stacks 2–8 tensors of one element type and rank along a new axis",
    tf_op: c"Pack",
    rule: Rule::Stack,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        default: Some(Value::Int(0)),
        becomes: Becomes::Attr(c"axis"),
        ..ONE_AXIS
    }],
    attrs: &[
        T,
        Attr {
            name: c"N",
            value: AttrValue::ListLength,
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["axis"],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio offers no list operand: `tf.stack([a, b])` stays on Python.
    python: &[],
};

/// `split(x, n, axis = k)`: `x` cut into `n` equal parts along `k`, as
/// `tf.split` with a number: an array of `n` tensors.
pub const SPLIT: Op = Op {
    name: "split",
    operator: None,
    summary: "cuts into `n` equal parts along an axis: an array of `n` tensors",
    tf_op: c"Split",
    rule: Rule::Split,
    dtypes: DType::ALL,
    keywords: &[
        Keyword {
            default: Some(Value::Int(0)),
            ..ONE_AXIS
        },
        Keyword {
            name: "num_split",
            kind: ValueKind::Count,
            allowed: &[],
            default: None,
            becomes: Becomes::Attr(c"num_split"),
            typed: true,
        },
    ],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["num_split"],
    inputs: &[Input::Keyword("axis"), Input::Operand(0)],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio has no type for a list of results: `tf.split` stays on Python.
    python: &[],
};

/// `unstack(x, num = n, axis = k)`: the `n` slices of `x` along `k`, each
/// without that axis, as `tf.unstack`.
pub const UNSTACK: Op = Op {
    name: "unstack",
    operator: None,
    summary: "the slices along an axis, each without it: an array of `num` tensors",
    tf_op: c"Unpack",
    rule: Rule::Unstack,
    dtypes: DType::ALL,
    keywords: &[
        Keyword {
            name: "num",
            kind: ValueKind::Count,
            allowed: &[],
            default: None,
            becomes: Becomes::Attr(c"num"),
            typed: true,
        },
        Keyword {
            default: Some(Value::Int(0)),
            becomes: Becomes::Attr(c"axis"),
            ..ONE_AXIS
        },
    ],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio has no type for a list of results: `tf.unstack` stays on Python.
    python: &[],
};

/// The `Tpaddings` attribute: int64 paddings.
const TPADDINGS_I64: Attr = Attr {
    name: c"Tpaddings",
    value: AttrValue::Fixed(Value::Type(DType::I64)),
};

/// `pad(x, [[before, after], …], constant_values = v)`: `x` with `v` added
/// before and after each axis, as `tf.pad` in `"CONSTANT"` mode.
pub const PAD: Op = Op {
    name: "pad",
    operator: None,
    summary: "pads each axis with a constant (`mirror_pad` mirrors instead)",
    tf_op: c"PadV2",
    rule: Rule::Pad,
    dtypes: DType::ALL,
    keywords: &[
        Keyword {
            name: "mode",
            kind: ValueKind::Str,
            allowed: &[Value::Str("CONSTANT")],
            default: Some(Value::Str("CONSTANT")),
            becomes: Becomes::Typing,
            typed: false,
        },
        Keyword {
            name: "constant_values",
            kind: ValueKind::Number,
            allowed: &[],
            default: Some(Value::Int(0)),
            becomes: Becomes::ElementInput,
            typed: false,
        },
    ],
    attrs: &[T, TPADDINGS_I64],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[
        Input::Operand(0),
        Input::Operand(1),
        Input::Keyword("constant_values"),
    ],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio offers no nested tuple: `tf.pad` stays on Python.
    python: &[],
};

/// `mirror_pad(x, [[before, after], …], mode = "REFLECT" | "SYMMETRIC")`:
/// `x` padded with its own mirror image, as `tf.pad` in those modes.
pub const MIRROR_PAD: Op = Op {
    name: "mirror_pad",
    operator: None,
    summary: "pads each axis with the tensor's mirror image (`tf.pad`'s other modes)",
    tf_op: c"MirrorPad",
    rule: Rule::Pad,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        name: "mode",
        kind: ValueKind::Str,
        allowed: &[Value::Str("REFLECT"), Value::Str("SYMMETRIC")],
        default: None,
        becomes: Becomes::Attr(c"mode"),
        typed: false,
    }],
    attrs: &[T, TPADDINGS_I64],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: BINARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio offers no nested tuple: `tf.pad` stays on Python.
    python: &[],
};

/// `split(x, [s0, s1, …], axis = k)` in `tf!` (this row's own name is
/// `split_v`): `x` cut into parts of those sizes along `k` (one may be
/// `-1`), as `tf.split` with a list: an array of that many tensors.
pub const SPLIT_V: Op = Op {
    name: "split_v",
    operator: None,
    summary: "cuts into parts of the given sizes along an axis (`split(x, [2, -1])` in `tf!`)",
    tf_op: c"SplitV",
    rule: Rule::SplitSizes,
    dtypes: DType::ALL,
    keywords: &[Keyword {
        default: Some(Value::Int(0)),
        ..ONE_AXIS
    }],
    attrs: &[
        T,
        Attr {
            name: c"Tlen",
            value: AttrValue::Fixed(Value::Type(DType::I64)),
        },
        Attr {
            name: c"num_split",
            value: AttrValue::ListLength,
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Operand(1), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio has no type for a list of results: `tf.split` stays on Python.
    python: &[],
};

/// A band count of `band_part`: how many diagonals below (or above) the
/// main one are kept, all of them when negative.
const fn band(name: &'static str) -> Keyword {
    Keyword {
        name,
        kind: ValueKind::Int,
        allowed: &[],
        default: None,
        becomes: Becomes::Input(DType::I32),
        typed: false,
    }
}

/// `band_part(x, num_lower, num_upper)`: each innermost matrix with the
/// elements outside the band zeroed, as `tf.linalg.band_part` (`-1, 0`:
/// the lower triangle, a causal mask).
pub const BAND_PART: Op = Op {
    name: "band_part",
    operator: None,
    summary: "each innermost matrix zeroed outside a band of diagonals",
    tf_op: c"MatrixBandPart",
    rule: Rule::SameRank { min_rank: 2 },
    dtypes: DType::ALL,
    keywords: &[band("num_lower"), band("num_upper")],
    attrs: &[
        T,
        Attr {
            name: c"Tindex",
            value: AttrValue::Fixed(Value::Type(DType::I32)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["num_lower", "num_upper"],
    inputs: &[
        Input::Operand(0),
        Input::Keyword("num_lower"),
        Input::Keyword("num_upper"),
    ],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["num_lower", "num_upper"],
        ..calls(
            &["tensorflow.linalg.band_part"],
            "rxt-tf/band-part-cpu",
            113,
            ", and int literals num_lower and num_upper (negative: the whole triangle), \
             positional or keyword",
        )
    }],
};
