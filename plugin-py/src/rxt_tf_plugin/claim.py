"""Claim decisions: a pure function of a Rextio claim site and the op table.

:func:`decide` reads only the site's kind, target, receiver, operand types and
keyword literals, so the same site always gets the same :class:`Verdict`; the
plugin turns it into Rextio's ``Claimed`` / ``Rejected`` / ``NotCovered`` and
lowering calls it again to revalidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rxt_tf_plugin.model import KeywordRow, Literal
from rxt_tf_plugin.ops import (
    FALLBACK_CODE,
    Op,
    TensorType,
    op_for,
    tensor_of_rank,
    tensor_type,
)


@dataclass(frozen=True)
class Verdict:
    """The outcome for one site."""

    outcome: str
    """``claimed``, ``rejected`` or ``not-covered``."""
    op: Op | None = None
    """The op claimed or the one whose rule rejected the site."""
    result: TensorType | None = None
    """The result type of a claimed site."""
    code: str | None = None
    """The diagnostic code of a rejection."""
    message: str = ""
    """Why the site was rejected."""
    suggestion: str = ""
    """What to write instead."""


NOT_COVERED = Verdict("not-covered")


def _rejected(op: Op, message: str, suggestion: str, *, code: str | None = None) -> Verdict:
    return Verdict(
        "rejected",
        op=op,
        code=code or op.code,
        message=f"rxt-tf cannot lower `{op.spelling}`: {message}",
        suggestion=suggestion,
    )


def decide(site: Any) -> Verdict:
    """Decide whether rxt-tf lowers this claim site (Rextio ``ClaimSite``)."""
    op = op_for(str(site.kind), str(site.target))
    if op is None:
        return NOT_COVERED
    if getattr(site, "receiver", None) is not None:
        return NOT_COVERED
    operand_types: Sequence[str | None] = tuple(site.operand_types)
    if any(key is None for key in operand_types[: op.arity]):
        return NOT_COVERED
    extra = _extra_positional(op, operand_types)
    if extra is not None:
        return extra
    if any(key is None for key in operand_types):
        return NOT_COVERED
    tensors = [tensor_type(key) for key in operand_types]
    if op.kind == "binop" and not any(
        tensor is not None or str(key).startswith("tensorflow.")
        for tensor, key in zip(tensors, operand_types, strict=True)
    ):
        # `+` of two non-tensors (ints, strings, …) is not ours at all.
        return NOT_COVERED
    if any(tensor is None for tensor in tensors):
        found = ", ".join(str(key) for key in operand_types)
        return _rejected(
            op,
            f"operands must be rxt-tf tensors (TensorF32Cpu2D / TensorF32Cpu1D), got ({found})",
            "annotate the operands with rxt_tf_plugin.types.TensorF32Cpu2D or TensorF32Cpu1D",
            code=FALLBACK_CODE,
        )
    ranks = tuple(tensor.rank for tensor in tensors if tensor is not None)
    if len(ranks) != op.arity or not op.accepts_ranks(ranks):
        got = " × ".join(f"rank-{rank}" for rank in ranks) or "no operands"
        return _rejected(
            op,
            f"needs {op.rank_text()} operands, got {got}",
            "pass tensors of the supported ranks",
        )
    given = tuple(getattr(site, "keywords", ()))
    keyword_problem = _check_keywords(op, given)
    if keyword_problem is not None:
        return keyword_problem
    values = {str(keyword.name): _literal(keyword) for keyword in given}
    result_rank = op.result_rank(ranks, {k: v for k, v in values.items() if v is not None})
    if result_rank is None:
        written = ", ".join(f"{name}={value!r}" for name, value in values.items())
        return _rejected(
            op,
            f"does not take {op.rank_text()} operands with {written or 'these keywords'}",
            "change the keywords to a supported combination",
        )
    return Verdict("claimed", op=op, result=tensor_of_rank(result_rank))


def _extra_positional(op: Op, operand_types: Sequence[str | None]) -> Verdict | None:
    """Rejects a positional keyword (an axis) before the operand-type check."""
    required = [k for k in op.keywords if k.required]
    if len(operand_types) <= op.arity or not required:
        return None
    spelled = ", ".join(_example(k) for k in required)
    return _rejected(
        op,
        f"a positional axis is not supported; pass the literal keyword {spelled}",
        f"write {op.spelling}(x, {spelled})",
    )


def _example(rule: KeywordRow) -> str:
    """``axis=1``: the keyword with its first accepted value, for messages."""
    if rule.allowed:
        return rule.python(rule.allowed[0])
    return f"{rule.name}=<{rule.kind} literal>"


def _accepted(rule: KeywordRow) -> str:
    """``the literal `axis=1``` or ```axis` = 0, 1 or -1``, for messages."""
    if len(rule.allowed) == 1:
        return f"the literal `{rule.python(rule.allowed[0])}`"
    return f"`{rule.name}` = {rule.allowed_text()}"


def _check_keywords(op: Op, given: tuple[Any, ...]) -> Verdict | None:
    names = [str(keyword.name) for keyword in given]
    for keyword in given:
        name = str(keyword.name)
        rule = next((k for k in op.keywords if k.name == name), None)
        if rule is None:
            allowed = (
                "it takes no keyword arguments"
                if not op.keywords
                else "it accepts only " + " and ".join(f"`{k.name}`" for k in op.keywords)
            )
            return _rejected(
                op,
                f"unsupported keyword `{name}`; {allowed}",
                "remove the keyword (this call stays on the Python route otherwise)",
            )
        if names.count(name) > 1:
            return _rejected(op, f"keyword `{name}` given twice", f"pass `{name}` once")
        value = _literal(keyword)
        if value is None or not rule.accepts(value):
            return _rejected(
                op,
                f"supports only {_accepted(rule)}",
                f"write `{_example(rule)}`",
            )
    for rule in op.keywords:
        if rule.required and rule.name not in names:
            return _rejected(
                op,
                f"needs the literal keyword `{_example(rule)}`",
                f"write `{_example(rule)}`",
            )
    return None


def _literal(keyword: Any) -> Literal | None:
    """The keyword's literal value, or ``None`` for an expression."""
    literal = getattr(keyword, "literal", None)
    if literal is None or not getattr(literal, "is_literal", False):
        return None
    value = literal.value
    if isinstance(value, bool | int | float | str):
        return value
    return None
