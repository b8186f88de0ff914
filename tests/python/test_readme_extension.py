"""The README's Rust quick start, copied as a user copies it: its
`Cargo.toml`, `pyproject.toml` and `src/lib.rs` in a folder outside this
workspace (rxt-tf by path, as the README says), built into a wheel by
maturin, and its Python run against the built module.

The build shares this checkout's `Cargo.lock` (the versions `make test`
tested) and target folder (the crates already compiled there are reused).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_blocks(heading: str, language: str) -> list[str]:
    """The `language` code blocks under the README's `heading`, in order."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}(?:,[a-z_]+)*\n(.*?)```", section, re.S)


def test_the_readme_extension_builds_outside_the_workspace_and_runs(tmp_path: Path) -> None:
    cargo_toml, pyproject = readme_blocks("Quick start from Rust", "toml")
    (lib_rs,) = readme_blocks("Quick start from Rust", "rust")
    (python,) = readme_blocks("Quick start from Rust", "python")
    assert "# fn main" not in lib_rs, "no hidden line: the page shows what is built"
    project = tmp_path / "my-ext"
    (project / "src").mkdir(parents=True)
    path_dependency = 'rxt-tf = { path = "../rxt-tf" }'
    assert path_dependency in cargo_toml
    (project / "Cargo.toml").write_text(
        cargo_toml.replace(path_dependency, f"rxt-tf = {{ path = {str(ROOT)!r} }}")
        # Its own workspace: not a member of the folder it sits in.
        + "\n[workspace]\n"
    )
    (project / "pyproject.toml").write_text(pyproject)
    (project / "src" / "lib.rs").write_text(lib_rs)
    (project / "Cargo.lock").write_bytes((ROOT / "Cargo.lock").read_bytes())
    env = {**os.environ, "CARGO_TARGET_DIR": str(ROOT / "target")}
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "maturin", "build", "--release", "--quiet",
         "-m", str(project / "Cargo.toml"), "-i", sys.executable, "--out", str(wheels)],
        env=env, capture_output=True, text=True, timeout=1800, check=False,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    (wheel,) = wheels.glob("my_ext-*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
         str(wheel)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert installed.returncode == 0, installed.stderr
    ran = subprocess.run(
        [sys.executable, "-c", python + "\nprint(my_ext.__file__)\n"],
        env={**os.environ, "PYTHONPATH": str(site), "TF_CPP_MIN_LOG_LEVEL": "2"},
        capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "tf.Tensor(" in ran.stdout and "shape=(4,)" in ran.stdout, ran.stdout
    assert Path(ran.stdout.split()[-1]).is_relative_to(site)
