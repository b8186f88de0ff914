"""Claim outcomes of the half types, bfloat16 and float16, at every rank,
with rule ids and result types written out: part of
``test_claim_accepted.ACCEPTED``.
"""

from __future__ import annotations

from sites import (
    BF0,
    BF1,
    BF2,
    BF3,
    BF4,
    BF5,
    H0,
    H1,
    H2,
    H3,
    H4,
    H5,
    I32_2,
    I64,
    T2,
    T3,
    F,
    binop,
    call,
    kw,
    lit,
    rule_id,
)

HALVES = [
    # Element-wise and broadcasting: the operands' type.
    (call("tensorflow.math.tanh", BF0), rule_id("tanh"), BF0),
    (call("tensorflow.nn.relu", H0), rule_id("relu"), H0),
    (binop("+", BF1, BF1), rule_id("add", "binop"), BF1),
    (call("tensorflow.math.rsqrt", H1), rule_id("rsqrt"), H1),
    (call("tensorflow.linalg.matmul", BF2, BF2), rule_id("matmul"), BF2),
    (binop("*", H2, F), rule_id("mul", "binop"), H2),
    (call("tensorflow.nn.softmax", BF3, keywords=(kw("axis", -1),)), rule_id("softmax"), BF3),
    (call("tensorflow.math.reduce_mean", H3, lit(2)), rule_id("reduce_mean"), H2),
    (call("tensorflow.nn.gelu", BF4), rule_id("gelu"), BF4),
    (call("tensorflow.nn.bias_add", H4, H1), rule_id("bias_add"), H4),
    (call("tensorflow.reshape", BF5, lit((-1,))), rule_id("reshape"), BF1),
    (call("tensorflow.math.square", H5), rule_id("square"), H5),
    (call("tensorflow.argmax", BF2, keywords=(kw("axis", 1),)), rule_id("argmax"), I64),
    # cast: the half types by their TensorFlow names, both ways.
    (call("tensorflow.cast", T3, lit("bfloat16")), rule_id("cast"), BF3),
    (call("tensorflow.cast", I32_2, keywords=(kw("dtype", "float16"),)), rule_id("cast"), H2),
    (call("tensorflow.cast", BF2, lit("float32")), rule_id("cast"), T2),
    # A 3-D pool of bfloat16 (its kernel has no float16 form).
    (
        call("tensorflow.nn.max_pool3d", BF5, lit(2), lit(2), lit("VALID")),
        rule_id("max_pool3d"),
        BF5,
    ),
]
