"""Real inference code through Rextio: the corpus as written, after ``explain --fix``
and after ``explain --fix --unsafe-fixes``.

The corpus (``rextio_real/``, see its README) holds 37 functions taken
verbatim from tf-keras layers, TF Model Garden and the TensorFlow tutorials.
Each is built three times with ``rextio build`` and the rxt-tf plugin: as
written, after ``python -m rxt_tf_plugin explain --fix``, and with
``--unsafe-fixes`` too (docstrings made comments, helpers inlined). For both, every function
is native or has a named blocker; the rewritten sources compute every
function bit for bit as the originals; and the built module, forced native,
does too.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bitwise import same_bits

CORPUS = Path(__file__).parent / "rextio_real"
SOURCES = ("keras_backend.py", "keras_layers.py", "keras_attention.py", "keras_conv.py",
           "model_garden.py", "tutorials.py", "cases.py")

NATIVE = {
    "written": set(),
    "fixed": {
        "keras_backend.epsilon",
        "keras_backend.floatx",
        "keras_backend.image_data_format",
        "keras_layers.permute",
        "keras_layers.thresholded_relu",
        "keras_layers.unit_normalization",
        "tutorials.create_look_ahead_mask",
        "tutorials.create_padding_mask",
        "tutorials.integral_approximation",
        "tutorials.interpolate_images",
        "tutorials.my_dense_layer",
    },
}
NATIVE["unsafe"] = NATIVE["fixed"] | {
    "keras_attention.additive_attention_calculate_scores",
    "keras_attention.attention_calculate_scores",
    "tutorials.split_heads",
    "tutorials.total_variation_loss",
}
"""The functions native at least, per build (more is better: update the set)."""


class Built:
    """The corpus built by ``rextio build``, as written or after ``explain --fix``."""

    def __init__(self, kind: str, root: Path) -> None:
        self.kind = kind
        self.root = root
        self.reports: dict[str, dict[str, Any]] = {}
        self.output = ""

    def run(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], cwd=self.root, capture_output=True,
                              text=True, timeout=1800, env=env)

    @property
    def routes(self) -> dict[str, str]:
        check = json.loads((self.root / ".rextio" / "reports" / "check.json").read_text())
        return {f["qualname"]: f["route"] for m in check["modules"] for f in m["functions"]}

    @property
    def native(self) -> set[str]:
        return {name for name, route in self.routes.items() if route.startswith("native")}


@pytest.fixture(scope="module", params=["written", "fixed", "unsafe"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp(f"corpus-{request.param}")
    for name in SOURCES:
        shutil.copy(CORPUS / name, root)
    (root / "rextio.toml").write_text('[plugins]\nenabled = ["rxt-tf"]\n')
    done = Built(request.param, root)
    setup = done.run("-m", "rxt_tf_plugin", "setup", ".")
    assert setup.returncode == 0, setup.stderr
    if request.param != "written":
        unsafe = ("--unsafe-fixes",) if request.param == "unsafe" else ()
        fixed = done.run("-m", "rxt_tf_plugin", "explain", ".", "--fix", *unsafe)
        assert fixed.returncode == 0, fixed.stderr
    explained = done.run("-m", "rxt_tf_plugin", "explain", ".", "--format", "json")
    assert explained.returncode == 0, explained.stderr
    for line in explained.stdout.splitlines():
        report = json.loads(line)
        done.reports[report["function"]] = report
    build = done.run("-m", "rextio.cli.main", "build", ".")
    done.output = build.stdout + build.stderr
    assert build.returncode == 0, done.output[-4000:]
    return done


def run_cases(modules: Path, out: Path, native: bool = False) -> dict[str, Any]:
    env = dict(__import__("os").environ)
    if native:
        env["REXTIO_NATIVE_MODE"] = "native"
    done = subprocess.run([sys.executable, str(CORPUS / "run_cases.py"), str(modules), str(out)],
                          capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    results: dict[str, Any] = json.loads(out.read_text())
    return results


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_cases(CORPUS, tmp_path_factory.mktemp("original") / "results.json")


def test_the_native_functions_are_at_least_the_recorded_ones(built: Built) -> None:
    native = built.native
    print(f"\n{built.kind}: {len(native)} of {len(built.routes)} functions native: "
          f"{sorted(native)}")
    assert native >= NATIVE[built.kind], sorted(NATIVE[built.kind] - native)
    # explain reads the same analysis the build made.
    assert {name for name, r in built.reports.items() if r["route"] == "native"} == native
    lib = (built.root / ".rextio" / "generated" / "rust" / "src" / "lib.rs")
    if native:
        text = lib.read_text()
        for name in native:
            assert "fn " + name.replace(".", "__") in text, name


def test_every_function_left_on_python_names_its_blockers(built: Built) -> None:
    assert set(built.reports) == set(built.routes)
    for name, report in built.reports.items():
        if report["route"] == "native":
            assert report["blockers"] == [], name
            continue
        assert report["blockers"], name
        for blocker in report["blockers"]:
            assert blocker["owner"] in ("rextio", "rxt-tf"), blocker
            assert blocker["construct"] and blocker["fix"] and blocker["line"] > 0, blocker
            assert Path(blocker["file"]).name in SOURCES, blocker


def test_fix_keeps_every_function_bit_for_bit(built: Built, original: dict[str, Any],
                                              tmp_path: Path) -> None:
    if built.kind == "written":
        pytest.skip("the sources as written are the originals")
    assert run_cases(built.root, tmp_path / "fixed.json") == original


def test_the_built_module_matches_the_original_python_bit_for_bit(
    built: Built, original: dict[str, Any], tmp_path: Path
) -> None:
    tree = built.root / ".rextio" / "build" / "python"
    assert (tree / "keras_layers.py").is_file(), sorted(p.name for p in tree.iterdir())
    results = run_cases(tree, tmp_path / "built.json", native=True)
    assert results == original


def test_rextio_certification_kit_on_every_native_function(built: Built) -> None:
    """Rextio's plugin certification: each native function against its
    fallback, on inputs hypothesis draws (batch sizes 0-5, special values)."""
    if not built.native:
        pytest.skip("no native function to certify")
    from rextio.plugins.testing import CertifiedProject

    report = json.loads((built.root / ".rextio" / "reports" / "build.json").read_text())
    assert (report.get("native_build") or {}).get("status") == "built", report.get("status")
    project = CertifiedProject(project_root=built.root)
    sys.path.insert(0, str(CORPUS))
    try:
        cases = __import__("cases")
    finally:
        sys.path.remove(str(CORPUS))
    certified = []
    for qualname in sorted(built.native):
        module, _, name = qualname.rpartition(".")
        specs = cases.CASES.get(name)
        if specs is None:
            continue  # a stand-in of no arguments (keras_backend.epsilon)
        check = prefixed_errors(project.equivalence_checker(
            qualname, equals=same_bits, copy_args=lambda args: tuple(args)))

        certify(specs, check)()
        certified.append(qualname)
    print(f"\ncertified: {certified}")
    assert len(certified) >= 4


def same_error(native: BaseException, fallback: BaseException) -> bool:
    """An op's error as rxt-tf raises it: eager's class, and eager's message
    after ``rxt-tf: <op> failed: `` (without eager's ``[Op:Sub] name:`` tail)."""
    if type(native) is not type(fallback):
        return False
    if str(native) == str(fallback):
        return True
    eager = re.sub(r" \[Op:\w+\]( name: .*)?$", "", str(fallback))
    return re.fullmatch(r"rxt-tf: \w+ failed: " + re.escape(eager), str(native)) is not None


def prefixed_errors(check: Any) -> Any:
    """Rextio's equivalence checker, taking an op error with rxt-tf's prefix
    (every rxt-tf message starts ``rxt-tf: ``) as the same error."""
    base = type(check)

    class PrefixedErrors(base):  # type: ignore[misc, valid-type]
        def _compare(self, native: Any, fallback: Any, args: Any) -> None:
            if native[0] == fallback[0] == "raised" and same_error(native[1], fallback[1]):
                return
            super()._compare(native, fallback, args)

    return PrefixedErrors(**{f.name: getattr(check, f.name) for f in dataclasses.fields(check)})


def certify(specs: list[Any], check: Any) -> Any:
    """A hypothesis test of one native function: batch sizes 0-5 on the first
    argument, float values with NaN, infinities, signed zeros and extremes,
    integers over their type's whole range."""
    import numpy as np
    import tensorflow as tf
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from rextio.plugins.testing import CertificationError

    special = st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -3.4e38, 88.7])
    floats = st.one_of(st.floats(width=32, allow_nan=True, allow_infinity=True), special)
    integers = {
        "int32": st.integers(-(2**31), 2**31 - 1),
        "int64": st.integers(-(2**63), 2**63 - 1),
        "bool": st.booleans(),
    }

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(batch=st.integers(0, 5), data=st.data())
    def run(batch: int, data: st.DataObject) -> None:
        args: list[Any] = []
        for index, spec in enumerate(specs):
            if not isinstance(spec, tuple):
                # A Python int (a size): small ones, and negative ones TF refuses.
                args.append(data.draw(st.integers(-2, 7)))
                continue
            dtype, shape = spec
            shape = (batch, *shape[1:]) if index == 0 else shape
            count = int(np.prod(shape))
            values = integers.get(str(np.dtype(dtype)), floats)
            drawn = data.draw(st.lists(values, min_size=count, max_size=count))
            args.append(tf.constant(np.array(drawn, dtype).reshape(shape)))
        try:
            check(*args)
        except CertificationError:
            raise
        except Exception:  # noqa: BLE001 - both legs raised alike: agreed behaviour
            pass

    return run
