"""Claim outcomes for every row of the seed's accepted and rejected tables."""

from __future__ import annotations

import pytest
from rextio.plugins.api import Claimed, NotCovered, ReceiverMeta, Rejected
from sites import T1, T2, call, kw, plus

from rxt_tf_plugin.plugin import plugin

P = plugin()


def claim(site):  # type: ignore[no-untyped-def]
    return P.claim(site, None)


ACCEPTED = [
    # (site, rule id, result type)
    (call("tensorflow.matmul", T2, T2), "rxt-tf/matmul-f32-cpu-2d", T2),
    (call("tensorflow.linalg.matmul", T2, T2), "rxt-tf/matmul-f32-cpu-2d", T2),
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
        call(
            "tensorflow.reduce_mean",
            T2,
            keywords=(kw("axis", 1), kw("keepdims", False, arg_type="bool")),
        ),
        "rxt-tf/reduce-mean-axis1-f32-cpu-2d",
        T1,
    ),
    (
        call(
            "tensorflow.reduce_mean",
            T2,
            keywords=(kw("keepdims", False, arg_type="bool"), kw("axis", 1)),
        ),
        "rxt-tf/reduce-mean-axis1-f32-cpu-2d",
        T1,
    ),
]


@pytest.mark.parametrize(("site", "rule_id", "result"), ACCEPTED)
def test_supported_forms_are_claimed(site, rule_id, result) -> None:  # type: ignore[no-untyped-def]
    assert claim(site) == Claimed(rule_id=rule_id, result_type=result)


REJECTED = [
    # (site, diagnostic code, words the message must contain)
    (
        call("tensorflow.matmul", T1, T2),
        "RXTP-RXTTF-001",
        "rank-2 × rank-2 operands, got rank-1 × rank-2",
    ),
    (call("tensorflow.matmul", T2, T2, T2), "RXTP-RXTTF-001", "got rank-2 × rank-2 × rank-2"),
    (
        call("tensorflow.matmul", T2, T2, keywords=(kw("transpose_b", True, arg_type="bool"),)),
        "RXTP-RXTTF-001",
        "unsupported keyword `transpose_b`; it takes no keyword arguments",
    ),
    (call("tensorflow.nn.relu", T1), "RXTP-RXTTF-002", "needs rank-2 operands, got rank-1"),
    (
        call("tensorflow.nn.relu", T2, keywords=(kw("name", "h", arg_type="str"),)),
        "RXTP-RXTTF-002",
        "unsupported keyword `name`",
    ),
    (call("tensorflow.nn.sigmoid", T1), "RXTP-RXTTF-005", "got rank-1"),
    (
        call("tensorflow.nn.sigmoid", T2, keywords=(kw("name", "s", arg_type="str"),)),
        "RXTP-RXTTF-005",
        "unsupported keyword `name`",
    ),
    (
        call("tensorflow.add", T2, T2, keywords=(kw("name", "a", arg_type="str"),)),
        "RXTP-RXTTF-003",
        "unsupported keyword `name`",
    ),
    (call("tensorflow.add", T2), "RXTP-RXTTF-003", "got rank-2"),
    (call("tensorflow.nn.tanh", T2, T2), "RXTP-RXTTF-007", "needs rank-1 or rank-2 operands"),
    (
        call("tensorflow.tanh", T1, keywords=(kw("name", "t", arg_type="str"),)),
        "RXTP-RXTTF-007",
        "unsupported keyword `name`",
    ),
    (call("tensorflow.reduce_mean", T2), "RXTP-RXTTF-004", "needs the literal keyword `axis=1`"),
    (
        call("tensorflow.reduce_mean", T2, "int"),
        "RXTP-RXTTF-004",
        "positional axis is not supported",
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 0),)),
        "RXTP-RXTTF-004",
        "supports only the literal `axis=1`",
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", True, arg_type="bool"),)),
        "RXTP-RXTTF-004",
        "supports only the literal `axis=1`",
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", literal=False),)),
        "RXTP-RXTTF-004",
        "supports only the literal `axis=1`",
    ),
    (
        call(
            "tensorflow.reduce_mean",
            T2,
            keywords=(kw("axis", 1), kw("keepdims", True, arg_type="bool")),
        ),
        "RXTP-RXTTF-004",
        "supports only the literal `keepdims=False`",
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1), kw("axis", 1))),
        "RXTP-RXTTF-004",
        "keyword `axis` given twice",
    ),
    (call("tensorflow.reduce_mean", T1, keywords=(kw("axis", 1),)), "RXTP-RXTTF-004", "got rank-1"),
    (
        call("tensorflow.reduce_mean", T2, None),
        "RXTP-RXTTF-004",
        "positional axis is not supported",
    ),
    # Operand types outside the plugin vocabulary on a covered symbol.
    (call("tensorflow.matmul", T2, "float"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu", "list[float]"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (plus(T2, "float"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (plus("tensorflow.Tensor", "tensorflow.Tensor"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
]


@pytest.mark.parametrize(("site", "code", "words"), REJECTED)
def test_unsupported_forms_are_rejected_with_a_diagnostic(site, code, words) -> None:  # type: ignore[no-untyped-def]
    result = claim(site)
    assert isinstance(result, Rejected), result
    assert result.diagnostic.code == code
    assert words in result.diagnostic.message, result.diagnostic.message
    assert result.diagnostic.message.startswith("rxt-tf cannot lower")
    assert result.diagnostic.suggestion
    assert (result.diagnostic.file_path, result.diagnostic.line) == ("model.py", 3)


RECEIVER = ReceiverMeta(arg_type=T2, expr_kind="name", is_safe=True)

NOT_COVERED = [
    call("tensorflow.cos", T2),
    call("tensorflow.nn.softmax", T2),
    call("numpy.matmul", T2, T2),
    call("tensorflow.matmul", T2, T2, receiver=RECEIVER),
    call("tensorflow.nn.relu", T2, receiver=RECEIVER),
    call("tensorflow.matmul", None, T2),
    call("tensorflow.nn.relu", None),
    call("tensorflow.reduce_mean", None, keywords=(kw("axis", 1),)),
    plus(None, T2),
    plus("int", "int"),
    plus("str", "str"),
]


@pytest.mark.parametrize("site", NOT_COVERED)
def test_unknown_symbols_receivers_and_untyped_operands_are_not_covered(site) -> None:  # type: ignore[no-untyped-def]
    assert claim(site) == NotCovered()


def test_claims_are_deterministic() -> None:
    for site, _, _ in ACCEPTED:
        assert claim(site) == claim(site)
