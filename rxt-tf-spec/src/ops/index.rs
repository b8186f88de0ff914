//! Reading parts of a tensor: `gather`, `embedding_lookup`, `slice`, and
//! `x[…]` (`strided_slice`).

use core::ffi::CStr;

use super::build::{calls, T};
use super::reduce::ONE_AXIS;
use crate::model::{
    Attr, AttrValue, Becomes, DType, Input, Keyword, Op, PythonRule, Rule, Steps, Value, ValueKind,
    Work,
};

/// The attributes of `GatherV2`.
const GATHER_ATTRS: &[Attr] = &[
    Attr {
        name: c"Tparams",
        value: AttrValue::Element,
    },
    Attr {
        name: c"Tindices",
        value: AttrValue::Indices,
    },
    Attr {
        name: c"Taxis",
        value: AttrValue::Fixed(Value::Type(DType::I32)),
    },
];

/// `gather(params, indices, axis = k, batch_dims = n)`: slices of `params`
/// along `k` at `indices`, as `tf.gather`.
pub const GATHER: Op = Op {
    name: "gather",
    operator: None,
    summary: "the slices along an axis at the given indices (`tf.gather`)",
    tf_op: c"GatherV2",
    rule: Rule::Gather,
    dtypes: DType::ALL,
    keywords: &[
        Keyword {
            default: Some(Value::Int(0)),
            ..ONE_AXIS
        },
        Keyword {
            name: "batch_dims",
            kind: ValueKind::Count,
            allowed: &[],
            default: Some(Value::Int(0)),
            becomes: Becomes::Attr(c"batch_dims"),
            typed: true,
        },
    ],
    attrs: GATHER_ATTRS,
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Operand(1), Input::Keyword("axis")],
    work: Work::FirstInput,
    steps: Steps::One,
    // TensorFlow's third positional parameter is `validate_indices`, so
    // `axis` and `batch_dims` are keywords only.
    python: &[calls(
        &["tensorflow.gather"],
        "rxt-tf/gather-cpu",
        80,
        ", literal axis (default 0) and batch_dims (default 0) keywords; result rank at most \
         {max_rank}",
    )],
};

/// `embedding_lookup(table, ids)`: the rows of `table` at `ids`, as
/// `tf.nn.embedding_lookup` of one table.
pub const EMBEDDING_LOOKUP: Op = Op {
    name: "embedding_lookup",
    summary: "the rows of a table at the given ids (`tf.nn.embedding_lookup`)",
    keywords: &[
        Keyword {
            allowed: &[Value::Int(0)],
            default: Some(Value::Int(0)),
            ..ONE_AXIS
        },
        Keyword {
            name: "batch_dims",
            kind: ValueKind::Count,
            allowed: &[Value::Int(0)],
            default: Some(Value::Int(0)),
            becomes: Becomes::Attr(c"batch_dims"),
            typed: true,
        },
    ],
    python: &[calls(
        &["tensorflow.nn.embedding_lookup"],
        "rxt-tf/embedding-lookup-cpu",
        81,
        " (the table, then the ids; result rank at most {max_rank}); no keywords",
    )],
    ..GATHER
};

/// `slice(x, [b0, …], [s0, …])`: the window of `x` beginning at `b` of
/// sizes `s` (`-1`: to the end), as `tf.slice`.
pub const SLICE: Op = Op {
    name: "slice",
    operator: None,
    summary: "the window at a begin and of sizes per axis (a size of −1: to the end)",
    tf_op: c"Slice",
    rule: Rule::Window,
    dtypes: DType::ALL,
    keywords: &[],
    attrs: &[
        T,
        Attr {
            name: c"Index",
            value: AttrValue::Fixed(Value::Type(DType::I64)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operand(0), Input::Operand(1), Input::Operand(2)],
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[calls(
        &["tensorflow.slice"],
        "rxt-tf/slice-cpu",
        82,
        " and two literal tuples of one integer per axis: the begin (non-negative) and the sizes (-1: to the end)",
    )],
};

/// A mask attribute of `StridedSlice`: a bit per index entry.
const fn mask(name: &'static str, attr: &'static CStr) -> Keyword {
    Keyword {
        name,
        kind: ValueKind::Count,
        allowed: &[],
        default: Some(Value::Int(0)),
        becomes: Becomes::Attr(attr),
        typed: false,
    }
}

/// A count that types an index (how many axes it reads, drops, adds).
const fn index_count(name: &'static str) -> Keyword {
    Keyword {
        name,
        kind: ValueKind::Count,
        allowed: &[],
        default: Some(Value::Int(0)),
        becomes: Becomes::Typing,
        typed: true,
    }
}

/// `x[…]` in `tf!`: Python's indexing, as `Tensor.__getitem__` runs it
/// (`StridedSlice` with the masks it builds). `tf!` writes this call for an
/// index; it is also a plain function.
pub const STRIDED_SLICE: Op = Op {
    name: "strided_slice",
    operator: None,
    summary: "Python's indexing `x[…]` (`:`, `a:b:c`, integers, `...`, `None`)",
    tf_op: c"StridedSlice",
    rule: Rule::Index,
    dtypes: DType::ALL,
    keywords: &[
        mask("begin_mask", c"begin_mask"),
        mask("end_mask", c"end_mask"),
        mask("ellipsis_mask", c"ellipsis_mask"),
        mask("new_axis_mask", c"new_axis_mask"),
        mask("shrink_axis_mask", c"shrink_axis_mask"),
        index_count("indexed_axes"),
        index_count("shrink_axes"),
        index_count("new_axes"),
    ],
    attrs: &[
        T,
        Attr {
            name: c"Index",
            value: AttrValue::Fixed(Value::Type(DType::I64)),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[
        Input::Operand(0),
        Input::Operand(1),
        Input::Operand(2),
        Input::Operand(3),
    ],
    work: Work::FirstInput,
    steps: Steps::One,
    // Rextio offers no subscript site, but offers the call `Tensor.__getitem__`
    // makes (`explain --fix` writes a subscript as it): the counts that type
    // the result are the plugin's to derive from the masks.
    python: &[PythonRule {
        macro_only: &["indexed_axes", "shrink_axes", "new_axes"],
        ..calls(
            &["tensorflow.strided_slice"],
            "rxt-tf/strided-slice-cpu",
            123,
            STRIDED_SLICE_DETAIL,
        )
    }],
};

/// The rest of `tf.strided_slice`'s constraint, after its operands.
const STRIDED_SLICE_DETAIL: &str = ": begin, end and strides as literal tuples of integers of \
     one length, and the masks as integer literals each within that length, an entry at most \
     one of an ellipsis (one at most), a new axis and a dropped axis, as `Tensor.__getitem__` \
     builds them";
