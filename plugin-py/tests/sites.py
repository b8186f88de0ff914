"""Builders of Rextio claim sites for the unit tests."""

from __future__ import annotations

from typing import Any

from rextio.plugins.api import ClaimLiteral, ClaimSite, KeywordArg

T2 = "rxt-tf/tensor-f32-cpu-2d"
T1 = "rxt-tf/tensor-f32-cpu-1d"


def kw(name: str, value: Any = None, *, literal: bool = True, arg_type: str = "int") -> KeywordArg:
    """A keyword argument; ``literal=False`` for a non-literal expression."""
    lit = ClaimLiteral(is_literal=True, value=value) if literal else ClaimLiteral()
    return KeywordArg(name=name, arg_type=arg_type, literal=lit)


def call(
    target: str,
    *operand_types: str | None,
    keywords: tuple[KeywordArg, ...] = (),
    receiver: Any = None,
    rule_id: str | None = None,
    result_type: str | None = None,
) -> ClaimSite:
    """A ``call`` site with the target's aliases already resolved."""
    return ClaimSite(
        kind="call",
        target=target,
        operand_types=tuple(operand_types),
        file_path="model.py",
        line=3,
        column=4,
        keywords=keywords,
        receiver=receiver,
        rule_id=rule_id,
        result_type=result_type,
    )


def plus(left: str | None, right: str | None, **extra: Any) -> ClaimSite:
    """A ``binop`` site for ``left + right``."""
    return ClaimSite(
        kind="binop",
        target="+",
        operand_types=(left, right),
        file_path="model.py",
        line=3,
        column=4,
        **extra,
    )
