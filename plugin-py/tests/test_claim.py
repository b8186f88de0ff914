"""Claim outcomes: every Python spelling the table accepts, every rejection class.

The expectations are written out here (rule ids, result types, codes, words),
not read from the op table, so a wrong table fails these tests.
"""

from __future__ import annotations

import pytest
from rextio.plugins.api import (
    NON_LITERAL,
    Claimed,
    ClaimExpr,
    KeywordArg,
    NotCovered,
    ReceiverMeta,
    Rejected,
)
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
    SHORT,
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
    plus,
    positional_bool,
    rule_id,
)

from rxt_tf_plugin.ops import OPS, TENSOR_TYPES
from rxt_tf_plugin.plugin import plugin

P = plugin()


def claim(site):  # type: ignore[no-untyped-def]
    return P.claim(site, None)


def true(name: str) -> KeywordArg:
    return kw(name, True)


def false(name: str) -> KeywordArg:
    return kw(name, False)


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
    # matmul: ranks 2 to 4 each (batch dimensions broadcast), float32, float64, int32 or int64.
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
    (call("tensorflow.tile", T3, lit((1, 2, 3))), rule_id("tile"), T3),
    (call("tensorflow.tile", B1, lit((4,))), rule_id("tile"), B1),
    # gather and embedding_lookup: params rank - 1 + indices rank - batch_dims.
    (call("tensorflow.gather", T2, I32_1), rule_id("gather"), T2),
    (call("tensorflow.gather", B3, I64, lit(-1)), rule_id("gather"), B3),
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
]


def describe(site) -> str:  # type: ignore[no-untyped-def]
    """A readable test id: ``call:tensorflow.reduce_sum(T2, 1) [keepdims=True]``."""
    literals = site.operand_literals or (NON_LITERAL,) * len(site.operand_types)
    operands = ", ".join(
        repr(literal.value) if literal.is_literal else SHORT.get(str(key), str(key))
        for key, literal in zip(site.operand_types, literals, strict=True)
    )
    keywords = ", ".join(
        f"{k.name}={k.literal.value!r}" if k.literal.is_literal else f"{k.name}=<expr>"
        for k in site.keywords
    )
    return f"{site.kind}:{site.target}({operands}){f' [{keywords}]' if keywords else ''}"


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


def ranks(low: int, high: int) -> str:
    """``ranks 2-4`` as the messages write it: with an en dash, as the macros do."""
    return f"ranks {low}\N{EN DASH}{high}"


NUMBERS = "float32, float64, int32 or int64"
EVERY_TYPE = "float32, float64, int32, int64 or bool"
TENSORS_ONLY = (
    "operands must be rxt-tf tensors (rxt_tf_plugin.types markers such as TensorF32Cpu2D), got"
)
TENSORS_OR_NUMBERS = (
    "operands must be rxt-tf tensors (rxt_tf_plugin.types markers such as TensorF32Cpu2D) "
    "or number literals, got"
)
AXES_TEXT = "supports only `axis` = an int literal or a tuple of distinct int literals"
ONE_AXIS_TEXT = "supports only `axis` = an int literal"
FLOAT_BESIDE_INT = (
    "a float literal cannot stand beside an int32 tensor (TensorFlow raises TypeError"
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
    (call("tensorflow.gather", T4, I32_2), "RXTP-RXTTF-080", "no result of rank 0 to 4"),
    (call("tensorflow.nn.embedding_lookup", T2, B1), "RXTP-RXTTF-081", "int32 or int64"),
    # reshape and tile: literal tuples of integers that fit.
    (call("tensorflow.reshape", T2, lit((1, 1, 1, 2, -1))), "RXTP-RXTTF-078", "rank-5"),
    (call("tensorflow.reshape", T2, lit((-1, -1))), "RXTP-RXTTF-078", "at most one is -1"),
    (call("tensorflow.reshape", T2, T1), "RXTP-RXTTF-078", "literal tuple of integers"),
    (call("tensorflow.tile", T3, lit((1, 2))), "RXTP-RXTTF-079", "one non-negative entry"),
    # Activations and statistics of floats only.
    (call("tensorflow.nn.gelu", I32_2), "RXTP-RXTTF-091", "got int32 rank-2"),
    (call("tensorflow.math.reduce_variance", I64_3, lit(0)), "RXTP-RXTTF-087", "got int64 rank-3"),
    (call("tensorflow.math.l2_normalize", T2, lit(2)), "RXTP-RXTTF-090", "does not fit"),
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
    (call("tensorflow.nn.max_pool2d", T4, lit(0), lit(1), lit("SAME")), "RXTP-RXTTF-099", "ksize"),
    # sort and argsort: numbers of rank 1 to 4, a known direction, an axis in range.
    (call("tensorflow.sort", B2), "RXTP-RXTTF-085", "got bool rank-2"),
    (call("tensorflow.sort", T0), "RXTP-RXTTF-085", "got float32 rank-0"),
    (call("tensorflow.sort", T2, lit(2)), "RXTP-RXTTF-085", "does not fit"),
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
        f"needs operands of {NUMBERS} at {ranks(2, 4)}, got float32 rank-1 × float32 rank-2",
    ),
    (
        binop("@", T2, T1),
        "RXTP-RXTTF-028",
        f"cannot lower `a @ b`: needs operands of {NUMBERS} at {ranks(2, 4)}, "
        "got float32 rank-2 × float32 rank-1",
    ),
    (call("tensorflow.matmul", I32_0, I32_2), "RXTP-RXTTF-001", "got int32 rank-0 × int32 rank-2"),
    (
        call("tensorflow.add", T2),
        "RXTP-RXTTF-003",
        f"needs operands of {NUMBERS} at {ranks(0, 4)}, got float32 rank-2",
    ),
    (call("tensorflow.maximum", T1), "RXTP-RXTTF-026", "got float32 rank-1"),
    (
        call("tensorflow.nn.bias_add", T1, T1),
        "RXTP-RXTTF-029",
        f"needs operands of {NUMBERS} at {ranks(2, 4)} × rank 1, "
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
        f"needs operands of {EVERY_TYPE} at {ranks(2, 4)}, got float32 rank-1",
    ),
    (
        call("tensorflow.reduce_mean", T0, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-004",
        f"needs operands of {NUMBERS} at {ranks(1, 4)}, got float32 rank-0",
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
        f"float32 or float64 at {ranks(1, 4)}, got float32 rank-0",
    ),
    (
        call("tensorflow.argmax", I32_0, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-036",
        f"needs operands of {EVERY_TYPE} at {ranks(1, 4)}, got int32 rank-0",
    ),
    # Element types the op does not take.
    (
        call("tensorflow.nn.relu", B2),
        "RXTP-RXTTF-002",
        f"needs operands of {NUMBERS} at {ranks(0, 4)}, got bool rank-2",
    ),
    (
        call("tensorflow.exp", I32_3),
        "RXTP-RXTTF-012",
        f"needs operands of float32 or float64 at {ranks(0, 4)}, got int32 rank-3",
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
    (call("tensorflow.expand_dims", T4, lit(0)), "RXTP-RXTTF-071", "got float32 rank-4"),
    (call("tensorflow.expand_dims", T2, lit(3)), "RXTP-RXTTF-071", "does not fit"),
    # squeeze without axis: the result's rank would depend on data.
    (call("tensorflow.squeeze", T3), "RXTP-RXTTF-073", "needs the literal keyword `axis`"),
    # cast to an element type rxt-tf does not have.
    (
        call("tensorflow.cast", T2, lit("float16")),
        "RXTP-RXTTF-070",
        "supports only `dtype` as a dtype name, 'float32', 'float64', 'int32', 'int64' or 'bool'",
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
    # softmax takes its axis by keyword only.
    (call("tensorflow.nn.softmax", T2, lit(-1)), "RXTP-RXTTF-034", "takes 1 operand(s), got 2"),
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
        "`axis=2` does not fit a rank-2 tensor: each axis must be in -2..1 and named once",
    ),
    (
        call("tensorflow.reduce_sum", T3, keywords=(kw("axis", (0, 3)),)),
        "RXTP-RXTTF-031",
        "`axis=(0, 3)` does not fit a rank-3 tensor",
    ),
    (
        call("tensorflow.reduce_sum", T2, keywords=(kw("axis", (1, -1)),)),
        "RXTP-RXTTF-031",
        "`axis=(1, -1)` does not fit a rank-2 tensor",
    ),
    (
        call("tensorflow.reduce_min", T4, keywords=(kw("axis", -5),)),
        "RXTP-RXTTF-033",
        "each axis must be in -4..3",
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
        "`axis=2` does not fit a rank-2 tensor",
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
        "`axis=2` does not fit a rank-2 tensor",
    ),
    (
        call("tensorflow.nn.log_softmax", T2, keywords=(kw("axis", -3),)),
        "RXTP-RXTTF-035",
        "`axis=-3` does not fit a rank-2 tensor",
    ),
    (
        call("tensorflow.nn.softmax", T1, keywords=(kw("axis", 1),)),
        "RXTP-RXTTF-034",
        "`axis=1` does not fit a rank-1 tensor",
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
    # A reduction or argmax without an axis.
    (
        call("tensorflow.reduce_mean", T2),
        "RXTP-RXTTF-004",
        "needs the literal keyword `axis` (an int literal or a tuple of distinct int literals)",
    ),
    (
        call("tensorflow.math.reduce_max", T2, keywords=(true("keepdims"),)),
        "RXTP-RXTTF-032",
        "needs the literal keyword `axis`",
    ),
    (
        call("tensorflow.argmax", T2),
        "RXTP-RXTTF-036",
        "needs the literal keyword `axis` (an int literal)",
    ),
    # Positional arguments Rextio gives no literal for.
    (
        call("tensorflow.reduce_sum", T2, lit(1), positional_bool()),
        "RXTP-RXTTF-031",
        "a positional `keepdims` must be a literal Rextio can read; pass it as the keyword",
    ),
    (
        call("tensorflow.reduce_mean", T2, "int"),
        "RXTP-RXTTF-004",
        "a positional `axis` must be a literal Rextio can read",
    ),
    (
        call("tensorflow.argmax", T2, "int"),
        "RXTP-RXTTF-036",
        "a positional `axis` must be a literal Rextio can read",
    ),
    (
        call("tensorflow.reduce_mean", T2, "int", tree=False),
        "RXTP-RXTTF-004",
        "a positional `axis` must be a literal Rextio can read",
    ),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NCHW"),)),
        "RXTP-RXTTF-029",
        "supports `data_format` only as 'NHWC'",
    ),
    # A float variable (a name leaf) is not a literal: the fallback rules.
    (binop("*", T2, FVAR), "RXTP-RXTTF-037", f"{TENSORS_OR_NUMBERS} ({T2}, float)"),
    (binop("/", FVAR, T1), "RXTP-RXTTF-037", f"{TENSORS_OR_NUMBERS} (float, {T1})"),
    (call("tensorflow.add", T2, FVAR), "RXTP-RXTTF-010", f"{TENSORS_OR_NUMBERS} ({T2}, float)"),
    (call("tensorflow.minimum", FVAR, T2), "RXTP-RXTTF-010", TENSORS_OR_NUMBERS),
    # An int variable is not a literal either.
    (binop("*", T2, "int"), "RXTP-RXTTF-037", f"{TENSORS_OR_NUMBERS} ({T2}, int)"),
    (call("tensorflow.add", I32_2, "int"), "RXTP-RXTTF-010", TENSORS_OR_NUMBERS),
    # A float operand without an expression tree cannot be shown to be a literal.
    (binop("+", T2, F, tree=False), "RXTP-RXTTF-037", TENSORS_OR_NUMBERS),
    (call("tensorflow.subtract", F, T2, tree=False), "RXTP-RXTTF-010", TENSORS_OR_NUMBERS),
    (binop("*", T2, lit(2), tree=False), "RXTP-RXTTF-037", TENSORS_OR_NUMBERS),
    # A float operand that is a nested expression, not a leaf.
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
                        target="+",
                        result_type="float",
                        children=(
                            ClaimExpr(kind="leaf", leaf_index=1, leaf_kind="opaque"),
                            ClaimExpr(kind="leaf", leaf_index=2, leaf_kind="opaque"),
                        ),
                    ),
                ),
            ),
        ),
        "RXTP-RXTTF-037",
        TENSORS_OR_NUMBERS,
    ),
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
        call("tensorflow.nn.relu", "rxt-tf/tensor-f16-cpu-2d"),
        "RXTP-RXTTF-010",
        TENSORS_ONLY,
    ),
    (call("tensorflow.nn.relu", "rxt-tf/tensor-f32-cpu-5d"), "RXTP-RXTTF-010", TENSORS_ONLY),
    (call("tensorflow.add", "tensorflow.Tensor", T2), "RXTP-RXTTF-010", TENSORS_OR_NUMBERS),
    (
        call("tensorflow.reduce_sum", "tensorflow.Tensor", keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-010",
        TENSORS_ONLY,
    ),
    # ... and on covered operators.
    (plus(T2, "float"), "RXTP-RXTTF-037", f"{TENSORS_OR_NUMBERS} ({T2}, float)"),
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
    assert suggestion(call("tensorflow.reduce_sum", T2)) == "write `axis=0`"
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


# Keyword values given positionally are checked like keywords; an element
# type can only be omitted.
POSITIONAL_AND_TYPE_KEYWORDS = [
    (call("tensorflow.reduce_sum", T2, lit(2)), "RXTP-RXTTF-031", "`axis=2` does not fit"),
    (call("tensorflow.reduce_mean", T2, lit(None)), "RXTP-RXTTF-004", AXES_TEXT),
    (call("tensorflow.reduce_max", T2, lit((0, 2))), "RXTP-RXTTF-032", "`axis=(0, 2)` does not"),
    (call("tensorflow.argmax", T2, lit(7)), "RXTP-RXTTF-036", "`axis=7` does not fit"),
    (call("tensorflow.argmax", T2, lit((0,))), "RXTP-RXTTF-036", ONE_AXIS_TEXT),
    (call("tensorflow.reduce_min", T2, lit(1), lit(1)), "RXTP-RXTTF-033", "`keepdims`"),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1), kw("output_type", "tf.int64"))),
        "RXTP-RXTTF-036",
        "`output_type` omitted",
    ),
    # Calls of covered symbols on operands that are not tensors.
    (
        call("tensorflow.add", F, F),
        "RXTP-RXTTF-003",
        "got a float literal × a float literal",
    ),
    (call("tensorflow.add", lit(1), lit(2)), "RXTP-RXTTF-003", "got an int literal × an int"),
    (call("tensorflow.nn.relu", F), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu", "list[float]"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.maximum", "int", F), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu"), "RXTP-RXTTF-002", "got no operands"),
]


@pytest.mark.parametrize(
    ("site", "code", "words"),
    POSITIONAL_AND_TYPE_KEYWORDS,
    ids=[describe(row[0]) for row in POSITIONAL_AND_TYPE_KEYWORDS],
)
def test_positional_and_type_keywords_and_non_tensor_calls_are_rejected(  # type: ignore[no-untyped-def]
    site, code, words
) -> None:
    result = claim(site)
    assert isinstance(result, Rejected), result
    assert result.diagnostic.code == code
    assert words in result.diagnostic.message, result.diagnostic.message


RECEIVER = ReceiverMeta(arg_type=T2, expr_kind="name", is_safe=True)

NOT_COVERED = [
    # Symbols and operators rxt-tf does not cover.
    call("tensorflow.math.atan", T2),
    call("tensorflow.nn.conv3d", T4, T4),
    call("tensorflow.einsum", T2, T2),
    call("numpy.matmul", T2, T2),
    binop("%", T2, T2),
    binop("**", T2, F),
    binop("//", T2, T2),
    # Method calls (a receiver).
    call("tensorflow.matmul", T2, T2, receiver=RECEIVER),
    call("tensorflow.nn.relu", T2, receiver=RECEIVER),
    # Untyped operands (positional keyword arguments included).
    call("tensorflow.matmul", None, T2),
    call("tensorflow.nn.relu", None),
    call("tensorflow.reduce_mean", None, keywords=(kw("axis", 1),)),
    call("tensorflow.reduce_mean", T2, None),
    call("tensorflow.add", T2, None),
    plus(None, T2),
    binop("*", F, None),
    # No tensor among the operands.
    binop("-", F, F),
    binop("*", "int", "int"),
    plus(lit(1), lit(2)),
    plus("int", "int"),
    plus("str", "str"),
    binop("/", lit(1), F),
]


@pytest.mark.parametrize("site", NOT_COVERED, ids=[describe(site) for site in NOT_COVERED])
def test_unknown_symbols_receivers_and_untyped_operands_are_not_covered(site) -> None:  # type: ignore[no-untyped-def]
    assert claim(site) == NotCovered()


def test_claims_are_deterministic() -> None:
    for site, _, _ in ACCEPTED:
        assert claim(site) == claim(site)


def test_a_positional_bool_is_never_an_int_literal_operand() -> None:
    # `x * True`: Rextio gives a bool no literal; it is not a number the op takes.
    result = claim(binop("*", T2, Arg("bool")))
    assert isinstance(result, Rejected)
    assert TENSORS_OR_NUMBERS in result.diagnostic.message
