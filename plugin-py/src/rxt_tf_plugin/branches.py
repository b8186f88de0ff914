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
    block of nothing does not parse), a string spans lines inside it
    (dedenting would change it), or its indentation is not plain spaces.
    """
    test = statement.test
    if not (isinstance(test, ast.Constant) and isinstance(test.value, bool)):
        return None
    body = statement.body if test.value else statement.orelse
    if not body:
        return None
    if len(body) == 1 and isinstance(body[0], ast.If) and not test.value:
        # `elif`: the chain's next test, written as an `if` at this level.
        first_line = body[0].lineno
        nested = body[0]
        if source_lines[first_line - 1].lstrip().startswith("elif"):
            return _elif(nested, statement.col_offset, source_lines)
    for node in body:
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Constant)
                and isinstance(inner.value, str | bytes)
                and inner.lineno != inner.end_lineno
            ):
                return None
    first, last = body[0].lineno, body[-1].end_lineno or body[-1].lineno
    lines = source_lines[first - 1 : last]
    shift = body[0].col_offset
    out = []
    for line in lines:
        if line.strip() and line[:shift] != " " * shift:
            return None
        out.append(line[shift:] if line.strip() else "")
    return out


def indented(lines: list[str], column: int, newline: str) -> str:
    """``lines`` as the text of statements at ``column`` (the first not indented)."""
    return (newline).join(
        (" " * column if index and line else "") + line for index, line in enumerate(lines)
    )


def _elif(nested: ast.If, column: int, source_lines: list[str]) -> list[str] | None:
    """An ``elif`` chain from ``nested`` on, as ``if`` at ``column``."""
    first = nested.lineno
    last = nested.end_lineno or nested.lineno
    lines = list(source_lines[first - 1 : last])
    text = lines[0]
    stripped = text.lstrip()
    if not stripped.startswith("elif") or len(text) - len(stripped) != column:
        return None
    lines[0] = text[:column] + stripped[2:]
    return [line[column:] if line.strip() else "" for line in lines]
