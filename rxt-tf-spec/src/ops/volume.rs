//! The 3-D layers on NDHWC volumes: `conv3d` and the 3-D pools, with the
//! keyword kind of their sizes ([`ValueKind::Volume`]).

use core::ffi::CStr;

use super::build::{calls, T};
use super::nn::{spatial, CONV2D, MAX_POOL2D, PADDING};
use crate::model::{
    Attr, AttrValue, DType, Keyword, Op, PythonKeyword, PythonRule, Rule, Value, ValueKind,
};

/// A keyword of a 3-D image op: a positive integer (all three spatial
/// axes) or one per axis, `[1, d, h, w, 1]` as the attribute `attr`.
const fn volume(name: &'static str, attr: &'static CStr, default: Option<Value>) -> Keyword {
    Keyword {
        kind: ValueKind::Volume,
        ..spatial(name, attr, default)
    }
}

/// `data_format = "NDHWC"`: the layout of every volume op here.
const NDHWC: Attr = Attr {
    name: c"data_format",
    value: AttrValue::Fixed(Value::Str("NDHWC")),
};

/// `conv3d(x, filters, strides = s | [sd, sh, sw], padding = …)` on an
/// NDHWC volume with `[d, h, w, in, out]` filters, as `tf.nn.convolution`
/// runs a rank-5 input (TensorFlow's CPU `Conv3D` takes no dilation).
pub const CONV3D: Op = Op {
    name: "conv3d",
    summary: "3-D convolution of an NDHWC volume by `[d, h, w, in, out]` filters",
    tf_op: c"Conv3D",
    rule: Rule::Conv { rank: 5 },
    keywords: &[volume("strides", c"strides", Some(Value::Int(1))), PADDING],
    attrs: &[T, NDHWC],
    // `tf.nn.conv3d` takes five strides, a list Rextio offers no rule for
    // here; `tf.nn.convolution` of a rank-5 input without dilation runs
    // `Conv3D` with the three given.
    python: &[PythonRule {
        positional: &["strides", "padding"],
        python_only: &[
            PythonKeyword {
                name: "dilations",
                values: &[Value::Int(1), Value::Ints(&[1, 1, 1])],
            },
            PythonKeyword {
                name: "data_format",
                values: &[Value::Str("NDHWC")],
            },
        ],
        ..calls(
            &["tensorflow.nn.convolution"],
            "rxt-tf/convolution-3d-cpu",
            114,
            ", the input (NDHWC) and its filters; strides a positive int literal or a tuple of one or three, padding 'SAME' or 'VALID' given, dilations 1",
        )
    }],
    ..CONV2D
};

/// The keywords of the 3-D pools: sizes along the three spatial axes.
const POOL3D_KEYWORDS: [Keyword; 3] = [
    volume("ksize", c"ksize", None),
    volume("strides", c"strides", None),
    PADDING,
];

/// The rest of a 3-D pool's constraint: layout and keywords.
const POOL3D_DETAIL: &str = " (NDHWC); ksize and strides a positive int literal or a tuple \
                             of one or three, padding 'SAME' or 'VALID'";

/// `max_pool3d(x, ksize = k | [kd, kh, kw], strides = …, padding = …)` on
/// an NDHWC volume, as `tf.nn.max_pool3d` (float32 and bfloat16: the CPU
/// kernel takes no float64 or float16).
pub const MAX_POOL3D: Op = Op {
    name: "max_pool3d",
    summary: "the maximum of each window of an NDHWC volume",
    tf_op: c"MaxPool3D",
    rule: Rule::Pool { rank: 5 },
    dtypes: &[DType::F32, DType::BF16],
    keywords: &POOL3D_KEYWORDS,
    attrs: &[T, NDHWC],
    python: &[PythonRule {
        positional: &["ksize", "strides", "padding"],
        ..calls(
            &["tensorflow.nn.max_pool3d"],
            "rxt-tf/max-pool3d-cpu",
            115,
            POOL3D_DETAIL,
        )
    }],
    ..MAX_POOL2D
};

/// `avg_pool3d(x, ksize = …, strides = …, padding = …)`, as
/// `tf.nn.avg_pool3d` (float32 and bfloat16: no CPU kernel for float64
/// or float16).
pub const AVG_POOL3D: Op = Op {
    name: "avg_pool3d",
    summary: "the mean of each window of an NDHWC volume",
    tf_op: c"AvgPool3D",
    python: &[PythonRule {
        positional: &["ksize", "strides", "padding"],
        ..calls(
            &["tensorflow.nn.avg_pool3d"],
            "rxt-tf/avg-pool3d-cpu",
            116,
            POOL3D_DETAIL,
        )
    }],
    ..MAX_POOL3D
};
