"""Claim outcomes of the layers (convolutions and pools at ranks 3 to 5) and
of rank 5 at every element type, with rule ids and result types written
out: part of ``test_claim_accepted.ACCEPTED``.
"""

from __future__ import annotations

from sites import B5, D3, D4, D5, I32_5, I64_2, I64_5, T3, T4, T5, call, kw, lit, rule_id

LAYERS = [
    # Convolutions and pools: the image's type.
    (call("tensorflow.nn.conv2d", T4, T4, lit(1), lit("SAME")), rule_id("conv2d"), T4),
    (
        call(
            "tensorflow.nn.conv2d",
            D4,
            D4,
            keywords=(kw("strides", (2, 1)), kw("padding", "VALID"), kw("dilations", 1)),
        ),
        rule_id("conv2d"),
        D4,
    ),
    (call("tensorflow.nn.conv1d", T3, T3, lit(2), lit("VALID")), rule_id("conv1d"), T3),
    # tf.nn.convolution without dilation: conv2d at rank 4, conv1d at rank 3.
    (
        call(
            "tensorflow.nn.convolution",
            T4,
            T4,
            keywords=(
                kw("strides", (1, 1)),
                kw("padding", "SAME"),
                kw("dilations", (1, 1)),
                kw("data_format", "NHWC"),
            ),
        ),
        "rxt-tf/convolution-2d-cpu",
        T4,
    ),
    (
        call("tensorflow.nn.convolution", D4, D4, lit(2), lit("VALID")),
        "rxt-tf/convolution-2d-cpu",
        D4,
    ),
    (
        call(
            "tensorflow.nn.convolution",
            T3,
            T3,
            keywords=(kw("strides", 2), kw("padding", "VALID"), kw("dilations", 1)),
        ),
        "rxt-tf/convolution-1d-cpu",
        T3,
    ),
    (
        call("tensorflow.nn.convolution", D3, D3, keywords=(kw("padding", "SAME"),)),
        "rxt-tf/convolution-1d-cpu",
        D3,
    ),
    (
        call(
            "tensorflow.nn.convolution",
            T3,
            T3,
            keywords=(kw("strides", (2,)), kw("padding", "SAME"), kw("dilations", (1,))),
        ),
        "rxt-tf/convolution-1d-cpu",
        T3,
    ),
    (
        call("tensorflow.nn.max_pool2d", T4, lit(2), lit(2), lit("VALID")),
        rule_id("max_pool2d"),
        T4,
    ),
    (
        call(
            "tensorflow.nn.avg_pool2d",
            D4,
            keywords=(kw("ksize", (3, 2)), kw("strides", 1), kw("padding", "SAME")),
        ),
        rule_id("avg_pool2d"),
        D4,
    ),
    (
        call("tensorflow.nn.max_pool1d", T3, lit(2), lit(1), lit("SAME")),
        rule_id("max_pool1d"),
        T3,
    ),
    (
        call("tensorflow.nn.avg_pool1d", T3, lit(3), lit(3), lit("VALID")),
        rule_id("avg_pool1d"),
        T3,
    ),
    # tf.nn.convolution of a rank-5 input: conv3d (strides one or a triple).
    (
        call(
            "tensorflow.nn.convolution",
            T5,
            T5,
            keywords=(kw("strides", (1, 2, 2)), kw("padding", "SAME"), kw("dilations", 1)),
        ),
        "rxt-tf/convolution-3d-cpu",
        T5,
    ),
    (
        call("tensorflow.nn.convolution", D5, D5, lit(2), lit("VALID")),
        "rxt-tf/convolution-3d-cpu",
        D5,
    ),
    (
        call("tensorflow.nn.max_pool3d", T5, lit(2), lit(2), lit("VALID")),
        rule_id("max_pool3d"),
        T5,
    ),
    (
        call(
            "tensorflow.nn.avg_pool3d",
            T5,
            keywords=(kw("ksize", (1, 2, 2)), kw("strides", (1,)), kw("padding", "SAME")),
        ),
        rule_id("avg_pool3d"),
        T5,
    ),
    # Rank 5 of every type.
    (call("tensorflow.nn.relu", I32_5), rule_id("relu"), I32_5),
    (call("tensorflow.math.add", I64_5, I64_2), rule_id("add"), I64_5),
    (call("tensorflow.logical_not", B5), rule_id("logical_not"), B5),
    (
        call("tensorflow.transpose", D5, keywords=(kw("perm", (0, 2, 1, 3, 4)),)),
        rule_id("transpose"),
        D5,
    ),
]
