"""The rule functions against the crate's own values (generated into spec.py)."""

from __future__ import annotations

import pytest

from rxt_tf_plugin import spec
from rxt_tf_plugin.model import Literal, OpRow
from rxt_tf_plugin.shapes import RULES, Keywords, Problem, Typed, axes_fit

ROW_OF_RULE = {row.rule: row for row in reversed(spec.OPS)}
"""An op of each rule (the first in table order)."""


def test_every_rule_of_the_table_has_a_function() -> None:
    assert {row.rule for row in spec.OPS} == set(RULES)


def keywords_for(row: OpRow, ranks: tuple[int, ...], axes: int, keepdims: bool) -> Keywords:
    """Keyword values giving the case of a ``RESULT_RANKS`` row."""
    given: dict[str, Literal] = {}
    if row.rule in ("reduce", "squeeze"):
        given = {"axis": tuple(range(axes)), "keepdims": keepdims}
    elif row.rule == "moments":
        given = {"axes": tuple(range(axes)), "keepdims": keepdims}
    elif row.rule in ("along-axis", "arg-reduce"):
        given = {"axis": ranks[0] - 1}
    elif row.rule == "permute":
        given = {"perm": tuple(reversed(range(ranks[0])))}
    elif row.rule in ("join", "stack", "split", "split-sizes", "unstack", "one-hot"):
        given = {"axis": 0}
    elif row.rule == "gather":
        given = {"axis": 0, "batch_dims": axes}
    elif row.rule == "contract":
        given = {"axes": axes}
    elif row.rule in ("fill", "filled"):
        return Keywords(row, given, lists=((1,) * axes,))
    elif row.rule == "reshape":
        return Keywords(row, given, lists=((1,) * axes,))
    elif row.rule == "per-axis":
        return Keywords(row, given, lists=((2,) * ranks[0],))
    elif row.rule == "index":
        # `x[0, 0, …]`: `axes` integers, each dropping an axis.
        entries = (0,) * axes
        given = {"shrink_axis_mask": (1 << axes) - 1}
        return Keywords(row, given, lists=(entries, (1,) * axes, (1,) * axes))
    elif row.rule == "window":
        return Keywords(row, given, lists=((0,) * ranks[0], (-1,) * ranks[0]))
    return Keywords(row, given)


@pytest.mark.parametrize(("rule", "ranks", "axes", "keepdims", "result"), spec.RESULT_RANKS)
def test_result_ranks_are_the_crates(
    rule: str, ranks: tuple[int, ...], axes: int, keepdims: bool, result: int | None
) -> None:
    # The first op of the rule taking these ranks (`conv` has rank-4 and
    # rank-3 ops).
    row = next(
        row
        for row in spec.OPS
        if row.rule == rule
        and len(ranks) == len(row.ranks)
        and all(low <= rank <= high for rank, (low, high) in zip(ranks, row.ranks, strict=True))
    )
    typed = RULES[rule](ranks, keywords_for(row, ranks, axes, keepdims))
    if result is None:
        # Ranks the crate gives no result for: the plugin refuses them too.
        assert isinstance(typed, Problem), typed
        return
    assert isinstance(typed, Typed), typed
    assert typed.rank == result


def test_result_ranks_cover_every_rule() -> None:
    assert {row[0] for row in spec.RESULT_RANKS} == set(RULES)


@pytest.mark.parametrize(("rank", "axes", "fits"), spec.AXES_FIT)
def test_axes_fit_is_the_crates(rank: int, axes: tuple[int, ...], fits: bool) -> None:
    assert axes_fit(axes, rank) is fits


def test_argmax_gives_its_output_type() -> None:
    row = ROW_OF_RULE["arg-reduce"]
    assert RULES["arg-reduce"]((3,), Keywords(row, {"axis": 0})) == Typed(2, "int64")


def test_an_omitted_perm_reverses_and_a_given_one_must_permute() -> None:
    row = ROW_OF_RULE["permute"]
    assert RULES["permute"]((4,), Keywords(row, {})) == Typed(4)
    assert isinstance(RULES["permute"]((4,), Keywords(row, {"perm": ()})), Problem)
    assert isinstance(RULES["permute"]((3,), Keywords(row, {"perm": (0, 1, 1)})), Problem)
