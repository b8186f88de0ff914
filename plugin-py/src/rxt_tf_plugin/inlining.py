"""Inlining a straight-line helper where its result is unpacked, for ``--unsafe-fixes``.

Rextio refuses ``a, b = helper(x)`` (a tuple target) and types no value a
project helper returns through a tuple. Where ``helper`` is a function of the
same module whose body is assignments to plain names and one final
``return``, the call statement can be written as that body: the arguments
bound in Python's evaluation order, the helper's names renamed apart from
the caller's, and the returned tuple's items assigned one by one to the
targets (each item reads only the helper's names, so assigning them in
turn is the tuple assignment). The computation is the same; what differs
is what a traceback shows (no frame of the helper), so the rewrite is unsafe.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rxt_tf_plugin.renaming import reads_namespaces, scoped_names

Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Inlined:
    """The statements that replace one call statement."""

    statement: ast.stmt
    """The caller's statement, ``a, b = helper(x)``."""
    helper: str
    """The helper's name."""
    lines: list[str]
    """The new statements, unindented."""


def helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module's functions that can be inlined, by name (bound once)."""
    found: dict[str, ast.FunctionDef] = {}
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        for target in _bound_names(node):
            counts[target] = counts.get(target, 0) + 1
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and counts.get(node.name) == 1 and _straight(node):
            found[node.name] = node
    return found


def inline(
    caller: Function,
    statement: ast.stmt,
    helpers_: dict[str, ast.FunctionDef],
    fresh: Callable[[str, set[str]], str],
    reserved: set[str],
) -> Inlined | None:
    """``statement`` of ``caller`` written as the helper's body, if that is plainly the same.

    ``caller`` must be a function of the module itself (a nested one could
    see an enclosing function's name where the helper reads a global).

    ``reserved`` holds the names earlier inlinings in the caller introduced;
    this one's are added to it.
    """
    if statement not in caller.body or reads_namespaces(caller):
        return None
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    call = statement.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return None
    helper = helpers_.get(call.func.id)
    if helper is None or helper is caller or call.keywords:
        return None
    if call.func.id in _bound_in(caller):
        return None  # the caller's own `helper` (a parameter, a local), not the module's
    if any(isinstance(arg, ast.Starred) for arg in call.args):
        return None
    params = [arg.arg for arg in helper.args.args]
    if len(call.args) != len(params):
        return None
    target = statement.targets[0]
    body = [s for s in helper.body if not _is_docstring(s)]
    returned = body[-1]
    assert isinstance(returned, ast.Return) and returned.value is not None
    if isinstance(target, ast.Tuple):
        if not (
            isinstance(returned.value, ast.Tuple)
            and len(returned.value.elts) == len(target.elts)
            and all(isinstance(t, ast.Name) for t in target.elts)
        ):
            return None
        targets = [t.id for t in target.elts if isinstance(t, ast.Name)]
        values = list(returned.value.elts)
    elif isinstance(target, ast.Name):
        targets, values = [target.id], [returned.value]
    else:
        return None
    taken = _names(caller) | scoped_names(caller) | reserved
    # The helper's free names (its globals) must mean the same in the caller.
    helper_locals = set(params) | {n for s in body for n in _bound_names(s)}
    free = {
        n.id
        for statement in body
        for n in ast.walk(statement)
        if isinstance(n, ast.Name) and n.id not in helper_locals
    }
    if free & (_names(caller) - {call.func.id}):
        return None
    renames: dict[str, str] = {}
    lines: list[str] = []
    bound_before = {a.arg for a in ast.walk(caller.args) if isinstance(a, ast.arg)}
    for earlier in caller.body[: caller.body.index(statement)]:
        if isinstance(earlier, ast.Assign):
            bound_before.update(_bound_names(earlier))
    for param, arg in zip(params, call.args, strict=True):
        if (
            isinstance(arg, ast.Name)
            and arg.id in bound_before  # bound for sure: reading it later cannot fail
            and not _rebinds(body, param)
            and arg.id not in targets
        ):
            renames[param] = arg.id  # read the caller's name where the helper reads it
            continue
        renames[param] = fresh(param, taken)
        taken.add(renames[param])
        lines.append(f"{renames[param]} = {ast.unparse(arg)}")
    for name in sorted(helper_locals - set(params)):
        renames[name] = fresh(name, taken) if name in taken else name
        taken.add(renames[name])
    for assignment in body[:-1]:
        lines.append(ast.unparse(_renamed(assignment, renames)))
    for name, value in zip(targets, values, strict=True):
        lines.append(f"{name} = {ast.unparse(_renamed(value, renames))}")
    reserved.update(renames.values())
    return Inlined(statement, helper.name, lines)


def _straight(function: ast.FunctionDef) -> bool:
    """Plain positional parameters, assignments to names, one final ``return``."""
    args = function.args
    if (
        args.posonlyargs
        or args.vararg
        or args.kwonlyargs
        or args.kwarg
        or args.defaults
        or function.decorator_list
    ):
        return False
    body = [s for s in function.body if not _is_docstring(s)]
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return False
    for statement in body[:-1]:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            return False
    if reads_namespaces(function) or scoped_names(function):
        return False
    return not any(
        isinstance(node, ast.Yield | ast.YieldFrom | ast.Await | ast.NamedExpr)
        for node in ast.walk(function)
    )


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _bound_names(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
        yield node.id
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            yield (alias.asname or alias.name).split(".")[0]
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))


def _bound_in(function: Function) -> set[str]:
    """The names the function binds: parameters, assignments, imports, ``except … as``."""
    bound = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    for statement in function.body:
        for node in ast.walk(statement):
            bound.update(_bound_names(node))
            if isinstance(node, ast.ExceptHandler) and node.name:
                bound.add(node.name)
    return bound


def _names(function: Function) -> set[str]:
    """Every name the function's body reads or binds, its parameters included.

    Not the names its annotations and decorators read, evaluated outside it.
    """
    names = {n.id for s in function.body for n in ast.walk(s) if isinstance(n, ast.Name)}
    return names | {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}


def _rebinds(body: list[ast.stmt], name: str) -> bool:
    return any(name in set(_bound_names(s)) for s in body)


class _Renamer(ast.NodeTransformer):
    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(self.renames.get(node.id, node.id), node.ctx), node)


def _renamed(node: ast.AST, renames: dict[str, str]) -> ast.AST:
    renamed: ast.AST = _Renamer(renames).visit(copy.deepcopy(node))
    return renamed
