"""The wheels `make wheel` builds, installed as a user installs them: into a
fresh venv, by pip, with no `cargo` or `rustc` on `PATH`; then the README's
Python quick start (which calls a Keras model through `rxt_tf.Predictor`)
runs there. The plugin's wheel, with no checkout on any path, sets up a
Rextio project from the crate sources it carries and `rextio build` builds
it (that step puts Rust back on `PATH`: Rextio compiles the native module).

TensorFlow itself (600 MB) is not installed again: a `.pth` file puts this
environment's site-packages after the fresh venv's own, so `tensorflow` and
`keras` import from there while `rxt_tf` and `rxt_tf_plugin` (both editable
here, through `.pth` files a plain path entry does not run) can come only
from the installed wheels, which the test checks.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"


def wheel(pattern: str) -> Path:
    """The one wheel in dist/ matching `pattern`."""
    found = sorted(DIST.glob(pattern))
    assert len(found) == 1, (
        f"expected one {pattern} in dist/ (run `make wheel`): {found}"
    )
    return found[0]


def readme_block(heading: str, language: str) -> str:
    """The first `language` code block under the README's `heading`."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert match, f"no {language} block under {heading!r}"
    return match.group(1)


def without_rust(path: str) -> str:
    """`path` without any folder that holds `cargo` or `rustc`."""
    kept = [
        folder
        for folder in path.split(os.pathsep)
        if folder
        and not any(
            os.access(Path(folder, tool), os.X_OK) for tool in ("cargo", "rustc")
        )
    ]
    return os.pathsep.join(kept)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the two wheels installed by pip, no Rust on `PATH`."""
    root = tmp_path_factory.mktemp("fresh") / "venv"
    venv.EnvBuilder(with_pip=True).create(root)
    python = root / "bin" / "python"
    path = os.pathsep.join(
        [str(root / "bin"), without_rust(os.environ.get("PATH", ""))]
    )
    assert (
        shutil.which("cargo", path=path) is None
        and shutil.which("rustc", path=path) is None
    )
    env = {
        **os.environ,
        "PATH": path,
        "PIP_NO_INDEX": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    env.pop("PYTHONPATH", None)
    rxt_tf, plugin = (
        wheel("rxt_tf-*-manylinux_2_28_x86_64.whl"),
        wheel("rxt_tf_plugin-*.whl"),
    )
    done = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", rxt_tf, plugin],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (purelib / "zz_tensorflow_from_build_env.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n"
    )
    return root


def run(root: Path, code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by the fresh venv's Python, no Rust on `PATH`."""
    path = os.pathsep.join(
        [str(root / "bin"), without_rust(os.environ.get("PATH", ""))]
    )
    env = {**os.environ, "PATH": path, "TF_CPP_MIN_LOG_LEVEL": "2"}
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [root / "bin" / "python", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=root,
    )


def test_the_packages_come_from_the_wheels(fresh: Path) -> None:
    done = run(
        fresh,
        "import rxt_tf, rxt_tf_plugin, tensorflow as tf\n"
        "from rxt_tf_plugin.plugin import plugin\n"
        "plugin()\n"
        "print(rxt_tf.__file__); print(rxt_tf_plugin.__file__); print(rxt_tf.__version__)\n"
        "print(tf.__version__)",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ours, plugin, version, tensorflow = done.stdout.split()
    assert Path(ours).is_relative_to(fresh) and Path(plugin).is_relative_to(fresh), (
        done.stdout
    )
    assert version == "0.1.0" and tensorflow == "2.21.0"


def test_the_readme_python_quick_start_runs_natively(fresh: Path) -> None:
    snippet = readme_block("Quick start from Python", "python")
    assert "rxt_tf.Predictor(model)" in snippet
    done = run(
        fresh,
        snippet + "\nassert rxt_tf.stats()['native'] >= 2, rxt_tf.stats()\n",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "calls ran natively" in done.stdout
    # Nothing of rxt-tf's own machinery reaches the user's stderr.
    for word in ("AutoGraph", "rxt_tf", "_concretes", "Traceback"):
        assert word not in done.stderr, done.stderr[-3000:]


def test_the_readme_install_names_the_wheels_make_wheel_builds() -> None:
    commands = readme_block("Install", "sh")
    for built in (wheel("rxt_tf-*.whl"), wheel("rxt_tf_plugin-*.whl")):
        assert f"dist/{built.name}" in commands, (built.name, commands)


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


def test_the_plugin_wheel_sets_up_and_builds_a_project_without_a_checkout(
    fresh: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(SEED, project)
    (project / "rextio.toml").write_text("[plugins]\nenabled = []\n")
    # Nothing of the checkout may leak in; Rust is on PATH for the build.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "RXT_TF_SOURCE", "VIRTUAL_ENV", "PYO3_PYTHON")
    }
    env["PATH"] = f"{fresh / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    python = str(fresh / "bin" / "python")

    def run(*args: str, **extra: str) -> str:
        done = subprocess.run(
            [python, *args],
            cwd=project,
            env={**env, **extra},
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
        return done.stdout

    out = run("-m", "rxt_tf_plugin", "setup", ".")
    bundled = next(fresh.glob("lib/python3.11/site-packages/rxt_tf_plugin/crates"))
    assert f"crate sources {bundled / 'rxt-tf-0.1.0'}" in out, out
    config = (project / ".cargo" / "config.toml").read_text()
    for crate in ("rxt-tf", "rxt-tf-runtime", "rxt-tf-macros", "rxt-tf-spec"):
        assert f'{crate} = {{ path = "{bundled / f"{crate}-0.1.0"}" }}' in config, (
            config
        )
    assert str(ROOT) not in config
    build = run("-m", "rextio.cli.main", "build", ".")
    assert "native build: built" in build, build
    checked = run("-c", CHECK, REXTIO_NATIVE_MODE="native")
    assert checked.startswith("equal"), checked
