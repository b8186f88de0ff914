"""Expressions of literals and their values, for ``explain --fix``.

``folded`` computes only what Python computes exactly the same way every
time; ``spelled`` writes a value back as Python source.
"""

from __future__ import annotations

import ast
import math
import operator
from typing import Any

UNKNOWN = object()
"""What :func:`_folded` returns for an expression whose value it does not fix."""

FOLDED = (ast.BinOp, ast.Subscript, ast.Call, ast.Compare, ast.IfExp, ast.BoolOp, ast.UnaryOp)
"""Expressions of literals folded to their value (after constants are inlined):
``(0,) + (2, 1)``, ``(-1,)[0]``, ``len((1, 2))``, ``1.0 / 255``, ``"a" == "a"``."""

_FOLD_OPERATORS: dict[type, Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
}

_COMPARISONS: dict[type, Any] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}


def folded(node: ast.expr) -> object:
    """The value of an expression made of literals only, or ``UNKNOWN``.

    Only what Python computes exactly the same way every time: arithmetic on
    ints and floats (no division by zero, ints within 64 bits), tuple
    concatenation and indexing, ``len`` of a tuple, comparisons and boolean
    logic of literals, a conditional expression with a literal test.
    """
    if isinstance(node, ast.Constant):
        plain = type(node.value) in (int, float, str, bool) or node.value is None
        return node.value if plain else UNKNOWN
    if isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load):
        items = [folded(item) for item in node.elts]
        return UNKNOWN if any(item is UNKNOWN for item in items) else tuple(items)
    if isinstance(node, ast.UnaryOp):
        operand = folded(node.operand)
        if isinstance(node.op, ast.Not) and operand is not UNKNOWN:
            return not operand
        if isinstance(node.op, ast.USub | ast.UAdd) and type(operand) in (int, float):
            return -operand if isinstance(node.op, ast.USub) else operand  # type: ignore[operator]
        return UNKNOWN
    if isinstance(node, ast.BinOp) and type(node.op) in _FOLD_OPERATORS:
        left, right = folded(node.left), folded(node.right)
        numbers = type(left) in (int, float) and type(right) in (int, float)
        tuples = isinstance(node.op, ast.Add) and type(left) is tuple and type(right) is tuple
        if not (numbers or tuples):
            return UNKNOWN
        if numbers and isinstance(node.op, ast.Div | ast.FloorDiv) and right == 0:
            return UNKNOWN
        value = _FOLD_OPERATORS[type(node.op)](left, right)
        if type(value) is int and not -(2**63) <= value < 2**63:
            return UNKNOWN
        return value
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        container, index = folded(node.value), folded(node.slice)
        if type(container) is tuple and type(index) is int:
            if -len(container) <= index < len(container):
                return container[index]
        return UNKNOWN
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and not node.keywords
    ):
        container = folded(node.args[0])
        return len(container) if type(container) in (tuple, str) else UNKNOWN  # type: ignore[arg-type]
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISONS:
        left, right = folded(node.left), folded(node.comparators[0])
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if isinstance(node.ops[0], ast.Is | ast.IsNot) and not (left is None or right is None):
            return UNKNOWN  # identity of other literals is an implementation detail
        try:
            return bool(_COMPARISONS[type(node.ops[0])](left, right))
        except TypeError:
            return UNKNOWN
    if isinstance(node, ast.IfExp):
        test = folded(node.test)
        if test is UNKNOWN:
            return UNKNOWN
        return folded(node.body if test else node.orelse)
    if isinstance(node, ast.BoolOp):
        values = [folded(value) for value in node.values]
        if any(value is UNKNOWN for value in values):
            return UNKNOWN
        result = values[0]
        for value in values[1:]:
            result = (result and value) if isinstance(node.op, ast.And) else (result or value)
        return result
    return UNKNOWN


def spelled(value: object) -> str | None:
    """A folded value as Python source, parenthesized when negative.

    ``None`` if it has no literal spelling (an infinite or NaN float).
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, tuple):
        parts = [spelled(item) for item in value]
        if any(part is None for part in parts):
            return None
        inner = ", ".join(part or "" for part in parts)
        return f"({inner},)" if len(parts) == 1 else f"({inner})"
    text = repr(value)
    return f"({text})" if text.startswith("-") else text
