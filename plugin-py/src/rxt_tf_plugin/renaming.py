"""When renaming a local is plainly the same program, for ``explain --fix``.

Python does not care which name holds a value, except where code reads
names themselves: a namespace read by name (``locals()``), a closure or a
comprehension that sees the name, ``global`` and ``nonlocal``.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

_NAMESPACE_READERS = frozenset({"locals", "vars", "eval", "exec", "dir", "globals"})
"""Builtins that read variables by name: renaming a local would show."""


def reads_namespaces(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function names a builtin that reads variables by name."""
    return any(
        isinstance(node, ast.Name) and node.id in _NAMESPACE_READERS for node in ast.walk(function)
    )


def scoped_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names a nested scope, ``global`` or ``nonlocal`` touches (a closure, a lambda)."""
    names: set[str] = set()
    for node in ast.walk(function):
        if node is function:
            continue
        if isinstance(
            node,
            ast.FunctionDef
            | ast.AsyncFunctionDef
            | ast.Lambda
            | ast.ClassDef
            | ast.ListComp
            | ast.SetComp
            | ast.DictComp
            | ast.GeneratorExp,
        ):
            names.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
    return names


def stores(node: ast.AST, name: str) -> bool:
    """Whether ``node`` binds or deletes ``name`` (an assignment, an import, ``del``)."""
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store | ast.Del)
        for n in ast.walk(node)
    ) or any(
        isinstance(n, ast.Import | ast.ImportFrom)
        and any((alias.asname or alias.name).split(".")[0] == name for alias in n.names)
        for n in ast.walk(node)
    )


def loads(node: ast.AST, name: str) -> list[ast.Name]:
    """The reads of ``name`` in ``node``."""
    return [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


def fresh_name(tree: ast.Module, name: str, taken: Collection[str] = ()) -> str:
    """``name_1`` (or the first ``name_<n>``) no identifier of the module uses, nor ``taken``."""
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    used |= {
        n.name
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    used |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    used |= set(taken)
    count = 1
    while f"{name}_{count}" in used:
        count += 1
    return f"{name}_{count}"
