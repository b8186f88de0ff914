"""Claim decisions: a pure function of a Rextio claim site and the op table.

:func:`decide` reads only the site's kind, target, receiver, operand types,
operand literals, expression tree and keyword literals, so the same site
always gets the same :class:`Verdict`; the plugin turns it into Rextio's
``Claimed`` / ``Rejected`` / ``NotCovered`` and lowering calls it again to
revalidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rxt_tf_plugin.model import KeywordRow, Literal
from rxt_tf_plugin.ops import FALLBACKS, Op, TensorType, op_for, tensor_of, tensor_type

FLOAT = "float"
"""Rextio's type of a float operand (a float literal is never a literal to it)."""


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
    keywords: dict[str, Literal] = field(default_factory=dict)
    """The op keywords of a claimed site (given by keyword or position)."""
    scalars: frozenset[int] = frozenset()
    """Operand positions holding a float literal."""


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
    if op is None or getattr(site, "receiver", None) is not None:
        return NOT_COVERED
    operand_types: Sequence[str | None] = tuple(site.operand_types)
    literals: Sequence[Any] = tuple(getattr(site, "operand_literals", ()) or ())
    if any(key is None for key in operand_types):
        return NOT_COVERED
    tensors = [tensor_type(key) for key in operand_types[: op.arity]]
    if (
        op.kind == "binop"
        and not any(tensor is not None for tensor in tensors)
        and not any(str(key).startswith("tensorflow.") for key in operand_types[: op.arity])
    ):
        # An operator with no tensor among its operands (`1.0 - 2.0`, ints,
        # strings) is not TensorFlow's at all.
        return NOT_COVERED
    positional = _positional_keywords(op, operand_types, literals)
    if isinstance(positional, Verdict):
        return positional
    ranks, scalars = _ranks(op, site, operand_types, literals)
    if isinstance(ranks, Verdict):
        return ranks
    if len(ranks) != op.arity or not op.accepts_ranks(ranks):
        got = " × ".join(f"rank-{rank}" if rank else "a float literal" for rank in ranks)
        return _rejected(
            op,
            f"needs {op.rank_text()} operands, got {got or 'no operands'}",
            "pass tensors of the supported ranks",
        )
    keywords = _keywords(op, tuple(getattr(site, "keywords", ())), positional)
    if isinstance(keywords, Verdict):
        return keywords
    signature = op.result(ranks, keywords)
    if signature is None:
        written = ", ".join(f"{name}={value!r}" for name, value in keywords.items())
        return _rejected(
            op,
            f"does not take {', '.join(f'rank-{r}' for r in ranks)} operands with {written}",
            "change the keywords to a supported combination",
        )
    result = tensor_of(signature.result, signature.result_dtype)
    return Verdict("claimed", op=op, result=result, keywords=keywords, scalars=scalars)


def _ranks(
    op: Op, site: Any, operand_types: Sequence[str | None], literals: Sequence[Any]
) -> tuple[tuple[int, ...] | Verdict, frozenset[int]]:
    """The operand ranks (0 for a float literal), or the rejection."""
    ranks: list[int] = []
    scalars: set[int] = set()
    for index, key in enumerate(operand_types[: op.arity]):
        tensor = tensor_type(key)
        if tensor is not None and tensor.dtype == "float32":
            ranks.append(tensor.rank)
        elif key == FLOAT and index in op.scalar_positions() and _is_literal_leaf(site, index):
            ranks.append(0)
            scalars.add(index)
        elif key == "int" and index in op.scalar_positions() and _is_literal(literals, index):
            return _rejected(
                op,
                "integer literal operands are not supported (tensors are float32)",
                "write the number as a float literal, e.g. `2.0`",
            ), frozenset()
        else:
            found = ", ".join(str(key) for key in operand_types[: op.arity])
            fallback = FALLBACKS[op.kind]
            accepted = "rxt-tf tensors (TensorF32Cpu2D / TensorF32Cpu1D)"
            if op.scalar_positions():
                accepted += " or float literals"
            return _rejected(
                op,
                f"operands must be {accepted}, got ({found})",
                "annotate the operands with rxt_tf_plugin.types.TensorF32Cpu2D or TensorF32Cpu1D",
                code=fallback.code,
            ), frozenset()
    return tuple(ranks), frozenset(scalars)


def _is_literal(literals: Sequence[Any], index: int) -> bool:
    """Whether Rextio reports operand `index` as a literal."""
    literal = literals[index] if index < len(literals) else None
    return bool(getattr(literal, "is_literal", False))


def _is_literal_leaf(site: Any, index: int) -> bool:
    """Whether operand `index` is an expression leaf that is not a name.

    Rextio never marks a float as a literal; a float literal reaches the
    plugin as an ``opaque`` leaf, a float variable as a ``name`` leaf. An
    opaque leaf may also be another float expression (`cfg.scale`), which
    lowering passes as a run-time scalar.
    """
    expression = getattr(site, "expression", None)
    children = tuple(getattr(expression, "children", ()) or ())
    if index >= len(children):
        return False
    child = children[index]
    return getattr(child, "kind", None) == "leaf" and getattr(child, "leaf_kind", None) != "name"


def _positional_keywords(
    op: Op, operand_types: Sequence[str | None], literals: Sequence[Any]
) -> dict[str, Literal] | Verdict:
    """Keywords the rule takes positionally after the operands (`axis`)."""
    extra = len(operand_types) - op.arity
    if extra <= 0:
        return {}
    names = op.rule.positional
    if extra > len(names):
        if not names:
            return _rejected(
                op,
                f"takes {op.arity} operand(s), got {len(operand_types)}",
                f"pass {op.arity} tensor operand(s)",
            )
        required = ", ".join(_example(k) for k in op.keywords if k.required)
        return _rejected(
            op,
            f"takes at most {len(names)} argument(s) after the operands ({', '.join(names)})",
            f"write {op.spelling}(x, {required})",
        )
    values: dict[str, Literal] = {}
    for offset, name in enumerate(names[:extra]):
        index = op.arity + offset
        literal = literals[index] if index < len(literals) else None
        rule = next(k for k in op.keywords if k.name == name)
        if literal is None or not getattr(literal, "is_literal", False):
            spelled = f"{rule.name}=<{rule.allowed_text()}>"
            return _rejected(
                op,
                f"a positional `{name}` must be a literal Rextio can read; "
                f"pass it as the keyword `{spelled}`",
                f"write `{spelled}` as a keyword",
            )
        if not rule.accepts(literal.value):
            return _rejected(op, f"supports only {_accepted(rule)}", f"write `{_example(rule)}`")
        values[name] = literal.value
    return values


def _example(rule: KeywordRow) -> str:
    """``axis=1``: the keyword with its first accepted value, for messages."""
    if rule.kind == "type":
        return f"omit {rule.name}"
    if rule.allowed:
        return rule.python(rule.allowed[0])
    return f"{rule.name}=<{rule.kind} literal>"


def _accepted(rule: KeywordRow) -> str:
    """``the literal `axis=1``` or ```axis` = 0, 1 or -1``, for messages."""
    if rule.kind == "type":
        return f"`{rule.name}` omitted (it is {rule.allowed_text()})"
    if len(rule.allowed) == 1:
        return f"the literal `{rule.python(rule.allowed[0])}`"
    return f"`{rule.name}` = {rule.allowed_text()}"


def _keywords(
    op: Op, given: tuple[Any, ...], positional: dict[str, Literal]
) -> dict[str, Literal] | Verdict:
    """The op keywords of the site (positional ones included), checked."""
    values: dict[str, Literal] = dict(positional)
    names = [str(keyword.name) for keyword in given]
    python_only = {k.name: k for k in op.rule.python_only}
    for keyword in given:
        name = str(keyword.name)
        if names.count(name) > 1 or name in positional:
            return _rejected(op, f"keyword `{name}` given twice", f"pass `{name}` once")
        value = _literal(keyword)
        if name in python_only:
            accepted = python_only[name].values
            if value not in accepted:
                shown = " or ".join(repr(v) for v in accepted)
                return _rejected(
                    op,
                    f"supports `{name}` only as {shown}",
                    f"omit `{name}` or write `{name}={accepted[0]!r}`",
                )
            continue
        rule = next((k for k in op.keywords if k.name == name), None)
        if rule is None:
            known = [*(k.name for k in op.keywords), *python_only]
            allowed = (
                "it takes no keyword arguments"
                if not known
                else "it accepts only " + " and ".join(f"`{k}`" for k in known)
            )
            return _rejected(
                op,
                f"unsupported keyword `{name}`; {allowed}",
                "remove the keyword (this call stays on the Python route otherwise)",
            )
        if value is None or not rule.accepts(value):
            return _rejected(op, f"supports only {_accepted(rule)}", f"write `{_example(rule)}`")
        values[name] = value
    for rule in op.keywords:
        if rule.required and rule.name not in values:
            return _rejected(
                op,
                f"needs the literal keyword `{_example(rule)}`",
                f"write `{_example(rule)}`",
            )
    return values


def _literal(keyword: Any) -> Literal | None:
    """The keyword's literal value, or ``None`` for an expression."""
    literal = getattr(keyword, "literal", None)
    if literal is None or not getattr(literal, "is_literal", False):
        return None
    value = literal.value
    if isinstance(value, bool | int | float | str | tuple):
        return value
    return None
