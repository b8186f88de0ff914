//! Neural-network layers: activations, `softmax`, `bias_add`,
//! normalization, convolutions and pools.

use core::ffi::CStr;

use super::build::{
    calls, elementwise, BINARY_INPUTS, FLOATS, NUMBERS, T, UNARY_DETAIL, UNARY_INPUTS,
};
use super::reduce::AXES;
use crate::model::{
    Attr, AttrValue, Becomes, DType, Input, Keyword, Op, PythonKeyword, PythonRule, Rule, Steps,
    Value, ValueKind, Work,
};

/// `softmax`-like ops: run on the last axis; `axis` (default `-1`) may name
/// another one, which is moved last and back.
const fn last_axis(
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
        rule: Rule::AlongAxis,
        dtypes: FLOATS,
        keywords: &[Keyword {
            name: "axis",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(-1)),
            becomes: Becomes::LastAxis,
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
        python,
    }
}

/// The rest of a `softmax`-like op's constraint, after its tensor.
const LAST_AXIS_DETAIL: &str =
    " and an optional axis in range (default -1): a literal keyword, or \
                                 positional, a literal or an int known at run time";

/// `relu(x)`.
pub const RELU: Op = elementwise(
    "relu",
    "rectified linear unit",
    c"Relu",
    NUMBERS,
    &[calls(
        &["tensorflow.nn.relu"],
        "rxt-tf/relu-cpu",
        2,
        UNARY_DETAIL,
    )],
);

/// `sigmoid(x)`.
pub const SIGMOID: Op = elementwise(
    "sigmoid",
    "logistic sigmoid",
    c"Sigmoid",
    FLOATS,
    &[calls(
        &[
            "tensorflow.nn.sigmoid",
            "tensorflow.sigmoid",
            "tensorflow.math.sigmoid",
        ],
        "rxt-tf/sigmoid-cpu",
        5,
        UNARY_DETAIL,
    )],
);

/// `tanh(x)`.
pub const TANH: Op = elementwise(
    "tanh",
    "hyperbolic tangent",
    c"Tanh",
    FLOATS,
    &[calls(
        &[
            "tensorflow.nn.tanh",
            "tensorflow.math.tanh",
            "tensorflow.tanh",
        ],
        "rxt-tf/tanh-cpu",
        7,
        UNARY_DETAIL,
    )],
);

/// `relu6(x)`.
pub const RELU6: Op = elementwise(
    "relu6",
    "rectified linear unit capped at 6",
    c"Relu6",
    NUMBERS,
    &[calls(
        &["tensorflow.nn.relu6"],
        "rxt-tf/relu6-cpu",
        16,
        UNARY_DETAIL,
    )],
);

/// `elu(x)`.
pub const ELU: Op = elementwise(
    "elu",
    "exponential linear unit",
    c"Elu",
    FLOATS,
    &[calls(
        &["tensorflow.nn.elu"],
        "rxt-tf/elu-cpu",
        17,
        UNARY_DETAIL,
    )],
);

/// `softplus(x)`.
pub const SOFTPLUS: Op = elementwise(
    "softplus",
    "softplus, log(exp(x) + 1)",
    c"Softplus",
    FLOATS,
    &[calls(
        &["tensorflow.nn.softplus", "tensorflow.math.softplus"],
        "rxt-tf/softplus-cpu",
        18,
        UNARY_DETAIL,
    )],
);

/// `leaky_relu(x)`, `leaky_relu(x, alpha = 0.1)`.
pub const LEAKY_RELU: Op = Op {
    keywords: &[Keyword {
        name: "alpha",
        kind: ValueKind::Float,
        allowed: &[],
        default: Some(Value::Float(0.2)),
        becomes: Becomes::Attr(c"alpha"),
        typed: false,
    }],
    ..elementwise(
        "leaky_relu",
        "leaky rectified linear unit",
        c"LeakyRelu",
        FLOATS,
        &[calls(
            &["tensorflow.nn.leaky_relu"],
            "rxt-tf/leaky-relu-cpu",
            19,
            "; alpha omitted ({default:alpha}): Rextio offers no site with a float keyword",
        )],
    )
};

/// `bias_add(x, b)`.
pub const BIAS_ADD: Op = Op {
    name: "bias_add",
    operator: None,
    summary: "adds a rank-1 bias along the last axis",
    tf_op: c"BiasAdd",
    rule: Rule::BiasAdd,
    dtypes: NUMBERS,
    keywords: &[],
    attrs: &[
        T,
        Attr {
            name: c"data_format",
            value: AttrValue::Fixed(Value::Str("NHWC")),
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: BINARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        python_only: &[PythonKeyword {
            name: "data_format",
            values: &[Value::Str("NHWC")],
        }],
        ..calls(
            &["tensorflow.nn.bias_add"],
            "rxt-tf/bias-add-cpu",
            29,
            " (the bias); data_format omitted or 'NHWC'",
        )
    }],
};

/// `softmax(x)`, `softmax(x, axis = A)`.
pub const SOFTMAX: Op = last_axis(
    "softmax",
    "softmax along an axis",
    c"Softmax",
    &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.nn.softmax", "tensorflow.math.softmax"],
            "rxt-tf/softmax-cpu",
            34,
            LAST_AXIS_DETAIL,
        )
    }],
);

/// `log_softmax(x)`, `log_softmax(x, axis = A)`.
pub const LOG_SOFTMAX: Op = last_axis(
    "log_softmax",
    "log-softmax along an axis",
    c"LogSoftmax",
    &[PythonRule {
        positional: &["axis"],
        ..calls(
            &["tensorflow.nn.log_softmax", "tensorflow.math.log_softmax"],
            "rxt-tf/log-softmax-cpu",
            35,
            LAST_AXIS_DETAIL,
        )
    }],
);

/// `selu(x)`: the scaled exponential linear unit.
pub const SELU: Op = elementwise(
    "selu",
    "scaled exponential linear unit",
    c"Selu",
    FLOATS,
    &[calls(
        &["tensorflow.nn.selu"],
        "rxt-tf/selu-cpu",
        94,
        UNARY_DETAIL,
    )],
);

/// `softsign(x)`: `x / (1 + |x|)`.
pub const SOFTSIGN: Op = elementwise(
    "softsign",
    "x / (1 + |x|)",
    c"Softsign",
    FLOATS,
    &[calls(
        &["tensorflow.nn.softsign", "tensorflow.math.softsign"],
        "rxt-tf/softsign-cpu",
        95,
        UNARY_DETAIL,
    )],
);

/// `gelu(x, approximate = b)`: the Gaussian error linear unit, with
/// `tf.nn.gelu`'s arithmetic (`erfc`, or the `tanh` approximation).
pub const GELU: Op = Op {
    keywords: &[Keyword {
        name: "approximate",
        kind: ValueKind::Bool,
        allowed: &[],
        default: Some(Value::Bool(false)),
        becomes: Becomes::Typing,
        typed: false,
    }],
    positional: &["approximate"],
    steps: Steps::Gelu,
    ..elementwise(
        "gelu",
        "Gaussian error linear unit, as `tf.nn.gelu` computes it",
        c"Erfc",
        FLOATS,
        &[PythonRule {
            positional: &["approximate"],
            ..calls(
                &["tensorflow.nn.gelu"],
                "rxt-tf/gelu-cpu",
                91,
                " and an optional literal approximate flag",
            )
        }],
    )
};

/// `silu(x)`: `x * sigmoid(x)`, as `tf.nn.silu` computes it (`beta = 1`).
pub const SILU: Op = Op {
    steps: Steps::Silu,
    ..elementwise(
        "silu",
        "x * sigmoid(x), as `tf.nn.silu` computes it",
        c"Sigmoid",
        FLOATS,
        &[calls(
            &["tensorflow.nn.silu"],
            "rxt-tf/silu-cpu",
            92,
            UNARY_DETAIL,
        )],
    )
};

/// `swish(x)`: `silu` under Keras's other name.
pub const SWISH: Op = Op {
    name: "swish",
    summary: "x * sigmoid(x) (`silu`)",
    python: &[calls(
        &["tensorflow.nn.swish"],
        "rxt-tf/swish-cpu",
        93,
        UNARY_DETAIL,
    )],
    ..SILU
};

/// `hard_sigmoid(x)`: `relu6(x + 3) / 6`, as Keras's `hard_sigmoid` (its
/// TensorFlow backend) computes it.
pub const HARD_SIGMOID: Op = Op {
    steps: Steps::HardSigmoid,
    // Rextio offers Keras's activations as no call site of `tensorflow`:
    // none is lowered.
    ..elementwise(
        "hard_sigmoid",
        "relu6(x + 3) / 6, as Keras's `hard_sigmoid` computes it",
        c"Relu6",
        FLOATS,
        &[],
    )
};

/// `l2_normalize(x, axis = A, epsilon = e)`, as `tf.math.l2_normalize`.
pub const L2_NORMALIZE: Op = Op {
    name: "l2_normalize",
    operator: None,
    summary: "x over its L2 norm along axes, as `tf.math.l2_normalize`",
    tf_op: c"Rsqrt",
    rule: Rule::AlongAxis,
    dtypes: FLOATS,
    keywords: &[
        Keyword {
            becomes: Becomes::Typing,
            ..AXES
        },
        Keyword {
            name: "epsilon",
            kind: ValueKind::Float,
            allowed: &[],
            default: Some(Value::Float(1e-12)),
            becomes: Becomes::Typing,
            typed: false,
        },
    ],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::L2Normalize,
    python: &[PythonRule {
        positional: &["axis"],
        ..calls(
            &[
                "tensorflow.math.l2_normalize",
                "tensorflow.nn.l2_normalize",
                "tensorflow.linalg.l2_normalize",
            ],
            "rxt-tf/l2-normalize-cpu",
            90,
            " and a literal axis or tuple of distinct axes in range; epsilon omitted (Rextio passes no float literal)",
        )
    }],
};

/// The keywords of `padding` for image ops: `"SAME"` or `"VALID"`.
pub(super) const PADDING: Keyword = Keyword {
    name: "padding",
    kind: ValueKind::Str,
    allowed: &[Value::Str("SAME"), Value::Str("VALID")],
    default: None,
    becomes: Becomes::Attr(c"padding"),
    typed: false,
};

/// A spatial list attribute of an image op (`strides`, `dilations`,
/// `ksize`): one size for both axes, or a pair; 1 unless given.
pub(super) const fn spatial(
    name: &'static str,
    attr: &'static CStr,
    default: Option<Value>,
) -> Keyword {
    Keyword {
        name,
        kind: ValueKind::Spatial,
        allowed: &[],
        default,
        becomes: Becomes::Spatial(attr),
        typed: false,
    }
}

/// `data_format = "NHWC"`: the layout of every image op here.
const NHWC: Attr = Attr {
    name: c"data_format",
    value: AttrValue::Fixed(Value::Str("NHWC")),
};

/// `conv2d(x, filters, strides = s | [sh, sw], padding = …, dilations = …)`
/// on an NHWC image with `[h, w, in, out]` filters, as `tf.nn.conv2d`.
pub const CONV2D: Op = Op {
    name: "conv2d",
    operator: None,
    summary: "2-D convolution of an NHWC image by `[h, w, in, out]` filters",
    tf_op: c"Conv2D",
    rule: Rule::Conv { rank: 4 },
    dtypes: FLOATS,
    keywords: &[
        spatial("strides", c"strides", Some(Value::Int(1))),
        PADDING,
        spatial("dilations", c"dilations", Some(Value::Int(1))),
    ],
    attrs: &[
        T,
        NHWC,
        Attr {
            name: c"use_cudnn_on_gpu",
            value: AttrValue::Fixed(Value::Bool(true)),
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
        PythonRule {
            positional: &["strides", "padding"],
            ..calls(
                &["tensorflow.nn.conv2d"],
                "rxt-tf/conv2d-cpu",
                97,
                ", the input (NHWC) and its filters; strides and dilations a positive int literal or a tuple of two, padding 'SAME' or 'VALID'",
            )
        },
        // `tf.nn.convolution` of a rank-4 input without dilation runs
        // `Conv2D` as `tf.nn.conv2d` does (with dilation, a space-to-batch
        // composition: it stays on Python).
        PythonRule {
            positional: &["strides", "padding"],
            python_only: &[
                PythonKeyword {
                    name: "dilations",
                    values: &[Value::Int(1), Value::Ints(&[1, 1])],
                },
                PythonKeyword {
                    name: "data_format",
                    values: &[Value::Str("NHWC")],
                },
            ],
            ..calls(
                &["tensorflow.nn.convolution"],
                "rxt-tf/convolution-2d-cpu",
                111,
                ", the input (NHWC) and its filters; strides a positive int literal or a tuple of two, padding 'SAME' or 'VALID' given, dilations 1",
            )
        },
    ],
};

/// `depthwise_conv2d(x, filters, strides = …, padding = …)` with
/// `[h, w, in, multiplier]` filters, as `tf.nn.depthwise_conv2d`.
pub const DEPTHWISE_CONV2D: Op = Op {
    name: "depthwise_conv2d",
    summary: "depthwise 2-D convolution of an NHWC image by `[h, w, in, multiplier]` filters",
    tf_op: c"DepthwiseConv2dNative",
    keywords: &[spatial("strides", c"strides", Some(Value::Int(1))), PADDING],
    attrs: &[T, NHWC],
    // `tf.nn.depthwise_conv2d` takes four strides, a list Rextio offers
    // no rule for here: it stays on Python.
    python: &[],
    ..CONV2D
};

/// `conv1d(x, filters, stride = s, padding = …, dilations = d)` on an NWC
/// sequence with `[w, in, out]` filters, as `tf.nn.conv1d` runs it.
pub const CONV1D: Op = Op {
    name: "conv1d",
    summary: "1-D convolution of an NWC sequence by `[w, in, out]` filters (`Conv2D` at height 1)",
    rule: Rule::Conv { rank: 3 },
    keywords: &[
        Keyword {
            name: "stride",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(1)),
            becomes: Becomes::Typing,
            typed: false,
        },
        PADDING,
        Keyword {
            name: "dilations",
            kind: ValueKind::Int,
            allowed: &[],
            default: Some(Value::Int(1)),
            becomes: Becomes::Typing,
            typed: false,
        },
    ],
    steps: Steps::Widened(&CONV2D),
    python: &[
        PythonRule {
            positional: &["stride", "padding"],
            ..calls(
                &["tensorflow.nn.conv1d"],
                "rxt-tf/conv1d-cpu",
                98,
                ", the input (NWC) and its filters; stride and dilations int literals, padding 'SAME' or 'VALID'",
            )
        },
        // `tf.nn.convolution` of a rank-3 input without dilation is
        // `tf.nn.conv1d`.
        PythonRule {
            positional: &["stride", "padding"],
            python_only: &[
                PythonKeyword {
                    name: "dilations",
                    values: &[Value::Int(1), Value::Ints(&[1])],
                },
                PythonKeyword {
                    name: "data_format",
                    values: &[Value::Str("NWC")],
                },
            ],
            renamed: &[("strides", "stride")],
            ..calls(
                &["tensorflow.nn.convolution"],
                "rxt-tf/convolution-1d-cpu",
                112,
                ", the input (NWC) and its filters; strides an int literal, padding 'SAME' or 'VALID' given, dilations 1",
            )
        },
    ],
    ..CONV2D
};

/// `max_pool2d(x, ksize = k | [kh, kw], strides = …, padding = …)` on an
/// NHWC image, as `tf.nn.max_pool2d`.
pub const MAX_POOL2D: Op = Op {
    name: "max_pool2d",
    operator: None,
    summary: "the maximum of each window of an NHWC image",
    tf_op: c"MaxPool",
    rule: Rule::Pool { rank: 4 },
    dtypes: FLOATS,
    keywords: &[
        spatial("ksize", c"ksize", None),
        spatial("strides", c"strides", None),
        PADDING,
    ],
    attrs: &[T, NHWC],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::One,
    python: &[PythonRule {
        positional: &["ksize", "strides", "padding"],
        ..calls(
            &["tensorflow.nn.max_pool2d"],
            "rxt-tf/max-pool2d-cpu",
            99,
            POOL2D_DETAIL,
        )
    }],
};

/// The rest of a 2-D pool's constraint: layout and keywords.
const POOL2D_DETAIL: &str = " (NHWC); ksize and strides a positive int literal or a tuple \
                             of one or two, padding 'SAME' or 'VALID'";

/// The rest of a 1-D pool's constraint: layout and keywords.
const POOL1D_DETAIL: &str = " (NWC); ksize and strides positive int literals, padding 'SAME' \
                             or 'VALID'";

/// `avg_pool2d(x, ksize = …, strides = …, padding = …)`, as
/// `tf.nn.avg_pool2d`.
pub const AVG_POOL2D: Op = Op {
    name: "avg_pool2d",
    summary: "the mean of each window of an NHWC image",
    tf_op: c"AvgPool",
    python: &[PythonRule {
        positional: &["ksize", "strides", "padding"],
        ..calls(
            &["tensorflow.nn.avg_pool2d"],
            "rxt-tf/avg-pool2d-cpu",
            100,
            POOL2D_DETAIL,
        )
    }],
    ..MAX_POOL2D
};

/// The keywords of the 1-D pools: sizes along the one spatial axis.
const POOL1D_KEYWORDS: [Keyword; 3] = [
    Keyword {
        name: "ksize",
        kind: ValueKind::Int,
        allowed: &[],
        default: None,
        becomes: Becomes::Typing,
        typed: false,
    },
    Keyword {
        name: "strides",
        kind: ValueKind::Int,
        allowed: &[],
        default: None,
        becomes: Becomes::Typing,
        typed: false,
    },
    PADDING,
];

/// `max_pool1d(x, ksize = k, strides = s, padding = …)` on an NWC
/// sequence, as `tf.nn.max_pool1d` runs it (`MaxPool` at height 1).
pub const MAX_POOL1D: Op = Op {
    name: "max_pool1d",
    summary: "the maximum of each window of an NWC sequence (`MaxPool` at height 1)",
    rule: Rule::Pool { rank: 3 },
    keywords: &POOL1D_KEYWORDS,
    steps: Steps::Widened(&MAX_POOL2D),
    python: &[PythonRule {
        positional: &["ksize", "strides", "padding"],
        ..calls(
            &["tensorflow.nn.max_pool1d"],
            "rxt-tf/max-pool1d-cpu",
            101,
            POOL1D_DETAIL,
        )
    }],
    ..MAX_POOL2D
};

/// `avg_pool1d(x, ksize = k, strides = s, padding = …)`, as
/// `tf.nn.avg_pool1d` runs it (`AvgPool` at height 1).
pub const AVG_POOL1D: Op = Op {
    name: "avg_pool1d",
    summary: "the mean of each window of an NWC sequence (`AvgPool` at height 1)",
    tf_op: c"AvgPool",
    rule: Rule::Pool { rank: 3 },
    keywords: &POOL1D_KEYWORDS,
    steps: Steps::Widened(&AVG_POOL2D),
    python: &[PythonRule {
        positional: &["ksize", "strides", "padding"],
        ..calls(
            &["tensorflow.nn.avg_pool1d"],
            "rxt-tf/avg-pool1d-cpu",
            102,
            POOL1D_DETAIL,
        )
    }],
    ..MAX_POOL2D
};

/// `batch_normalization(x, mean, variance, offset, scale, variance_epsilon)`
/// as `tf.nn.batch_normalization` computes it.
pub const BATCH_NORMALIZATION: Op = Op {
    name: "batch_normalization",
    operator: None,
    summary: "(x - mean) / √(variance + ε) · scale + offset, as `tf.nn.batch_normalization`",
    tf_op: c"Rsqrt",
    rule: Rule::Normalize,
    dtypes: FLOATS,
    keywords: &[Keyword {
        name: "variance_epsilon",
        kind: ValueKind::Float,
        allowed: &[],
        default: None,
        becomes: Becomes::Typing,
        typed: false,
    }],
    attrs: &[T],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &["variance_epsilon"],
    inputs: UNARY_INPUTS,
    work: Work::FirstInput,
    steps: Steps::BatchNormalization,
    // `variance_epsilon` is a float, which Rextio never passes as a
    // literal: `tf.nn.batch_normalization` stays on Python.
    python: &[],
};

/// `fused_batch_norm(x, scale, offset, mean, variance, epsilon = ε)` for
/// inference: one `FusedBatchNormV3` (`is_training = false`) on an NHWC
/// image, its first output, as `tf.compat.v1.nn.fused_batch_norm(...,
/// is_training=False)[0]` and tf-keras's `BatchNormalization(fused=True)`
/// give (Keras 3's computes `batch_normalization`'s arithmetic).
pub const FUSED_BATCH_NORM: Op = Op {
    name: "fused_batch_norm",
    operator: None,
    summary: "inference batch normalization of an NHWC image by per-channel statistics \
              (`FusedBatchNormV3`)",
    tf_op: c"FusedBatchNormV3",
    rule: Rule::FusedNormalize,
    // The CPU kernel takes float32, not float64; its half-type forms keep
    // float32 statistics, which this row types as the image: float32 only.
    dtypes: &[DType::F32],
    keywords: &[Keyword {
        name: "epsilon",
        kind: ValueKind::Float,
        allowed: &[],
        default: Some(Value::Float(0.001)),
        becomes: Becomes::Attr(c"epsilon"),
        typed: false,
    }],
    attrs: &[
        T,
        Attr {
            name: c"U",
            value: AttrValue::Fixed(Value::Type(DType::F32)),
        },
        NHWC,
        Attr {
            name: c"is_training",
            value: AttrValue::Fixed(Value::Bool(false)),
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
        Input::Operand(4),
    ],
    work: Work::FirstInput,
    steps: Steps::FusedBatchNorm,
    // Python's form returns three tensors, which Rextio gives no type and
    // whose unpacking it refuses: it stays on Python.
    python: &[],
};
