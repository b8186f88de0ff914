"""`make bench`: the real corpus through Rextio, per call, native against Python.

Copies the corpus (tests/python/rextio_real), runs `explain --fix
--unsafe-fixes` and `rextio build` on the copy, then times, interleaved in
one process, each function the build made native (forced native through
Rextio's dispatcher) against the original Python function on its first
input set. Writes bench/results/rextio_corpus.json and .md: medians (µs) and
the ratio native / Python.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
CORPUS = ROOT / "tests" / "python" / "rextio_real"
SOURCES = (
    "keras_backend.py",
    "keras_layers.py",
    "keras_attention.py",
    "keras_conv.py",
    "model_garden.py",
    "tutorials.py",
    "cases.py",
)
ROUNDS = 9
CALLS = 30


def build(root: Path) -> set[str]:
    """The corpus copied to `root`, fixed and built; the functions made native."""
    for name in SOURCES:
        shutil.copy(CORPUS / name, root)
    (root / "rextio.toml").write_text('[plugins]\nenabled = ["rxt-tf"]\n')
    for args in (
        ("-m", "rxt_tf_plugin", "setup", "."),
        ("-m", "rxt_tf_plugin", "explain", ".", "--fix", "--unsafe-fixes"),
        ("-m", "rextio.cli.main", "build", "."),
    ):
        subprocess.run([sys.executable, *args], cwd=root, check=True, capture_output=True)
    check = json.loads((root / ".rextio" / "reports" / "check.json").read_text())
    return {
        f["qualname"]
        for m in check["modules"]
        for f in m["functions"]
        if str(f["route"]).startswith("native")
    }


def main() -> None:
    """Builds, times every native function both ways, writes and prints the table."""
    random.seed(0)
    with tempfile.TemporaryDirectory(prefix="rxt-tf-corpus-") as scratch:
        root = Path(scratch)
        native = build(root)
        os.environ["REXTIO_NATIVE_MODE"] = "native"
        sys.path.insert(0, str(root / ".rextio" / "build" / "python"))
        import numpy as np
        import tensorflow as tf

        sys.path.insert(1, str(CORPUS))
        from cases import CASES
        from run_cases import argument

        import machine

        calls: list[tuple[str, str, Any, list[Any]]] = []
        for qualname in sorted(native):
            module, _, name = qualname.rpartition(".")
            if name not in CASES:
                continue  # no arguments (a stand-in of a constant)
            built = getattr(importlib.import_module(module), name)
            path = CORPUS / f"{module}.py"
            spec = importlib.util.spec_from_file_location(f"original_{module}", path)
            assert spec is not None and spec.loader is not None
            original_module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(original_module)
            original = getattr(original_module, name)
            args = [argument(s, np.random.default_rng(1), False) for s in CASES[name]]
            want, got = original(*args), built(*args)
            assert isinstance(got, tf.Tensor) and got.numpy().tobytes() == want.numpy().tobytes()
            for label, fn in (("python", original), ("native", built)):
                for _ in range(5):
                    fn(*args)
                calls.append((qualname, label, fn, args))
        samples: dict[tuple[str, str], list[float]] = {(n, lb): [] for n, lb, _, _ in calls}
        for _ in range(ROUNDS):
            random.shuffle(calls)
            for qualname, label, fn, args in calls:
                start = time.perf_counter()
                for _ in range(CALLS):
                    fn(*args)
                samples[(qualname, label)].append((time.perf_counter() - start) / CALLS)
    report = {
        name: {label: statistics.median(samples[(name, label)]) for label in ("python", "native")}
        for name in sorted({n for n, _ in samples})
    }
    lines = ["| function | Python | native | native / Python |", "| --- | --- | --- | --- |"]
    for name, m in report.items():
        lines.append(
            f"| {name} | {m['python'] * 1e6:,.1f} µs | {m['native'] * 1e6:,.1f} µs "
            f"| {m['native'] / m['python']:.2f}× |"
        )
    table = "\n".join(lines) + "\n"
    record = {
        "command": "python bench/rextio_corpus.py",
        "machine": machine.describe(),
        "results": report,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "rextio_corpus.json").write_text(json.dumps(record, indent=2) + "\n")
    (RESULTS / "rextio_corpus.md").write_text(machine.summary(record["machine"]) + "\n\n" + table)
    print(table)


if __name__ == "__main__":
    main()
