"""``explain --fix`` never damages a file: encoding, newlines, untouched bytes, atomicity."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from rxt_tf_plugin import rewrite, source_file

MODULE = (
    "import tensorflow as tf\n"
    "from rxt_tf_plugin.types import TensorF32Cpu2D\n"
    "\n"
    "AXIS = -1\n"
    "\n"
    "\n"
    "def softmax(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n"
    "    # {comment}\n"
    "    return tf.nn.softmax(x, axis=AXIS)\n"
)
"""A module with one rewrite (the constant ``AXIS`` inlined) and a comment."""


def _fix(path: Path) -> None:
    """What ``explain --fix`` does to one file."""
    read = source_file.read(path)
    after, edits = rewrite.fix(read.text)
    assert edits
    source_file.write(read, after)


def test_crlf_newlines_stay_crlf_and_untouched_lines_stay_byte_identical(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    original = MODULE.format(comment="weiß").replace("\n", "\r\n").encode()
    path.write_bytes(original)
    _fix(path)
    after = path.read_bytes()
    assert b"axis=(-1))" in after
    assert after.count(b"\r\n") == original.count(b"\r\n")
    assert b"\n" not in after.replace(b"\r\n", b"")
    changed = [
        (old, new)
        for old, new in zip(original.split(b"\r\n"), after.split(b"\r\n"), strict=True)
        if old != new
    ]
    assert changed == [
        (b"    return tf.nn.softmax(x, axis=AXIS)", b"    return tf.nn.softmax(x, axis=(-1))")
    ]


def test_a_latin_1_cookie_keeps_the_file_in_latin_1(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    original = ("# -*- coding: latin-1 -*-\n" + MODULE.format(comment="café, weiß")).encode(
        "latin-1"
    )
    path.write_bytes(original)
    _fix(path)
    after = path.read_bytes()
    assert "café, weiß".encode("latin-1") in after
    assert "café".encode() not in after
    assert after.decode("latin-1") == original.decode("latin-1").replace("axis=AXIS", "axis=(-1)")


def test_a_new_line_an_edit_adds_takes_the_files_newline(tmp_path: Path) -> None:
    text = (
        '"""Doc."""\r\nfrom typing import Optional\r\n\r\n'
        "def f(x: Optional[int]) -> int:\r\n    return 1\r\n"
    )
    fixed, _ = rewrite.fix(text)
    assert "from __future__ import annotations\r\n" in fixed
    assert "\n" not in fixed.replace("\r\n", "")


def test_a_file_that_does_not_decode_is_reported_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(MODULE.format(comment="caf\xe9").encode("latin-1"))  # no cookie
    with pytest.raises(source_file.SourceError, match="does not decode as utf-8"):
        source_file.read(path)


def test_a_file_changed_since_it_was_read_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(MODULE.format(comment="one"))
    read = source_file.read(path)
    after, _ = rewrite.fix(read.text)
    path.write_text(MODULE.format(comment="edited meanwhile"))
    with pytest.raises(source_file.SourceError, match="changed since it was read"):
        source_file.write(read, after)
    assert path.read_text() == MODULE.format(comment="edited meanwhile")


def test_a_crash_between_write_and_replace_leaves_the_original_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.py"
    original = MODULE.format(comment="keep me").encode()
    path.write_bytes(original)

    def crash(source: str, target: str) -> None:
        raise KeyboardInterrupt  # the process dies between the two steps

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        _fix(path)
    assert path.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_the_rewritten_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(MODULE.format(comment="x"))
    path.chmod(0o640)
    _fix(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "axis=(-1)" in path.read_text()


def test_fix_on_a_project_with_an_undecodable_file_says_which_and_changes_nothing(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    (tmp_path / "rextio.toml").write_text('[plugins]\nenabled = ["rxt-tf"]\n')
    good = tmp_path / "good.py"
    good_text = MODULE.format(comment="fine")
    good.write_text(good_text)
    bad = tmp_path / "bad.py"
    bad_bytes = MODULE.format(comment="caf\xe9").encode("latin-1")
    bad.write_bytes(bad_bytes)
    done = subprocess.run(
        [sys.executable, "-m", "rxt_tf_plugin", "explain", ".", "--fix"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    # Rextio's own check cannot read the file: explain names it, in one line.
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    assert "bad.py: does not decode as utf-8" in done.stderr
    assert bad.read_bytes() == bad_bytes
    assert good.read_text() == good_text
