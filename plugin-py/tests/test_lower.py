"""Lowering: every claimed form becomes one `::rxt_tf::tf!(...)?` expression."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rextio.plugins.api import Claimed, LoweredExpr, LoweringContext
from sites import T1, T2, call, kw, plus
from test_claim import ACCEPTED, NOT_COVERED, REJECTED

from rxt_tf_plugin.plugin import plugin

P = plugin()


def ctx(*operands: str, receiver: str | None = None) -> LoweringContext:
    return LoweringContext(
        operands=operands,
        target_language="rust",
        fresh_name=lambda prefix: f"{prefix}_0",
        receiver=receiver,
    )


def claimed(site):  # type: ignore[no-untyped-def]
    """The site as core hands it to lower(): with its claimed rule and type."""
    result = P.claim(site, None)
    assert isinstance(result, Claimed)
    return replace(site, rule_id=result.rule_id, result_type=result.result_type)


EXPECTED = [
    (call("tensorflow.matmul", T2, T2), ("x", "weight"), "::rxt_tf::tf!(matmul(x, weight))?"),
    (call("tensorflow.linalg.matmul", T2, T2), ("a", "b"), "::rxt_tf::tf!(matmul(a, b))?"),
    (call("tensorflow.nn.relu", T2), ("h",), "::rxt_tf::tf!(relu(h))?"),
    (call("tensorflow.math.tanh", T1), ("b",), "::rxt_tf::tf!(tanh(b))?"),
    (
        call("tensorflow.nn.sigmoid", T2),
        ("(::rxt_tf::tf!(matmul(x, w))?)",),
        "::rxt_tf::tf!(sigmoid((::rxt_tf::tf!(matmul(x, w))?)))?",
    ),
    (call("tensorflow.add", T1, T2), ("a", "b"), "::rxt_tf::tf!(add(a, b))?"),
    (call("tensorflow.math.add", T2, T1), ("h", "bias"), "::rxt_tf::tf!(add(h, bias))?"),
    (plus(T2, T1), ("h", "bias"), "::rxt_tf::tf!(h + bias)?"),
    (plus(T1, T1), ("a", "b"), "::rxt_tf::tf!(a + b)?"),
    (plus(T2, T1), ("(a) + (b)", "x as T"), "::rxt_tf::tf!(((a) + (b)) + (x as T))?"),
    (
        call("tensorflow.nn.relu", T2),
        ("if c { a } else { b }",),
        "::rxt_tf::tf!(relu((if c { a } else { b })))?",
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1),)),
        ("h",),
        "::rxt_tf::tf!(reduce_mean(h, axis = 1))?",
    ),
    (
        call(
            "tensorflow.math.reduce_mean",
            T2,
            keywords=(kw("keepdims", False, arg_type="bool"), kw("axis", 1)),
        ),
        ("h",),
        "::rxt_tf::tf!(reduce_mean(h, axis = 1, keepdims = false))?",
    ),
]


@pytest.mark.parametrize(("site", "operands", "rust"), EXPECTED)
def test_claimed_sites_lower_to_the_tf_macro(site, operands, rust) -> None:  # type: ignore[no-untyped-def]
    assert P.lower(claimed(site), ctx(*operands)) == LoweredExpr(rust=rust)


@pytest.mark.parametrize(("site", "_rule", "_result"), ACCEPTED)
def test_every_accepted_row_lowers(site, _rule, _result) -> None:  # type: ignore[no-untyped-def]
    operands = tuple(f"v{i}" for i in range(len(site.operand_types)))
    lowered = P.lower(claimed(site), ctx(*operands))
    assert lowered.rust.startswith("::rxt_tf::tf!(") and lowered.rust.endswith(")?")
    assert lowered.helpers == () and lowered.uses == ()


@pytest.mark.parametrize(("site", "_code", "_words"), REJECTED)
def test_rejected_sites_do_not_lower(site, _code, _words) -> None:  # type: ignore[no-untyped-def]
    operands = tuple(f"v{i}" for i in range(len(site.operand_types)))
    with pytest.raises(ValueError, match="rxt-tf: lowering a site that rxt-tf does not claim"):
        P.lower(site, ctx(*operands))


@pytest.mark.parametrize("site", NOT_COVERED)
def test_uncovered_sites_do_not_lower(site) -> None:  # type: ignore[no-untyped-def]
    operands = tuple(f"v{i}" for i in range(len(site.operand_types)))
    with pytest.raises(ValueError, match="does not claim"):
        P.lower(site, ctx(*operands))


def test_metadata_that_does_not_match_the_claim_raises() -> None:
    site = claimed(call("tensorflow.matmul", T2, T2))
    with pytest.raises(ValueError, match="carries rule 'rxt-tf/relu-f32-cpu-2d'"):
        P.lower(replace(site, rule_id="rxt-tf/relu-f32-cpu-2d"), ctx("a", "b"))
    with pytest.raises(ValueError, match="carries result type"):
        P.lower(replace(site, result_type=T1), ctx("a", "b"))
    with pytest.raises(ValueError, match="claimed with 2 operand"):
        P.lower(site, ctx("a"))
    with pytest.raises(ValueError, match="empty operand"):
        P.lower(site, ctx("a", " "))
    with pytest.raises(ValueError, match="with a receiver"):
        P.lower(site, ctx("a", "b", receiver="a"))
    with pytest.raises(ValueError, match="Rust only"):
        P.lower(
            site, LoweringContext(operands=("a", "b"), target_language="c", fresh_name=lambda p: p)
        )
