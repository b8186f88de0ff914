"""The first cause behind a TensorFlow call Rextio refused for its keywords.

Rextio says "keyword call arguments are not supported" for a call no plugin
claimed, even where every keyword is a literal: the real cause is then an
operand Rextio could not type. This follows the operands back through the
function's own assignments to the first one that is untyped, and says why:
a project helper's result (a host limit), a subscript, an unannotated
parameter, or a TensorFlow call the plugin did not claim (with its own
blocker).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

Function = ast.FunctionDef | ast.AsyncFunctionDef


def untyped_operand(
    call: ast.Call,
    function: Function,
    claimed: set[tuple[int, int]],
    tf_path: Callable[[ast.expr], str | None],
) -> str | None:
    """Why an operand of ``call`` is untyped to Rextio, or ``None`` if none is known."""
    tracer = _Tracer(function, claimed, tf_path)
    for operand in call.args:
        why = tracer.why(operand, call.lineno, depth=0)
        if why is not None:
            return why
    return None


class _Tracer:
    def __init__(
        self,
        function: Function,
        claimed: set[tuple[int, int]],
        tf_path: Callable[[ast.expr], str | None],
    ) -> None:
        self.function = function
        self.claimed = claimed
        self.tf_path = tf_path
        self.parameters = {a.arg: a for a in [*function.args.posonlyargs, *function.args.args]} | {
            a.arg: a for a in function.args.kwonlyargs
        }

    def why(self, node: ast.expr, before: int, depth: int) -> str | None:
        if depth > 8:
            return None
        if isinstance(node, ast.Name):
            return self._name(node.id, before, depth)
        if isinstance(node, ast.Subscript):
            return (
                f"`{_short(node)}` (line {node.lineno}) is a subscript, which Rextio types for "
                "no plugin (explain --fix writes a subscript of a tensor as tf.strided_slice)"
            )
        if isinstance(node, ast.Call):
            if self.tf_path(node.func) is None:
                return (
                    f"`{_short(node)}` (line {node.lineno}) returns a value of a project "
                    "helper, which Rextio leaves untyped (a host limit): inline the helper "
                    "(explain --fix --unsafe-fixes does, for a straight-line one whose tuple "
                    "is unpacked)"
                )
            if (node.lineno, node.col_offset) not in self.claimed:
                return f"`{_short(node)}` (line {node.lineno}) was not claimed: see its own blocker"
            return None
        if isinstance(node, ast.BinOp | ast.UnaryOp):
            if (node.lineno, node.col_offset) in self.claimed:
                return None
            operands = [node.left, node.right] if isinstance(node, ast.BinOp) else [node.operand]
            for operand in operands:
                why = self.why(operand, before, depth + 1)
                if why is not None:
                    return why
        return None

    def _name(self, name: str, before: int, depth: int) -> str | None:
        assignment = self._last_assignment(name, before)
        if assignment is None:
            parameter = self.parameters.get(name)
            if parameter is not None and parameter.annotation is None:
                return (
                    f"the parameter `{name}` has no annotation: annotate it with an "
                    "rxt_tf_plugin.types marker (TensorF32Cpu2D, ...)"
                )
            return None
        return self.why(assignment.value, assignment.lineno, depth + 1)

    def _last_assignment(self, name: str, before: int) -> ast.Assign | None:
        found: ast.Assign | None = None
        for node in ast.walk(self.function):
            if (
                isinstance(node, ast.Assign)
                and node.lineno < before
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
                and (found is None or node.lineno > found.lineno)
            ):
                found = node
        return found


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
