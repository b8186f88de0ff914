"""What the rewrites ask of a syntax tree.

Which names a function binds, which values are literals, where TensorFlow
is imported, what an annotation names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from rxt_tf_plugin import spec

MARKER_DTYPES = {marker: dtype for marker, _, dtype, _ in spec.TENSOR_KINDS}
"""The element type each annotation marker fixes (``TensorF32Cpu2D`` → ``float32``)."""


def line_starts(source: str) -> list[int]:
    """The offset of each line's first byte in ``source`` (UTF-8)."""
    starts = [0]
    for line in source.encode().splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def tf_names(tree: ast.Module) -> dict[str, str]:
    """Module names bound to tensorflow or its submodules: ``{"tf": "tensorflow"}``."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow" or alias.name.startswith("tensorflow."):
                    if alias.asname:
                        names[alias.asname] = alias.name
                    elif alias.name == "tensorflow":
                        names["tensorflow"] = "tensorflow"
    return names


def module_bindings(tree: ast.Module) -> dict[str, int]:
    """How many times each name is bound at module level."""
    counts: dict[str, int] = {}
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.extend((alias.asname or alias.name).split(".")[0] for alias in node.names)
        else:
            names.extend(
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
            )
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    return counts


def is_literal(node: ast.expr) -> bool:
    """An immutable literal: a number, string, bool, None, arithmetic, or a tuple.

    Arithmetic is on numbers only (``-1``, ``1.0 / 255``).
    """
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float | str | bool) or node.value is None
    if isinstance(node, ast.Tuple):
        return all(is_literal(item) for item in node.elts)
    return is_arithmetic(node)


def is_arithmetic(node: ast.expr) -> bool:
    """Arithmetic on int and float literals only: its value is fixed."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return is_arithmetic(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(
        node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.FloorDiv
    ):
        return is_arithmetic(node.left) and is_arithmetic(node.right)
    return False


def local_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function binds (parameters and assignments): they shadow the module's."""
    arguments = function.args
    names = {
        arg.arg
        for arg in [
            *arguments.posonlyargs,
            *arguments.args,
            *arguments.kwonlyargs,
            *([arguments.vararg] if arguments.vararg else []),
            *([arguments.kwarg] if arguments.kwarg else []),
        ]
    }
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node is not function
        ):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
    return names


def inlinable(
    name: ast.Name,
    parents: dict[ast.AST, ast.AST],
    constants: dict[str, ast.expr],
    bound: dict[str, ast.Assign],
) -> bool:
    """Whether a literal may stand where ``name`` is read.

    Not where it is called (``ACTIVATION(x)`` of ``ACTIVATION = None``), an
    attribute is read from it, or it is indexed unless it is a tuple or a
    string: there the name is in a branch that would raise, and the literal
    would be a compile-time warning or a syntax error.
    """
    value = constants.get(name.id) if name.id not in bound else bound[name.id].value
    if value is None:
        return True  # not a literal (an alias of a TensorFlow function)
    parent = parents.get(name)
    if isinstance(parent, ast.Call) and parent.func is name:
        return False
    if isinstance(parent, ast.Attribute):
        return False
    if isinstance(parent, ast.Subscript) and parent.value is name:
        return isinstance(value, ast.Tuple) or (
            isinstance(value, ast.Constant) and isinstance(value.value, str)
        )
    return True


def shape_of(
    node: ast.AST, tensors: dict[str, str], parents: dict[ast.AST, ast.AST], bound: set[str]
) -> bool:
    """``x.shape`` of an annotated tensor parameter, indexed by an int or passed to ``len``.

    ``x.get_shape()`` is the same ``TensorShape``; Rextio offers the method,
    not the attribute. Only where the shape is read as sizes (``x.shape[-1]``,
    ``len(x.shape)``), which the plugin's ``list[int]`` holds alike.
    """
    if not (
        isinstance(node, ast.Attribute)
        and node.attr == "shape"
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id in tensors
    ):
        return False
    parent = parents.get(node)
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return is_int(parent.slice)
    return (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id == "len"
        and "len" not in bound
        and parent.args == [node]
        and not parent.keywords
    )


def is_int(node: ast.expr) -> bool:
    """An int literal, or its negation (``-1``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def bound_once(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.Assign]:
    """Locals bound exactly once, to a literal, by a statement of the function's body.

    Not under a branch or loop: after that statement the name holds the literal.
    """
    stores: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            stores[node.id] = stores.get(node.id, 0) + 1
    parameters = local_names(function) - rebound(function)
    parameters |= {
        name
        for node in ast.walk(function)
        if isinstance(node, ast.Global | ast.Nonlocal)
        for name in node.names
    }
    found: dict[str, ast.Assign] = {}
    for statement in function.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and is_literal(statement.value)
        ):
            name = statement.targets[0].id
            if stores.get(name) == 1 and name not in parameters:
                found[name] = statement
    nested = {
        n.id
        for inner in ast.walk(function)
        if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        and inner is not function
        for n in ast.walk(inner)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    return {name: assignment for name, assignment in found.items() if name not in nested}


def rebound(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters the function binds again."""
    return {
        node.id
        for node in ast.walk(function)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)
    }


def own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of the function's body, not of functions or classes nested in it."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            ):
                stack.append(child)


def marker(annotation: ast.expr | None) -> str | None:
    """The rxt-tf marker an annotation names (``TensorF32Cpu2D``), if it names one."""
    if isinstance(annotation, ast.Name):
        return annotation.id
    if isinstance(annotation, ast.Attribute):
        return annotation.attr
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.rpartition(".")[2]
    return None


def function_annotations(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    """The annotations of a function's parameters and result."""
    arguments = function.args
    for arg in [
        *arguments.posonlyargs,
        *arguments.args,
        *arguments.kwonlyargs,
        *([arguments.vararg] if arguments.vararg else []),
        *([arguments.kwarg] if arguments.kwarg else []),
    ]:
        if arg.annotation is not None:
            yield arg.annotation
    if function.returns is not None:
        yield function.returns


def module_annotations(tree: ast.Module) -> Iterator[ast.expr]:
    """Every annotation of the module (parameters, returns, variables)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def is_optional(annotation: ast.expr) -> bool:
    """Whether the annotation is or holds an ``Optional[...]``."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Subscript):
            name = marker(node.value)
            if name in ("Optional", "Union"):
                return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return True
    return False


def tf_path(node: ast.expr, names: dict[str, str]) -> str | None:
    """``tensorflow.nn.relu`` for ``tf.nn.relu``.

    ``names`` maps ``tf`` to the module it imports (:func:`tf_names`).
    """
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in names and parts:
        return ".".join([names[node.id], *reversed(parts)])
    return None


def is_docstring(node: ast.stmt) -> bool:
    """Whether the statement is a string on its own (a docstring)."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )
