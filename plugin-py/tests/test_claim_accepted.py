"""Claim outcomes: every Python spelling the table accepts, with its rule id
and result type.

The expectations are written out here (rule ids, result types), not read
from the op table, so a wrong table fails these tests.
"""

from __future__ import annotations

import pytest
from claims import claim, describe, false, true
from half_claims import HALVES
from index_compare_claims import COMPARES, SLICES
from layer_claims import LAYERS
from rextio.plugins.api import Claimed, ClaimExpr
from sites import (
    B0,
    B1,
    B2,
    B3,
    B4,
    D0,
    D1,
    D2,
    D3,
    D4,
    FVAR,
    I32_0,
    I32_1,
    I32_2,
    I32_3,
    I32_4,
    I64,
    I64_0,
    I64_2,
    I64_3,
    I64_4,
    T0,
    T1,
    T2,
    T3,
    T4,
    Arg,
    F,
    binop,
    call,
    kw,
    lit,
    rule_id,
)

from rxt_tf_plugin.ops import OPS, TENSOR_TYPES

# Each unary element-wise spelling and its rule: float32 at ranks 0 to 4, result of the same type.
UNARY = [
    ("tensorflow.nn.relu", rule_id("relu")),
    ("tensorflow.nn.sigmoid", rule_id("sigmoid")),
    ("tensorflow.sigmoid", rule_id("sigmoid")),
    ("tensorflow.math.sigmoid", rule_id("sigmoid")),
    ("tensorflow.nn.tanh", rule_id("tanh")),
    ("tensorflow.math.tanh", rule_id("tanh")),
    ("tensorflow.tanh", rule_id("tanh")),
    ("tensorflow.abs", rule_id("abs")),
    ("tensorflow.math.abs", rule_id("abs")),
    ("tensorflow.negative", rule_id("neg")),
    ("tensorflow.math.negative", rule_id("neg")),
    ("tensorflow.square", rule_id("square")),
    ("tensorflow.math.square", rule_id("square")),
    ("tensorflow.exp", rule_id("exp")),
    ("tensorflow.math.exp", rule_id("exp")),
    ("tensorflow.math.log", rule_id("log")),
    ("tensorflow.sqrt", rule_id("sqrt")),
    ("tensorflow.math.sqrt", rule_id("sqrt")),
    ("tensorflow.math.rsqrt", rule_id("rsqrt")),
    ("tensorflow.nn.relu6", rule_id("relu6")),
    ("tensorflow.nn.elu", rule_id("elu")),
    ("tensorflow.nn.softplus", rule_id("softplus")),
    ("tensorflow.math.softplus", rule_id("softplus")),
    ("tensorflow.nn.leaky_relu", rule_id("leaky_relu")),
]

# Each broadcasting call spelling and its rule.
BROADCAST_CALLS = [
    ("tensorflow.add", rule_id("add")),
    ("tensorflow.math.add", rule_id("add")),
    ("tensorflow.subtract", rule_id("sub")),
    ("tensorflow.math.subtract", rule_id("sub")),
    ("tensorflow.multiply", rule_id("mul")),
    ("tensorflow.math.multiply", rule_id("mul")),
    ("tensorflow.divide", rule_id("div")),
    ("tensorflow.math.divide", rule_id("div")),
    ("tensorflow.maximum", rule_id("maximum")),
    ("tensorflow.math.maximum", rule_id("maximum")),
    ("tensorflow.minimum", rule_id("minimum")),
    ("tensorflow.math.minimum", rule_id("minimum")),
]

# Each broadcasting operator and its rule.
BROADCAST_BINOPS = [
    ("+", rule_id("add", "binop")),
    ("-", rule_id("sub", "binop")),
    ("*", rule_id("mul", "binop")),
    ("/", rule_id("div", "binop")),
]

# Unary ops whose kernels also take integers (relu, abs, neg, square, relu6).
INTEGER_UNARY = [
    ("tensorflow.nn.relu", rule_id("relu")),
    ("tensorflow.abs", rule_id("abs")),
    ("tensorflow.negative", rule_id("neg")),
    ("tensorflow.square", rule_id("square")),
    ("tensorflow.nn.relu6", rule_id("relu6")),
]

# (left, right, result): float32 operand pairs every broadcasting op takes
# (F: a float literal; lit(2): an int literal, which takes the tensor's type).
FLOAT_PAIRS = [
    (T2, T2, T2),
    (T1, T1, T1),
    (T2, T1, T2),
    (T1, T2, T2),
    (T3, T1, T3),
    (T0, T4, T4),
    (T4, T3, T4),
    (T2, F, T2),
    (T1, F, T1),
    (F, T2, T2),
    (F, T4, T4),
    (T2, lit(2), T2),
    (lit(-3), T3, T3),
]

ADDS = ("tensorflow.add", "tensorflow.math.add")
"""`tf.add`'s call forms: a leading literal keeps Python's type (int32, float32)."""


def leading_literal_fits(target: str, left: object, right: object) -> bool:
    """Whether eager takes `target(left, right)`: for `tf.add`, a leading
    literal must already be the tensor's type (an int with int32, a float
    with float32)."""
    if target not in ADDS:
        return True
    if left == F:
        return right in (T0, T1, T2, T3, T4)
    literal = getattr(left, "literal", None)
    if literal is None or not literal.is_literal:
        return True
    return right in (I32_0, I32_1, I32_2, I32_3, I32_4)


# Integer operand pairs: every broadcasting op takes them.
INTEGER_PAIRS = [
    (I32_3, I32_3, I32_3),
    (I32_3, I32_1, I32_3),
    (I32_0, I32_4, I32_4),
    (I64_2, I64, I64_2),
    (I32_2, lit(2), I32_2),
    (lit(-1), I64_3, I64_3),
]
# ... division as `tf.divide` does it: a true division in float64.
INTEGER_QUOTIENTS = [
    (I32_3, I32_3, D3),
    (I32_3, I32_1, D3),
    (I32_0, I32_4, D4),
    (I64_2, I64, D2),
    (I32_2, lit(2), D2),
    (lit(-1), I64_3, D3),
]

INTEGERS = (I32_0, I32_1, I32_2, I32_3, I32_4, I64_0, I64, I64_2, I64_3, I64_4)
"""int32 and int64 tensors of every rank."""

DIVISIONS = {"tensorflow.divide", "tensorflow.math.divide", "/"}

REDUCTIONS = [
    ("tensorflow.reduce_mean", rule_id("reduce_mean")),
    ("tensorflow.math.reduce_mean", rule_id("reduce_mean")),
    ("tensorflow.reduce_sum", rule_id("reduce_sum")),
    ("tensorflow.math.reduce_sum", rule_id("reduce_sum")),
    ("tensorflow.reduce_max", rule_id("reduce_max")),
    ("tensorflow.math.reduce_max", rule_id("reduce_max")),
    ("tensorflow.reduce_min", rule_id("reduce_min")),
    ("tensorflow.math.reduce_min", rule_id("reduce_min")),
]

SOFTMAXES = [
    ("tensorflow.nn.softmax", rule_id("softmax")),
    ("tensorflow.math.softmax", rule_id("softmax")),
    ("tensorflow.nn.log_softmax", rule_id("log_softmax")),
    ("tensorflow.math.log_softmax", rule_id("log_softmax")),
]

ARGMAXES = [
    ("tensorflow.argmax", rule_id("argmax")),
    ("tensorflow.math.argmax", rule_id("argmax")),
]

AXES = (0, 1, -1, -2)
"""The reduction and argmax axes of a rank-2 tensor."""

MATMUL = rule_id("matmul")
MATMUL_AT = rule_id("matmul", "binop")
BIAS_ADD = rule_id("bias_add")
TRANSPOSE = rule_id("transpose")
REDUCE_SUM = rule_id("reduce_sum")
ARGMAX = rule_id("argmax")
SOFTMAX = rule_id("softmax")

ACCEPTED = [
    # (site, rule id, result type)
    # matmul: ranks 2 to 5 each (batch dimensions broadcast), every number type.
    (call("tensorflow.matmul", T2, T2), MATMUL, T2),
    (call("tensorflow.linalg.matmul", T2, T2), MATMUL, T2),
    (call("tensorflow.matmul", T3, T2), MATMUL, T3),
    (call("tensorflow.matmul", T2, T4), MATMUL, T4),
    (call("tensorflow.matmul", T4, T4), MATMUL, T4),
    (call("tensorflow.matmul", I32_3, I32_3), MATMUL, I32_3),
    (call("tensorflow.linalg.matmul", I64_2, I64_2), MATMUL, I64_2),
    # matmul: literal bool transpose_a / transpose_b, and `a @ b`.
    (call("tensorflow.matmul", T2, T2, keywords=(true("transpose_a"),)), MATMUL, T2),
    (call("tensorflow.linalg.matmul", T2, T2, keywords=(true("transpose_b"),)), MATMUL, T2),
    (
        call("tensorflow.matmul", T3, T3, keywords=(true("transpose_a"), true("transpose_b"))),
        MATMUL,
        T3,
    ),
    (
        call("tensorflow.matmul", T2, T2, keywords=(false("transpose_b"), false("transpose_a"))),
        MATMUL,
        T2,
    ),
    (binop("@", T2, T2), MATMUL_AT, T2),
    (binop("@", T4, T2), MATMUL_AT, T4),
    (binop("@", I64_3, I64_3), MATMUL_AT, I64_3),
    # Unary element-wise ops: float32 at every rank, result of the same type.
    *((call(target, t), rule, t) for target, rule in UNARY for t in (T0, T1, T2, T3, T4)),
    # ... and int32 / int64 where the kernel takes integers.
    *((call(target, t), rule, t) for target, rule in INTEGER_UNARY for t in (I32_3, I64, I32_0)),
    *((call("tensorflow.nn.relu", t), rule_id("relu"), t) for t in INTEGERS),
    # Broadcasting calls and operators: every rank pair, literals on either side.
    *(
        (call(target, left, right), rule, result)
        for target, rule in BROADCAST_CALLS
        for left, right, result in FLOAT_PAIRS
        + (INTEGER_PAIRS if target not in DIVISIONS else INTEGER_QUOTIENTS)
        if leading_literal_fits(target, left, right)
    ),
    *(
        (binop(operator, left, right), rule, result)
        for operator, rule in BROADCAST_BINOPS
        for left, right, result in FLOAT_PAIRS
        + (INTEGER_PAIRS if operator not in DIVISIONS else INTEGER_QUOTIENTS)
    ),
    # Two int64 vectors.
    (binop("*", I64, I64), rule_id("mul", "binop"), I64),
    # bias_add: rank 2 to 4 and a rank-1 bias, with data_format omitted or 'NHWC'.
    (call("tensorflow.nn.bias_add", T2, T1), BIAS_ADD, T2),
    (call("tensorflow.nn.bias_add", T4, T1), BIAS_ADD, T4),
    (call("tensorflow.nn.bias_add", I32_3, I32_1), BIAS_ADD, I32_3),
    (call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NHWC"),)), BIAS_ADD, T2),
    # transpose: any element type at rank 2 to 4; perm omitted or a permutation of the axes.
    (call("tensorflow.transpose", T2), TRANSPOSE, T2),
    (call("tensorflow.transpose", T2, keywords=(kw("perm", (1, 0)),)), TRANSPOSE, T2),
    (call("tensorflow.transpose", T2, keywords=(kw("perm", (0, 1)),)), TRANSPOSE, T2),
    (call("tensorflow.transpose", T3, keywords=(kw("perm", (0, 2, 1)),)), TRANSPOSE, T3),
    (call("tensorflow.transpose", T4, keywords=(kw("perm", (0, 2, 3, 1)),)), TRANSPOSE, T4),
    (call("tensorflow.transpose", B2), TRANSPOSE, B2),
    (call("tensorflow.transpose", B3, keywords=(kw("perm", (2, 0, 1)),)), TRANSPOSE, B3),
    (call("tensorflow.transpose", B4), TRANSPOSE, B4),
    (call("tensorflow.transpose", I64_3), TRANSPOSE, I64_3),
    # Reductions of a matrix: each axis by keyword and by position; keepdims=True keeps rank 2.
    *(
        (call(target, T2, keywords=(kw("axis", axis),)), rule, T1)
        for target, rule in REDUCTIONS
        for axis in AXES
    ),
    *((call(target, T2, lit(axis)), rule, T1) for target, rule in REDUCTIONS for axis in AXES),
    *(
        row
        for target, rule in REDUCTIONS
        for row in (
            (call(target, T2, keywords=(kw("axis", 0), true("keepdims"))), rule, T2),
            (call(target, T2, keywords=(kw("axis", -2), false("keepdims"))), rule, T1),
            (call(target, T2, keywords=(true("keepdims"), kw("axis", -1))), rule, T2),
            (call(target, T2, lit(1), keywords=(true("keepdims"),)), rule, T2),
            (call(target, T2, lit(-1), keywords=(false("keepdims"),)), rule, T1),
            # Several axes: a tuple, by keyword or position.
            (call(target, T3, keywords=(kw("axis", (0, 2)),)), rule, T1),
            (call(target, T3, lit((0, 2)), keywords=(true("keepdims"),)), rule, T3),
            (call(target, T2, keywords=(kw("axis", (0, 1)),)), rule, T0),
            (call(target, T4, keywords=(kw("axis", (-1, 1)),)), rule, T2),
            (call(target, T4, keywords=(kw("axis", 3),)), rule, T3),
            (call(target, T1, keywords=(kw("axis", 0),)), rule, T0),
            (call(target, I32_3, keywords=(kw("axis", 1),)), rule, I32_2),
            (call(target, I64_2, lit((1, 0))), rule, I64_0),
        )
    ),
    # softmax / log_softmax: float32 at rank 1 to 4, axis in range (default -1).
    *(
        row
        for target, rule in SOFTMAXES
        for row in (
            (call(target, T2), rule, T2),
            (call(target, T2, keywords=(kw("axis", 0),)), rule, T2),
            (call(target, T2, keywords=(kw("axis", 1),)), rule, T2),
            (call(target, T2, keywords=(kw("axis", -1),)), rule, T2),
            (call(target, T1), rule, T1),
            (call(target, T1, keywords=(kw("axis", 0),)), rule, T1),
            (call(target, T1, keywords=(kw("axis", -1),)), rule, T1),
            (call(target, T4, keywords=(kw("axis", 2),)), rule, T4),
            (call(target, T3, keywords=(kw("axis", -3),)), rule, T3),
        )
    ),
    # argmax: each axis by keyword and by position; the result is int64 of rank - 1.
    *(
        (call(target, T2, keywords=(kw("axis", axis),)), rule, I64)
        for target, rule in ARGMAXES
        for axis in AXES
    ),
    *((call(target, T2, lit(axis)), rule, I64) for target, rule in ARGMAXES for axis in AXES),
    (call("tensorflow.argmax", T3, keywords=(kw("axis", 1),)), ARGMAX, I64_2),
    (call("tensorflow.argmax", T4, lit(-1)), ARGMAX, I64_3),
    (call("tensorflow.argmax", B2, lit(0)), ARGMAX, I64),
    (call("tensorflow.argmax", B1, lit(0)), ARGMAX, I64_0),
    (call("tensorflow.math.argmax", I32_1, keywords=(kw("axis", 0),)), ARGMAX, I64_0),
    (call("tensorflow.argmax", I64, lit(0)), ARGMAX, I64_0),
    # Without `axis`: 0, as TensorFlow's `axis=None` is.
    (call("tensorflow.argmax", T3), ARGMAX, I64_2),
    (call("tensorflow.math.argmin", B2), rule_id("argmin"), I64),
    # output_type as TensorFlow also takes it: the dtype's name.
    (
        call("tensorflow.argmax", T3, keywords=(kw("axis", -1), kw("output_type", "int32"))),
        ARGMAX,
        I32_2,
    ),
    (
        call("tensorflow.math.argmax", T2, keywords=(kw("axis", 1), kw("output_type", "int64"))),
        ARGMAX,
        I64,
    ),
    # Comparisons: bool tensors of the broadcast rank; literals as for arithmetic.
    (call("tensorflow.equal", T2, T2), rule_id("equal"), B2),
    (call("tensorflow.math.equal", I32_3, lit(0)), rule_id("equal"), B3),
    (call("tensorflow.not_equal", I32_2, lit(0)), rule_id("not_equal"), B2),
    (call("tensorflow.math.not_equal", B2, B2), rule_id("not_equal"), B2),
    (call("tensorflow.less", T1, T0), rule_id("less"), B1),
    (call("tensorflow.math.less", I64_2, I64), rule_id("less"), B2),
    (call("tensorflow.less_equal", T3, F), rule_id("less_equal"), B3),
    (call("tensorflow.math.less_equal", lit(1), I32_1), rule_id("less_equal"), B1),
    (call("tensorflow.greater", T4, T1), rule_id("greater"), B4),
    (call("tensorflow.math.greater", D2, D2), rule_id("greater"), B2),
    (call("tensorflow.greater_equal", I32_0, I32_4), rule_id("greater_equal"), B4),
    (call("tensorflow.math.greater_equal", T2, F), rule_id("greater_equal"), B2),
    # More element-wise ops, on the element types of their kernels.
    (call("tensorflow.zeros_like", B4), rule_id("zeros_like"), B4),
    (call("tensorflow.ones_like", I64_3), rule_id("ones_like"), I64_3),
    (call("tensorflow.identity", T1), rule_id("identity"), T1),
    (call("tensorflow.sign", T1), rule_id("sign"), T1),
    (call("tensorflow.math.sign", I32_3), rule_id("sign"), I32_3),
    (call("tensorflow.round", T3), rule_id("round"), T3),
    (call("tensorflow.math.round", D2), rule_id("round"), D2),
    (call("tensorflow.floor", T4), rule_id("floor"), T4),
    (call("tensorflow.math.floor", D0), rule_id("floor"), D0),
    (call("tensorflow.math.ceil", D3), rule_id("ceil"), D3),
    (call("tensorflow.math.reciprocal", T1), rule_id("reciprocal"), T1),
    (call("tensorflow.math.log1p", T3), rule_id("log1p"), T3),
    (call("tensorflow.math.expm1", T0), rule_id("expm1"), T0),
    (call("tensorflow.sin", T2), rule_id("sin"), T2),
    (call("tensorflow.math.sin", D1), rule_id("sin"), D1),
    (call("tensorflow.cos", D1), rule_id("cos"), D1),
    (call("tensorflow.math.cos", T2), rule_id("cos"), T2),
    (call("tensorflow.math.erf", T3), rule_id("erf"), T3),
    (call("tensorflow.math.is_nan", T1), rule_id("is_nan"), B1),
    (call("tensorflow.math.is_finite", D1), rule_id("is_finite"), B1),
    (call("tensorflow.math.squared_difference", T4, T1), rule_id("squared_difference"), T4),
    (call("tensorflow.pow", T3, F), rule_id("pow"), T3),
    (call("tensorflow.math.pow", I64_3, I64), rule_id("pow"), I64_3),
    (call("tensorflow.math.floordiv", I32_3, lit(3)), rule_id("floordiv"), I32_3),
    (call("tensorflow.math.floormod", I32_3, lit(-5)), rule_id("floormod"), I32_3),
    (call("tensorflow.math.mod", T1, T0), rule_id("floormod"), T1),
    (
        call("tensorflow.reduce_prod", T3, keywords=(kw("axis", (0, 2)),)),
        rule_id("reduce_prod"),
        T1,
    ),
    (
        call("tensorflow.math.reduce_prod", I32_2, keywords=(kw("axis", 1), true("keepdims"))),
        rule_id("reduce_prod"),
        I32_2,
    ),
    (
        call("tensorflow.reduce_any", B4, keywords=(kw("axis", (1, -1)),)),
        rule_id("reduce_any"),
        B2,
    ),
    (call("tensorflow.math.reduce_any", B2, lit(0)), rule_id("reduce_any"), B1),
    (call("tensorflow.reduce_all", B3, keywords=(kw("axis", 2),)), rule_id("reduce_all"), B2),
    (call("tensorflow.math.reduce_all", B1, lit(0)), rule_id("reduce_all"), B0),
    (call("tensorflow.argmin", T3, keywords=(kw("axis", -1),)), rule_id("argmin"), I64_2),
    (call("tensorflow.math.argmin", B2, lit(1)), rule_id("argmin"), I64),
    # cast: the element type by its name, keyword or positional.
    (call("tensorflow.cast", T2, lit("int32")), rule_id("cast"), I32_2),
    (call("tensorflow.cast", I64_3, keywords=(kw("dtype", "float64"),)), rule_id("cast"), D3),
    (call("tensorflow.dtypes.cast", B0, lit("float32")), rule_id("cast"), T0),
    (call("tensorflow.cast", D4, lit("bool")), rule_id("cast"), B4),
    # expand_dims: a new axis anywhere from the front to after the last.
    (call("tensorflow.expand_dims", T2, keywords=(kw("axis", -1),)), rule_id("expand_dims"), T3),
    (call("tensorflow.expand_dims", I32_0, lit(0)), rule_id("expand_dims"), I32_1),
    (call("tensorflow.expand_dims", B3, keywords=(kw("axis", 3),)), rule_id("expand_dims"), B4),
    # shape: a rank-1 int32 tensor, or out_type by its name.
    (call("tensorflow.shape", T3), rule_id("shape"), I32_1),
    (call("tensorflow.shape", B0, keywords=(kw("out_type", "int64"),)), rule_id("shape"), I64),
    # squeeze: the named axes of size 1 go.
    (call("tensorflow.squeeze", T3, keywords=(kw("axis", 1),)), rule_id("squeeze"), T2),
    (
        call("tensorflow.squeeze", I64_4, keywords=(kw("axis", (0, -1)),)),
        rule_id("squeeze"),
        I64_2,
    ),
    (call("tensorflow.squeeze", B1, lit(0)), rule_id("squeeze"), B0),
    # stop_gradient, cumsum, reverse: the tensor's type.
    (call("tensorflow.stop_gradient", B0), rule_id("stop_gradient"), B0),
    (call("tensorflow.stop_gradient", D4), rule_id("stop_gradient"), D4),
    (call("tensorflow.cumsum", T3), rule_id("cumsum"), T3),
    (
        call("tensorflow.math.cumsum", I64_4, lit(-1), lit(True), lit(True)),
        rule_id("cumsum"),
        I64_4,
    ),
    (
        call("tensorflow.cumsum", I32_1, keywords=(kw("axis", 0), kw("exclusive", True))),
        rule_id("cumsum"),
        I32_1,
    ),
    (call("tensorflow.reverse", B3, lit((0, -1))), rule_id("reverse"), B3),
    (call("tensorflow.reverse", T2, keywords=(kw("axis", 1),)), rule_id("reverse"), T2),
    # where: a bool condition, two operands of one type, all broadcasting.
    (call("tensorflow.where", B2, T2, T0), rule_id("where"), T2),
    (call("tensorflow.where", B4, I64_2, lit(0)), rule_id("where"), I64_4),
    (call("tensorflow.where", B0, F, D3), rule_id("where"), D3),
    (call("tensorflow.where", B1, B3, B3), rule_id("where"), B3),
    # reshape: the rank is the number of sizes; tile: one multiple per axis.
    (call("tensorflow.reshape", T2, lit((2, -1))), rule_id("reshape"), T2),
    (call("tensorflow.reshape", I64_4, lit((-1,))), rule_id("reshape"), I64),
    (call("tensorflow.reshape", B0, lit((1, 1, 1, 1))), rule_id("reshape"), B4),
    (call("tensorflow.reshape", D3, lit(())), rule_id("reshape"), D0),
    # Sizes known at run time (`(batch, -1, 2, 4)`): the rank is their count.
    (call("tensorflow.reshape", T2, "tuple[int, int, int, int]"), rule_id("reshape"), T4),
    (call("tensorflow.broadcast_to", T0, "tuple[int, int]"), rule_id("broadcast_to"), T2),
    (call("tensorflow.tile", T2, "tuple[int, int]"), rule_id("tile"), T2),
    (call("tensorflow.tile", T3, lit((1, 2, 3))), rule_id("tile"), T3),
    (call("tensorflow.tile", B1, lit((4,))), rule_id("tile"), B1),
    # gather and embedding_lookup: params rank - 1 + indices rank - batch_dims.
    (call("tensorflow.gather", T2, I32_1), rule_id("gather"), T2),
    (call("tensorflow.gather", B3, I64, keywords=(kw("axis", -1),)), rule_id("gather"), B3),
    (call("tensorflow.gather", D2, I32_0, keywords=(kw("axis", 1),)), rule_id("gather"), D1),
    (
        call("tensorflow.gather", T3, I32_2, keywords=(kw("axis", 1), kw("batch_dims", 1))),
        rule_id("gather"),
        T3,
    ),
    (call("tensorflow.nn.embedding_lookup", T2, I32_2), rule_id("embedding_lookup"), T3),
    (call("tensorflow.nn.embedding_lookup", I64_2, I64), rule_id("embedding_lookup"), I64_2),
    # slice: a begin and sizes per axis.
    (call("tensorflow.slice", T2, lit((0, 1)), lit((2, -1))), rule_id("slice"), T2),
    (call("tensorflow.slice", B4, lit((0, 0, 1, 0)), lit((-1, 1, 1, -1))), rule_id("slice"), B4),
    # one_hot: float32 vectors along a new axis; the depth a literal or an int.
    (call("tensorflow.one_hot", I32_2, lit(5)), rule_id("one_hot"), T3),
    (call("tensorflow.one_hot", I64, lit(3), keywords=(kw("axis", 0),)), rule_id("one_hot"), T2),
    (call("tensorflow.one_hot", I32_0, Arg("int")), rule_id("one_hot"), T1),
    # clip_by_value: scalar bounds of the tensor's type.
    (call("tensorflow.clip_by_value", T3, F, F), rule_id("clip_by_value"), T3),
    (call("tensorflow.clip_by_value", I32_2, lit(0), lit(5)), rule_id("clip_by_value"), I32_2),
    (call("tensorflow.clip_by_value", D1, D0, F), rule_id("clip_by_value"), D1),
    # Activations: the float tensor's type.
    (call("tensorflow.nn.selu", T3), rule_id("selu"), T3),
    (call("tensorflow.nn.softsign", D0), rule_id("softsign"), D0),
    (call("tensorflow.math.softsign", T1), rule_id("softsign"), T1),
    (call("tensorflow.math.erfc", D4), rule_id("erfc"), D4),
    (call("tensorflow.nn.gelu", T2), rule_id("gelu"), T2),
    (call("tensorflow.nn.gelu", D3, lit(True)), rule_id("gelu"), D3),
    (call("tensorflow.nn.gelu", T4, keywords=(kw("approximate", False),)), rule_id("gelu"), T4),
    (call("tensorflow.nn.silu", T2), rule_id("silu"), T2),
    (call("tensorflow.nn.swish", D1), rule_id("swish"), D1),
    # Statistics: reductions over axes; l2_normalize keeps the type.
    (call("tensorflow.math.reduce_variance", T3, lit(1)), rule_id("reduce_variance"), T2),
    (
        call("tensorflow.math.reduce_std", D2, keywords=(kw("axis", (0, 1)),)),
        rule_id("reduce_std"),
        D0,
    ),
    (
        call("tensorflow.reduce_logsumexp", T4, lit(-1), lit(True)),
        rule_id("reduce_logsumexp"),
        T4,
    ),
    (call("tensorflow.math.reduce_logsumexp", T2, lit(0)), rule_id("reduce_logsumexp"), T1),
    (call("tensorflow.math.l2_normalize", T2, lit(1)), rule_id("l2_normalize"), T2),
    (
        call("tensorflow.nn.l2_normalize", D3, keywords=(kw("axis", (1, 2)),)),
        rule_id("l2_normalize"),
        D3,
    ),
    *LAYERS,
    *HALVES,
    *COMPARES,
    *SLICES,
    # sort: the tensor's type; argsort: int32 of its rank.
    (call("tensorflow.sort", T3), rule_id("sort"), T3),
    (call("tensorflow.sort", I64_4, lit(0), lit("DESCENDING")), rule_id("sort"), I64_4),
    (
        call("tensorflow.sort", D2, keywords=(kw("axis", -2), kw("direction", "ASCENDING"))),
        rule_id("sort"),
        D2,
    ),
    (call("tensorflow.argsort", T2), rule_id("argsort"), I32_2),
    (
        call(
            "tensorflow.argsort",
            I32_1,
            keywords=(kw("direction", "DESCENDING"), kw("stable", True)),
        ),
        rule_id("argsort"),
        I32_1,
    ),
    # Logical ops: bool tensors only.
    (call("tensorflow.logical_and", B2, B2), rule_id("logical_and"), B2),
    (call("tensorflow.math.logical_and", B4, B1), rule_id("logical_and"), B4),
    (call("tensorflow.logical_or", B3, B3), rule_id("logical_or"), B3),
    (call("tensorflow.math.logical_or", B0, B2), rule_id("logical_or"), B2),
    (call("tensorflow.logical_not", B3), rule_id("logical_not"), B3),
    (call("tensorflow.math.logical_not", B0), rule_id("logical_not"), B0),
    # float64 through every rule.
    *((call("tensorflow.nn.relu", t), rule_id("relu"), t) for t in (D0, D1, D2, D3, D4)),
    (call("tensorflow.exp", D3), rule_id("exp"), D3),
    (call("tensorflow.matmul", D3, D2), MATMUL, D3),
    (binop("*", D2, F), rule_id("mul", "binop"), D2),
    (binop("+", lit(1), D4), rule_id("add", "binop"), D4),
    (binop("/", D1, D0), rule_id("div", "binop"), D1),
    (call("tensorflow.nn.softmax", D4), SOFTMAX, D4),
    (call("tensorflow.argmax", D3, lit(-1)), ARGMAX, I64_2),
    # tf.fill: a lone number keeps Python's type (float32, int32); a tensor its own.
    (call("tensorflow.fill", lit((2, 3)), F), "rxt-tf/fill-cpu", T2),
    (call("tensorflow.fill", lit(()), FVAR), "rxt-tf/fill-cpu", T0),
    (call("tensorflow.fill", lit((4,)), lit(7)), "rxt-tf/fill-cpu", I32_1),
    (call("tensorflow.fill", "tuple[int, int, int]", F), "rxt-tf/fill-cpu", T3),
    (call("tensorflow.ones", "tuple[int, int]"), rule_id("ones"), T2),
    # `%` of tensors: floormod, as `Tensor.__mod__` runs it.
    (binop("%", T2, T2), "rxt-tf/floormod-binop-cpu", T2),
    (binop("%", I32_1, lit(3)), "rxt-tf/floormod-binop-cpu", I32_1),
    # An axis known at run time, positionally: checked when the op runs.
    (call("tensorflow.reduce_sum", T3, "int"), rule_id("reduce_sum"), T2),
    (call("tensorflow.expand_dims", T2, "int"), rule_id("expand_dims"), T3),
    # A reduction without `axis`: every axis, as TensorFlow writes them.
    (call("tensorflow.reduce_sum", T4), rule_id("reduce_sum"), T0),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("keepdims", True),)),
        rule_id("reduce_mean"),
        T2,
    ),
    # tf.constant of a lone number: the scalar `fill((), v)` makes.
    (call("tensorflow.constant", F), "rxt-tf/constant-cpu", T0),
    (call("tensorflow.constant", FVAR), "rxt-tf/constant-cpu", T0),
    (call("tensorflow.constant", lit(-3)), "rxt-tf/constant-cpu", I32_0),
    # tf.range of one to three ints, literal or not: int32, as TensorFlow makes it.
    (call("tensorflow.range", "int"), rule_id("range"), I32_1),
    (call("tensorflow.range", lit(5)), rule_id("range"), I32_1),
    (call("tensorflow.range", lit(-3), "int"), rule_id("range"), I32_1),
    (call("tensorflow.range", "int", "int", lit(-2)), rule_id("range"), I32_1),
    (call("tensorflow.fill", lit((1, 2, 3, 4)), D0), "rxt-tf/fill-cpu", D4),
    (call("tensorflow.fill", lit((2, 2)), I64_0), "rxt-tf/fill-cpu", I64_2),
    # tf.eye: a square identity matrix, float32 unless `dtype` says otherwise.
    (call("tensorflow.eye", lit(3)), "rxt-tf/eye-cpu", T2),
    (call("tensorflow.linalg.eye", lit(0), keywords=(kw("dtype", "bool"),)), "rxt-tf/eye-cpu", B2),
    (call("tensorflow.eye", "int", keywords=(kw("dtype", "int64"),)), "rxt-tf/eye-cpu", I64_2),
    # tf.broadcast_to: the rank is the number of sizes.
    (call("tensorflow.broadcast_to", T1, lit((2, 3, 4))), "rxt-tf/broadcast-to-cpu", T3),
    (call("tensorflow.broadcast_to", B0, lit(())), "rxt-tf/broadcast-to-cpu", B0),
    (call("tensorflow.broadcast_to", I64_2, lit((1, 2, 3, 4))), "rxt-tf/broadcast-to-cpu", I64_4),
    # tf.tensordot: the free axes of both operands, `axes` by keyword or position, a
    # count or one axis of each (Rextio reports no nested tuple).
    (call("tensorflow.tensordot", T3, T2, lit((2, 0))), "rxt-tf/tensordot-cpu", T3),
    (call("tensorflow.tensordot", T3, T2, keywords=(kw("axes", 1),)), "rxt-tf/tensordot-cpu", T3),
    (call("tensorflow.linalg.tensordot", D2, D2, lit((0, 1))), "rxt-tf/tensordot-cpu", D2),
    (call("tensorflow.tensordot", T1, T1, lit(0)), "rxt-tf/tensordot-cpu", T2),
    (call("tensorflow.tensordot", I32_3, I32_2, lit((-2, 1))), "rxt-tf/tensordot-cpu", I32_3),
    (call("tensorflow.tensordot", I64_4, I64_2, lit(2)), "rxt-tf/tensordot-cpu", I64_2),
    # tf.linalg.band_part: the tensor's type; the counts positional or by keyword.
    (call("tensorflow.linalg.band_part", T2, lit(-1), lit(0)), rule_id("band_part"), T2),
    (
        call(
            "tensorflow.linalg.band_part",
            B4,
            keywords=(kw("num_lower", 0), kw("num_upper", 1)),
        ),
        rule_id("band_part"),
        B4,
    ),
    # tf.convert_to_tensor of a tensor: its values (no dtype given).
    (call("tensorflow.convert_to_tensor", T3), "rxt-tf/convert-to-tensor-cpu", T3),
    (call("tensorflow.convert_to_tensor", B0), "rxt-tf/convert-to-tensor-cpu", B0),
    # ... and with a dtype naming the tensor's own type (dropped), as zeros_like/ones_like.
    (
        call("tensorflow.convert_to_tensor", T2, keywords=(kw("dtype", "float32"),)),
        "rxt-tf/convert-to-tensor-cpu",
        T2,
    ),
    (
        call("tensorflow.zeros_like", I64_3, keywords=(kw("dtype", "int64"),)),
        rule_id("zeros_like"),
        I64_3,
    ),
    (
        call("tensorflow.ones_like", D2, keywords=(kw("dtype", "float64"),)),
        rule_id("ones_like"),
        D2,
    ),
    # ... and another type's name: the result cast to it.
    (
        call("tensorflow.zeros_like", T2, keywords=(kw("dtype", "int32"),)),
        rule_id("zeros_like"),
        I32_2,
    ),
    (
        call("tensorflow.ones_like", I64_3, keywords=(kw("dtype", "bool"),)),
        rule_id("ones_like"),
        B3,
    ),
    # tf.truediv: tf.divide's values; a literal first operand keeps its own type.
    (call("tensorflow.truediv", T2, T1), "rxt-tf/truediv-cpu", T2),
    (call("tensorflow.math.truediv", I32_2, lit(2)), "rxt-tf/truediv-cpu", D2),
    (call("tensorflow.math.truediv", F, T3), "rxt-tf/truediv-cpu", T3),
    (
        call("tensorflow.linalg.l2_normalize", T3, keywords=(kw("axis", -1),)),
        rule_id("l2_normalize"),
        T3,
    ),
    # New tensors of literal sizes: float32 unless `dtype` says otherwise.
    (call("tensorflow.zeros", lit((2, 3))), rule_id("zeros"), T2),
    (call("tensorflow.zeros", lit(())), rule_id("zeros"), T0),
    (
        call("tensorflow.zeros", lit((2, 0, 3)), keywords=(kw("dtype", "int64"),)),
        rule_id("zeros"),
        I64_3,
    ),
    (call("tensorflow.ones", lit((4,)), keywords=(kw("dtype", "float64"),)), rule_id("ones"), D1),
    (
        call("tensorflow.ones", lit((1, 2, 3, 4)), keywords=(kw("dtype", "bool"),)),
        rule_id("ones"),
        B4,
    ),
    (
        call("tensorflow.ones", lit((5, 5)), keywords=(kw("dtype", "int32"),)),
        rule_id("ones"),
        I32_2,
    ),
    # A float variable or expression (`1.0 / math.sqrt(d)`) is a run-time
    # scalar of the tensor's element type, with or without an expression tree.
    (binop("*", T2, FVAR), rule_id("mul", "binop"), T2),
    (binop("/", FVAR, D1), rule_id("div", "binop"), D1),
    (call("tensorflow.add", T2, FVAR), rule_id("add"), T2),
    (call("tensorflow.minimum", FVAR, D2), rule_id("minimum"), D2),
    (binop("+", T2, F, tree=False), rule_id("add", "binop"), T2),
    (call("tensorflow.subtract", F, D2, tree=False), rule_id("sub"), D2),
    (
        binop(
            "*",
            T2,
            F,
            expression=ClaimExpr(
                kind="binop",
                target="*",
                children=(
                    ClaimExpr(kind="leaf", result_type=T2, leaf_index=0, leaf_kind="name"),
                    ClaimExpr(
                        kind="binop",
                        target="/",
                        result_type="float",
                        children=(
                            ClaimExpr(kind="leaf", leaf_index=1, leaf_kind="opaque"),
                            ClaimExpr(kind="leaf", leaf_index=2, leaf_kind="opaque"),
                        ),
                    ),
                ),
            ),
        ),
        rule_id("mul", "binop"),
        T2,
    ),
]


@pytest.mark.parametrize(
    ("site", "rule_id", "result"), ACCEPTED, ids=[describe(row[0]) for row in ACCEPTED]
)
def test_supported_forms_are_claimed(site, rule_id, result) -> None:  # type: ignore[no-untyped-def]
    assert claim(site) == Claimed(rule_id=rule_id, result_type=result)


def test_the_accepted_table_covers_every_spelling_of_every_rule() -> None:
    claimed = {(site.kind, site.target, rule_id) for site, rule_id, _ in ACCEPTED}
    for op in OPS:
        for target in op.targets:
            assert (op.kind, target, op.rule_id) in claimed, (op.kind, target, op.rule_id)


def test_the_accepted_table_claims_every_tensor_type() -> None:
    operands = {key for site, _, _ in ACCEPTED for key in site.operand_types}
    for tensor in TENSOR_TYPES:
        # No op takes a bool scalar (argmax needs rank 1, transpose rank 2).
        assert tensor.key in operands or tensor.key == B0, tensor.key


def test_argmax_returns_the_i64_plugin_type() -> None:
    result = claim(call("tensorflow.argmax", T2, keywords=(kw("axis", 1),)))
    assert result == Claimed(rule_id=rule_id("argmax"), result_type=I64)
    assert I64 == "rxt-tf/tensor-i64-cpu-1d"


def test_claims_are_deterministic() -> None:
    for site, _, _ in ACCEPTED:
        assert claim(site) == claim(site)
