"""A branch on a constant, as the branch taken, for ``explain --fix``.

A layer's configuration inlined as a literal (``if True:``, ``if "dot" ==
"dot":`` folded to ``True``) leaves an ``if`` whose test is a constant.
Python runs the same branch every time; writing that branch in place of
the ``if`` is the same program, and lets Rextio see one binding of a
name where the other branch would bind it to another type.
"""

from __future__ import annotations

import ast


def taken_branch(statement: ast.If, source_lines: list[str]) -> list[str] | None:
    """The lines of the branch ``statement`` always takes, indented from its column.

    ``None`` where the test is no bool constant, the branch is empty (a
    block of nothing does not parse), either branch names a ``global`` or
    ``nonlocal`` (which makes names of the whole function module-level), a
    string spans lines inside it (dedenting would change it), or its
    indentation is not plain spaces.
    """
    test = statement.test
    if not (isinstance(test, ast.Constant) and isinstance(test.value, bool)):
        return None
    if any(isinstance(node, ast.Global | ast.Nonlocal) for node in ast.walk(statement)):
        return None
    body = statement.body if test.value else statement.orelse
    if not body:
        return None
    if not test.value and len(body) == 1 and isinstance(body[0], ast.If):
        nested = body[0]
        text = source_lines[nested.lineno - 1]
        if text.lstrip().startswith("elif"):
            # The chain's next test, written as an `if` at this level.
            lines = _block(source_lines, nested.lineno, _last(nested), statement.col_offset, body)
            if lines is None or not lines[0].startswith("elif"):
                return None
            return [lines[0][2:], *lines[1:]]
    return _block(source_lines, _first(body[0]), _last(body[-1]), body[0].col_offset, body)


def indented(lines: list[str], column: int, newline: str) -> str:
    """``lines`` as the text of statements at ``column`` (the first not indented)."""
    return newline.join(
        (" " * column if index and line else "") + line for index, line in enumerate(lines)
    )


def _block(
    source_lines: list[str], first: int, last: int, shift: int, body: list[ast.stmt]
) -> list[str] | None:
    """Lines ``first``..``last`` less ``shift`` columns of spaces, if that is safe."""
    for node in body:
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Constant)
                and isinstance(inner.value, str | bytes)
                and inner.lineno != inner.end_lineno
            ):
                return None
    out = []
    for line in source_lines[first - 1 : last]:
        if line.strip() and line[:shift] != " " * shift:
            return None
        out.append(line[shift:] if line.strip() else "")
    return out


def _first(statement: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", None) or []
    return min([statement.lineno, *(int(d.lineno) for d in decorators)])


def _last(statement: ast.stmt) -> int:
    return statement.end_lineno or statement.lineno
