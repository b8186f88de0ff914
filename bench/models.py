"""`make bench`, second part: the three example models, interleaved.

The models (a transformer encoder block, a small CNN, a text classifier;
`tests/python/models.py`) run at batch 1 and 32 in one process: our fused
`#[pyclass]` model, the same math run eagerly op by op, that math as a
`tf.function`, the Keras model call `model(x)`, and the floor: that
`tf.function`'s graph run as one bare `PartitionedCall` from Python with
Grappler off (the kernels' own cost in one TensorFlow call).

Each round calls every alternative `CALLS` times in a shuffled order and
records the mean time per call; the table gives each median over `ROUNDS`
rounds and the ratios to eager and to Keras. Writes
bench/results/models.json, models.md and models.png.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "tests" / "python"))

import tensorflow as tf  # noqa: E402
from tensorflow.python.eager import context, execute  # noqa: E402

import charts  # noqa: E402
import interleaved  # noqa: E402
import machine  # noqa: E402
import models  # noqa: E402

ROUNDS = 15
CALLS = 20
BATCHES = (1, 32)
MODELS = ("encoder", "cnn", "classifier")
TARGETS = {"encoder": 0.15, "cnn": 0.3, "classifier": 0.1}
"""The issue's targets at batch 1, fused, as a ratio to eager."""


NO_GRAPH_REWRITES = bytes([82, 5, 82, 3, 152, 1, 1])
"""`ConfigProto` turning Grappler off, as rxt-tf's fused calls run."""


def floor(eager: Any, x: Any) -> Any:
    """The floor: the math's graph as one bare `PartitionedCall`.

    Run from Python with Grappler off, it is what one TensorFlow call of
    these kernels costs.
    """
    concrete = tf.function(eager).get_concrete_function(tf.TensorSpec(x.shape, x.dtype))
    captured = list(concrete.captured_inputs)
    attrs = (
        "Tin",
        [x.dtype.as_datatype_enum] + [c.dtype.as_datatype_enum for c in captured],
        "Tout",
        [t.dtype.as_datatype_enum for t in concrete.outputs],
        "f",
        concrete.function_def.signature.name,
        "config",
        "",
        "config_proto",
        NO_GRAPH_REWRITES,
        "executor_type",
        "",
    )
    ctx = context.context()
    outputs = len(concrete.outputs)

    def call(v: Any) -> Any:
        return execute.execute("PartitionedCall", outputs, [v, *captured], attrs, ctx)

    call.keep = concrete  # type: ignore[attr-defined]
    return call


def alternatives(name: str, batch: int) -> tuple[dict[str, Any], Any]:
    """The callables of one model and its input."""
    model = getattr(models, f"{name}_keras")()
    eager = getattr(models, f"{name}_eager")(model)
    x = getattr(models, f"{name}_input")(batch)
    graph = tf.function(eager)
    calls = {
        "rxt-tf (fused)": getattr(models, f"{name}_native")(model),
        "eager": eager,
        "tf.function": graph,
        "keras model(x)": model,
        "one PartitionedCall (floor)": floor(eager, x),
    }
    return calls, x


def measure(name: str, batch: int) -> dict[str, float]:
    """Median seconds per call of each alternative, interleaved."""
    calls, x = alternatives(name, batch)
    return interleaved.medians(calls, x, ROUNDS, CALLS)


def markdown(report: dict[str, dict[str, dict[str, float]]]) -> str:
    """The table: median µs per call, and our ratios to eager and Keras."""
    lines = [
        "| model | batch | rxt-tf (fused) | eager | tf.function | keras model(x) | "
        "one PartitionedCall (floor) | rxt-tf / eager | floor / eager | rxt-tf / keras |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, by_batch in report.items():
        for batch, medians in by_batch.items():
            ours = medians["rxt-tf (fused)"]
            cells = [f"{medians[label] * 1e6:,.0f} µs" for label in medians]
            floor_share = medians["one PartitionedCall (floor)"] / medians["eager"]
            lines.append(
                f"| {name} | {batch} | {' | '.join(cells)} | "
                f"{ours / medians['eager']:.3f}× | {floor_share:.3f}× | "
                f"{ours / medians['keras model(x)']:.3f}× |"
            )
    return "\n".join(lines) + "\n"


def plot(report: dict[str, dict[str, dict[str, float]]]) -> None:
    """Draws models.png: µs per call of each alternative, per model and batch."""
    charts.grouped_bars(
        report,
        "rxt-tf models beside eager, tf.function and the Keras call",
        RESULTS / "models.png",
    )


def main() -> None:
    """Measures every model at every batch size; writes and prints the table."""
    random.seed(0)
    report: dict[str, dict[str, dict[str, float]]] = {}
    for name in MODELS:
        report[name] = {str(batch): measure(name, batch) for batch in BATCHES}
    RESULTS.mkdir(parents=True, exist_ok=True)
    record = {"command": "python bench/models.py", "machine": machine.describe(), "results": report}
    (RESULTS / "models.json").write_text(json.dumps(record, indent=2) + "\n")
    table = markdown(report)
    (RESULTS / "models.md").write_text(machine.summary(record["machine"]) + "\n\n" + table)
    plot(report)
    print(table)
    for name, target in TARGETS.items():
        medians = report[name]["1"]
        ratio = medians["rxt-tf (fused)"] / medians["eager"]
        verdict = "met" if ratio <= target else "MISSED"
        print(f"{name}: batch 1 fused/eager {ratio:.3f}× (target ≤ {target}×: {verdict})")


if __name__ == "__main__":
    main()
