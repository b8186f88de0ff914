"""Reading and writing a user's Python source without damaging it.

``explain --fix`` rewrites files it did not write. As ruff and black do, it
keeps everything it does not mean to change:

- the file's encoding: its PEP 263 cookie or BOM (``tokenize.detect_encoding``),
  UTF-8 by default; a file that does not decode is reported, never guessed;
- its newline style: the text is decoded without newline translation, so a
  CRLF file keeps CRLF on every line, and new lines an edit adds take the
  file's own newline;
- every byte outside an edit: the edits splice the decoded text, which is
  encoded back with the same codec;
- the file itself until the new text is whole: it is written to a temporary
  file in the same folder with the original's permissions, flushed to disk
  and moved over the original with ``os.replace`` (atomic on POSIX), so a
  crash leaves either the old file or the new one;
- a file changed since it was read is left alone.
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path


class SourceError(Exception):
    """A source file that cannot be read or written safely, with the reason."""


@dataclass(frozen=True)
class Source:
    """One file's text as read, and what writing it back needs."""

    path: Path
    raw: bytes
    """The bytes read: a write goes ahead only if the file still holds them."""
    text: str
    """The decoded text, newlines as in the file."""
    encoding: str
    """The codec the file declares (``utf-8``, ``utf-8-sig``, ``latin-1``, …)."""

    def encode(self, text: str) -> bytes:
        """``text`` in the file's encoding; ``SourceError`` if it cannot hold it."""
        try:
            return text.encode(self.encoding)
        except UnicodeEncodeError as exc:
            raise SourceError(
                f"{self.path}: the rewritten text does not fit the file's encoding "
                f"{self.encoding} ({exc.reason}); left unchanged"
            ) from exc


def newline_of(text: str) -> str:
    """The text's newline: that of its first line (LF if it has none)."""
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        if stripped != line:
            return line[len(stripped) :]
    return "\n"


def read(path: Path) -> Source:
    """Read ``path`` as Python reads a module; ``SourceError`` if it does not decode."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read it ({exc.strerror or exc})") from exc
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:
        raise SourceError(f"{path}: {exc.msg}; left unchanged") from exc
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SourceError(
            f"{path}: does not decode as {encoding} (its declared or default encoding): "
            f"{exc}; left unchanged"
        ) from exc
    return Source(path, raw, text, encoding)


def write(source: Source, text: str) -> None:
    """Replace the file read as ``source`` with ``text``, atomically.

    ``SourceError`` (and the file untouched) if the text does not fit the
    file's encoding, the file changed since it was read, or the write fails.
    """
    data = source.encode(text)
    path = source.path
    try:
        current = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read it again ({exc.strerror or exc})") from exc
    if current != source.raw:
        raise SourceError(f"{path}: changed since it was read; left unchanged")
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".rxt-tf-fix", dir=path.parent
        )
    except OSError as exc:
        raise SourceError(f"{path}: cannot write beside it ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise SourceError(f"{path}: not rewritten ({exc.strerror or exc})") from exc
        raise
