"""`make bench`, fifth part: the litert backend, interleaved.

The three example models (a transformer encoder block, a small CNN, a text
classifier; `tests/python/models.py`), the Keras MLP and two recurrent
models (an LSTM classifier, a GRU tagger) at batch 1 and 32, and four Keras
applications built with `weights=None` (MobileNetV2, EfficientNetB0,
ResNet50, DenseNet121; 224×224 RGB) at batch 1, in one process:

- `rxt-tf litert`: `rxt_tf.Predictor(model, backend="litert")`, the
  model's function called through `rxt_tf::Function` in a litert scope;
- `LiteRT from Python`: the same TFLite flatbuffer (TensorFlow's converter,
  builtin ops; converted at the input's exact shape where the batch-free
  function does not convert: the recurrent models) run by
  `ai_edge_litert`'s `Interpreter` with XNNPACK on one thread, its input
  given as NumPy (`set_tensor`, `invoke`, `get_tensor`);
- `LiteRT CompiledModel from Python`: that flatbuffer compiled by
  `ai_edge_litert`'s `CompiledModel` (the API the backend calls, XNNPACK on
  one thread) for the input's shape, called through its buffers (`write`,
  `run_by_index`, `read`): the same engine and API from Python, a
  reference beside the Interpreter (the targets name the Interpreter);
- `rxt-tf (TF)`: `rxt_tf.Predictor(model, exact=False)`, one
  `StatefulPartitionedCall` on TensorFlow;
- `TF floor`: that call made bare from Python (`execute.execute`);
- `hand-written litert`: the example's hand-written Rust model (its
  weights held in the `#[pyclass]`), its `#[inference(backend = "litert")]`
  method: the weights, the same tensors every call, frozen into the
  converted model.

Then the tiny two-op body `relu(x @ w + b)` (`x` 1×16, `w` 16×16) as an
`#[inference]` function fused on TensorFlow and with `backend = "litert"`
(`rxt_tf_example.dense_fused`, `dense_litert`), and the first-call times:
conversion and compilation at batch 1, compilation alone at batch 32
(and the conversions the two made: a recurrent model converts per batch
size).

Each round calls every alternative `CALLS` times in a shuffled order and
records the mean time per call; the table gives each median over `ROUNDS`
rounds and the ratios the targets name. Writes bench/results/litert.json,
litert.md and litert.png.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "tests" / "python"))

import numpy as np  # noqa: E402
import rxt_tf  # noqa: E402
import rxt_tf_example as ext  # noqa: E402
import tensorflow as tf  # noqa: E402
from ai_edge_litert.compiled_model import CompiledModel  # noqa: E402
from ai_edge_litert.cpu_options import CpuOptions  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402
from ai_edge_litert.options import Options  # noqa: E402
from tensorflow.python.eager import context, execute  # noqa: E402

import charts  # noqa: E402
import interleaved  # noqa: E402
import machine  # noqa: E402
import models  # noqa: E402

ROUNDS = 15
CALLS = 30
BATCHES = (1, 32)
MODELS = ("encoder", "cnn", "classifier", "mlp", "lstm", "gru")
APPLICATIONS = ("MobileNetV2", "EfficientNetB0", "ResNet50", "DenseNet121")
"""Keras applications, at batch 1 only, with fewer rounds and calls."""
APPLICATION_ROUNDS = 7
APPLICATION_CALLS = 5
OURS = "rxt-tf litert"
PYTHON_LITERT = "LiteRT from Python"
PYTHON_COMPILED = "LiteRT CompiledModel from Python"
FLOOR = "TF floor"
HAND = "hand-written litert"
HAND_TARGETS = {1: {FLOOR: 0.25, PYTHON_LITERT: 1.2}, 32: {FLOOR: 0.5}}
"""The hand-written bodies' targets: their ratio to each alternative, per
batch size."""
KERAS_TARGETS = {1: {PYTHON_LITERT: 1.2}}
"""The Keras models' targets through the Predictor."""
TINY_TARGET = 0.5
"""The tiny body through LiteRT, as a ratio to its fused TensorFlow call."""


def keras_model(name: str) -> Any:
    """The Keras model `name`.

    An example model, or a Keras application (random weights, nothing
    downloaded).
    """
    if name in APPLICATIONS:
        import keras

        keras.utils.set_random_seed(11)
        return getattr(keras.applications, name)(weights=None)
    return getattr(models, f"{name}_keras")()


def model_input(name: str, batch: int) -> Any:
    """An input of model `name` at `batch`."""
    if name in APPLICATIONS:
        return tf.random.stateless_uniform((batch, 224, 224, 3), seed=(1, 2), maxval=255.0)
    return getattr(models, f"{name}_input")(batch)


def concrete(model: Any, x: Any) -> Any:
    """The model's function, its batch size free."""
    spec = tf.TensorSpec([None, *x.shape[1:]], x.dtype)
    return tf.function(lambda v: model(v, training=False)).get_concrete_function(spec)


def floor(function: Any) -> Any:
    """`function` as one bare `StatefulPartitionedCall` from Python."""
    captured = list(function.captured_inputs)
    attrs = (
        "Tin",
        [t.dtype.as_datatype_enum for t in function.inputs],
        "Tout",
        [t.dtype.as_datatype_enum for t in function.outputs],
        "f",
        function.function_def.signature.name,
        "config",
        "",
        "config_proto",
        "",
        "executor_type",
        "",
    )
    ctx = context.context()

    def call(x: Any) -> Any:
        return execute.execute("StatefulPartitionedCall", 1, [x, *captured], attrs, ctx)[0]

    return call


def exact(model: Any, x: Any) -> Any:
    """The model's function traced at exactly `x`'s shape."""
    spec = tf.TensorSpec(x.shape, x.dtype)
    return tf.function(lambda v: model(v, training=False)).get_concrete_function(spec)


def flatbuffer(function: Any) -> bytes:
    """`function` converted as the litert backend converts it."""
    converter = tf.lite.TFLiteConverter.from_concrete_functions([function])
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bytes(converter.convert())


def python_litert(model: bytes, x: Any) -> Any:
    """LiteRT's `Interpreter` (XNNPACK, one thread) at `x`'s shape.

    Called on `x` as NumPy, as a user of LiteRT from Python calls it.
    """
    interpreter = Interpreter(model_content=model, num_threads=1)
    (given,) = interpreter.get_input_details()
    (made,) = interpreter.get_output_details()
    interpreter.resize_tensor_input(given["index"], list(x.shape))
    interpreter.allocate_tensors()
    array = x.numpy()

    def call(_: Any) -> Any:
        interpreter.set_tensor(given["index"], array)
        interpreter.invoke()
        return interpreter.get_tensor(made["index"])

    return call


def python_compiled(model: Any, x: Any) -> Any:
    """LiteRT's `CompiledModel` (XNNPACK, one thread) for `x`'s shape.

    The model converted at exactly that shape (the Python API compiles for
    the model's own sizes), called on `x` as NumPy through buffers made
    once.
    """
    function = exact(model, x)
    (output,) = function.outputs
    options = Options(cpu_options=CpuOptions(num_threads=1))
    compiled = CompiledModel.from_buffer(flatbuffer(function), options=options)
    inputs, outputs = compiled.create_input_buffers(0), compiled.create_output_buffers(0)
    array = x.numpy()
    size = output.shape.num_elements()

    def call(_: Any) -> Any:
        inputs[0].write(array)
        compiled.run_by_index(0, inputs, outputs)
        return outputs[0].read(size, output.dtype.as_numpy_dtype)

    return call


def first_calls(predictor: Any, x1: Any, x32: Any | None) -> dict[str, float]:
    """Seconds of the first calls, and the conversions they made.

    The first converts and compiles (batch 1); the first at batch 32
    compiles (and converts, for a recurrent model).
    """
    before = rxt_tf.stats()["litert"]["conversions"]
    start = time.perf_counter()
    predictor(x1)
    times = {"convert + compile (batch 1)": time.perf_counter() - start}
    if x32 is not None:
        start = time.perf_counter()
        predictor(x32)
        times["compile (batch 32)"] = time.perf_counter() - start
    times["conversions"] = rxt_tf.stats()["litert"]["conversions"] - before
    return times


def close(native: Any, eager: Any) -> bool:
    """Whether `native` is within the backend's tolerance of `eager`.

    Relative 1e-5, absolute 1e-6 at the values' scale.
    """
    n, e = np.asarray(native), np.asarray(eager)
    scale = max(1.0, float(np.max(np.abs(e))))
    return n.shape == e.shape and bool(np.all(np.abs(n - e) <= 1e-6 * scale + 1e-5 * np.abs(e)))


def measure(name: str) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Medians per batch size of every alternative, and the first calls."""
    model = keras_model(name)
    application = name in APPLICATIONS
    batches = (1,) if application else BATCHES
    inputs = {batch: model_input(name, batch) for batch in batches}
    function = concrete(model, inputs[1])
    litert = rxt_tf.Predictor(model, backend="litert")
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        firsts = first_calls(litert, inputs[1], inputs.get(32))
    try:
        any_batch: bytes | None = flatbuffer(function)
    except Exception:  # the converter raises several types
        any_batch = None
    report = {}
    for batch, x in inputs.items():
        model_bytes = any_batch if any_batch is not None else flatbuffer(exact(model, x))
        calls = {
            OURS: litert,
            PYTHON_LITERT: python_litert(model_bytes, x),
            PYTHON_COMPILED: python_compiled(model, x),
            "rxt-tf (TF)": rxt_tf.Predictor(model, exact=False),
            FLOOR: floor(function),
        }
        eager = model(x, training=False)
        native_of = getattr(models, f"{name}_native", None)
        if native_of is not None:
            native = native_of(model)
            with warnings.catch_warnings():
                # The encoder's exact `gelu` does not convert yet: it falls
                # back, which its row shows.
                warnings.simplefilter("ignore", rxt_tf.LitertFallbackWarning)
                native.litert(x)
            calls[HAND] = native.litert
        for label in (OURS, PYTHON_LITERT, PYTHON_COMPILED, HAND):
            if label not in calls:
                continue
            made = calls[label](x)
            made = np.reshape(made[0] if isinstance(made, tuple) else made, eager.shape)
            assert close(made, eager), f"{name} batch {batch}: {label}"
        rounds, per_round = (
            (APPLICATION_ROUNDS, APPLICATION_CALLS) if application else (ROUNDS, CALLS)
        )
        report[str(batch)] = interleaved.medians(calls, x, rounds, per_round)
    return report, firsts


def tiny() -> dict[str, float]:
    """The two-op body fused on TensorFlow and through LiteRT."""
    x = tf.random.stateless_normal((1, 16), seed=(3, 4))
    w = tf.random.stateless_normal((16, 16), seed=(5, 6))
    b = tf.random.stateless_normal((16,), seed=(7, 8))
    calls = {
        "fused (TF)": lambda v: ext.dense_fused(v, w, b),
        "litert": lambda v: ext.dense_litert(v, w, b),
    }
    assert close(calls["litert"](x), calls["fused (TF)"](x))
    return interleaved.medians(calls, x, ROUNDS, CALLS * 4)


def markdown(
    report: dict[str, dict[str, dict[str, float]]],
    firsts: dict[str, dict[str, float]],
    small: dict[str, float],
) -> str:
    """The tables: medians (µs) and ratios; first calls (ms); the tiny body."""
    labels = list(next(iter(next(iter(report.values())).values())))

    def cell(medians: dict[str, float], label: str, base: str | None = None) -> str:
        if label not in medians:
            return "n/a"
        if base is None:
            return f"{medians[label] * 1e6:,.1f} µs"
        return f"{medians[label] / medians[base]:.3f}×"

    lines = [
        "| model | batch | "
        + " | ".join(labels)
        + f" | ours / {FLOOR} | ours / {PYTHON_LITERT} | ours / {PYTHON_COMPILED}"
        + f" | hand / {FLOOR} | hand / {PYTHON_LITERT} |",
        "| --- " * (len(labels) + 7) + "|",
    ]
    for name, by_batch in report.items():
        for batch, medians in by_batch.items():
            cells = [cell(medians, label) for label in labels]
            ratios = [
                cell(medians, OURS, FLOOR),
                cell(medians, OURS, PYTHON_LITERT),
                cell(medians, OURS, PYTHON_COMPILED),
                cell(medians, HAND, FLOOR),
                cell(medians, HAND, PYTHON_LITERT),
            ]
            lines.append(f"| {name} | {batch} | {' | '.join(cells + ratios)} |")
    lines += [
        "",
        "| model | convert + compile (batch 1) | compile (batch 32) | conversions |",
        "| --- | --- | --- | --- |",
    ]
    for name, times in firsts.items():
        cells = [
            f"{times[key] * 1e3:,.0f} ms" if key in times else "n/a"
            for key in ("convert + compile (batch 1)", "compile (batch 32)")
        ]
        lines.append(f"| {name} | {' | '.join(cells)} | {times['conversions']:.0f} |")
    ratio = small["litert"] / small["fused (TF)"]
    lines += [
        "",
        "| tiny body `relu(x @ w + b)`, batch 1 | fused (TF) | litert | litert / fused |",
        "| --- | --- | --- | --- |",
        f"| | {small['fused (TF)'] * 1e6:,.1f} µs | {small['litert'] * 1e6:,.1f} µs | "
        f"{ratio:.3f}× |",
    ]
    return "\n".join(lines) + "\n"


def plot(report: dict[str, dict[str, dict[str, float]]]) -> None:
    """Draws litert.png: µs per call of each alternative, per model and batch."""
    charts.grouped_bars(
        report,
        "The litert backend beside LiteRT from Python and TensorFlow's floor",
        RESULTS / "litert.png",
    )


def main() -> None:
    """Measures every model and the tiny body; writes and prints the tables."""
    random.seed(0)
    report: dict[str, dict[str, dict[str, float]]] = {}
    firsts: dict[str, dict[str, float]] = {}
    for name in MODELS + APPLICATIONS:
        report[name], firsts[name] = measure(name)
    small = tiny()
    RESULTS.mkdir(parents=True, exist_ok=True)
    record = {
        "command": "python bench/litert_backend.py",
        "machine": machine.describe(),
        "results": report,
        "first_calls": firsts,
        "tiny": small,
        "stats": rxt_tf.stats()["litert"],
    }
    (RESULTS / "litert.json").write_text(json.dumps(record, indent=2) + "\n")
    table = markdown(report, firsts, small)
    (RESULTS / "litert.md").write_text(machine.summary(record["machine"]) + "\n\n" + table)
    plot(report)
    print(table)
    for name, by_batch in report.items():
        for label, by_target in ((HAND, HAND_TARGETS), (OURS, KERAS_TARGETS)):
            for batch, targets in by_target.items():
                medians = by_batch.get(str(batch), {})
                if label not in medians:
                    continue
                for base, target in targets.items():
                    ratio = medians[label] / medians[base]
                    verdict = "met" if ratio <= target else "MISSED"
                    print(
                        f"{name} batch {batch}: {label} / {base} {ratio:.3f}× "
                        f"(≤ {target}×: {verdict})"
                    )
    ratio = small["litert"] / small["fused (TF)"]
    verdict = "met" if ratio <= TINY_TARGET else "MISSED"
    print(f"tiny body: litert / fused {ratio:.3f}× (≤ {TINY_TARGET}×: {verdict})")
    print(f"litert counters: {record['stats']}")


if __name__ == "__main__":
    main()
