"""`make bench`, fourth part: real layer functions through `rxt_tf.function`.

Every function of the corpus (tests/python/rextio_real: tf-keras layers, the
TensorFlow tutorials, Model Garden, taken verbatim) on its first input set,
called eagerly, through its `tf.function` and through `rxt_tf.function`
(as the `tf.function` runs it, and with `exact=False`),
interleaved in one process. Writes bench/results/layers.json and layers.md:
medians (µs) and the ratios the targets name (≤ 0.15× the `tf.function`,
≤ 0.1× eager).
"""

from __future__ import annotations

import importlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "tests" / "python" / "rextio_real"))

import numpy as np  # noqa: E402
import rxt_tf  # noqa: E402
import tensorflow as tf  # noqa: E402
from cases import CASES, MODULES  # noqa: E402
from run_cases import argument  # noqa: E402

import machine  # noqa: E402

ROUNDS = 9
CALLS = 30


def functions() -> dict[str, Any]:
    """Every corpus function by name."""
    found = {}
    for name in MODULES:
        module = importlib.import_module(name)
        found.update({f: getattr(module, f) for f in CASES if hasattr(module, f)})
    return found


def main() -> None:
    """Times every function three ways; writes and prints the table."""
    random.seed(0)
    calls: list[tuple[str, str, Any, list[Any]]] = []
    for name, fn in sorted(functions().items()):
        args = [argument(spec, np.random.default_rng(1), False) for spec in CASES[name]]
        for label, callable_ in (
            ("eager", fn),
            ("tf.function", tf.function(fn)),
            ("rxt_tf.function", rxt_tf.function(fn)),
            ("exact=False", rxt_tf.function(fn, exact=False)),
        ):
            for _ in range(5):
                callable_(*args)
            calls.append((name, label, callable_, args))
    samples: dict[tuple[str, str], list[float]] = {(n, label): [] for n, label, _, _ in calls}
    for _ in range(ROUNDS):
        random.shuffle(calls)
        for name, label, callable_, args in calls:
            start = time.perf_counter()
            for _ in range(CALLS):
                callable_(*args)
            samples[(name, label)].append((time.perf_counter() - start) / CALLS)
    report = {
        name: {label: statistics.median(samples[(name, label)]) for label in LABELS}
        for name in sorted({n for n, _ in samples})
    }
    lines = [
        "| function | eager | tf.function | rxt_tf.function | / tf.function | / eager "
        "| exact=False | / tf.function | / eager |",
        "| --- " * 9 + "|",
    ]
    met = {"rxt_tf.function": 0, "exact=False": 0}
    for name, m in report.items():
        cells = [name, f"{m['eager'] * 1e6:,.1f} µs", f"{m['tf.function'] * 1e6:,.1f} µs"]
        for label in met:
            to_graph = m[label] / m["tf.function"]
            to_eager = m[label] / m["eager"]
            met[label] += to_graph <= 0.15 and to_eager <= 0.1
            cells += [f"{m[label] * 1e6:,.1f} µs", f"{to_graph:.3f}×", f"{to_eager:.3f}×"]
        lines.append("| " + " | ".join(cells) + " |")
    for label, count in met.items():
        lines.append(f"\n{label}: {count} of {len(report)} functions within both targets.")
    table = "\n".join(lines) + "\n"
    record = {"command": "python bench/layers.py", "machine": machine.describe(), "results": report}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "layers.json").write_text(json.dumps(record, indent=2) + "\n")
    (RESULTS / "layers.md").write_text(machine.summary(record["machine"]) + "\n\n" + table)
    print(table)


LABELS = ("eager", "tf.function", "rxt_tf.function", "exact=False")

if __name__ == "__main__":
    main()
