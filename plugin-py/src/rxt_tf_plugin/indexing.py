"""A subscript of a tensor as the ``tf.strided_slice`` call it makes.

``Tensor.__getitem__`` runs TensorFlow's ``_slice_helper``, which turns the
index into begin, end and strides lists and five masks and calls
``tf.strided_slice``; ``explain --fix`` writes that call where the index
holds only literals, so the op, its inputs and attributes are the same.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

SLICE_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
"""The masks ``Tensor.__getitem__`` passes to ``tf.strided_slice``."""


def index_lists(
    index: ast.expr, is_newaxis: Callable[[ast.expr], bool]
) -> tuple[list[int], list[int], list[int], dict[str, int]] | None:
    """The lists and masks ``_slice_helper`` builds for the subscript ``index``.

    Begin, end and strides, and the five masks, as TensorFlow's
    ``_slice_helper`` builds them, if the index holds only literals.
    ``None`` for anything else: a name or an expression (its value is not
    known here), a bool (a boolean mask), a list (another indexing), an empty
    tuple.
    """
    items = index.elts if isinstance(index, ast.Tuple) else [index]
    if not items:
        return None
    entries: list[tuple[int, int, int]] = []
    masks = dict.fromkeys(SLICE_MASKS, 0)
    for position, item in enumerate(items):
        bit = 1 << position
        if isinstance(item, ast.Slice):
            bounds = (item.lower, item.upper, item.step)
            start, stop, step = (None if b is None else _index_int(b) for b in bounds)
            if any(
                b is not None and v is None
                for b, v in zip(bounds, (start, stop, step), strict=True)
            ):
                return None
            masks["begin_mask"] |= bit if start is None else 0
            masks["end_mask"] |= bit if stop is None else 0
            entries.append((start or 0, stop or 0, 1 if step is None else step))
        elif isinstance(item, ast.Constant) and item.value is Ellipsis:
            masks["ellipsis_mask"] |= bit
            entries.append((0, 0, 1))
        elif (isinstance(item, ast.Constant) and item.value is None) or is_newaxis(item):
            masks["new_axis_mask"] |= bit
            entries.append((0, 0, 1))
        elif (at := _index_int(item)) is not None:
            masks["shrink_axis_mask"] |= bit
            entries.append((at, at + 1, 1))
        else:
            return None
    begin, end, strides = (list(column) for column in zip(*entries, strict=True))
    return begin, end, strides, masks


def _index_int(node: ast.expr) -> int | None:
    """An int literal (``2``, ``-1``), not a bool."""
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, sign = node.operand, -1
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return sign * node.value
    return None


def int_tuple(values: list[int]) -> str:
    """``(1, -1)``, ``(0,)``."""
    inner = ", ".join(str(value) for value in values)
    return f"({inner},)" if len(values) == 1 else f"({inner})"
