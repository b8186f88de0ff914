"""Whose limit is it? A plugin that claims everything settles it.

The probe (``probe/probe_plugin.py``) claims every site Rextio offers. For
each limit ``explain`` calls the host's, a minimal module keeps a function
on Python even with the probe: no plugin could lift it. And the sites the
plugin's docs say Rextio offers (``tf.range``, ``tf.constant``, a tuple
keyword, a typed tuple of ints) are offered to the probe.

The over-claiming probe (``probe/over_plugin.py``) is rxt-tf itself, plus a
claim of every site rxt-tf declines. On the real corpus after ``explain
--fix`` it makes exactly the functions native that rxt-tf does: no function
waits on a refusal of the plugin's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROBE = Path(__file__).parent / "probe" / "probe_plugin.py"
OVER = Path(__file__).parent / "probe" / "over_plugin.py"
CORPUS = Path(__file__).parents[2] / "tests" / "python" / "rextio_real"
CORPUS_SOURCES = (
    "keras_backend.py",
    "keras_layers.py",
    "keras_attention.py",
    "keras_conv.py",
    "model_garden.py",
    "tutorials.py",
    "cases.py",
)

HEADER = """from __future__ import annotations
from typing import Optional, Tuple
import tensorflow as tf
from rxt_tf_plugin.types import TensorF32Cpu2D


def helper(x: TensorF32Cpu2D) -> Tuple[TensorF32Cpu2D, TensorF32Cpu2D]:
    return x, x

"""

HOST_LIMITS = {
    "docstring": (
        'def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    """Doc."""\n    return tf.nn.relu(x)\n',
        "expression statements are supported only",
    ),
    "optional": (
        "def f(x: TensorF32Cpu2D, m: Optional[TensorF32Cpu2D] = None) -> TensorF32Cpu2D:\n"
        "    return tf.nn.relu(x)\n",
        "unsupported argument type for m",
    ),
    "tuple_return": (
        "def f(x: TensorF32Cpu2D) -> Tuple[TensorF32Cpu2D, TensorF32Cpu2D]:\n"
        "    return tf.nn.relu(x), x\n",
        "unsupported return type",
    ),
    "tuple_unpacking": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    a, b = helper(x)\n    return a\n",
        "assignment targets must be local names",
    ),
    "attribute": (
        "def f(x: TensorF32Cpu2D) -> int:\n    return x.shape[-1]\n",
        "dynamic attribute access",
    ),
    "subscript": (
        "def f(x: TensorF32Cpu2D, i: int) -> TensorF32Cpu2D:\n    return x[i]\n",
        "indexing a plugin-typed value",
    ),
    "is_none": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n"
        "    if x is not None:\n        return x\n    return x\n",
        "comparing plugin-typed values",
    ),
    "empty_tuple": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return x * tf.fill((), 2.0)\n",
        "empty tuple literals",
    ),
    "list_of_tensors": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return tf.concat([x, x], 0)\n",
        "list literal item type is not supported",
    ),
    "unary_minus": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return -x\n",
        "unary minus is not supported",
    ),
    "power": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return x ** 2.0\n",
        "this binary operator is not supported",
    ),
    "floor_division": (
        "def f(x: TensorF32Cpu2D, y: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return x // y\n",
        "this binary operator is not supported",
    ),
    "fall_through": (
        "def f(x: TensorF32Cpu2D, k: bool) -> TensorF32Cpu2D:\n"
        "    if k:\n        return tf.nn.relu(x)\n",
        "not all control-flow paths return a value",
    ),
    "nested_function": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n"
        "    def g(v):\n        return v\n    return tf.nn.relu(x)\n",
        "nested functions are not supported",
    ),
    "f_string": (
        "def f(x: TensorF32Cpu2D, n: int) -> TensorF32Cpu2D:\n"
        '    s = f"{n}"\n    return tf.nn.relu(x)\n',
        "f-strings are not supported",
    ),
    "conditional_expression": (
        "def f(x: TensorF32Cpu2D, k: bool) -> TensorF32Cpu2D:\n"
        "    return tf.nn.relu(x) if k else x * 2.0\n",
        "conditional expressions are not supported",
    ),
    "int_division": (
        "def f(x: TensorF32Cpu2D, n: int) -> TensorF32Cpu2D:\n"
        "    m = n / 2\n    return tf.reshape(x, (m, -1))\n",
        "int division is not supported",
    ),
    "unannotated": (
        "def f(x):\n    return tf.nn.relu(x)\n",
        "missing type annotation for argument",
    ),
    "decorator": (
        "@tf.function\ndef f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return tf.nn.relu(x)\n",
        "unsupported decorator",
    ),
    "method": (
        "class C:\n    @staticmethod\n"
        "    def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n        return tf.nn.relu(x)\n",
        "method-auto-promotion-not-supported",
    ),
    "raise": (
        "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n"
        "    if 1 > 2:\n        raise ValueError('no')\n    return x\n",
        "explicit exception flow",
    ),
}
"""Per host limit ``explain`` reports: a function it blocks, and Rextio's words."""

CONTROL = "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:\n    return tf.nn.relu(x) + x\n"


@pytest.fixture(scope="module")
def probe_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that, on ``PYTHONPATH``, installs the probe as a Rextio plugin."""
    site = tmp_path_factory.mktemp("probe-site")
    shutil.copy(PROBE, site / "probe_plugin.py")
    info = site / "rxt_tf_probe-0.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rxt-tf-probe\nVersion: 0.0.0\n")
    (info / "entry_points.txt").write_text("[rextio.plugins]\nprobe = probe_plugin:plugin\n")
    return site


def check(site: Path, root: Path, modules: dict[str, str]) -> tuple[dict[str, Any], list[Any]]:
    """``rextio check`` of ``modules`` with only the probe enabled: the report and the log."""
    (root / "rextio.toml").write_text('[plugins]\nenabled = ["probe"]\n')
    for name, body in modules.items():
        (root / f"{name}.py").write_text(HEADER + body)
    log = root / "offered.jsonl"
    env = dict(os.environ, PYTHONPATH=str(site), RXT_TF_PROBE_LOG=str(log))
    done = subprocess.run(
        [sys.executable, "-m", "rextio.cli.main", "check", "."],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    report = root / ".rextio" / "reports" / "check.json"
    assert report.is_file(), done.stderr[-2000:]
    offered = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return json.loads(report.read_text()), offered


def routes(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Per module, the route of ``f`` and every message Rextio gave for it."""
    found = {}
    for module in report["modules"]:
        for function in module["functions"]:
            if function["name"] != "f":
                continue
            assessment = function.get("promotion_assessment") or {}
            messages = [
                str(d.get("message"))
                for d in [*function["diagnostics"], *assessment.get("diagnostics", ())]
            ]
            messages.append(str(assessment.get("skip_reason") or ""))
            found[module["module_name"]] = (function["native_status"], "\n".join(messages))
    return found


def test_every_host_limit_stands_against_a_plugin_that_claims_everything(
    probe_site: Path, tmp_path: Path
) -> None:
    modules = {name: body for name, (body, _) in HOST_LIMITS.items()}
    report, offered = check(probe_site, tmp_path, {**modules, "control": CONTROL})
    found = routes(report)
    # The probe does claim: the control function is native with it.
    assert found["control"][0] == "accepted", found["control"]
    assert offered
    for name, (_, words) in HOST_LIMITS.items():
        status, messages = found[name]
        assert status != "accepted", name
        assert words in messages, (name, messages)


def test_rextio_offers_the_sites_the_docs_say_it_offers(probe_site: Path, tmp_path: Path) -> None:
    body = (
        "def f(x: TensorF32Cpu2D, n: int) -> TensorF32Cpu2D:\n"
        "    r = tf.range(n)\n"
        "    c = tf.constant(2.0)\n"
        "    y = tf.reshape(x, (n, -1))\n"
        "    z = tf.transpose(y, perm=(1, 0))\n"
        "    e = tf.einsum('ij,jk->ik', x, x)\n"
        "    p = tf.pad(x, [[1, 1], [0, 0]])\n"
        "    return z\n"
    )
    _, offered = check(probe_site, tmp_path, {"sites": body})
    by_target = {site["target"]: site for site in offered}
    assert by_target["tensorflow.range"]["operand_types"] == ["int"]
    assert by_target["tensorflow.constant"]["operand_types"] == ["float"]
    assert by_target["tensorflow.reshape"]["operand_types"][1] == "tuple[int, int]"
    assert by_target["tensorflow.transpose"]["keywords"] == ["perm"]
    assert by_target["tensorflow.pad"]["operand_types"][1] == "list[list[int]]"
    # The equation is offered as a `str` operand, but not as a literal: no
    # plugin can type `einsum`'s result from it.
    assert by_target["tensorflow.einsum"]["operand_types"][0] == "str"
    assert by_target["tensorflow.einsum"]["literals"][0] == "?"


@pytest.fixture(scope="module")
def over_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that, first on ``PYTHONPATH``, puts the over-claiming probe
    in the place of rxt-tf's entry point (a shadow ``rxt-tf-plugin``
    distribution, which ``importlib.metadata`` finds before the installed one)."""
    from rxt_tf_plugin import __version__

    site = tmp_path_factory.mktemp("over-site")
    shutil.copy(OVER, site / "over_plugin.py")
    info = site / f"rxt_tf_plugin-{__version__}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: rxt-tf-plugin\nVersion: {__version__}\n"
    )
    (info / "entry_points.txt").write_text("[rextio.plugins]\nrxt-tf = over_plugin:plugin\n")
    return site


def native_functions(root: Path, pythonpath: str | None, log: Path) -> set[str]:
    """``rextio check`` of ``root`` with rxt-tf enabled: the functions made native."""
    env = dict(os.environ, RXT_TF_PROBE_LOG=str(log))
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    shutil.rmtree(root / ".rextio", ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-m", "rextio.cli.main", "check", "."],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    report = root / ".rextio" / "reports" / "check.json"
    assert report.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    check = json.loads(report.read_text())
    return {
        f["qualname"]
        for m in check["modules"]
        for f in m["functions"]
        if str(f["route"]).startswith("native")
    }


@pytest.mark.parametrize("fixes", [("--fix",), ("--fix", "--unsafe-fixes")])
def test_no_function_of_the_real_corpus_waits_on_a_refusal_of_rxt_tf(
    over_site: Path, tmp_path: Path, fixes: tuple[str, ...]
) -> None:
    """The real corpus after ``explain --fix``: rxt-tf, and rxt-tf that also
    claims every site it refuses, make exactly the same functions native. So
    every function rxt-tf leaves on Python is held there by the host (or by
    the code itself), never by a site the plugin declines; ``explain`` names
    that root for each."""
    for name in CORPUS_SOURCES:
        shutil.copy(CORPUS / name, tmp_path)
    (tmp_path / "rextio.toml").write_text('[plugins]\nenabled = ["rxt-tf"]\n')
    fixed = subprocess.run(
        [sys.executable, "-m", "rxt_tf_plugin", "explain", ".", *fixes],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert fixed.returncode in (0, 1), fixed.stderr[-2000:]
    log = tmp_path / "over.jsonl"
    plain = native_functions(tmp_path, None, tmp_path / "plain.jsonl")
    path = f"{over_site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    over = native_functions(tmp_path, path, log)
    # The probe did claim sites rxt-tf refuses (the check is not vacuous).
    assert log.is_file() and log.read_text().strip()
    assert not (tmp_path / "plain.jsonl").exists()
    assert plain, "rxt-tf made nothing of the corpus native"
    assert over == plain, (sorted(over - plain), sorted(plain - over))
