"""Locals of a function that Rextio's report shows are tensors, and their element types."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from rxt_tf_plugin.ops import tensor_type


def tensor_locals(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    claimed: Mapping[tuple[int, int], str],
) -> dict[str, tuple[str, ast.Assign]]:
    """Locals known as tensors: each name's element type and its binding.

    Those bound exactly once, by a statement of the function's body (not
    under a branch or loop), to a call Rextio's report shows claimed with a
    tensor result.
    """
    if not claimed:
        return {}
    stores: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            stores[node.id] = stores.get(node.id, 0) + 1
    parameters = {
        arg.arg
        for arg in [
            *function.args.posonlyargs,
            *function.args.args,
            *function.args.kwonlyargs,
            *filter(None, [function.args.vararg, function.args.kwarg]),
        ]
    }
    found: dict[str, tuple[str, ast.Assign]] = {}
    for statement in function.body:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call)
        ):
            continue
        name = statement.targets[0].id
        kind = tensor_type(claimed.get((statement.value.lineno, statement.value.col_offset)))
        if kind is not None and stores.get(name) == 1 and name not in parameters:
            found[name] = (kind.dtype, statement)
    return found
