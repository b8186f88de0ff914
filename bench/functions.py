"""`make bench`, third part: a Keras model called from Rust, interleaved.

The Keras MLP 16 → 32 → 32 → 4 with softmax runs at batch 1 and 32 in one
process: `rxt_tf_example.Predictor` (an `rxt_tf::Function` called from a
`#[pyclass]`), `rxt_tf.Predictor` and `rxt_tf.function` of the Python package (and the
Predictor with `exact=False`),
`model(x)`, `model.predict_on_batch(x)`, the `tf.function`
wrapping the model, its concrete function, and the floor: the same
definition run as one bare `StatefulPartitionedCall` from Python
(`execute.execute`, inputs plus the captured variable handles).

Each round calls every alternative `CALLS` times in a shuffled order and
records the mean time per call; the table gives each median over `ROUNDS`
rounds and our ratios. Writes bench/results/functions.json and
functions.md.
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

import rxt_tf  # noqa: E402
import rxt_tf_example as ext  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.eager import context, execute  # noqa: E402

import interleaved  # noqa: E402
import machine  # noqa: E402
import models  # noqa: E402

ROUNDS = 15
CALLS = 50
BATCHES = (1, 32)
OURS = "rxt-tf Predictor"
TARGETS = {"keras model(x)": 0.03, "concrete function": 0.25, "bare call (floor)": 1.2}
"""The targets at batch 1: the Rust Predictor's ratio to each alternative."""
PYTHON_TARGETS = {"keras model(x)": 0.02, "tf.function": 0.1, OURS: 1.5}
"""The targets at batch 1: the Python package's Predictor's ratio to each."""
PYTHON_PREDICTORS = ("rxt_tf.Predictor", "rxt_tf.Predictor, exact=False")


def alternatives(batch: int) -> tuple[dict[str, Any], Any]:
    """The callables and the input of one batch size."""
    model = models.mlp_keras()
    graph = tf.function(
        lambda v: model(v, training=False), input_signature=[tf.TensorSpec((None, 16))]
    )
    concrete = graph.get_concrete_function()
    captured = list(concrete.captured_inputs)
    attrs = (
        "Tin",
        [tf.float32.as_datatype_enum] + [c.dtype.as_datatype_enum for c in captured],
        "Tout",
        [tf.float32.as_datatype_enum],
        "f",
        concrete.function_def.signature.name,
        "config",
        "",
        "config_proto",
        "",
        "executor_type",
        "",
    )
    ctx = context.context()

    def bare(x: Any) -> Any:
        return execute.execute("StatefulPartitionedCall", 1, [x, *captured], attrs, ctx)[0]

    x = tf.random.stateless_normal((batch, 16), seed=(1, 2))
    calls = {
        OURS: ext.Predictor(model),
        "rxt_tf.Predictor": rxt_tf.Predictor(model),
        "rxt_tf.function": rxt_tf.function(model),
        "rxt_tf.Predictor, exact=False": rxt_tf.Predictor(model, exact=False),
        "keras model(x)": model,
        "predict_on_batch": model.predict_on_batch,
        "tf.function": graph,
        "concrete function": concrete,
        "bare call (floor)": bare,
    }
    reference = concrete(x).numpy().tobytes()
    for label in (OURS, "rxt_tf.Predictor", "bare call (floor)"):
        assert calls[label](x).numpy().tobytes() == reference, label
    return calls, x


def measure(batch: int) -> dict[str, float]:
    """Median seconds per call of each alternative, interleaved."""
    calls, x = alternatives(batch)
    return interleaved.medians(calls, x, ROUNDS, CALLS)


def markdown(report: dict[str, dict[str, float]]) -> str:
    """The table: median µs per call, and our ratios to the targets' bases."""
    labels = list(next(iter(report.values())))
    ratios = list(TARGETS)
    header = labels + [f"ours / {r}" for r in ratios]
    lines = [
        "| batch | " + " | ".join(header) + " |",
        "| --- " * (1 + len(labels) + len(ratios)) + "|",
    ]
    for batch, medians in report.items():
        cells = [f"{medians[label] * 1e6:,.1f} µs" for label in labels]
        shares = [f"{medians[OURS] / medians[r]:.3f}×" for r in ratios]
        lines.append(f"| {batch} | " + " | ".join(cells + shares) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Measures both batch sizes; writes and prints the table and verdicts."""
    random.seed(0)
    report = {str(batch): measure(batch) for batch in BATCHES}
    RESULTS.mkdir(parents=True, exist_ok=True)
    record = {
        "command": "python bench/functions.py",
        "machine": machine.describe(),
        "results": report,
    }
    (RESULTS / "functions.json").write_text(json.dumps(record, indent=2) + "\n")
    table = markdown(report)
    (RESULTS / "functions.md").write_text(machine.summary(record["machine"]) + "\n\n" + table)
    print(table)
    for base, target in TARGETS.items():
        ratio = report["1"][OURS] / report["1"][base]
        verdict = "met" if ratio <= target else "MISSED"
        print(f"batch 1: ours / {base} {ratio:.3f}× (target ≤ {target}×: {verdict})")
    for predictor in PYTHON_PREDICTORS:
        for base, target in PYTHON_TARGETS.items():
            ratio = report["1"][predictor] / report["1"][base]
            verdict = "met" if ratio <= target else "MISSED"
            print(f"batch 1: {predictor} / {base} {ratio:.3f}× (≤ {target}×: {verdict})")


if __name__ == "__main__":
    main()
