"""Lowering: one claimed site becomes one ``::rxt_tf::tf!(...)?`` expression.

The site is decided again (:func:`rxt_tf_plugin.claim.decide`) and must match
the claim Rextio recorded; anything else raises ``ValueError``, so a stale or
forged claim never reaches the generated code.
"""

from __future__ import annotations

import re
from typing import Any

from rxt_tf_plugin.claim import Verdict, decide
from rxt_tf_plugin.ops import CRATE, Op


def lower_rust(site: Any, operands: tuple[str, ...], receiver: str | None = None) -> str:
    """The Rust expression for a claimed site with rendered ``operands``."""
    verdict = revalidate(site)
    op = verdict.op
    if op is None:  # pragma: no cover - revalidate() returns claimed verdicts only
        raise ValueError("rxt-tf: internal error: a claimed verdict without an op")
    if receiver is not None:
        raise ValueError(
            f"rxt-tf: cannot lower `{site.target}` with a receiver ({receiver}); "
            "only function-style calls are claimed"
        )
    if len(operands) != op.arity:
        raise ValueError(
            f"rxt-tf: `{site.target}` was claimed with {op.arity} operand(s) but lowering "
            f"received {len(operands)}: {operands!r}"
        )
    for operand in operands:
        if not operand.strip():
            raise ValueError(f"rxt-tf: `{site.target}` received an empty operand")
    return f"::{CRATE}::tf!({_invocation(op, operands, site)})?"


def revalidate(site: Any) -> Verdict:
    """Decide the site again; it must be claimed under the rule it carries."""
    verdict = decide(site)
    if verdict.outcome != "claimed" or verdict.op is None or verdict.result is None:
        reason = verdict.message or "the site is not one rxt-tf covers"
        raise ValueError(f"rxt-tf: lowering a site that rxt-tf does not claim: {reason}")
    rule_id = getattr(site, "rule_id", None)
    if rule_id is not None and rule_id != verdict.op.rule_id:
        raise ValueError(
            f"rxt-tf: site `{site.target}` carries rule {rule_id!r} but matches "
            f"{verdict.op.rule_id!r}"
        )
    result_type = getattr(site, "result_type", None)
    if result_type is not None and result_type != verdict.result.key:
        raise ValueError(
            f"rxt-tf: site `{site.target}` carries result type {result_type!r} but "
            f"produces {verdict.result.key!r}"
        )
    return verdict


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _operand(rendered: str) -> str:
    """`rendered` as one operand: a bare name as is, anything else in parentheses.

    An operand one pair of parentheses already encloses whole (as Rextio
    renders nested calls) is not wrapped again.
    """
    text = rendered.strip()
    if _IDENTIFIER.fullmatch(text) or _enclosed(text):
        return text
    return f"({text})"


def _enclosed(text: str) -> bool:
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and index < len(text) - 1:
            return False  # the first `(` closes before the end: `(a) + (b)`
    return depth == 0


def _invocation(op: Op, operands: tuple[str, ...], site: Any) -> str:
    operands = tuple(_operand(operand) for operand in operands)
    if op.kind == "binop" and op.row.operator == op.targets[0]:
        left, right = operands
        return f"{left} {op.row.operator} {right}"
    given = {str(keyword.name): keyword.literal.value for keyword in getattr(site, "keywords", ())}
    keywords = [k.rust(given[k.name]) for k in op.keywords if k.name in given]
    return f"{op.macro_name}({', '.join([*operands, *keywords])})"
