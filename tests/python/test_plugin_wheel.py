"""The plugin as a user installs it: a wheel in a fresh virtual environment with
no rxt-tf checkout on any path. `setup` needs no flag (the wheel carries the
crate sources of its version) and a real `rextio build` uses them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "rextio-project" / "seed_model.py"

CHECK = """
import os, sys
import numpy as np, tensorflow as tf
sys.path.insert(0, os.path.join(".rextio", "build", "python"))
import seed_model
x, w, b = tf.ones([3, 8]) * 0.5, tf.ones([8, 4]) * -0.25, tf.constant([1.0, -2.0, 0.5, 0.0])
native = seed_model.inference(x, w, b)
eager = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)
assert type(native) is type(eager) and np.array_equal(native.numpy(), eager.numpy()), native
print("equal", native.numpy().tolist())
"""


def run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False,
                            timeout=1800)
    assert result.returncode == 0, (command, result.stdout[-3000:], result.stderr[-3000:])
    return result.stdout


def test_the_wheel_sets_up_and_builds_a_project_without_a_checkout(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
                    str(wheels), str(ROOT / "plugin-py")], check=True, timeout=600)
    [wheel] = wheels.glob("rxt_tf_plugin-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # Nothing of the checkout or of the test venv may leak in.
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "RXT_TF_SOURCE", "VIRTUAL_ENV", "PYO3_PYTHON")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    run([python, "-m", "pip", "install", "--quiet", str(wheel), "rextio==0.1.8",
         "tensorflow==2.21.0"], tmp_path, env)

    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(SEED, project)
    (project / "rextio.toml").write_text("[plugins]\nenabled = []\n")
    where = run([python, "-c", "import rxt_tf_plugin; print(rxt_tf_plugin.__file__)"], project, env)
    assert Path(where.strip()).is_relative_to(venv), where

    out = run([python, "-m", "rxt_tf_plugin", "setup", "."], project, env)
    print(out, end="")
    bundled = next(venv.glob("lib/python3.11/site-packages/rxt_tf_plugin/crates"))
    assert f"crate sources {bundled / 'rxt-tf-0.1.0'}" in out, out
    config = (project / ".cargo" / "config.toml").read_text()
    for crate in ("rxt-tf", "rxt-tf-runtime", "rxt-tf-macros", "rxt-tf-spec"):
        assert f'{crate} = {{ path = "{bundled / f"{crate}-0.1.0"}" }}' in config, config
    assert str(ROOT) not in config

    build = run([python, "-m", "rextio.cli.main", "build", "."], project, env)
    assert "native build: built" in build, build
    print("".join(line + "\n" for line in build.splitlines() if "native" in line), end="")
    checked = run([python, "-c", CHECK], project, dict(env, REXTIO_NATIVE_MODE="native"))
    assert checked.startswith("equal"), checked
    print(checked, end="")
