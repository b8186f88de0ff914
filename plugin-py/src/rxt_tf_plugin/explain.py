"""``python -m rxt_tf_plugin explain``: why each function of a project is native or not.

Rextio decides per function: a function is native only when every construct
and every TensorFlow site in it is supported or claimed. This module runs
``rextio check`` on the project, reads its report
(``.rextio/reports/check.json``) and gives, for every function, its route and
each blocker: where it is, the construct, whose limit it is (the Rextio host
or rxt-tf) and the rewrite that lifts it, marked where ``--fix`` makes it.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rxt_tf_plugin import rewrite, source_file, spec, syntax
from rxt_tf_plugin.ops import op_for
from rxt_tf_plugin.roots import untyped_operand

PLUGIN_CODE = "RXTP-RXTTF-"
"""The prefix of the plugin's own diagnostic codes."""


class ExplainError(Exception):
    """A project ``rextio check`` could not analyse, with the reason."""


@dataclass(frozen=True)
class Blocker:
    """One thing that keeps a function on Python."""

    file: str
    line: int
    column: int
    construct: str
    """The source text it concerns (shortened to one line)."""
    owner: str
    """``rextio`` (a limit of the host) or ``rxt-tf`` (a missing op or form)."""
    fix: str
    """The rewrite that lifts it, or what to do instead."""
    fixable: bool
    """Whether ``explain --fix`` makes that rewrite."""
    code: str
    """The diagnostic code (``RXT010``, ``RXTP-RXTTF-070``)."""
    message: str
    """The diagnostic's own words."""


@dataclass(frozen=True)
class FunctionReport:
    """The route of one function and what blocks it."""

    function: str
    route: str
    """``native`` or ``python``."""
    blockers: tuple[Blocker, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``--format json`` prints."""
        return {
            "function": self.function,
            "route": self.route,
            "blockers": [asdict(blocker) for blocker in self.blockers],
        }


def run_check(project: Path) -> dict[str, Any]:
    """Run ``rextio check`` in ``project`` and return its report."""
    done = subprocess.run(
        [sys.executable, "-m", "rextio.cli.main", "check", "."],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    report = project / ".rextio" / "reports" / "check.json"
    if not report.is_file():
        unreadable = _undecodable(project)
        if unreadable:
            raise ExplainError("`rextio check` cannot read the project: " + "; ".join(unreadable))
        raise ExplainError(
            f"`rextio check` wrote no report in {project} (exit {done.returncode}): "
            f"{(done.stderr or done.stdout).strip()[-2000:]}"
        )
    try:
        loaded: dict[str, Any] = json.loads(report.read_text())
    except json.JSONDecodeError as exc:
        raise ExplainError(f"{report}: {exc}") from exc
    return loaded


def _undecodable(project: Path) -> list[str]:
    """Why each Python file of ``project`` that does not decode fails (a Rextio traceback)."""
    found: list[str] = []
    for path in sorted(project.rglob("*.py")):
        if any(part.startswith(".") for part in path.relative_to(project).parts):
            continue
        try:
            source_file.read(path)
        except source_file.SourceError as exc:
            found.append(str(exc))
    return found


def explain(check: dict[str, Any]) -> list[FunctionReport]:
    """Every function of the report, with its route and blockers."""
    reports: list[FunctionReport] = []
    sources: dict[str, _Source] = {}
    for module in check.get("modules", ()):
        path = str(module.get("file_path", ""))
        if path not in sources:
            sources[path] = _Source.read(path, _on_tensors(module))
            sources[path].imports_dropped = not module.get("import_policies")
        source = sources[path]
        for function in module.get("functions", ()):
            native = str(function.get("route", "")).startswith("native")
            blockers = () if native else tuple(_blockers(function, source))
            reports.append(
                FunctionReport(
                    function=str(function.get("qualname") or function.get("name")),
                    route="native" if native else "python",
                    blockers=blockers,
                )
            )
    return reports


def tensor_positions(check: dict[str, Any]) -> dict[str, set[tuple[int, int]]]:
    """Per file, the ``x op= y`` and ``x[...]`` on tensors Rextio refused.

    ``--fix`` rewrites them: Rextio's own typing says the value is a tensor.
    """
    return {
        str(module.get("file_path", "")): _on_tensors(module) for module in check.get("modules", ())
    }


def claimed_types(check: dict[str, Any]) -> dict[str, dict[tuple[int, int], str]]:
    """Per file, each call Rextio's report shows claimed, with its result type.

    Keyed by ``(line, column)``: ``--fix`` reads a local bound to one as a
    tensor of that type.
    """
    found: dict[str, dict[tuple[int, int], str]] = {}
    for module in check.get("modules", ()):
        claims = found.setdefault(str(module.get("file_path", "")), {})
        for function in module.get("functions", ()):
            for claim in function.get("plugin_claims", ()) or ():
                result = (claim.get("expression") or {}).get("result_type")
                if claim.get("kind") == "call" and result:
                    claims[(int(claim.get("line", 0)), int(claim.get("column", 0)))] = str(result)
    return found


def unsafe_positions(check: dict[str, Any]) -> dict[str, set[tuple[int, int]]]:
    """Per file, the statements ``--unsafe-fixes`` may rewrite.

    A docstring Rextio refused as an expression statement (made a comment),
    a tuple unpacking it refused (``a, b = helper(x)``, inlined where the
    helper is straight-line code), and a comparison of a tensor it refused
    (``x is not None`` of a parameter annotated as a tensor).
    """
    return {
        str(module.get("file_path", "")): {
            (int(d["line"]), int(d["column"]))
            for function in module.get("functions", ())
            for d in _diagnostics(function)
            if str(d.get("message", "")).startswith(
                (EXPRESSION_STATEMENT, LOCAL_TARGETS, PLUGIN_COMPARE)
            )
        }
        for module in check.get("modules", ())
    }


EXPRESSION_STATEMENT = "expression statements are supported only"
"""Rextio's words for a statement of one expression (a docstring among them)."""

PLUGIN_COMPARE = "comparing plugin-typed values"
"""Rextio's words for a comparison it offered no plugin (``x is not None``)."""

LOCAL_TARGETS = "assignment targets must be local names"
"""Rextio's words for an assignment to a tuple (``a, b = ...``)."""

_ON_TENSORS = (
    "in-place augmented assignment on a plugin-typed value",
    "indexing a plugin-typed value",
    "changes its type from rxt-tf/",
    "unary minus is not supported for inferred operand type: rxt-tf/",
)
"""Rextio's words for the constructs on tensors ``--fix`` rewrites."""


def _on_tensors(module: dict[str, Any]) -> set[tuple[int, int]]:
    return {
        (int(d["line"]), int(d["column"]))
        for function in module.get("functions", ())
        for d in _diagnostics(function)
        if any(words in str(d.get("message")) for words in _ON_TENSORS)
    }


def _diagnostics(function: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The function's diagnostics and its promotion blockers, each once."""
    seen: set[tuple[Any, ...]] = set()
    assessment = function.get("promotion_assessment") or {}
    for diagnostic in [*function.get("diagnostics", ()), *assessment.get("diagnostics", ())]:
        key = (
            diagnostic.get("code"),
            diagnostic.get("line"),
            diagnostic.get("column"),
            diagnostic.get("message"),
        )
        if key in seen or diagnostic.get("kind", "blocker") not in ("blocker", "error", None):
            continue
        seen.add(key)
        yield diagnostic


class _Source:
    """One module's text, tree and the rewrites ``--fix`` would make in it."""

    def __init__(self, path: str, text: str, on_tensors: set[tuple[int, int]]) -> None:
        self.path = path
        self.text = text
        try:
            self.tree: ast.Module | None = ast.parse(text)
            self.edits = rewrite.plan(text, on_tensors)
        except SyntaxError:
            self.tree = None
            self.edits = []
        self.lines = text.splitlines()
        self.tf_names = syntax.tf_names(self.tree) if self.tree is not None else {}
        self.imports_dropped = False
        """Whether Rextio's report shows no import of the module (its types unresolved)."""
        self.optional = any(edit.reason == rewrite.POSTPONED for edit in self.edits)
        self.constants: dict[str, str] = {}
        self.aliases: dict[str, str] = {}
        if self.tree is not None:
            for node in self.tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target = node.targets[0]
                    if isinstance(target, ast.Name):
                        self.constants[target.id] = ast.get_source_segment(text, node) or ""

    def function(self, name: str, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function ``name`` defined at ``line`` (its ``def`` or first decorator)."""
        for node in ast.walk(self.tree) if self.tree is not None else ():
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                lines = {node.lineno, *(d.lineno for d in node.decorator_list)}
                if line in lines or not line:
                    return node
        return None

    def tf_path(self, node: ast.expr) -> str | None:
        """``tensorflow.nn.relu`` for ``tf.nn.relu``, if ``tf`` imports tensorflow."""
        return syntax.tf_path(node, self.tf_names)

    @classmethod
    def read(cls, path: str, on_tensors: set[tuple[int, int]]) -> _Source:
        try:
            text = source_file.read(Path(path)).text
        except source_file.SourceError:
            text = ""
        return cls(path, text, on_tensors)

    def construct(
        self, line: int, column: int
    ) -> tuple[str, tuple[int, int] | None, ast.AST | None]:
        """The largest node starting at ``line:column``: one short line, lines, node."""
        best: ast.AST | None = None
        if self.tree is not None:
            for node in ast.walk(self.tree):
                if isinstance(
                    node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module
                ):
                    continue
                if (
                    getattr(node, "lineno", None) == line
                    and getattr(node, "col_offset", None) == column
                ):
                    if best is None or _size(node) > _size(best):
                        best = node
        if best is None:
            text = self.lines[line - 1][column:] if 0 < line <= len(self.lines) else ""
            return _short(text), None, None
        return _short(ast.get_source_segment(self.text, best) or ""), _lines(best), best

    def fixes(
        self, message: str, code: str, line: int, column: int, span: tuple[int, int] | None
    ) -> bool:
        """Whether ``--fix`` lifts the blocker of ``message`` at ``line:column``."""
        if any((edit.line, edit.column) == (line, column) for edit in self.edits):
            return True
        if "unsupported argument type" in message or "unsupported return type" in message:
            return self.optional and "Optional[" not in message
        if "keyword call arguments" in message or (
            code.startswith(PLUGIN_CODE) and "positional" in message
        ):
            first, last = span or (line, line)
            return any(first <= edit.line <= last for edit in self.edits)
        return False


def _dropped_imports(source: _Source) -> str:
    """Why Rextio dropped the module's imports, and the rewrite."""
    cause = _module_level_call(source)
    if cause is None:
        return "Rextio resolved none of this module's imports; see `rextio check`"
    line, text, annotation = cause
    if annotation and source.optional:
        return (
            f"an annotation evaluated at import (line {line}: `{text}`) makes Rextio drop this "
            "module's imports: add `from __future__ import annotations`"
        )
    return (
        f"module-level code that calls into other code (line {line}: `{text}`) makes Rextio "
        "drop this module's imports, so no type resolves: move it into a function or "
        "another module"
    )


def _module_level_call(source: _Source) -> tuple[int, str, bool] | None:
    """The first call or subscript run at import: its line, text, whether an annotation."""
    if source.tree is None:
        return None
    future = any(
        isinstance(node, ast.ImportFrom) and node.module == "__future__"
        for node in source.tree.body
    )
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, annotation: bool) -> None:
        for child in ast.walk(node):
            if isinstance(child, ast.Call | ast.Subscript):
                text = _short(ast.get_source_segment(source.text, child) or "")
                found.append((child.lineno, text, annotation))
                return

    def statements(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom) or syntax.is_docstring(node):
                continue
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    visit(decorator, False)
                for default in [*node.args.defaults, *node.args.kw_defaults]:
                    if default is not None:
                        visit(default, False)
                if not future:
                    for annotation in syntax.function_annotations(node):
                        visit(annotation, True)
            elif isinstance(node, ast.ClassDef):
                for decorator in node.decorator_list:
                    visit(decorator, False)
                statements(node.body)
            else:
                visit(node, False)

    statements(source.tree.body)
    return min(found) if found else None


def _is_plain_literal(node: ast.expr) -> bool:
    """A value Rextio reads as a literal: an int, a tuple of ints, a bool, a string, None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return node.value is None or type(node.value) in (int, bool, str)
    if isinstance(node, ast.Tuple):
        return all(_is_plain_literal(item) for item in node.elts)
    return False


def _size(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _lines(node: ast.AST) -> tuple[int, int]:
    return (
        getattr(node, "lineno", 0),
        getattr(node, "end_lineno", 0) or getattr(node, "lineno", 0),
    )


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 72 else line[:69] + "..."


def _blockers(function: dict[str, Any], source: _Source) -> Iterator[Blocker]:
    found = False
    dropped = set(
        re.findall(
            r"unsupported argument type for (\w+):",
            " ".join(str(d.get("message")) for d in _diagnostics(function)),
        )
    )
    for diagnostic in _diagnostics(function):
        line, column = int(diagnostic.get("line") or 0), int(diagnostic.get("column") or 0)
        code = str(diagnostic.get("code") or "")
        message = str(diagnostic.get("message") or "")
        undefined = re.search(r"name '(\w+)' is not defined", message)
        if undefined and undefined.group(1) in dropped:
            continue  # a parameter of an unsupported type: that is the blocker
        construct, span, node = source.construct(line, column)
        call = node if isinstance(node, ast.Call) else None
        owner, fix = _classify(
            code, message, str(diagnostic.get("suggestion") or ""), source, call, construct
        )
        root = _root(function, source, call) if message.startswith(KEYWORDS_REFUSED) else None
        if root is not None:
            fix = f"the call was not claimed, because an operand is untyped to Rextio: {root}"
        fixable = source.fixes(message, code, line, column, span)
        if fixable:
            fix += " (explain --fix does this)"
        found = True
        yield Blocker(source.path, line, column, construct, owner, fix, fixable, code, message)
    if not found:
        # Rextio 0.1.3 gives a function that is no candidate no reason: say
        # what the plugin itself sees in it.
        for blocker in _seen_by_the_plugin(function, source):
            found = True
            yield blocker
    if not found:
        reason = (function.get("promotion_assessment") or {}).get("skip_reason") or (
            f"Rextio reports the function as {function.get('native_status', 'not native')} "
            "without a diagnostic"
        )
        yield Blocker(
            source.path,
            int(function.get("line") or 0),
            int(function.get("column") or 0),
            f"def {function.get('name')}",
            "rextio",
            "see `rextio check` for the function",
            False,
            "",
            str(reason),
        )


KEYWORDS_REFUSED = "keyword call arguments are not supported"
"""Rextio's words for a call with keywords that no plugin claimed."""


def _root(function: dict[str, Any], source: _Source, call: ast.Call | None) -> str | None:
    """Why an operand of a refused call with literal keywords is untyped, if known."""
    if call is None or not all(_is_plain_literal(k.value) for k in call.keywords):
        return None
    if source.tf_path(call.func) is None:
        return None  # a project function's keywords are the host's limit themselves
    node = source.function(str(function.get("name")), int(function.get("line") or 0))
    if node is None:
        return None
    claimed = {
        (int(c.get("line") or 0), int(c.get("column") or 0))
        for c in function.get("plugin_claims", ())
    }
    return untyped_operand(call, node, claimed, source.tf_path)


def _seen_by_the_plugin(function: dict[str, Any], source: _Source) -> Iterator[Blocker]:
    """What the plugin sees in a function Rextio gives no reason for.

    The rewrites ``--fix`` would make in it, and its TensorFlow calls rxt-tf
    has no op for.
    """
    node = source.function(str(function.get("name") or ""), int(function.get("line") or 0))
    if node is None:
        return
    first, last = node.lineno, node.end_lineno or node.lineno
    for edit in source.edits:
        if first <= edit.line <= last or edit.reason == rewrite.POSTPONED:
            construct, _, _ = source.construct(edit.line, edit.column)
            yield Blocker(
                source.path,
                edit.line,
                edit.column,
                construct or edit.text.strip(),
                "rextio",
                f"{edit.reason} (explain --fix does this)",
                True,
                "",
                "Rextio gives no reason; a construct it refuses, as the plugin sees",
            )
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        path = source.tf_path(call.func)
        if path is not None and op_for("call", path) is None:
            construct, _, _ = source.construct(call.lineno, call.col_offset)
            fix = _unclaimed_fix(path)
            yield Blocker(
                source.path,
                call.lineno,
                call.col_offset,
                construct,
                "rxt-tf",
                fix,
                False,
                "",
                f"no rxt-tf op for {path}",
            )


_NEVER_OFFERED = {
    "concat": "Rextio offers the call but refuses a list literal of plugin tensors",
    "stack": "Rextio offers the call but refuses a list literal of plugin tensors",
    "split": "it gives several tensors, and Rextio refuses the tuple unpacking",
    "unstack": "it gives several tensors, and Rextio refuses the tuple unpacking",
    "top_k": "it gives several tensors, and Rextio refuses the tuple unpacking",
    "moments": (
        "it gives several tensors, and Rextio refuses the tuple unpacking; `explain --fix` "
        "writes `mean, variance = tf.nn.moments(x, [axes])` as one call per output, the ops "
        "moments runs, where x's element type is known (not float16) and the axes are literals"
    ),
    "einsum": "its equation is a positional string, which Rextio offers as no literal",
    "fused_batch_norm": "it gives several tensors, and Rextio refuses the tuple unpacking",
}
"""Why no plugin can claim a call of an op rxt-tf has (shown by the probe
plugin's tests); an op not named here the plugin does not claim yet in the
form written (``tf.pad`` of a run-time ``list[list[int]]``, which Rextio
offers)."""


def _unclaimed_fix(path: str) -> str:
    """What to do about a TensorFlow call no rule of the plugin claims."""
    name = path.rsplit(".", 1)[-1]
    if any(row.name == name for row in spec.OPS):
        why = _NEVER_OFFERED.get(name)
        if why is None:
            return (
                f"rxt-tf has {name} (call tf!({name}(...)) from Rust), but the plugin does not "
                "claim this form yet; keep it on Python"
            )
        return (
            f"rxt-tf has {name} (call tf!({name}(...)) from Rust), but not from Python here: "
            f"{why}; keep it on Python"
        )
    return f"rxt-tf has no op {path}: keep it on Python"


_CLAIMED_WHEN = {
    "tensorflow.nn.convolution": "rxt-tf claims tf.nn.convolution of a rank-4 (NHWC), "
    "rank-3 (NWC) or rank-5 (NDHWC) input with literal strides and padding and no "
    "dilation: write strides=(1, 1) (rank 4), strides=1 (rank 3) or strides=(1, 1, 1) "
    "(rank 5) and padding='SAME' (explain --fix "
    "inlines constants; list(self.strides) stays a call); a dilated convolution stays on "
    "Python",
    "tensorflow.tensordot": "Rextio reports no list or nested tuple as a literal: write "
    "axes=1 (the last axis with the first) or axes=(2, 0) (one axis of each)",
}
"""The forms the plugin claims, for calls of an op rxt-tf has in a form it does not."""


def _classify(
    code: str,
    message: str,
    suggestion: str,
    source: _Source,
    call: ast.Call | None = None,
    construct: str = "",
) -> tuple[str, str]:
    """Whose limit a diagnostic is, and the rewrite that lifts it.

    ``call`` is the call the diagnostic points at, if it is one.
    """
    if code.startswith(PLUGIN_CODE):
        return "rxt-tf", suggestion or "see the rule in the plugin README"
    if match := re.search(r"not lowered by this build: (tensorflow\.[\w.]+)", message):
        target = match.group(1)
        if op_for("call", target) is None:
            fix = _unclaimed_fix(target)
            return "rxt-tf", fix
        return "rxt-tf", _CLAIMED_WHEN.get(
            target,
            "rxt-tf claims this call only with literal keyword values and rxt-tf tensor "
            "operands; see its rule in the plugin README",
        )
    if match := re.search(r"name '(\w+)' is not defined in this scope", message):
        name = match.group(1)
        if name in source.constants:
            return "rextio", f"Rextio reads no module globals: inline `{source.constants[name]}`"
        return "rextio", f"bind `{name}` inside the function or pass it as a parameter"
    if "keyword call arguments are not supported" in message:
        if call is not None and all(_is_plain_literal(k.value) for k in call.keywords):
            return "rextio", (
                "the call was not claimed: its keywords are literals, so an operand is not an "
                "rxt-tf tensor Rextio can type (a value returned by a project helper, a "
                "subscript, or a name whose type changed); see the call's other blockers"
            )
        return "rextio", (
            "Rextio takes keyword values only as literals: write each as an int, a tuple of "
            'ints, a bool or a string (dtype="float32")'
        )
    if "dynamic attribute access" in message:
        return "rextio", 'write the dtype as a string ("float32"), or compute the value outside'
    if "in-place augmented assignment" in message:
        return "rextio", "write `x = x + y` (tensors are immutable: the same result)"
    if "returning a plugin-typed parameter" in message:
        return "rextio", "return a new tensor (tf.identity(x)) rather than the parameter itself"
    if match := re.search(r"unsupported unresolved call in native function: (\w+)", message):
        name = match.group(1)
        if name in source.constants:
            return "rextio", f"call the function `{name}` stands for directly"
        return "rextio", f"inline the helper `{name}` or mark it @rextio.native"
    if "Optional[" in message:
        return "rextio", (
            "Rextio takes no Optional tensor parameter: write one function per case "
            "(with and without it)"
        )
    if re.search(r"unsupported (argument|return) type", message) and source.imports_dropped:
        return "rextio", _dropped_imports(source)
    if message.startswith(EXPRESSION_STATEMENT) and construct.startswith(('"', "'")):
        return "rextio", (
            "Rextio takes no docstring in a native function: make it a comment "
            "(`explain --fix --unsafe-fixes` does; the function's __doc__ is then None)"
        )
    if message.startswith(LOCAL_TARGETS):
        return "rextio", (
            "Rextio assigns no tuple target: where the value is a straight-line helper's "
            "tuple, `explain --fix --unsafe-fixes` inlines the helper (a traceback then shows "
            "no frame of it); otherwise one call per value"
        )
    if "indexing a plugin-typed value" in message:
        return "rextio", (
            "Rextio offers no subscript of a tensor to plugins: `explain --fix` writes one "
            "whose bounds are int literals or typed ints as the `tf.strided_slice` call "
            "`Tensor.__getitem__` makes; for this one, use a Python int for a static size, "
            "or tf.gather"
        )
    return "rextio", suggestion or "rewrite it inside Rextio's supported subset"


def render_text(reports: list[FunctionReport], root: Path) -> str:
    """The human-readable explanation."""
    lines: list[str] = []
    native = sum(report.route == "native" for report in reports)
    lines.append(f"rxt-tf explain: {native} of {len(reports)} functions native")
    for report in reports:
        lines.append(f"{report.function}: {report.route}")
        for blocker in report.blockers:
            try:
                where = Path(blocker.file).resolve().relative_to(root.resolve())
            except ValueError:
                where = Path(blocker.file)
            lines.append(
                f"  {where}:{blocker.line}:{blocker.column}: [{blocker.owner}] {blocker.construct}"
            )
            lines.append(f"      {blocker.message}")
            lines.append(f"      fix: {blocker.fix}")
    return "\n".join(lines) + "\n"


def render_json(reports: list[FunctionReport]) -> str:
    """One JSON object per function, one per line."""
    return "".join(json.dumps(report.to_json()) + "\n" for report in reports)


def project_files(check: dict[str, Any]) -> list[Path]:
    """The module files of the report."""
    return sorted({Path(str(module["file_path"])) for module in check.get("modules", ())})
