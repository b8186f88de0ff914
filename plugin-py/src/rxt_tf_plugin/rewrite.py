"""The rewrites ``explain --fix`` applies: each keeps the program's behaviour.

Every rewrite is syntactic and local, and is made only where it provably
changes nothing a caller can observe:

- a module-level constant bound once to a literal is inlined where a
  function reads it (the literal's own text, parenthesized where precedence
  could differ);
- a local bound once, in the function's own body, to a literal is inlined
  where it is read after that;
- a list of int literals passed to a TensorFlow call (``perm=[0, 2, 1]``)
  becomes a tuple, which TensorFlow converts to the same tensor;
- ``tf.tensordot``'s ``axes`` of one axis each (``[[2], [0]]``) becomes the
  pair of ints ``(2, 0)``, which ``tf.tensordot`` reads as the same axes;
- an ``if`` whose test is a bool literal (a constant inlined or folded)
  becomes the branch it always takes;
- an expression of literals only (``(0,) + (2, 1)``, ``(-1,)[0]``,
  ``1.0 / 255``, ``"a" == "a"``) becomes its value;
- a module-level alias of a TensorFlow function (``_mm = tf.matmul``) is
  replaced by the function where a function calls it;
- a dtype passed to a TensorFlow call as ``tf.float32`` (or ``x.dtype`` of a
  parameter whose annotation fixes its element type and that the function
  never rebinds, or of a local bound once to a call Rextio's report shows
  claimed with a tensor result, read after that binding) becomes its name as
  a string, which TensorFlow takes alike;
- a dtype passed positionally (``tf.cast(x, "float32")``) becomes the
  ``dtype=`` keyword, and an axis that is no literal (``axis=ax``) the
  positional argument it binds alike;
- ``x.shape[i]`` and ``len(x.shape)`` of such a parameter become
  ``x.get_shape()[i]`` and ``len(x.get_shape())``: the same ``TensorShape``,
  through the method the plugin claims;
- ``-x`` on a tensor (as Rextio types it) becomes ``tf.negative(x)``, and
  ``x ** y``, ``x // y`` of an annotated tensor parameter ``x`` become
  ``tf.pow(x, y)`` and ``tf.math.floordiv(x, y)``: the ops those operators
  run, on the same converted operands;
- ``x op= y`` on a tensor (as Rextio's own analysis types it: tensors are
  immutable, so ``op=`` already makes a new one) becomes ``x = x op (y)``;
- with ``unsafe`` positions (``--unsafe-fixes``), a function's docstring
  Rextio refused becomes a comment, and ``a, b = helper(x)`` Rextio
  refused becomes the helper's body (:mod:`rxt_tf_plugin.inlining`): the
  computation is the same, but ``__doc__`` is then ``None``, and a traceback
  shows no frame of the helper (so these are not behaviour-keeping);
- ``from __future__ import annotations`` is added to a module whose
  ``Optional[...]`` annotation makes Rextio drop the module's imports.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, replace

from rxt_tf_plugin import spec
from rxt_tf_plugin.branches import indented, taken_branch
from rxt_tf_plugin.folding import FOLDED, UNKNOWN, folded, spelled
from rxt_tf_plugin.indexing import index_lists, int_tuple
from rxt_tf_plugin.inlining import helpers, inline
from rxt_tf_plugin.moments import one_call_per_output
from rxt_tf_plugin.ops import op_for
from rxt_tf_plugin.renaming import fresh_name, loads, reads_namespaces, scoped_names, stores
from rxt_tf_plugin.source_file import newline_of
from rxt_tf_plugin.syntax import (
    MARKER_DTYPES,
    bound_once,
    inlinable,
    is_docstring,
    is_int,
    is_literal,
    is_optional,
    line_starts,
    local_names,
    marker,
    module_annotations,
    module_bindings,
    own_nodes,
    rebound,
    shape_of,
    tf_names,
    tf_path,
)
from rxt_tf_plugin.tensor_locals import tensor_locals

DTYPE_NAMES = frozenset(dtype for _, _, dtype, _ in spec.TENSOR_KINDS) | {
    "bfloat16",
    "float16",
    "int8",
    "int16",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "complex64",
    "complex128",
    "string",
}
"""TensorFlow dtype names a ``tf.<name>`` attribute may spell."""

DTYPE_KEYWORDS = frozenset({"dtype", "out_type", "output_type"})
"""Keywords of TensorFlow calls that take a dtype."""


FUTURE = "from __future__ import annotations\n"

POSTPONED = (
    "add `from __future__ import annotations` (an annotation evaluated at import, such as "
    "Optional[...], makes Rextio drop the module's imports)"
)
"""Why ``--fix`` adds postponed annotations."""

AUGMENTED = "write `x = x op y` (tensors are immutable: the same result)"
"""Why ``--fix`` writes out ``x op= y``."""


@dataclass(frozen=True)
class Edit:
    """One rewrite: the byte span it replaces, the new text and why."""

    start: int
    end: int
    text: str
    line: int
    column: int
    reason: str
    group: str = ""
    """Edits of one group are made all or none (a renamed local and its reads)."""
    unsafe: bool = False
    """Whether the edit changes something observable besides speed (``__doc__``)."""


def plan(
    source: str,
    on_tensors: Collection[tuple[int, int]] = (),
    unsafe_at: Collection[tuple[int, int]] = (),
    claimed: Mapping[tuple[int, int], str] | None = None,
) -> list[Edit]:
    """The rewrites of a module's ``source``.

    ``on_tensors`` holds the ``(line, column)`` of each ``x op= y`` and each
    subscript ``x[...]`` Rextio found on a plugin tensor; only those become
    plain assignments and ``tf.strided_slice`` calls. ``unsafe_at`` holds
    the docstrings to make comments and the helper calls to inline (the
    unsafe rewrites). ``claimed`` maps the ``(line, column)`` of each call
    Rextio's report shows claimed to its result type: a local bound once to
    such a call is a tensor of that element type (its ``.dtype`` a string).
    """
    tree = ast.parse(source)
    module = _Module(source, tree)
    edits: list[Edit] = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            edits.extend(module.function_edits(function, on_tensors, claimed or {}))
            edits.extend(module.docstring_edits(function, unsafe_at))
            edits.extend(module.inline_edits(function, unsafe_at))
            edits.extend(module.none_test_edits(function, unsafe_at))
    edits.extend(module.future_edit())
    return _outermost(edits)


def apply(source: str, edits: list[Edit]) -> str:
    """``source`` with ``edits`` (non-overlapping) applied."""
    data = source.encode()
    # From the end; at one offset, a replacement before an insertion there.
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        data = data[: edit.start] + edit.text.encode() + data[edit.end :]
    return data.decode()


def fix(
    source: str,
    on_tensors: Collection[tuple[int, int]] = (),
    unsafe_at: Collection[tuple[int, int]] = (),
    claimed: Mapping[tuple[int, int], str] | None = None,
) -> tuple[str, list[Edit]]:
    """``source`` with every rewrite applied until none is left, and the edits made.

    ``on_tensors``, ``unsafe_at`` and ``claimed`` positions refer to the
    original source; they are applied in the first pass only (later passes
    move text).
    """
    done: list[Edit] = []
    for _ in range(4):
        edits = plan(source, on_tensors, unsafe_at, claimed)
        if not edits:
            break
        done.extend(edits)
        source = apply(source, edits)
        on_tensors = unsafe_at = ()
        claimed = None
    return source, done


def _outermost(edits: list[Edit]) -> list[Edit]:
    """The edits not inside another (an inlined constant inside a moved dtype).

    An insertion (an empty span) conflicts only with an edit it is strictly
    inside. Edits of one group (a local renamed at every read) are made all
    or none.
    """
    kept: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
        if any(_overlap(edit, other) for other in kept):
            continue
        kept.append(edit)
    dropped = {edit.group for edit in edits if edit.group and edit not in kept}
    if not dropped:
        return kept
    return _outermost([edit for edit in edits if edit.group not in dropped])


def _overlap(one: Edit, other: Edit) -> bool:
    if one.start == one.end or other.start == other.end:
        inserted, around = (one, other) if one.start == one.end else (other, one)
        return around.start < inserted.start < around.end
    return one.start < other.end and other.start < one.end


class _Module:
    """What the rewrites need to know of one module."""

    def __init__(self, source: str, tree: ast.Module) -> None:
        self.source = source
        self.tree = tree
        self.starts = line_starts(source)
        # Split as the parser counts lines (not on form feeds or U+2028).
        self.lines = [line.decode() for line in source.encode().splitlines()]
        self.tf_names = tf_names(tree)
        self.local_tensors: dict[str, tuple[str, ast.Assign]] = {}
        """The function being rewritten's locals known as tensors (`tensor_locals`)."""
        bound = module_bindings(tree)
        globals_ = {
            name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names
        }
        self.shadowed = set(bound)
        """Names the module binds (a module-level ``len`` is not the builtin)."""
        self.constants: dict[str, ast.expr] = {}
        self.aliases: dict[str, ast.expr] = {}
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target = node.targets[0]
            if not isinstance(target, ast.Name) or bound.get(target.id) != 1:
                continue
            if target.id in globals_:
                continue
            if is_literal(node.value):
                self.constants[target.id] = node.value
            elif self._tf_path(node.value) is not None:
                self.aliases[target.id] = node.value

    def span(self, node: ast.AST) -> tuple[int, int]:
        """The byte offsets of ``node`` in the source."""
        start = self.starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end_line = node.end_lineno or node.lineno  # type: ignore[attr-defined]
        end = self.starts[end_line - 1] + (node.end_col_offset or 0)  # type: ignore[attr-defined]
        return start, end

    def text(self, node: ast.AST) -> str:
        """The source text of ``node``."""
        start, end = self.span(node)
        return self.source.encode()[start:end].decode()

    def edit(self, node: ast.AST, text: str, reason: str) -> Edit:
        start, end = self.span(node)
        return Edit(start, end, text, node.lineno, node.col_offset, reason)  # type: ignore[attr-defined]

    def _tf_path(self, node: ast.expr) -> str | None:
        return tf_path(node, self.tf_names)

    def function_edits(
        self,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        on_tensors: Collection[tuple[int, int]],
        claimed: Mapping[tuple[int, int], str],
    ) -> Iterator[Edit]:
        local = local_names(function)
        dtypes = {
            arg.arg: MARKER_DTYPES[found]
            for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
            if (found := marker(arg.annotation)) in MARKER_DTYPES
            and arg.arg not in rebound(function)
        }
        self.local_tensors = tensor_locals(function, claimed)
        bound = bound_once(function)
        parents = {
            child: parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)
        }
        for node in own_nodes(function):
            if isinstance(node, ast.Name) and not inlinable(node, parents, self.constants, bound):
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound:
                assignment = bound[node.id]
                if (node.lineno, node.col_offset) > (
                    assignment.end_lineno or 0,
                    assignment.end_col_offset or 0,
                ):
                    yield self.edit(
                        node, self._literal_text(assignment.value), f"inline the local {node.id}"
                    )
            elif (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and node.id not in local
            ):
                if node.id in self.constants:
                    yield self.edit(
                        node,
                        self._literal_text(self.constants[node.id]),
                        f"inline the constant {node.id}",
                    )
                elif node.id in self.aliases and not (self._roots(self.aliases[node.id]) & local):
                    yield self.edit(
                        node,
                        self.text(self.aliases[node.id]),
                        f"call {node.id}'s function directly",
                    )
            elif isinstance(node, ast.Assign):
                yield from self._moments_edits(node, dtypes)
            elif isinstance(node, ast.Call) and self._tf_path(node.func) is not None:
                yield from self._dtype_edits(node, dtypes, local)
                yield from self._tuple_edits(node)
                yield from self._contraction_edits(node)
                yield from self._positional_edits(node, bound, local)
            if (
                isinstance(node, ast.UnaryOp)
                and isinstance(node.op, ast.USub)
                and (node.lineno, node.col_offset) in on_tensors
            ):
                yield from self._call_edits(node, "negative", [node.operand])
            if (
                isinstance(node, ast.BinOp)
                and type(node.op) in _OPERATOR_CALLS
                and isinstance(node.left, ast.Name)
                and node.left.id in dtypes
            ):
                yield from self._call_edits(
                    node, _OPERATOR_CALLS[type(node.op)], [node.left, node.right]
                )
            if shape_of(node, dtypes, parents, local | self.shadowed):
                yield self.edit(
                    node,
                    f"{self.text(node)[: -len('shape')]}get_shape()",
                    "read the tensor's sizes with get_shape() (the same TensorShape)",
                )
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.ctx, ast.Load)
                and (node.lineno, node.col_offset) in on_tensors
            ):
                yield from self._subscript_edits(node)
            elif isinstance(node, FOLDED) and not (local | self.shadowed) & {"len"}:
                value = folded(node)
                text = None if value is UNKNOWN else spelled(value)
                if text is not None and self.text(node) not in (text, text[1:-1]):
                    yield self.edit(node, text, "write the literal expression's value")
            elif isinstance(node, ast.Assign) and (node.lineno, node.col_offset) in on_tensors:
                yield from self._rebinding_edits(function, node)
            elif isinstance(node, ast.If) and (lines := taken_branch(node, self.lines)):
                text = indented(lines, node.col_offset, newline_of(self.source))
                yield self.edit(node, text, "write the branch a constant test always takes")
            elif isinstance(node, ast.AugAssign) and (node.lineno, node.col_offset) in on_tensors:
                if isinstance(node.target, ast.Name):
                    operator = _OPERATORS.get(type(node.op))
                    if operator is not None:
                        name = node.target.id
                        value = self.text(node.value)
                        if not isinstance(node.value, _ATOMS):
                            value = f"({value})"
                        yield self.edit(
                            node,
                            f"{name} = {name} {operator} {value}",
                            "write `x = x op y` (tensors are immutable)",
                        )

    def inline_edits(
        self,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        unsafe_at: Collection[tuple[int, int]],
    ) -> Iterator[Edit]:
        """Each ``a, b = helper(x)`` in ``unsafe_at`` as the helper's body."""
        if function not in self.tree.body:
            return  # nested: an enclosing function's names could capture the helper's
        inlinable = None
        reserved: set[str] = set()
        for statement in function.body:
            if (statement.lineno, statement.col_offset) not in unsafe_at:
                continue
            if inlinable is None:
                inlinable = helpers(self.tree)
            done = inline(function, statement, inlinable, self._fresh, reserved)
            if done is None:
                continue
            indent = newline_of(self.source) + " " * statement.col_offset
            edit = self.edit(
                statement,
                indent.join(done.lines),
                f"inline the helper {done.helper} (unsafe: a traceback shows no frame of it)",
            )
            yield replace(edit, unsafe=True, group=f"inline at {statement.lineno}")

    def none_test_edits(
        self,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        unsafe_at: Collection[tuple[int, int]],
    ) -> Iterator[Edit]:
        """A test ``x is not None`` in ``unsafe_at`` of a tensor parameter as ``True``.

        Only where ``x`` is annotated with a tensor marker (not ``Optional``)
        and never rebound: every value the annotation allows is not ``None``.
        A caller passing ``None`` anyway, which the native boundary refuses,
        now gets an error where the Python function took the other branch.
        """
        args = function.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip(reversed(positional), reversed(args.defaults), strict=False))
        defaults.update(
            (arg, default)
            for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True)
            if default is not None
        )
        tensors = {
            arg.arg
            for arg in [*positional, *args.kwonlyargs]
            if marker(arg.annotation) in MARKER_DTYPES
            and arg.arg not in rebound(function)
            # `mask: TensorF32Cpu2D = None`: omitting it passes None.
            and not _defaults_to_none(defaults.get(arg))
        }
        for node in own_nodes(function):
            if not (
                isinstance(node, ast.Compare)
                and (node.lineno, node.col_offset) in unsafe_at
                and len(node.ops) == 1
                and isinstance(node.ops[0], ast.Is | ast.IsNot)
                and isinstance(node.left, ast.Name)
                and node.left.id in tensors
                and isinstance(node.comparators[0], ast.Constant)
                and node.comparators[0].value is None
            ):
                continue
            value = isinstance(node.ops[0], ast.IsNot)
            edit = self.edit(
                node,
                str(value),
                f"write the test of the tensor {node.left.id} against None as {value} "
                "(unsafe: its annotation allows no None, but a Python caller could pass one)",
            )
            yield replace(edit, unsafe=True)

    def _fresh(self, name: str, taken: set[str]) -> str:
        return fresh_name(self.tree, name, taken)

    def docstring_edits(
        self,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        docstrings: Collection[tuple[int, int]],
    ) -> Iterator[Edit]:
        """The function's docstring as comments, if it is in ``docstrings``.

        Not where it is the whole body (a body of comments does not parse).
        """
        first = function.body[0]
        if not is_docstring(first) or len(function.body) < 2:
            return
        if (first.lineno, first.col_offset) not in docstrings:
            return
        text = ast.get_docstring(function) or ""
        indent = " " * first.col_offset
        newline = newline_of(self.source)
        lines = [f"# {line}".rstrip() for line in text.splitlines()] or ["#"]
        edit = self.edit(
            first,
            (newline + indent).join(lines),
            "make the docstring a comment (unsafe: the function's __doc__ becomes None)",
        )
        yield replace(edit, unsafe=True)

    def _tf_module(self) -> str | None:
        """The module's name for ``tensorflow`` (``tf``), if it imports it."""
        return next((name for name, path in self.tf_names.items() if path == "tensorflow"), None)

    def _moments_edits(self, statement: ast.Assign, dtypes: dict[str, str]) -> Iterator[Edit]:
        """``a, b = tf.nn.moments(x, axes)`` as one call per output (see `moments`)."""
        module = self._tf_module()

        def dtype_of(name: ast.Name) -> str | None:
            if name.id in dtypes:
                return dtypes[name.id]
            dtype, binding = self.local_tensors.get(name.id, (None, statement))
            return dtype if binding.lineno < statement.lineno else None

        lines = module and one_call_per_output(
            statement,
            module,
            self._tf_path,
            dtype_of,
            self.text,
            lambda stem: fresh_name(self.tree, stem),
        )
        if lines:
            text = indented(lines, statement.col_offset, newline_of(self.source))
            yield self.edit(statement, text, "one call per output of tf.nn.moments, as it runs")

    def _call_edits(
        self, node: ast.expr, function: str, operands: list[ast.expr]
    ) -> Iterator[Edit]:
        """``-x``, ``x ** y`` or ``x // y`` as the TensorFlow call the operator makes.

        Edits around the operands (the operator, and any parentheses around
        them, become the call's punctuation), so rewrites inside them are
        made as well; all or none.
        """
        module = self._tf_module()
        if module is None:
            return
        start, end = self.span(node)
        spans = [self.span(operand) for operand in operands]
        texts = [f"{module}.{function}(", *([", "] * (len(operands) - 1)), ")"]
        cuts = [start, *(edge for span in spans for edge in span), end]
        group = f"{function} at {node.lineno}:{node.col_offset}"
        reason = f"write the operator as {module}.{function}, the op it runs"
        for text, (left, right) in zip(texts, zip(cuts[::2], cuts[1::2], strict=True), strict=True):
            yield Edit(left, right, text, node.lineno, node.col_offset, reason, group=group)

    def _subscript_edits(self, node: ast.Subscript) -> Iterator[Edit]:
        """``x[...]`` of a tensor as the ``tf.strided_slice`` call ``Tensor.__getitem__`` makes.

        Only for an index of int literals, slices of int literals, ``None``,
        ``tf.newaxis`` and ``...``: the lists and masks are TensorFlow's
        ``_slice_helper``'s, so the op, its inputs and its attributes are the
        same (the bits too).
        """
        module = self._tf_module()
        index = index_lists(node.slice, lambda item: self._tf_path(item) == "tensorflow.newaxis")
        if module is None or index is None:
            return
        begin, end, strides, masks = index
        arguments = [
            *(int_tuple(entries) for entries in (begin, end, strides)),
            *(f"{name}={mask}" for name, mask in masks.items() if mask),
        ]
        # Two edits around the indexed value, so a rewrite inside it (a
        # renamed local, an inlined constant) is made as well.
        start, _ = self.span(node)
        _, value_end = self.span(node.value)
        _, end_ = self.span(node)
        reason = "write the subscript as the tf.strided_slice call it makes"
        line, column = node.lineno, node.col_offset
        yield Edit(start, start, f"{module}.strided_slice(", line, column, reason)
        yield Edit(value_end, end_, f", {', '.join(arguments)})", line, column, reason)

    def _rebinding_edits(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, statement: ast.Assign
    ) -> Iterator[Edit]:
        """A local rebound to a value of another type, as a new name from there on.

        Rextio gives a native local one type; Python does not care which name
        holds a value. Only where the renaming is plainly the same program: the
        assignment is a statement of the function's own body (no branch or loop
        around it), the name is not bound again inside a branch, loop, nested
        scope or ``del`` after it, and the function reads no namespace by name
        (``locals``, ``vars``, ``eval``, ``exec``, ``dir``). The new name is
        read up to the next statement of the body that binds the old one.
        """
        if len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name):
            return
        if statement not in function.body:
            return
        name = statement.targets[0].id
        if reads_namespaces(function) or name in scoped_names(function):
            return
        later = function.body[function.body.index(statement) + 1 :]
        reads: list[ast.Name] = []
        for following in later:
            binds = stores(following, name)
            if binds and not (
                isinstance(following, ast.Assign)
                and all(isinstance(t, ast.Name) for t in following.targets)
            ):
                return  # bound in a branch, a loop, a `with`, `del`, a tuple target
            if binds and isinstance(following, ast.Assign):
                reads.extend(loads(following.value, name))
                break
            reads.extend(loads(following, name))
        fresh = fresh_name(self.tree, name)
        group = f"rename {name} at {statement.lineno}"
        reason = f"name the rebound {name} anew ({fresh})"
        for node in [statement.targets[0], *reads]:
            yield replace(self.edit(node, fresh, reason), group=group)

    def _roots(self, node: ast.expr) -> set[str]:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    def _dtype_text(self, node: ast.expr, dtypes: dict[str, str], local: set[str]) -> str | None:
        """A dtype argument as a string literal, if it provably names one dtype."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.text(node)
        if isinstance(node, ast.Name) and node.id in self.constants and node.id not in local:
            value = self.constants[node.id]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return self.text(value)
            return None
        path = self._tf_path(node) if not (self._roots(node) & local) else None
        if path is not None:
            name = path.removeprefix("tensorflow.").removeprefix("dtypes.")
            if name in DTYPE_NAMES:
                return f'"{name}"'
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "dtype"
            and isinstance(node.value, ast.Name)
            and node.value.id in dtypes
        ):
            return f'"{dtypes[node.value.id]}"'
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "dtype"
            and isinstance(node.value, ast.Name)
            and node.value.id in self.local_tensors
        ):
            dtype, assignment = self.local_tensors[node.value.id]
            # Read after its one binding (before it, Python raises).
            if (node.lineno, node.col_offset) > (
                assignment.end_lineno or 0,
                assignment.end_col_offset or 0,
            ):
                return f'"{dtype}"'
        return None

    def _positional_edits(
        self, call: ast.Call, bound: dict[str, ast.Assign], local: set[str]
    ) -> Iterator[Edit]:
        """``tf.reduce_sum(x, axis=ax)`` as ``tf.reduce_sum(x, ax)``.

        Rextio offers a keyword only with a literal value, but the same value
        positionally (typed ``int``); the plugin takes an axis known at run
        time there. Only the first keyword, naming the parameter that
        follows the arguments given (the Python signature's order), so the
        call binds the same parameters.
        """
        op = op_for("call", self._tf_path(call.func) or "")
        if (
            op is None
            or not call.keywords
            or any(isinstance(arg, ast.Starred) for arg in call.args)
        ):
            return
        keyword = call.keywords[0]
        index = len(call.args) - op.arity
        if not 0 <= index < len(op.rule.positional) or keyword.arg != op.rule.positional[index]:
            return
        value = keyword.value
        if keyword.arg not in ("axis", "axes") or is_literal(value):
            return
        if isinstance(value, ast.Name) and (value.id in self.constants or value.id in bound):
            return  # inlined as a literal instead
        if isinstance(value, FOLDED) and folded(value) is not UNKNOWN:
            return  # folded to a literal instead
        if not self._roots(value) or not self._roots(value) <= local:
            return  # a module global: Rextio reads none, by keyword or not
        yield self.edit(
            keyword, self.text(keyword.value), f"pass `{keyword.arg}` positionally (not a literal)"
        )

    def _tuple_edits(self, call: ast.Call) -> Iterator[Edit]:
        """Int-literal lists passed to a TensorFlow call, as tuples.

        TensorFlow converts both to the same tensor; Rextio reads only the tuple.
        """
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            if (
                isinstance(argument, ast.List)
                and argument.elts
                and all(is_int(item) for item in argument.elts)
            ):
                items = ", ".join(self.text(item) for item in argument.elts)
                text = f"({items},)" if len(argument.elts) == 1 else f"({items})"
                yield self.edit(argument, text, "write the int list as a tuple")

    def _contraction_edits(self, call: ast.Call) -> Iterator[Edit]:
        """``tf.tensordot(a, b, [[2], [0]])``'s axes as ``(2, 0)``.

        ``tf.tensordot`` reads a pair of ints as one axis of each; Rextio reads no
        nested list or tuple.
        """
        if self._tf_path(call.func) not in _TENSORDOT:
            return
        given = [k.value for k in call.keywords if k.arg == "axes"] + call.args[2:3]
        for axes in given:
            if not isinstance(axes, ast.List | ast.Tuple) or len(axes.elts) != 2:
                continue
            sides = [
                side.elts[0]
                for side in axes.elts
                if isinstance(side, ast.List | ast.Tuple)
                and len(side.elts) == 1
                and is_int(side.elts[0])
            ]
            if len(sides) == 2:
                text = f"({self.text(sides[0])}, {self.text(sides[1])})"
                yield self.edit(axes, text, "write one axis of each as a pair of ints")

    def _dtype_edits(
        self, call: ast.Call, dtypes: dict[str, str], local: set[str]
    ) -> Iterator[Edit]:
        for keyword in call.keywords:
            if keyword.arg in DTYPE_KEYWORDS and not isinstance(keyword.value, ast.Constant):
                text = self._dtype_text(keyword.value, dtypes, local)
                if text is not None:
                    yield self.edit(keyword.value, text, "write the dtype as a string")
        op = op_for("call", self._tf_path(call.func) or "")
        if op is None:
            return
        for offset, name in enumerate(op.rule.positional):
            index = op.arity + offset
            if name not in DTYPE_KEYWORDS or index >= len(call.args):
                continue
            argument = call.args[index]
            if index != len(call.args) - 1 or any(k.arg == name for k in call.keywords):
                continue  # only a last positional dtype moves; a later one would shift
            text = self._dtype_text(argument, dtypes, local)
            if text is not None:
                yield self.edit(argument, f"{name}={text}", "pass the dtype as a keyword")

    def _literal_text(self, node: ast.expr) -> str:
        text = self.text(node)
        if isinstance(node, ast.UnaryOp | ast.BinOp) or (
            isinstance(node, ast.Tuple) and not text.startswith("(")
        ):
            return f"({text})"
        return text

    def future_edit(self) -> Iterator[Edit]:
        """``from __future__ import annotations`` where an ``Optional`` voids the imports."""
        if any(
            isinstance(node, ast.ImportFrom)
            and node.module == "__future__"
            and any(alias.name == "annotations" for alias in node.names)
            for node in self.tree.body
        ):
            return
        if not any(is_optional(annotation) for annotation in module_annotations(self.tree)):
            return
        body = self.tree.body
        first = (
            body[1]
            if body and is_docstring(body[0]) and len(body) > 1
            else body[0]
            if body
            else None
        )
        if first is None:
            return
        start = self.starts[first.lineno - 1]
        text = FUTURE.replace("\n", newline_of(self.source))
        yield Edit(start, start, text, first.lineno, 0, POSTPONED)


_OPERATORS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
}


def _defaults_to_none(default: ast.expr | None) -> bool:
    return isinstance(default, ast.Constant) and default.value is None


_OPERATOR_CALLS: dict[type, str] = {ast.Pow: "pow", ast.FloorDiv: "math.floordiv"}
"""The TensorFlow function ``Tensor.__pow__`` and ``Tensor.__floordiv__`` call:
the same op, the right operand converted to the tensor's element type alike."""

_ATOMS = (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript)


_TENSORDOT = frozenset({"tensorflow.tensordot", "tensorflow.linalg.tensordot"})
