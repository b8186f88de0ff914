"""Builders of Rextio claim sites for the unit tests.

Sites are built the way Rextio (plugin API 1.3) presents them: ``operand_types``
per positional argument, ``operand_literals`` aligned with them and an
``expression`` tree (a ``call`` or ``binop`` :class:`ClaimExpr`) whose children
are the operands. Measured facts the builders follow:

* a tensor or any variable is a ``leaf`` with ``leaf_kind="name"``;
* a float literal (``0.5``, ``-3.0``) has type ``float``, is never a literal to
  Rextio and is an ``opaque`` leaf;
* an int literal has type ``int``, ``ClaimLiteral(is_literal=True, value=2)`` and
  is a ``literal`` child (leaf indexes count leaves only); a negative one has
  its value (``-3``) and is rendered ``__rextio_checked_neg(3)?``;
* a positional bool (``keepdims`` after ``axis``) is not a literal to Rextio.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rextio.plugins.api import NON_LITERAL, ClaimExpr, ClaimLiteral, ClaimSite, KeywordArg

from rxt_tf_plugin import spec


def rule_id(op: str, kind: str = "call") -> str:
    """The rule id of ``op``'s ``kind`` form (``call`` or ``binop``).

    Read from the generated table, the one list of rule names, so tests
    name a rule by its op.
    """
    return next(
        rule.rule_id
        for row in spec.OPS
        if row.name == op
        for rule in row.rules
        if rule.kind == kind
    )


def tensor(short: str, rank: int) -> str:
    """The plugin type key of an rxt-tf tensor: ``tensor("i32", 3)``."""
    return f"rxt-tf/tensor-{short}-cpu-{rank}d"


T0, T1, T2, T3, T4, T5 = (tensor("f32", rank) for rank in range(6))
"""float32 tensors of ranks 0 to 5."""
D0, D1, D2, D3, D4, D5 = (tensor("f64", rank) for rank in range(6))
"""float64 tensors of ranks 0 to 5."""
BF0, BF1, BF2, BF3, BF4, BF5 = (tensor("bf16", rank) for rank in range(6))
"""bfloat16 tensors of ranks 0 to 5."""
H0, H1, H2, H3, H4, H5 = (tensor("f16", rank) for rank in range(6))
"""float16 tensors of ranks 0 to 5."""
I32_0, I32_1, I32_2, I32_3, I32_4, I32_5 = (tensor("i32", rank) for rank in range(6))
"""int32 tensors of ranks 0 to 5."""
I64_0, I64, I64_2, I64_3, I64_4, I64_5 = (tensor("i64", rank) for rank in range(6))
"""int64 tensors of ranks 0 to 5 (``I64`` is rank 1, what ``tf.argmax`` of a matrix gives)."""
B0, B1, B2, B3, B4, B5 = (tensor("bool", rank) for rank in range(6))
"""bool tensors of ranks 0 to 5."""

SHORT = {
    tensor(short, rank): f"{prefix}{rank}"
    for short, prefix in (
        ("f32", "T"),
        ("f64", "D"),
        ("bf16", "BF"),
        ("f16", "H"),
        ("i32", "I32_"),
        ("i64", "I64_"),
        ("bool", "B"),
    )
    for rank in range(5)
}
"""Short names of the type keys, for test ids."""


@dataclass(frozen=True)
class Arg:
    """One positional operand: its resolved type, literal metadata and leaf kind."""

    type: str | None
    literal: ClaimLiteral = NON_LITERAL
    leaf_kind: str = "name"


F = Arg("float", leaf_kind="opaque")
"""A float literal operand (``0.5``): an opaque leaf, not a Rextio literal."""

FVAR = Arg("float")
"""A float variable operand (``scale: float``): a name leaf."""


def lit(value: Any) -> Arg:
    """A positional literal Rextio reads (an int, a tuple of ints or ``None``)."""
    if value is None:
        kind = "None"
    elif isinstance(value, tuple):
        kind = f"tuple[{', '.join('int' for _ in value)}]"
    else:
        kind = "int"
    return Arg(kind, ClaimLiteral(is_literal=True, value=value))


def positional_bool() -> Arg:
    """A positional ``True`` / ``False``: Rextio gives it no literal."""
    return Arg("bool")


Operand = str | None | Arg


def _arg(operand: Operand) -> Arg:
    return operand if isinstance(operand, Arg) else Arg(operand)


def _expression(
    kind: str, target: str, args: tuple[Arg, ...], keywords: tuple[KeywordArg, ...]
) -> ClaimExpr:
    children: list[ClaimExpr] = []
    leaves = 0
    for arg in args:
        if arg.literal.is_literal:
            children.append(ClaimExpr(kind="literal", result_type=arg.type, literal=arg.literal))
        else:
            children.append(
                ClaimExpr(
                    kind="leaf", result_type=arg.type, leaf_index=leaves, leaf_kind=arg.leaf_kind
                )
            )
            leaves += 1
    return ClaimExpr(kind=kind, target=target, children=tuple(children), keywords=keywords)


def _infer_arg_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, tuple):
        return f"tuple[{', '.join('int' for _ in value)}]"
    return "None"


def kw(
    name: str, value: Any = None, *, literal: bool = True, arg_type: str | None = None
) -> KeywordArg:
    """A keyword argument; ``literal=False`` for a non-literal expression.

    The argument type follows the value unless given (``int`` for non-literals).
    """
    lit_ = ClaimLiteral(is_literal=True, value=value) if literal else ClaimLiteral()
    if arg_type is None:
        arg_type = _infer_arg_type(value) if literal else "int"
    return KeywordArg(name=name, arg_type=arg_type, literal=lit_)


def call(
    target: str,
    *operands: Operand,
    keywords: tuple[KeywordArg, ...] = (),
    receiver: Any = None,
    rule_id: str | None = None,
    result_type: str | None = None,
    tree: bool = True,
) -> ClaimSite:
    """A ``call`` site with the target's aliases already resolved.

    ``tree=False`` leaves out the operand literals and the expression (the
    shape Rextio gives providers older than plugin API 1.2).
    """
    args = tuple(_arg(operand) for operand in operands)
    return ClaimSite(
        kind="call",
        target=target,
        operand_types=tuple(arg.type for arg in args),
        file_path="model.py",
        line=3,
        column=4,
        operand_literals=tuple(arg.literal for arg in args) if tree else (),
        keywords=keywords,
        expression=_expression("call", target, args, keywords) if tree else None,
        receiver=receiver,
        rule_id=rule_id,
        result_type=result_type,
    )


def binop(
    operator: str,
    left: Operand,
    right: Operand,
    *,
    rule_id: str | None = None,
    result_type: str | None = None,
    tree: bool = True,
    expression: ClaimExpr | None = None,
) -> ClaimSite:
    """A ``binop`` site for ``left <operator> right``.

    ``expression`` replaces the built tree (for nested operands).
    """
    args = (_arg(left), _arg(right))
    if expression is None and tree:
        expression = _expression("binop", operator, args, ())
    return ClaimSite(
        kind="binop",
        target=operator,
        operand_types=tuple(arg.type for arg in args),
        file_path="model.py",
        line=3,
        column=4,
        operand_literals=tuple(arg.literal for arg in args) if tree else (),
        expression=expression,
        rule_id=rule_id,
        result_type=result_type,
    )


def plus(left: Operand, right: Operand, **extra: Any) -> ClaimSite:
    """A ``binop`` site for ``left + right``."""
    return binop("+", left, right, **extra)


def compare(operator: str, left: Operand, right: Operand) -> ClaimSite:
    """A ``compare`` site for ``left <operator> right`` (plugin API 1.5).

    As a ``binop`` site, but Rextio gives a comparison no expression tree.
    """
    return replace(binop(operator, left, right), kind="compare", expression=None)
