"""Claim outcomes: every rejection class, with its diagnostic code, the
words of its message and its suggestion.

The expectations are written out here (codes, words), not read from the op
table, so a wrong table fails these tests.
"""

from __future__ import annotations

import pytest
from claims import (
    AXES_TEXT,
    EVERY_TYPE,
    FLOAT_BESIDE_INT,
    FLOATS,
    NUMBERS,
    ONE_AXIS_TEXT,
    TENSORS_ONLY,
    TENSORS_OR_NUMBERS,
    claim,
    describe,
    ranks,
    true,
)
from index_compare_claims import REJECTED_FORMS
from rextio.plugins.api import Rejected
from sites import (
    B1,
    B2,
    B3,
    D2,
    D5,
    FVAR,
    I32_0,
    I32_1,
    I32_2,
    I32_3,
    I64,
    I64_2,
    I64_3,
    T0,
    T1,
    T2,
    T3,
    T4,
    T5,
    F,
    binop,
    call,
    kw,
    lit,
    plus,
    positional_bool,
)

REJECTED = [
    # (site, diagnostic code, words the message must contain)
    # tf.add converts a leading literal on its own: int32, or float32.
    (call("tensorflow.add", lit(2), T2), "RXTP-RXTTF-003", "(an int literal) is int32 here"),
    (call("tensorflow.math.add", F, D2), "RXTP-RXTTF-003", "is float32 here, the other operand"),
    (call("tensorflow.add", lit(-1), I64_3), "RXTP-RXTTF-003", "InvalidArgumentError"),
    (call("tensorflow.one_hot", T1, lit(5)), "RXTP-RXTTF-083", "int32 or int64"),
    (call("tensorflow.one_hot", I32_1, F), "RXTP-RXTTF-083", "needs an int as operand 2"),
    (call("tensorflow.slice", T2, lit((0,)), lit((2, -1))), "RXTP-RXTTF-082", "one entry per axis"),
    (call("tensorflow.slice", T1, lit((-1,)), lit((2,))), "RXTP-RXTTF-082", "at least 0"),
    # gather: int indices, a result of rank 0 to 4.
    (call("tensorflow.gather", T2, T1), "RXTP-RXTTF-080", "int32 or int64 indices"),
    (call("tensorflow.gather", T4, I32_3), "RXTP-RXTTF-080", "no result of rank 0 to 5"),
    # TensorFlow's third positional parameter is `validate_indices`, not `axis`.
    (call("tensorflow.gather", T2, I32_1, lit(1)), "RXTP-RXTTF-080", "takes 2 operand(s), got 3"),
    (call("tensorflow.nn.embedding_lookup", T2, B1), "RXTP-RXTTF-081", "int32 or int64"),
    # reshape and tile: literal tuples of integers that fit.
    (call("tensorflow.reshape", T2, lit((1, 1, 1, 1, 2, -1))), "RXTP-RXTTF-078", "rank-6"),
    (call("tensorflow.reshape", T2, lit((-1, -1))), "RXTP-RXTTF-078", "at most one is -1"),
    (call("tensorflow.reshape", T2, T1), "RXTP-RXTTF-078", "literal tuple of integers"),
    (call("tensorflow.tile", T3, lit((1, 2))), "RXTP-RXTTF-079", "one non-negative entry"),
    # Activations and statistics of floats only.
    (call("tensorflow.nn.gelu", I32_2), "RXTP-RXTTF-091", "got int32 rank-2"),
    (call("tensorflow.math.reduce_variance", I64_3, lit(0)), "RXTP-RXTTF-087", "got int64 rank-3"),
    (
        call("tensorflow.math.l2_normalize", T2, lit(2)),
        "RXTP-RXTTF-090",
        "out of range for a rank-2 tensor",
    ),
    # Rextio passes no float literal: epsilon must be omitted.
    (
        call(
            "tensorflow.math.l2_normalize",
            T2,
            keywords=(kw("axis", 1), kw("epsilon", literal=False)),
        ),
        "RXTP-RXTTF-090",
        "`epsilon` = a float literal",
    ),
    # Image ops: rank-4 NHWC images (rank 3 for the 1-D forms), known paddings.
    (call("tensorflow.nn.conv2d", T3, T4, lit(1), lit("SAME")), "RXTP-RXTTF-097", "rank-3"),
    (call("tensorflow.nn.conv2d", T4, T4, lit(1), lit("FULL")), "RXTP-RXTTF-097", "'VALID'"),
    # tf.nn.convolution: with dilation it is another composition (space to batch).
    (
        call(
            "tensorflow.nn.convolution",
            T4,
            T4,
            keywords=(kw("padding", "SAME"), kw("dilations", 2)),
        ),
        "RXTP-RXTTF-111",
        "`dilations` only as 1 or (1, 1)",
    ),
    (
        call(
            "tensorflow.nn.convolution",
            T3,
            T3,
            keywords=(kw("strides", (2, 1)), kw("padding", "VALID")),
        ),
        "RXTP-RXTTF-112",
        "`stride`",
    ),
    # An int keyword beyond int32: TensorFlow converts it to int64.
    (call("tensorflow.linalg.band_part", T2, lit(2**40), lit(0)), "RXTP-RXTTF-113", "int"),
    (
        call(
            "tensorflow.nn.convolution",
            T3,
            T3,
            keywords=(kw("stride", 2), kw("padding", "VALID")),
        ),
        "RXTP-RXTTF-112",
        "unsupported keyword `stride`",
    ),
    (
        call("tensorflow.nn.convolution", T2, T2, keywords=(kw("padding", "VALID"),)),
        "RXTP-RXTTF-111",
        "rank-2",
    ),
    (
        call("tensorflow.nn.convolution", T4, T4, keywords=(kw("data_format", "NCHW"),)),
        "RXTP-RXTTF-111",
        "`data_format`",
    ),
    (call("tensorflow.nn.max_pool2d", T4, lit(0), lit(1), lit("SAME")), "RXTP-RXTTF-099", "ksize"),
    # 3-D: dilations (the CPU kernel takes none), a pair of strides, float64 pools.
    (
        call(
            "tensorflow.nn.convolution",
            T5,
            T5,
            keywords=(kw("padding", "SAME"), kw("dilations", 2)),
        ),
        "RXTP-RXTTF-114",
        "dilations",
    ),
    (
        call(
            "tensorflow.nn.convolution",
            T5,
            T5,
            keywords=(kw("strides", (2, 2)), kw("padding", "SAME")),
        ),
        "RXTP-RXTTF-114",
        "strides",
    ),
    (
        call("tensorflow.nn.max_pool3d", D5, lit(2), lit(2), lit("SAME")),
        "RXTP-RXTTF-115",
        "float64",
    ),
    # sort and argsort: numbers of rank 1 to 4, a known direction, an axis in range.
    (call("tensorflow.sort", B2), "RXTP-RXTTF-085", "got bool rank-2"),
    (call("tensorflow.sort", T0), "RXTP-RXTTF-085", "got float32 rank-0"),
    (call("tensorflow.sort", T2, lit(2)), "RXTP-RXTTF-085", "out of range for a rank-2 tensor"),
    (
        call("tensorflow.argsort", T2, keywords=(kw("direction", "UP"),)),
        "RXTP-RXTTF-086",
        "DESCENDING",
    ),
    # where: the condition is a bool tensor, the operands share a type.
    (call("tensorflow.where", T2, T2, T2), "RXTP-RXTTF-077", "a bool condition, then"),
    (call("tensorflow.where", B2, T2, I32_2), "RXTP-RXTTF-077", "one element type"),
    (call("tensorflow.where", lit(1), T2, T2), "RXTP-RXTTF-010", "operands must be"),
    # Ranks outside the rule, per op family: expected and found element type and rank.
    (
        call("tensorflow.matmul", T1, T2),
        "RXTP-RXTTF-001",
        f"needs operands of {NUMBERS} at {ranks(2, 5)}, got float32 rank-1 × float32 rank-2",
    ),
    (
        binop("@", T2, T1),
        "RXTP-RXTTF-028",
        f"cannot lower `a @ b`: needs operands of {NUMBERS} at {ranks(2, 5)}, "
        "got float32 rank-2 × float32 rank-1",
    ),
    (call("tensorflow.matmul", I32_0, I32_2), "RXTP-RXTTF-001", "got int32 rank-0 × int32 rank-2"),
    (
        call("tensorflow.add", T2),
        "RXTP-RXTTF-003",
        f"needs operands of {NUMBERS} at {ranks(0, 5)}, got float32 rank-2",
    ),
    (call("tensorflow.maximum", T1), "RXTP-RXTTF-026", "got float32 rank-1"),
    (
        call("tensorflow.nn.bias_add", T1, T1),
        "RXTP-RXTTF-029",
        f"needs operands of {NUMBERS} at {ranks(2, 5)} × rank 1, "
        "got float32 rank-1 × float32 rank-1",
    ),
    (
        call("tensorflow.nn.bias_add", T3, T2),
        "RXTP-RXTTF-029",
        "got float32 rank-3 × float32 rank-2",
    ),
    (
        call("tensorflow.transpose", T1),
        "RXTP-RXTTF-030",
        f"needs operands of {EVERY_TYPE} at {ranks(2, 5)}, got float32 rank-1",
    ),
    (
        call("tensorflow.reduce_mean", T0, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-004",
        f"needs operands of {NUMBERS} at {ranks(1, 5)}, got float32 rank-0",
    ),
    (
        call("tensorflow.math.reduce_sum", T0, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-031",
        "cannot lower `tf.reduce_sum`: needs operands of",
    ),
    (call("tensorflow.reduce_max", T0, lit(0)), "RXTP-RXTTF-032", "got float32 rank-0"),
    (
        call("tensorflow.nn.softmax", T0),
        "RXTP-RXTTF-034",
        f"{FLOATS} at {ranks(1, 5)}, got float32 rank-0",
    ),
    (
        call("tensorflow.argmax", I32_0, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-036",
        f"needs operands of {EVERY_TYPE} at {ranks(1, 5)}, got int32 rank-0",
    ),
    # Element types the op does not take.
    (
        call("tensorflow.nn.relu", B2),
        "RXTP-RXTTF-002",
        f"needs operands of {NUMBERS} at {ranks(0, 5)}, got bool rank-2",
    ),
    (
        call("tensorflow.exp", I32_3),
        "RXTP-RXTTF-012",
        f"needs operands of {FLOATS} at {ranks(0, 5)}, got int32 rank-3",
    ),
    (call("tensorflow.nn.sigmoid", I64), "RXTP-RXTTF-005", "got int64 rank-1"),
    (call("tensorflow.nn.softmax", I32_2), "RXTP-RXTTF-034", "got int32 rank-2"),
    (call("tensorflow.matmul", B2, B2), "RXTP-RXTTF-001", "got bool rank-2 × bool rank-2"),
    (plus(B2, B2), "RXTP-RXTTF-006", "got bool rank-2 × bool rank-2"),
    (
        call("tensorflow.reduce_sum", B3, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-031",
        "got bool rank-3",
    ),
    # Operands of two element types.
    (
        call("tensorflow.add", T2, I32_3),
        "RXTP-RXTTF-003",
        "needs operands of one element type, got float32 rank-2 × int32 rank-3",
    ),
    (plus(I64, T1), "RXTP-RXTTF-006", "one element type, got int64 rank-1 × float32 rank-1"),
    (call("tensorflow.matmul", I32_3, I64_2), "RXTP-RXTTF-001", "one element type"),
    (binop("@", T2, I32_2), "RXTP-RXTTF-028", "one element type"),
    (call("tensorflow.nn.bias_add", T2, I32_1), "RXTP-RXTTF-029", "one element type"),
    # expand_dims past rank 4 or at an axis out of range.
    (call("tensorflow.expand_dims", T5, lit(0)), "RXTP-RXTTF-071", "got float32 rank-5"),
    (
        call("tensorflow.expand_dims", T2, lit(3)),
        "RXTP-RXTTF-071",
        "out of range for a rank-3 tensor",
    ),
    # squeeze without axis: the result's rank would depend on data.
    (call("tensorflow.squeeze", T3), "RXTP-RXTTF-073", "needs the literal keyword `axis`"),
    # cast to an element type rxt-tf does not have.
    (
        call("tensorflow.cast", T2, lit("uint8")),
        "RXTP-RXTTF-070",
        "supports only `dtype` as a dtype name, 'float32', 'float64', 'bfloat16', 'float16', "
        "'int32', 'int64' or 'bool'",
    ),
    # Ops outside their kernels' element types.
    (call("tensorflow.round", I32_2), "RXTP-RXTTF-051", "got int32 rank-2"),
    (call("tensorflow.reduce_any", T2, lit(0)), "RXTP-RXTTF-067", "got float32 rank-2"),
    # Comparisons and logical ops outside their element types.
    (call("tensorflow.less", B2, B2), "RXTP-RXTTF-040", "got bool rank-2 × bool rank-2"),
    (call("tensorflow.logical_and", T2, T2), "RXTP-RXTTF-044", "needs operands of bool"),
    (call("tensorflow.logical_not", I32_1), "RXTP-RXTTF-046", "got int32 rank-1"),
    # Division of bools: no kernel (integers divide in float64, see ACCEPTED).
    (binop("/", B2, B2), "RXTP-RXTTF-025", "got bool rank-2 × bool rank-2"),
    # A float beside an integer tensor: TensorFlow cannot convert it.
    (binop("*", I32_3, F), "RXTP-RXTTF-023", FLOAT_BESIDE_INT),
    (plus(F, I32_1), "RXTP-RXTTF-006", FLOAT_BESIDE_INT),
    (
        call("tensorflow.add", F, I64),
        "RXTP-RXTTF-003",
        "a float literal cannot stand beside an int64 tensor",
    ),
    (call("tensorflow.maximum", I32_2, F), "RXTP-RXTTF-026", "got int32 rank-2 × a float literal"),
    # An int literal that does not fit the tensor's integer type.
    (binop("*", I32_3, lit(2**31)), "RXTP-RXTTF-023", "the literal 2147483648 does not fit int32"),
    (plus(lit(-(2**63) - 1), I64), "RXTP-RXTTF-006", "does not fit int64"),
    # Too many operands.
    (call("tensorflow.matmul", T2, T2, T2), "RXTP-RXTTF-001", "takes 2 operand(s), got 3"),
    (call("tensorflow.add", T2, T2, T2), "RXTP-RXTTF-003", "takes 2 operand(s), got 3"),
    (call("tensorflow.nn.relu", T2, T2), "RXTP-RXTTF-002", "takes 1 operand(s), got 2"),
    (call("tensorflow.nn.tanh", T2, T2), "RXTP-RXTTF-007", "takes 1 operand(s), got 2"),
    (
        call("tensorflow.nn.bias_add", T2, T1, "str"),
        "RXTP-RXTTF-029",
        "takes 2 operand(s), got 3",
    ),
    (
        call("tensorflow.transpose", T2, lit((1, 0))),
        "RXTP-RXTTF-030",
        "takes 1 operand(s), got 2",
    ),
    # softmax takes one axis after its tensor.
    (
        call("tensorflow.nn.softmax", T2, lit(-1), lit(0)),
        "RXTP-RXTTF-034",
        "takes at most 1 argument(s) after the operands (axis)",
    ),
    (
        call("tensorflow.reduce_sum", T2, lit(1), positional_bool(), lit(0)),
        "RXTP-RXTTF-031",
        "takes at most 2 argument(s) after the operands (axis, keepdims)",
    ),
    (
        call("tensorflow.argmax", T2, lit(1), lit(0)),
        "RXTP-RXTTF-036",
        "takes at most 1 argument(s) after the operands (axis)",
    ),
    # Unknown keywords.
    (
        call("tensorflow.matmul", T2, T2, keywords=(kw("adjoint_b", True),)),
        "RXTP-RXTTF-001",
        "unsupported keyword `adjoint_b`; it accepts only `transpose_a` and `transpose_b`",
    ),
    (
        call("tensorflow.nn.relu", T2, keywords=(kw("name", "h"),)),
        "RXTP-RXTTF-002",
        "unsupported keyword `name`; it takes no keyword arguments",
    ),
    (
        call("tensorflow.nn.sigmoid", T2, keywords=(kw("name", "s"),)),
        "RXTP-RXTTF-005",
        "unsupported keyword `name`",
    ),
    (
        call("tensorflow.tanh", T1, keywords=(kw("name", "t"),)),
        "RXTP-RXTTF-007",
        "unsupported keyword `name`",
    ),
    (
        call("tensorflow.add", T2, T2, keywords=(kw("name", "a"),)),
        "RXTP-RXTTF-003",
        "unsupported keyword `name`; it takes no keyword arguments",
    ),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("name", "b"),)),
        "RXTP-RXTTF-029",
        "unsupported keyword `name`; it accepts only `data_format`",
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("conjugate", False),)),
        "RXTP-RXTTF-030",
        "unsupported keyword `conjugate`; it accepts only `perm`",
    ),
    (
        call("tensorflow.reduce_max", T2, keywords=(kw("axis", 1), kw("name", "m"))),
        "RXTP-RXTTF-032",
        "unsupported keyword `name`; it accepts only `axis` and `keepdims`",
    ),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1), kw("name", "i"))),
        "RXTP-RXTTF-036",
        "unsupported keyword `name`; it accepts only `axis` and `output_type`",
    ),
    (
        call("tensorflow.nn.softmax", T2, keywords=(kw("dim", 1),)),
        "RXTP-RXTTF-034",
        "unsupported keyword `dim`; it accepts only `axis`",
    ),
    # Duplicate keywords (twice by keyword, or by position and by keyword).
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1), kw("axis", 1))),
        "RXTP-RXTTF-004",
        "keyword `axis` given twice",
    ),
    (
        call("tensorflow.reduce_min", T2, lit(0), keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-033",
        "keyword `axis` given twice",
    ),
    (
        call("tensorflow.argmax", T2, lit(1), keywords=(kw("axis", 1),)),
        "RXTP-RXTTF-036",
        "keyword `axis` given twice",
    ),
    (
        call("tensorflow.matmul", T2, T2, keywords=(true("transpose_a"), true("transpose_a"))),
        "RXTP-RXTTF-001",
        "keyword `transpose_a` given twice",
    ),
    # Keywords that are not literals.
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", literal=False),)),
        "RXTP-RXTTF-004",
        AXES_TEXT,
    ),
    (
        call("tensorflow.matmul", T2, T2, keywords=(kw("transpose_b", literal=False),)),
        "RXTP-RXTTF-001",
        "supports only `transpose_b` = a bool literal",
    ),
    (
        call("tensorflow.reduce_sum", T2, keywords=(kw("axis", 1), kw("keepdims", literal=False))),
        "RXTP-RXTTF-031",
        "supports only `keepdims` = False or True",
    ),
    (
        call("tensorflow.nn.softmax", T2, keywords=(kw("axis", literal=False),)),
        "RXTP-RXTTF-034",
        ONE_AXIS_TEXT,
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", literal=False),)),
        "RXTP-RXTTF-030",
        "supports only `perm` = a tuple of int literals",
    ),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", literal=False),)),
        "RXTP-RXTTF-029",
        "supports `data_format` only as 'NHWC'",
    ),
    # leaky_relu's alpha is a float: never a literal to Rextio, so it must be omitted.
    (
        call("tensorflow.nn.leaky_relu", T2, keywords=(kw("alpha", literal=False),)),
        "RXTP-RXTTF-019",
        "supports only `alpha` = a float literal",
    ),
    # argmax's output_type=tf.int64 is an attribute, not a literal: it must be omitted.
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1), kw("output_type", literal=False))),
        "RXTP-RXTTF-036",
        "supports only `output_type` omitted or a dtype name, 'int32' or 'int64'",
    ),
    # Axes that do not fit the rank, or are not axes.
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 2),)),
        "RXTP-RXTTF-004",
        "out of range for a rank-2 tensor, or names an axis twice, got `axis=2`",
    ),
    (
        call("tensorflow.reduce_sum", T3, keywords=(kw("axis", (0, 3)),)),
        "RXTP-RXTTF-031",
        "out of range for a rank-3 tensor, or names an axis twice, got `axis=(0, 3)`",
    ),
    (
        call("tensorflow.reduce_sum", T2, keywords=(kw("axis", (1, -1)),)),
        "RXTP-RXTTF-031",
        "out of range for a rank-2 tensor, or names an axis twice, got `axis=(1, -1)`",
    ),
    (
        call("tensorflow.reduce_min", T4, keywords=(kw("axis", -5),)),
        "RXTP-RXTTF-033",
        "out of range for a rank-4 tensor, or names an axis twice, got `axis=-5`",
    ),
    (
        call("tensorflow.reduce_max", T2, keywords=(kw("axis", ()),)),
        "RXTP-RXTTF-032",
        "`axis=()` names no axis",
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", True),)),
        "RXTP-RXTTF-004",
        AXES_TEXT,
    ),
    (
        call("tensorflow.reduce_max", T2, keywords=(kw("axis", None),)),
        "RXTP-RXTTF-032",
        AXES_TEXT,
    ),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 2),)),
        "RXTP-RXTTF-036",
        "out of range for a rank-2 tensor, or names an axis twice, got `axis=2`",
    ),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", False),)),
        "RXTP-RXTTF-036",
        ONE_AXIS_TEXT,
    ),
    (
        call("tensorflow.argmax", T3, keywords=(kw("axis", (0, 1)),)),
        "RXTP-RXTTF-036",
        ONE_AXIS_TEXT,
    ),
    (
        call("tensorflow.nn.softmax", T2, keywords=(kw("axis", 2),)),
        "RXTP-RXTTF-034",
        "out of range for a rank-2 tensor, or names an axis twice, got `axis=2`",
    ),
    (
        call("tensorflow.nn.log_softmax", T2, keywords=(kw("axis", -3),)),
        "RXTP-RXTTF-035",
        "out of range for a rank-2 tensor, or names an axis twice, got `axis=-3`",
    ),
    (
        call("tensorflow.nn.softmax", T1, keywords=(kw("axis", 1),)),
        "RXTP-RXTTF-034",
        "out of range for a rank-1 tensor, or names an axis twice, got `axis=1`",
    ),
    (
        call("tensorflow.math.log_softmax", T1, keywords=(kw("axis", True),)),
        "RXTP-RXTTF-035",
        ONE_AXIS_TEXT,
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1), kw("keepdims", 1))),
        "RXTP-RXTTF-004",
        "supports only `keepdims` = False or True",
    ),
    (
        call("tensorflow.matmul", T2, T2, keywords=(kw("transpose_a", 1),)),
        "RXTP-RXTTF-001",
        "supports only `transpose_a` = a bool literal",
    ),
    # A perm that is not a permutation of the tensor's axes.
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", (0, 1, 2)),)),
        "RXTP-RXTTF-030",
        "`perm=(0, 1, 2)` is not a permutation of the 2 axes of a rank-2 tensor",
    ),
    (
        call("tensorflow.transpose", T3, keywords=(kw("perm", (1, 0)),)),
        "RXTP-RXTTF-030",
        "`perm=(1, 0)` is not a permutation of the 3 axes of a rank-3 tensor",
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", (0, 0)),)),
        "RXTP-RXTTF-030",
        "is not a permutation",
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", (-1, 0)),)),
        "RXTP-RXTTF-030",
        "is not a permutation",
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", ()),)),
        "RXTP-RXTTF-030",
        "`perm=()` is not a permutation",
    ),
    # A reduction of a scalar without an axis (of a tensor: every axis), argmax
    # without an axis.
    (
        call("tensorflow.reduce_mean", T0),
        "RXTP-RXTTF-004",
        "reduces no axis of a rank-0 tensor without `axis`",
    ),
    (
        call("tensorflow.math.reduce_max", T0, keywords=(true("keepdims"),)),
        "RXTP-RXTTF-032",
        "reduces no axis of a rank-0 tensor",
    ),
    (
        # Without `axis` it is 0, as TensorFlow's: of a rank-0 tensor, none.
        call("tensorflow.argmax", T0),
        "RXTP-RXTTF-036",
        "at ranks 1\N{EN DASH}5, got float32 rank-0",
    ),
    # Positional arguments Rextio gives no literal for.
    (
        call("tensorflow.reduce_sum", T2, lit(1), positional_bool()),
        "RXTP-RXTTF-031",
        "a positional `keepdims` must be a literal Rextio can read; pass it as the keyword",
    ),
    # An axis known at run time is an int; a float is no axis.
    (
        call("tensorflow.reduce_mean", T2, "float"),
        "RXTP-RXTTF-004",
        "a positional `axis` must be a literal Rextio can read",
    ),
    (
        call("tensorflow.argmax", T2, "float"),
        "RXTP-RXTTF-036",
        "a positional `axis` must be a literal Rextio can read",
    ),
    (
        call("tensorflow.reduce_mean", T2, "int", "int", tree=False),
        "RXTP-RXTTF-004",
        "a positional `keepdims` must be a literal Rextio can read",
    ),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NCHW"),)),
        "RXTP-RXTTF-029",
        "supports `data_format` only as 'NHWC'",
    ),
    # tf.convert_to_tensor with another dtype stays on Python (it raises);
    # zeros_like/ones_like take another type's name only (a cast of the result).
    (
        call("tensorflow.convert_to_tensor", T2, keywords=(kw("dtype", "float64"),)),
        "RXTP-RXTTF-106",
        "not the tensor's element type, float32",
    ),
    (
        call("tensorflow.zeros_like", T2, keywords=(kw("dtype", "complex64"),)),
        "RXTP-RXTTF-047",
        "not the tensor's element type",
    ),
    (
        call("tensorflow.ones_like", T2, keywords=(kw("dtype", 3),)),
        "RXTP-RXTTF-048",
        "not the tensor's element type",
    ),
    # tf.fill: literal sizes of at least 0, and a scalar value.
    (call("tensorflow.fill", lit((2, -1)), F), "RXTP-RXTTF-109", "each size is at least 0"),
    (
        call("tensorflow.fill", lit((2,)), T1),
        "RXTP-RXTTF-109",
        "got the tuple (2,) × float32 rank-1",
    ),
    (call("tensorflow.fill", "tuple[int, float]", F), "RXTP-RXTTF-109", "a literal tuple"),
    (call("tensorflow.fill", "tuple[int, ...]", F), "RXTP-RXTTF-109", "a literal tuple"),
    # tf.eye: a size of at least 0, a square matrix only.
    (call("tensorflow.eye", lit(-1)), "RXTP-RXTTF-108", "non-negative size"),
    (call("tensorflow.eye", lit(2), lit(3)), "RXTP-RXTTF-108", "takes 1 operand"),
    (
        call("tensorflow.eye", lit(2), keywords=(kw("num_columns", 3),)),
        "RXTP-RXTTF-108",
        "`num_columns`",
    ),
    # The value clip_by_value clips must be a tensor (its Rust signature's).
    (call("tensorflow.clip_by_value", F, T0, T0), "RXTP-RXTTF-010", "operands must be"),
    (
        call("tensorflow.broadcast_to", T2, lit((1, 2, 3, 4, 5, 6))),
        "RXTP-RXTTF-107",
        "ranks 0 to 5",
    ),
    # tf.linalg.band_part: a matrix or more, literal counts.
    (call("tensorflow.linalg.band_part", T1, lit(-1), lit(0)), "RXTP-RXTTF-113", "rank-1"),
    (call("tensorflow.linalg.band_part", T2, "int", lit(0)), "RXTP-RXTTF-113", "literal"),
    # tf.tensordot: axes each operand has, as many on each side, a result of rank 4 at most.
    (call("tensorflow.tensordot", T2, T2, lit((2, 0))), "RXTP-RXTTF-110", "does not fit"),
    (call("tensorflow.tensordot", T2, T2, lit((0, 1, 0))), "RXTP-RXTTF-110", "supports"),
    (call("tensorflow.tensordot", T2, T2, lit(-1)), "RXTP-RXTTF-110", "supports"),
    (call("tensorflow.tensordot", T3, T3, lit(0)), "RXTP-RXTTF-110", "rank 6"),
    (call("tensorflow.tensordot", T3, T2), "RXTP-RXTTF-110", "needs the literal keyword `axes`"),
    (call("tensorflow.tensordot", T3, D2, lit(1)), "RXTP-RXTTF-110", "float64"),
    # tf.truediv converts a leading float literal to float32 on its own.
    (call("tensorflow.truediv", F, D2), "RXTP-RXTTF-105", "is float32 here, the other operand"),
    # New tensors: at most four literal sizes, none negative; Python's
    # `tf.zeros` has no `value`, and a positional dtype is no literal to Rextio.
    (call("tensorflow.zeros", lit((1, 2, 3, 4, 5, 6))), "RXTP-RXTTF-103", "ranks 0 to 5"),
    (call("tensorflow.ones", lit((2, -1))), "RXTP-RXTTF-104", "each size is at least 0"),
    (call("tensorflow.ones", lit((2,)), keywords=(kw("value", 1),)), "RXTP-RXTTF-104", "`value`"),
    (
        call("tensorflow.zeros", lit((2,)), keywords=(kw("dtype", "int8"),)),
        "RXTP-RXTTF-103",
        "'int32'",
    ),
    (call("tensorflow.zeros", lit((2,)), "str"), "RXTP-RXTTF-103", "a positional `dtype`"),
    (call("tensorflow.zeros", "list[int]"), "RXTP-RXTTF-103", "a literal tuple"),
    # tf.constant: one number; an int beyond int32 makes int64 (so does tf.fill's).
    (call("tensorflow.constant", T0), "RXTP-RXTTF-125", "takes one number"),
    (call("tensorflow.constant", F, F), "RXTP-RXTTF-125", "takes one number"),
    (call("tensorflow.constant", "list[float]"), "RXTP-RXTTF-125", "takes one number"),
    (call("tensorflow.constant", lit(2**31)), "RXTP-RXTTF-125", "int64"),
    (call("tensorflow.fill", lit((2,)), lit(-(2**31) - 1)), "RXTP-RXTTF-109", "int64"),
    (
        call("tensorflow.constant", F, keywords=(kw("dtype", "float64"),)),
        "RXTP-RXTTF-125",
        "unsupported keyword",
    ),
    # tf.range: ints only, int32's range for literals, no keywords.
    (call("tensorflow.range", lit(2**31)), "RXTP-RXTTF-124", "int64 range"),
    (call("tensorflow.range", lit(-(2**31) - 1), "int"), "RXTP-RXTTF-124", "int64 range"),
    (call("tensorflow.range", "float"), "RXTP-RXTTF-124", "one to three ints"),
    (call("tensorflow.range", T0), "RXTP-RXTTF-124", "one to three ints"),
    (call("tensorflow.range", "int", "int", "int", "int"), "RXTP-RXTTF-124", "one to three"),
    (call("tensorflow.range", "int", keywords=(kw("delta", 2),)), "RXTP-RXTTF-124", "positionally"),
    # An int variable is not a literal.
    (binop("*", T2, "int"), "RXTP-RXTTF-037", f"{TENSORS_OR_NUMBERS} ({T2}, int)"),
    (call("tensorflow.add", I32_2, "int"), "RXTP-RXTTF-010", TENSORS_OR_NUMBERS),
    (binop("*", T2, lit(2), tree=False), "RXTP-RXTTF-037", TENSORS_OR_NUMBERS),
    # A float beside an integer tensor: TensorFlow raises TypeError.
    (binop("*", I32_2, FVAR), "RXTP-RXTTF-023", "cannot stand beside an int32 tensor"),
    # Number literals where the op takes tensors only.
    (call("tensorflow.matmul", T2, F), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, float)"),
    (binop("@", F, T2), "RXTP-RXTTF-037", f"{TENSORS_ONLY} (float, {T2})"),
    (call("tensorflow.nn.bias_add", T2, F), "RXTP-RXTTF-010", TENSORS_ONLY),
    (call("tensorflow.nn.bias_add", T2, lit(1)), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, int)"),
    (binop("@", T2, lit(2)), "RXTP-RXTTF-037", TENSORS_ONLY),
    # Operand types outside the plugin's vocabulary on covered calls...
    (call("tensorflow.matmul", T2, "int"), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, int)"),
    (call("tensorflow.matmul", T2, "float"), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, float)"),
    (
        call("tensorflow.nn.relu", "rxt-tf/tensor-u8-cpu-2d"),
        "RXTP-RXTTF-010",
        TENSORS_ONLY,
    ),
    (call("tensorflow.nn.relu", "rxt-tf/tensor-f32-cpu-6d"), "RXTP-RXTTF-010", TENSORS_ONLY),
    (call("tensorflow.add", "tensorflow.Tensor", T2), "RXTP-RXTTF-010", TENSORS_OR_NUMBERS),
    (
        call("tensorflow.reduce_sum", "tensorflow.Tensor", keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-010",
        TENSORS_ONLY,
    ),
    # ... and on covered operators.
    (plus(T2, "str"), "RXTP-RXTTF-037", f"{TENSORS_OR_NUMBERS} ({T2}, str)"),
    (plus(T2, "bool"), "RXTP-RXTTF-037", TENSORS_OR_NUMBERS),
    (plus("tensorflow.Tensor", "tensorflow.Tensor"), "RXTP-RXTTF-037", TENSORS_OR_NUMBERS),
    (binop("@", T2, "list[float]"), "RXTP-RXTTF-037", TENSORS_ONLY),
]


@pytest.mark.parametrize(
    ("site", "code", "words"), REJECTED, ids=[describe(row[0]) for row in REJECTED]
)
def test_unsupported_forms_are_rejected_with_a_diagnostic(site, code, words) -> None:  # type: ignore[no-untyped-def]
    result = claim(site)
    assert isinstance(result, Rejected), result
    assert result.diagnostic.code == code
    assert words in result.diagnostic.message, result.diagnostic.message
    assert result.diagnostic.message.startswith("rxt-tf cannot lower")
    assert result.diagnostic.suggestion
    assert (result.diagnostic.file_path, result.diagnostic.line) == ("model.py", 3)


def test_rejections_suggest_what_to_write() -> None:
    def suggestion(site) -> str:  # type: ignore[no-untyped-def]
        result = claim(site)
        assert isinstance(result, Rejected), result
        return str(result.diagnostic.suggestion)

    assert suggestion(binop("*", I32_2, F)) == "write an int literal"
    assert suggestion(call("tensorflow.reduce_sum", T0)) == "keep it on Python"
    assert suggestion(call("tensorflow.reduce_sum", T2, lit(1), positional_bool())) == (
        "write `keepdims=<False or True>` as a keyword"
    )
    assert suggestion(call("tensorflow.reduce_sum", T2, lit(1), lit(0), lit(0))) == (
        "write tf.reduce_sum(x, axis=0)"
    )
    assert suggestion(
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NCHW"),))
    ) == ("omit `data_format` or write `data_format='NHWC'`")
    assert suggestion(call("tensorflow.transpose", T3, keywords=(kw("perm", (0, 1)),))) == (
        "write a permutation of 0..2, e.g. `perm=(2, 1, 0)`"
    )
    assert suggestion(call("tensorflow.reduce_mean", T3, keywords=(kw("axis", 3),))) == (
        "write axes between -3 and 2"
    )
    assert suggestion(plus(T2, I32_2)) == (
        "cast one operand to the other's element type first (tf.cast is not lowered, so do it "
        "outside this function)"
    )


@pytest.mark.parametrize("site", REJECTED_FORMS, ids=[describe(site) for site in REJECTED_FORMS])
def test_comparisons_and_indexes_outside_the_typed_forms_are_rejected(site) -> None:  # type: ignore[no-untyped-def]
    result = claim(site)
    assert isinstance(result, Rejected), result
    assert result.diagnostic.message.startswith("rxt-tf cannot lower")
    assert result.diagnostic.suggestion
