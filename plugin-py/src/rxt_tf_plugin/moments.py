"""``explain --fix``: ``mean, variance = tf.nn.moments(x, axes)`` as one call per output.

Rextio assigns no tuple target, but each output of ``tf.nn.moments`` is a
call of ops the plugin claims. TensorFlow's own ``moments``
(``tensorflow/python/ops/nn_impl.py``) runs, for a tensor that is not
float16: ``reduce_mean(x, axes, keepdims=True)``, then
``reduce_mean(squared_difference(x, stop_gradient(mean)), axes,
keepdims=True)``, then, without ``keepdims``, ``squeeze`` of each over
``axes``. Written out, the same ops run in the same order, so the results
are the same bits and a failure the same error.

Only where that is provable here: ``x`` a name whose element type is known
and not float16 (float16 runs in float32 and casts back), ``axes`` a list
or tuple of int literals, no ``shift`` and no ``name``, ``keepdims`` a bool
literal or left out, and two distinct names as the targets, neither ``x``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

PARAMETERS = ("x", "axes", "shift", "keepdims", "name")
"""``tf.nn.moments``'s parameters (TensorFlow 2.21.0), in order."""


def one_call_per_output(
    statement: ast.stmt,
    tf_module: str,
    tf_path: Callable[[ast.expr], str | None],
    dtype_of: Callable[[ast.Name], str | None],
    text: Callable[[ast.AST], str],
    fresh: Callable[[str], str],
) -> list[str] | None:
    """The statements that replace ``statement``, if it unpacks a provable ``moments`` call.

    ``tf_module`` is the module's name for ``tensorflow``, ``dtype_of`` the
    element type of a name at this statement (or None), ``fresh`` a new
    local name from a stem.
    """
    if not (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Tuple)
        and len(statement.targets[0].elts) == 2
        and all(isinstance(t, ast.Name) for t in statement.targets[0].elts)
        and isinstance(statement.value, ast.Call)
        and tf_path(statement.value.func) == "tensorflow.nn.moments"
    ):
        return None
    mean, variance = (t.id for t in statement.targets[0].elts if isinstance(t, ast.Name))
    given = _bind(statement.value)
    if given is None or mean == variance:
        return None
    x, axes = given.get("x"), given.get("axes")
    keepdims = given.get("keepdims")
    shift = given.get("shift")
    if (
        not isinstance(x, ast.Name)
        or x.id in (mean, variance)
        or dtype_of(x) in (None, "float16")
        or axes is None
        or not _int_list(axes)
        or "name" in given
        or not (shift is None or (isinstance(shift, ast.Constant) and shift.value is None))
        or not (keepdims is None or isinstance(keepdims, ast.Constant))
        or not isinstance(getattr(keepdims, "value", False), bool)
    ):
        return None
    tf, axes_text = tf_module, text(axes)
    kept = bool(getattr(keepdims, "value", False))
    kept_mean, kept_variance = (mean, variance) if kept else (fresh(mean), fresh(variance))
    lines = [
        f"{kept_mean} = {tf}.reduce_mean({x.id}, {axes_text}, keepdims=True)",
        f"{kept_variance} = {tf}.reduce_mean({tf}.math.squared_difference({x.id}, "
        f"{tf}.stop_gradient({kept_mean})), {axes_text}, keepdims=True)",
    ]
    if not kept:
        lines += [
            f"{mean} = {tf}.squeeze({kept_mean}, {axes_text})",
            f"{variance} = {tf}.squeeze({kept_variance}, {axes_text})",
        ]
    return lines


def _bind(call: ast.Call) -> dict[str, ast.expr] | None:
    """The call's arguments by parameter name, or None if Python would not bind them."""
    if len(call.args) > len(PARAMETERS) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    given = dict(zip(PARAMETERS, call.args, strict=False))
    for keyword in call.keywords:
        if keyword.arg not in PARAMETERS or keyword.arg in given:
            return None
        given[keyword.arg] = keyword.value
    return given


def _int_list(node: ast.expr) -> bool:
    """A non-empty list or tuple of int literals (``-1`` included)."""
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return False
    for element in node.elts:
        if isinstance(element, ast.UnaryOp) and isinstance(element.op, ast.USub):
            element = element.operand
        if not (isinstance(element, ast.Constant) and type(element.value) is int):
            return False
    return True
