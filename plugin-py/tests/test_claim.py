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
    FVAR,
    I64,
    T1,
    T2,
    F,
    binop,
    call,
    kw,
    lit,
    plus,
    positional_bool,
)

from rxt_tf_plugin.ops import OPS
from rxt_tf_plugin.plugin import plugin

P = plugin()


def claim(site):  # type: ignore[no-untyped-def]
    return P.claim(site, None)


def true(name: str) -> KeywordArg:
    return kw(name, True)


def false(name: str) -> KeywordArg:
    return kw(name, False)


# Each unary element-wise spelling and its rule: rank-1 and rank-2, result of the same rank.
UNARY = [
    ("tensorflow.nn.relu", "rxt-tf/relu-f32-cpu-2d"),
    ("tensorflow.nn.sigmoid", "rxt-tf/sigmoid-f32-cpu-2d"),
    ("tensorflow.sigmoid", "rxt-tf/sigmoid-f32-cpu-2d"),
    ("tensorflow.math.sigmoid", "rxt-tf/sigmoid-f32-cpu-2d"),
    ("tensorflow.nn.tanh", "rxt-tf/tanh-f32-cpu"),
    ("tensorflow.math.tanh", "rxt-tf/tanh-f32-cpu"),
    ("tensorflow.tanh", "rxt-tf/tanh-f32-cpu"),
    ("tensorflow.abs", "rxt-tf/abs-f32-cpu"),
    ("tensorflow.math.abs", "rxt-tf/abs-f32-cpu"),
    ("tensorflow.negative", "rxt-tf/neg-f32-cpu"),
    ("tensorflow.math.negative", "rxt-tf/neg-f32-cpu"),
    ("tensorflow.square", "rxt-tf/square-f32-cpu"),
    ("tensorflow.math.square", "rxt-tf/square-f32-cpu"),
    ("tensorflow.exp", "rxt-tf/exp-f32-cpu"),
    ("tensorflow.math.exp", "rxt-tf/exp-f32-cpu"),
    ("tensorflow.math.log", "rxt-tf/log-f32-cpu"),
    ("tensorflow.sqrt", "rxt-tf/sqrt-f32-cpu"),
    ("tensorflow.math.sqrt", "rxt-tf/sqrt-f32-cpu"),
    ("tensorflow.math.rsqrt", "rxt-tf/rsqrt-f32-cpu"),
    ("tensorflow.nn.relu6", "rxt-tf/relu6-f32-cpu"),
    ("tensorflow.nn.elu", "rxt-tf/elu-f32-cpu"),
    ("tensorflow.nn.softplus", "rxt-tf/softplus-f32-cpu"),
    ("tensorflow.math.softplus", "rxt-tf/softplus-f32-cpu"),
    ("tensorflow.nn.leaky_relu", "rxt-tf/leaky-relu-f32-cpu"),
]

# Each broadcasting call spelling and its rule.
BROADCAST_CALLS = [
    ("tensorflow.add", "rxt-tf/add-call-f32-cpu"),
    ("tensorflow.math.add", "rxt-tf/add-call-f32-cpu"),
    ("tensorflow.subtract", "rxt-tf/sub-call-f32-cpu"),
    ("tensorflow.math.subtract", "rxt-tf/sub-call-f32-cpu"),
    ("tensorflow.multiply", "rxt-tf/mul-call-f32-cpu"),
    ("tensorflow.math.multiply", "rxt-tf/mul-call-f32-cpu"),
    ("tensorflow.divide", "rxt-tf/div-call-f32-cpu"),
    ("tensorflow.math.divide", "rxt-tf/div-call-f32-cpu"),
    ("tensorflow.maximum", "rxt-tf/maximum-f32-cpu"),
    ("tensorflow.math.maximum", "rxt-tf/maximum-f32-cpu"),
    ("tensorflow.minimum", "rxt-tf/minimum-f32-cpu"),
    ("tensorflow.math.minimum", "rxt-tf/minimum-f32-cpu"),
]

# Each broadcasting operator and its rule.
BROADCAST_BINOPS = [
    ("+", "rxt-tf/add-binop-f32-cpu"),
    ("-", "rxt-tf/sub-binop-f32-cpu"),
    ("*", "rxt-tf/mul-binop-f32-cpu"),
    ("/", "rxt-tf/div-binop-f32-cpu"),
]

# (left, right, result): every operand pair a broadcasting op takes (F: a float literal).
BROADCAST_PAIRS = [
    (T2, T2, T2),
    (T1, T1, T1),
    (T2, T1, T2),
    (T1, T2, T2),
    (T2, F, T2),
    (T1, F, T1),
    (F, T2, T2),
    (F, T1, T1),
]

REDUCTIONS = [
    ("tensorflow.reduce_mean", "rxt-tf/reduce-mean-axis1-f32-cpu-2d"),
    ("tensorflow.math.reduce_mean", "rxt-tf/reduce-mean-axis1-f32-cpu-2d"),
    ("tensorflow.reduce_sum", "rxt-tf/reduce-sum-f32-cpu-2d"),
    ("tensorflow.math.reduce_sum", "rxt-tf/reduce-sum-f32-cpu-2d"),
    ("tensorflow.reduce_max", "rxt-tf/reduce-max-f32-cpu-2d"),
    ("tensorflow.math.reduce_max", "rxt-tf/reduce-max-f32-cpu-2d"),
    ("tensorflow.reduce_min", "rxt-tf/reduce-min-f32-cpu-2d"),
    ("tensorflow.math.reduce_min", "rxt-tf/reduce-min-f32-cpu-2d"),
]

SOFTMAXES = [
    ("tensorflow.nn.softmax", "rxt-tf/softmax-f32-cpu"),
    ("tensorflow.math.softmax", "rxt-tf/softmax-f32-cpu"),
    ("tensorflow.nn.log_softmax", "rxt-tf/log-softmax-f32-cpu"),
    ("tensorflow.math.log_softmax", "rxt-tf/log-softmax-f32-cpu"),
]

ARGMAXES = [
    ("tensorflow.argmax", "rxt-tf/argmax-f32-cpu-2d"),
    ("tensorflow.math.argmax", "rxt-tf/argmax-f32-cpu-2d"),
]

AXES = (0, 1, -1, -2)
"""The reduction and argmax axes of a rank-2 tensor."""

MATMUL = "rxt-tf/matmul-f32-cpu-2d"

ACCEPTED = [
    # (site, rule id, result type)
    # The seed's rows.
    (call("tensorflow.matmul", T2, T2), MATMUL, T2),
    (call("tensorflow.linalg.matmul", T2, T2), MATMUL, T2),
    (call("tensorflow.nn.relu", T2), "rxt-tf/relu-f32-cpu-2d", T2),
    (call("tensorflow.nn.sigmoid", T2), "rxt-tf/sigmoid-f32-cpu-2d", T2),
    (call("tensorflow.nn.tanh", T2), "rxt-tf/tanh-f32-cpu", T2),
    (call("tensorflow.math.tanh", T1), "rxt-tf/tanh-f32-cpu", T1),
    (call("tensorflow.tanh", T2), "rxt-tf/tanh-f32-cpu", T2),
    (call("tensorflow.add", T2, T2), "rxt-tf/add-call-f32-cpu", T2),
    (call("tensorflow.add", T1, T1), "rxt-tf/add-call-f32-cpu", T1),
    (call("tensorflow.add", T2, T1), "rxt-tf/add-call-f32-cpu", T2),
    (call("tensorflow.add", T1, T2), "rxt-tf/add-call-f32-cpu", T2),
    (call("tensorflow.math.add", T2, T1), "rxt-tf/add-call-f32-cpu", T2),
    (plus(T2, T2), "rxt-tf/add-binop-f32-cpu", T2),
    (plus(T1, T1), "rxt-tf/add-binop-f32-cpu", T1),
    (plus(T2, T1), "rxt-tf/add-binop-f32-cpu", T2),
    (plus(T1, T2), "rxt-tf/add-binop-f32-cpu", T2),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1),)),
        "rxt-tf/reduce-mean-axis1-f32-cpu-2d",
        T1,
    ),
    (
        call("tensorflow.math.reduce_mean", T2, keywords=(kw("axis", 1),)),
        "rxt-tf/reduce-mean-axis1-f32-cpu-2d",
        T1,
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1), false("keepdims"))),
        "rxt-tf/reduce-mean-axis1-f32-cpu-2d",
        T1,
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(false("keepdims"), kw("axis", 1))),
        "rxt-tf/reduce-mean-axis1-f32-cpu-2d",
        T1,
    ),
    # matmul: literal bool transpose_a / transpose_b, and `a @ b`.
    (call("tensorflow.matmul", T2, T2, keywords=(true("transpose_a"),)), MATMUL, T2),
    (call("tensorflow.linalg.matmul", T2, T2, keywords=(true("transpose_b"),)), MATMUL, T2),
    (
        call("tensorflow.matmul", T2, T2, keywords=(true("transpose_a"), true("transpose_b"))),
        MATMUL,
        T2,
    ),
    (
        call("tensorflow.matmul", T2, T2, keywords=(false("transpose_b"), false("transpose_a"))),
        MATMUL,
        T2,
    ),
    (binop("@", T2, T2), "rxt-tf/matmul-binop-f32-cpu-2d", T2),
    # Unary element-wise ops on rank-1 and rank-2.
    *((call(target, rank), rule, rank) for target, rule in UNARY for rank in (T2, T1)),
    # Broadcasting calls and operators: every rank pair, float literals on either side.
    *(
        (call(target, left, right), rule, result)
        for target, rule in BROADCAST_CALLS
        for left, right, result in BROADCAST_PAIRS
    ),
    *(
        (binop(operator, left, right), rule, result)
        for operator, rule in BROADCAST_BINOPS
        for left, right, result in BROADCAST_PAIRS
    ),
    # bias_add, with data_format omitted or 'NHWC' (dropped when lowering).
    (call("tensorflow.nn.bias_add", T2, T1), "rxt-tf/bias-add-f32-cpu", T2),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NHWC"),)),
        "rxt-tf/bias-add-f32-cpu",
        T2,
    ),
    # transpose, with perm omitted or (1, 0).
    (call("tensorflow.transpose", T2), "rxt-tf/transpose-f32-cpu-2d", T2),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", (1, 0)),)),
        "rxt-tf/transpose-f32-cpu-2d",
        T2,
    ),
    # Reductions: each axis by keyword and by position; keepdims=True keeps rank 2.
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
        )
    ),
    # softmax / log_softmax: rank 2 with axis 0, 1 or -1; rank 1 with axis 0 or -1.
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
        )
    ),
    # argmax: each axis by keyword and by position; the result is int64 rank-1.
    *(
        (call(target, T2, keywords=(kw("axis", axis),)), rule, I64)
        for target, rule in ARGMAXES
        for axis in AXES
    ),
    *((call(target, T2, lit(axis)), rule, I64) for target, rule in ARGMAXES for axis in AXES),
]


def describe(site) -> str:  # type: ignore[no-untyped-def]
    """A readable test id: ``call:tensorflow.reduce_sum(T2, 1) [keepdims=True]``."""
    short = {T2: "T2", T1: "T1", I64: "I64"}
    literals = site.operand_literals or (NON_LITERAL,) * len(site.operand_types)
    operands = ", ".join(
        repr(literal.value) if literal.is_literal else short.get(str(key), str(key))
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


def test_argmax_returns_the_i64_plugin_type() -> None:
    result = claim(call("tensorflow.argmax", T2, keywords=(kw("axis", 1),)))
    assert result == Claimed(rule_id="rxt-tf/argmax-f32-cpu-2d", result_type=I64)
    assert I64 == "rxt-tf/tensor-i64-cpu-1d"


ADD_RANKS = (
    "needs rank-2 × rank-2 or rank-1 × rank-1 or rank-2 × rank-1 or rank-1 × rank-2 or "
    "rank-2 × a float literal or rank-1 × a float literal or a float literal × rank-2 or "
    "a float literal × rank-1 operands"
)
TENSORS_ONLY = "operands must be rxt-tf tensors (TensorF32Cpu2D / TensorF32Cpu1D), got"
TENSORS_OR_FLOATS = (
    "operands must be rxt-tf tensors (TensorF32Cpu2D / TensorF32Cpu1D) or float literals, got"
)
REDUCTION_AXES = "supports only `axis` = 0, 1, -1 or -2"

REJECTED = [
    # (site, diagnostic code, words the message must contain)
    # Wrong operand ranks, per op family.
    (
        call("tensorflow.matmul", T1, T2),
        "RXTP-RXTTF-001",
        "needs rank-2 × rank-2 operands, got rank-1 × rank-2",
    ),
    (
        binop("@", T2, T1),
        "RXTP-RXTTF-028",
        "cannot lower `a @ b`: needs rank-2 × rank-2 operands, got rank-2 × rank-1",
    ),
    (call("tensorflow.add", T2), "RXTP-RXTTF-003", f"{ADD_RANKS}, got rank-2"),
    (call("tensorflow.maximum", T1), "RXTP-RXTTF-026", "got rank-1"),
    (
        call("tensorflow.nn.bias_add", T1, T1),
        "RXTP-RXTTF-029",
        "needs rank-2 × rank-1 operands, got rank-1 × rank-1",
    ),
    (
        call("tensorflow.nn.bias_add", T1, T2),
        "RXTP-RXTTF-029",
        "needs rank-2 × rank-1 operands, got rank-1 × rank-2",
    ),
    (call("tensorflow.transpose", T1), "RXTP-RXTTF-030", "needs rank-2 operands, got rank-1"),
    (
        call("tensorflow.reduce_mean", T1, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-004",
        "needs rank-2 operands, got rank-1",
    ),
    (
        call("tensorflow.math.reduce_sum", T1, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-031",
        "cannot lower `tf.reduce_sum`: needs rank-2 operands, got rank-1",
    ),
    (call("tensorflow.reduce_max", T1, lit(0)), "RXTP-RXTTF-032", "got rank-1"),
    (
        call("tensorflow.reduce_min", T1, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-033",
        "got rank-1",
    ),
    (
        call("tensorflow.argmax", T1, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-036",
        "needs rank-2 operands, got rank-1",
    ),
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
        REDUCTION_AXES,
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
        "supports only `axis` = 0, 1 or -1",
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", literal=False),)),
        "RXTP-RXTTF-030",
        "supports only the literal `perm=(1, 0)`",
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
        "supports only `output_type` omitted (it is 'tf.int64')",
    ),
    # Axis values out of range, and bools where an int is expected.
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 2),)),
        "RXTP-RXTTF-004",
        REDUCTION_AXES,
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", True),)),
        "RXTP-RXTTF-004",
        REDUCTION_AXES,
    ),
    (
        call("tensorflow.reduce_sum", T2, keywords=(kw("axis", (0, 1)),)),
        "RXTP-RXTTF-031",
        REDUCTION_AXES,
    ),
    (
        call("tensorflow.reduce_max", T2, keywords=(kw("axis", None),)),
        "RXTP-RXTTF-032",
        REDUCTION_AXES,
    ),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 2),)),
        "RXTP-RXTTF-036",
        REDUCTION_AXES,
    ),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", False),)),
        "RXTP-RXTTF-036",
        REDUCTION_AXES,
    ),
    (
        call("tensorflow.nn.softmax", T2, keywords=(kw("axis", 2),)),
        "RXTP-RXTTF-034",
        "supports only `axis` = 0, 1 or -1",
    ),
    (
        call("tensorflow.nn.log_softmax", T2, keywords=(kw("axis", -2),)),
        "RXTP-RXTTF-035",
        "supports only `axis` = 0, 1 or -1",
    ),
    (
        call("tensorflow.math.log_softmax", T1, keywords=(kw("axis", True),)),
        "RXTP-RXTTF-035",
        "supports only `axis` = 0, 1 or -1",
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
    # A reduction or argmax without an axis.
    (call("tensorflow.reduce_mean", T2), "RXTP-RXTTF-004", "needs the literal keyword `axis=0`"),
    (
        call("tensorflow.math.reduce_max", T2, keywords=(true("keepdims"),)),
        "RXTP-RXTTF-032",
        "needs the literal keyword `axis=0`",
    ),
    (call("tensorflow.argmax", T2), "RXTP-RXTTF-036", "needs the literal keyword `axis=0`"),
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
    # Keyword values no signature takes with these ranks.
    (
        call("tensorflow.nn.softmax", T1, keywords=(kw("axis", 1),)),
        "RXTP-RXTTF-034",
        "does not take rank-1 operands with axis=1",
    ),
    (
        call("tensorflow.math.log_softmax", T1, keywords=(kw("axis", 1),)),
        "RXTP-RXTTF-035",
        "does not take rank-1 operands with axis=1",
    ),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", (0, 1)),)),
        "RXTP-RXTTF-030",
        "supports only the literal `perm=(1, 0)`",
    ),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NCHW"),)),
        "RXTP-RXTTF-029",
        "supports `data_format` only as 'NHWC'",
    ),
    # Integer literal operands where a float literal is taken.
    (
        binop("*", T2, lit(2)),
        "RXTP-RXTTF-023",
        "integer literal operands are not supported (tensors are float32)",
    ),
    (binop("-", lit(1), T1), "RXTP-RXTTF-021", "integer literal operands are not supported"),
    (
        call("tensorflow.add", T2, lit(2)),
        "RXTP-RXTTF-003",
        "integer literal operands are not supported",
    ),
    (
        call("tensorflow.math.maximum", lit(0), T1),
        "RXTP-RXTTF-026",
        "integer literal operands are not supported",
    ),
    # A float variable (a name leaf) is not a literal: the fallback rules.
    (binop("*", T2, FVAR), "RXTP-RXTTF-037", f"{TENSORS_OR_FLOATS} ({T2}, float)"),
    (binop("/", FVAR, T1), "RXTP-RXTTF-037", f"{TENSORS_OR_FLOATS} (float, {T1})"),
    (call("tensorflow.add", T2, FVAR), "RXTP-RXTTF-010", f"{TENSORS_OR_FLOATS} ({T2}, float)"),
    (call("tensorflow.minimum", FVAR, T2), "RXTP-RXTTF-010", TENSORS_OR_FLOATS),
    # A float operand without an expression tree cannot be shown to be a literal.
    (binop("+", T2, F, tree=False), "RXTP-RXTTF-037", TENSORS_OR_FLOATS),
    (call("tensorflow.subtract", F, T2, tree=False), "RXTP-RXTTF-010", TENSORS_OR_FLOATS),
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
        TENSORS_OR_FLOATS,
    ),
    # Float literals where the op takes tensors only.
    (call("tensorflow.matmul", T2, F), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, float)"),
    (binop("@", F, T2), "RXTP-RXTTF-037", f"{TENSORS_ONLY} (float, {T2})"),
    (call("tensorflow.nn.bias_add", T2, F), "RXTP-RXTTF-010", TENSORS_ONLY),
    # Operand types outside the plugin's float32 vocabulary on covered calls...
    (call("tensorflow.matmul", T2, "int"), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, int)"),
    (call("tensorflow.matmul", T2, "float"), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({T2}, float)"),
    (call("tensorflow.nn.relu", I64), "RXTP-RXTTF-010", f"{TENSORS_ONLY} ({I64})"),
    (call("tensorflow.add", "tensorflow.Tensor", T2), "RXTP-RXTTF-010", TENSORS_OR_FLOATS),
    (
        call("tensorflow.reduce_sum", "tensorflow.Tensor", keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-010",
        TENSORS_ONLY,
    ),
    (call("tensorflow.argmax", I64, lit(0)), "RXTP-RXTTF-010", TENSORS_ONLY),
    # ... and on covered operators.
    (plus(T2, "float"), "RXTP-RXTTF-037", f"{TENSORS_OR_FLOATS} ({T2}, float)"),
    (plus(T2, "str"), "RXTP-RXTTF-037", f"{TENSORS_OR_FLOATS} ({T2}, str)"),
    (plus(T2, "bool"), "RXTP-RXTTF-037", TENSORS_OR_FLOATS),
    (plus("tensorflow.Tensor", "tensorflow.Tensor"), "RXTP-RXTTF-037", TENSORS_OR_FLOATS),
    (binop("*", I64, I64), "RXTP-RXTTF-037", f"{TENSORS_OR_FLOATS} ({I64}, {I64})"),
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

    assert suggestion(binop("*", T2, lit(2))) == "write the number as a float literal, e.g. `2.0`"
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
    assert suggestion(call("tensorflow.transpose", T2, keywords=(kw("perm", (0, 1)),))) == (
        "write `perm=(1, 0)`"
    )


# Bugs in claim.py: these sites are claimed, and lower to code `tf!` refuses.
# Positional keyword values are not checked against the keyword's accepted
# values (the keyword spelling of each is rejected), and `output_type` accepts
# the string 'tf.int64', lowered as `output_type = 'tf.int64'`.
# Keyword values given positionally are checked like keywords; an element
# type can only be omitted.
POSITIONAL_AND_TYPE_KEYWORDS = [
    (call("tensorflow.reduce_sum", T2, lit(2)), "RXTP-RXTTF-031", "supports only `axis` = 0, 1"),
    (call("tensorflow.reduce_mean", T2, lit(None)), "RXTP-RXTTF-004", "`axis`"),
    (call("tensorflow.reduce_max", T2, lit((0, 1))), "RXTP-RXTTF-032", "`axis`"),
    (call("tensorflow.argmax", T2, lit(7)), "RXTP-RXTTF-036", "supports only `axis`"),
    (call("tensorflow.reduce_min", T2, lit(1), lit(1)), "RXTP-RXTTF-033", "`keepdims`"),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1), kw("output_type", "tf.int64"))),
        "RXTP-RXTTF-036",
        "`output_type` omitted",
    ),
    # Calls of covered symbols on operands that are not tensors.
    (call("tensorflow.add", F, F), "RXTP-RXTTF-003", "got a float literal × a float literal"),
    (call("tensorflow.nn.relu", F), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu", "list[float]"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.maximum", "int", F), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu"), "RXTP-RXTTF-002", "got no operands"),
    # An int variable (not a literal) where a float literal may stand.
    (binop("*", T2, "int"), "RXTP-RXTTF-037", "must be rxt-tf tensors"),
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
    call("tensorflow.cos", T2),
    call("tensorflow.nn.gelu", T2),
    call("tensorflow.reduce_prod", T2, keywords=(kw("axis", 1),)),
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
]


@pytest.mark.parametrize("site", NOT_COVERED, ids=[describe(site) for site in NOT_COVERED])
def test_unknown_symbols_receivers_and_untyped_operands_are_not_covered(site) -> None:  # type: ignore[no-untyped-def]
    assert claim(site) == NotCovered()


def test_claims_are_deterministic() -> None:
    for site, _, _ in ACCEPTED:
        assert claim(site) == claim(site)
