"""``python -m rxt_tf_plugin explain``, run on a small project with the real ``rextio check``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

MODULE = '''"""Functions each kept on Python by one thing."""
from typing import Optional
import math
import tensorflow as tf
from rxt_tf_plugin.types import TensorBoolCpu2D, TensorF32Cpu2D, TensorF32Cpu3D

AXIS = -1
_mm = tf.matmul


def constant(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.nn.softmax(x, axis=AXIS)


def dtype_attribute(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.cast(x, dtype=tf.float32)


def dtype_of(x: TensorF32Cpu2D, y: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.cast(y, x.dtype)


def augmented(x: TensorF32Cpu2D, y: TensorF32Cpu2D) -> TensorF32Cpu2D:
    x += y
    return x


def alias(x: TensorF32Cpu2D, y: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return _mm(x, y)


def positional_dtype(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.cast(x, "float32")


def subscript(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    d = tf.shape(x)[-1]
    return tf.nn.relu(x)


def missing_op(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.math.cumprod(x)


def dense(x: TensorF32Cpu3D, k: TensorF32Cpu2D) -> TensorF32Cpu3D:
    return tf.tensordot(x, k, [[2], [0]])


def scaled(x: TensorF32Cpu2D, d: float) -> TensorF32Cpu2D:
    return x * (1.0 / math.sqrt(d))


def masked(x: TensorF32Cpu2D, mask: Optional[TensorBoolCpu2D] = None) -> TensorF32Cpu2D:
    return tf.nn.relu(x)


def square_ones(n: int) -> TensorF32Cpu2D:
    return tf.ones((n, n))


def documented(x: TensorF32Cpu2D) -> TensorF32Cpu2D:
    """Rectifies x.

    Negative values become 0.
    """
    return tf.nn.relu(x)
'''

FIXED = {
    "subscript",
    "constant",
    "dense",
    "dtype_attribute",
    "dtype_of",
    "augmented",
    "alias",
    "positional_dtype",
    "scaled",
    "square_ones",
}
"""The functions ``--fix`` makes native (``--unsafe-fixes`` also ``documented``)."""


def explain(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rxt_tf_plugin", "explain", str(project), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "rextio.toml").write_text('[plugins]\nenabled = ["rxt-tf"]\n')
    (tmp_path / "layers.py").write_text(MODULE)
    return tmp_path


def reports(done: subprocess.CompletedProcess[str]) -> dict[str, dict]:  # type: ignore[type-arg]
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return {row["function"].removeprefix("layers."): row for row in rows}


def test_every_function_on_python_has_a_named_blocker(project: Path) -> None:
    found = reports(explain(project, "--format", "json"))
    assert set(found) == FIXED | {"subscript", "missing_op", "masked", "documented"}
    for name, report in found.items():
        assert report["route"] == "python", name
        assert report["blockers"], name
        for blocker in report["blockers"]:
            assert set(blocker) >= {"file", "line", "column", "construct", "owner", "fix"}
            assert blocker["owner"] in ("rextio", "rxt-tf"), blocker
            assert blocker["fix"], blocker
    # The Optional annotation voids the module's imports: every type is unresolved.
    first = found["constant"]["blockers"][0]
    assert first["message"] == "unsupported return type: TensorF32Cpu2D"
    assert "from __future__ import annotations" in first["fix"]
    assert first["fixable"] and (first["line"], first["column"]) == (11, 0)
    assert first["file"].endswith("layers.py")


def test_fix_rewrites_in_place_and_says_what_remains(project: Path) -> None:
    before = (project / "layers.py").read_text()
    done = explain(project, "--fix", "--format", "json")
    found = reports(done)
    assert {name for name, r in found.items() if r["route"] == "native"} == FIXED
    after = (project / "layers.py").read_text()
    assert after != before
    assert after.startswith(
        '"""Functions each kept on Python by one thing."""\nfrom __future__ import annotations\n'
    )
    for line in [
        "tf.nn.softmax(x, axis=(-1))",
        'tf.cast(x, dtype="float32")',
        'tf.cast(y, dtype="float32")',
        "x = x + y",
        "return tf.matmul(x, y)",
        "return tf.tensordot(x, k, (2, 0))",
    ]:
        assert line in after, line
    # What it cannot rewrite it explains, with whose limit it is.
    [missing] = found["missing_op"]["blockers"]
    assert missing["owner"] == "rxt-tf" and "cumprod" in missing["fix"]
    assert missing["construct"] == "tf.math.cumprod(x)"
    assert not missing["fixable"]
    [optional] = found["masked"]["blockers"]
    assert optional["owner"] == "rextio" and "Optional" in optional["fix"]
    [docstring] = found["documented"]["blockers"]
    assert docstring["owner"] == "rextio" and "--unsafe-fixes" in docstring["fix"]
    assert '"""Rectifies x.' in after
    # A subscript of a tensor is the tf.strided_slice call it makes.
    assert "d = tf.strided_slice(tf.shape(x), (-1,), (0,), (1,), shrink_axis_mask=1)" in after
    # Nothing left to do: a second --fix changes nothing.
    explain(project, "--fix")
    assert (project / "layers.py").read_text() == after


def test_diff_shows_the_rewrites_and_writes_nothing(project: Path) -> None:
    done = explain(project, "--diff")
    assert done.returncode == 0, done.stderr
    assert (project / "layers.py").read_text() == MODULE
    assert "+from __future__ import annotations" in done.stdout
    assert "-    x += y\n+    x = x + y" in done.stdout
    assert '+    return tf.cast(x, dtype="float32")' in done.stdout
    assert "unsafe" not in done.stdout and "Rectifies" not in done.stdout


def test_unsafe_fixes_make_a_docstring_a_comment_and_say_so(project: Path) -> None:
    done = explain(project, "--diff", "--unsafe-fixes")
    assert done.returncode == 0, done.stderr
    assert (project / "layers.py").read_text() == MODULE
    line = MODULE.splitlines().index('    """Rectifies x.') + 1
    assert done.stdout.startswith(
        f"# unsafe: layers.py:{line}: make the docstring a comment (unsafe: the "
        "function's __doc__ becomes None)\n"
    ), done.stdout[:300]
    assert "+    # Rectifies x.\n+    #\n+    # Negative values become 0.\n" in done.stdout
    found = reports(explain(project, "--fix", "--unsafe-fixes", "--format", "json"))
    assert {n for n, r in found.items() if r["route"] == "native"} == FIXED | {"documented"}


def test_text_output_names_each_function_and_blocker(project: Path) -> None:
    done = explain(project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("rxt-tf explain: 0 of 13 functions native\n")
    assert "layers.missing_op: python\n" in done.stdout
    assert "layers.py:11:0: [rextio] def constant(x: TensorF32Cpu2D)" in done.stdout
    assert "(explain --fix does this)" in done.stdout
    fixed = explain(project, "--fix")
    assert fixed.stdout.startswith("rxt-tf explain: 10 of 13 functions native\n")
    assert "layers.constant: native\n" in fixed.stdout
    assert "[rxt-tf] tf.math.cumprod(x)" in fixed.stdout
    assert "rewrite(s)" in fixed.stderr


def test_a_folder_that_is_no_project_is_an_error(tmp_path: Path) -> None:
    done = explain(tmp_path / "missing")
    assert done.returncode == 1
    assert done.stderr.startswith("rxt-tf explain:")


def test_on_rextio_0_1_3_the_plugin_names_what_it_sees(project: Path) -> None:
    # Rextio 0.1.3 reports no reason for a function that is no candidate.
    oldest = Path(__file__).resolve().parents[2] / ".venv" / "rextio-0.1.3"
    if not (oldest / "rextio").is_dir():
        pytest.skip("ci/setup.sh installs rextio 0.1.3 beside the newest")
    done = subprocess.run(
        [sys.executable, "-m", "rxt_tf_plugin", "explain", str(project), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**__import__("os").environ, "PYTHONPATH": str(oldest)},
    )
    found = reports(done)
    constant = {b["construct"]: b for b in found["constant"]["blockers"]}
    assert "from __future__ import annotations" in constant["from typing import Optional"]["fix"]
    assert constant["AXIS"]["fix"].startswith("inline the constant AXIS")
    assert all(b["fixable"] for b in constant.values())


def test_an_op_rxt_tf_has_but_rextio_never_offers_is_told_apart() -> None:
    from rxt_tf_plugin.explain import _unclaimed_fix

    assert "rxt-tf has concat" in _unclaimed_fix("tensorflow.concat")
    assert "list literal of plugin tensors" in _unclaimed_fix("tensorflow.concat")
    assert "does not claim this form yet" in _unclaimed_fix("tensorflow.pad")
    assert "tuple unpacking" in _unclaimed_fix("tensorflow.math.top_k")
    assert _unclaimed_fix("tensorflow.math.cumprod").startswith("rxt-tf has no op")
    assert "rxt-tf has fused_batch_norm" in _unclaimed_fix(
        "tensorflow.compat.v1.nn.fused_batch_norm"
    )


def test_a_refused_call_names_the_operand_rextio_could_not_type(tmp_path: Path) -> None:
    (tmp_path / "rextio.toml").write_text('[plugins]\nenabled = ["rxt-tf"]\n')
    (tmp_path / "layers.py").write_text(
        "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF32Cpu2D\n\n\n"
        "def helper(x):\n    return x\n\n\n"
        "def via_helper(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n"
        "    y = helper(x)\n    return tf.nn.softmax(y, axis=-1)\n\n\n"
        "def via_unclaimed(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n"
        "    y = tf.math.cumprod(x) * 2.0\n    return tf.nn.softmax(y, axis=-1)\n"
    )
    found = reports(explain(tmp_path, "--format", "json"))
    fixes = {
        name: [b["fix"] for b in r["blockers"] if b["message"].startswith("keyword call")]
        for name, r in found.items()
    }
    [helper] = fixes["via_helper"]
    assert "an operand is untyped to Rextio: `helper(x)` (line 10)" in helper
    assert "project helper" in helper
    [unclaimed] = fixes["via_unclaimed"]
    assert "`tf.math.cumprod(x)` (line 15) was not claimed" in unclaimed
