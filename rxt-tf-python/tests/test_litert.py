"""The litert backend from Python: `rxt_tf.Predictor(..., backend="litert")`
and `rxt_tf.function(..., backend="litert")` on the three example models
and the Keras MLP, within the backend's tolerance of eager TensorFlow
(relative 1e-5, absolute 1e-6 at the values' scale); calls that do not
convert run on TensorFlow and are counted."""

from __future__ import annotations

import warnings
from typing import Any

import models
import numpy as np
import pytest
import rxt_tf_example as ext
import tensorflow as tf

import rxt_tf


def close(native: Any, eager: Any) -> bool:
    n, e = np.asarray(native), np.asarray(eager)
    scale = max(1.0, float(np.max(np.abs(e))))
    return n.shape == e.shape and bool(np.all(np.abs(n - e) <= 1e-6 * scale + 1e-5 * np.abs(e)))


def model_input(name: str, batch: int) -> Any:
    if name == "mlp":
        return tf.random.stateless_normal((batch, 16), seed=(1, 2))
    return getattr(models, f"{name}_input")(batch)


@pytest.mark.parametrize("name", ["encoder", "cnn", "classifier", "mlp"])
def test_models_run_through_litert_within_tolerance(name: str) -> None:
    model = getattr(models, f"{name}_keras")()
    predictor = rxt_tf.Predictor(model, backend="litert")
    before = rxt_tf.stats()["litert"]
    for batch in (1, 32, 1):
        x = model_input(name, batch)
        y = predictor(x)
        assert isinstance(y, tf.Tensor)
        assert y.dtype == tf.float32
        assert close(y, model(x, training=False)), (name, batch)
    after = rxt_tf.stats()["litert"]
    # LiteRT does not carry a new batch size through the encoder's
    # attention (its outputs keep batch 1's sizes): that batch size gets a
    # model converted for exactly its shapes, compiled besides the first
    # model's refused compile. Nothing falls back.
    specialized = 1 if name == "encoder" else 0
    assert after["compiles"] - before["compiles"] == 2 + specialized, "one per batch size"
    assert after["conversions"] - before["conversions"] == 1 + specialized
    assert after["calls"] - before["calls"] == 3
    assert after["fallbacks"] - before["fallbacks"] == 0
    predictor(model_input(name, 32))
    again = rxt_tf.stats()["litert"]
    assert (again["compiles"], again["conversions"]) == (after["compiles"], after["conversions"])
    assert again["calls"] == after["calls"] + 1


def test_the_example_predictor_and_an_inference_function_take_the_backend() -> None:
    model = models.mlp_keras()
    x = model_input("mlp", 4)
    assert close(ext.Predictor(model, backend="litert")(x), model(x, training=False))
    with pytest.raises(ValueError, match='backend is "tensorflow" or "litert", not "onnx"'):
        ext.Predictor(model, backend="onnx")
    w = tf.random.stateless_normal((16, 8), seed=(3, 4))
    b = tf.random.stateless_normal((8,), seed=(5, 6))
    # (The example extension links its own runtime: its counters are not
    # `rxt_tf.stats()`'s; tests/litert_fused.rs counts this path.)
    through = ext.dense_litert(x, w, b)
    assert close(through, ext.dense_fused(x, w, b))
    assert close(through, tf.nn.relu(tf.matmul(x, w) + b))


def test_function_takes_the_backend_and_falls_back_where_it_must() -> None:
    @rxt_tf.function(backend="litert")
    def gated(x, w):
        return tf.nn.sigmoid(tf.matmul(x, w)) * x

    assert gated.backend == "litert"
    x = tf.random.stateless_normal((3, 4), seed=(7, 8))
    w = tf.random.stateless_normal((4, 4), seed=(9, 1))
    before = rxt_tf.stats()["litert"]
    assert close(gated(x, w), tf.nn.sigmoid(tf.matmul(x, w)) * x)
    middle = rxt_tf.stats()["litert"]
    assert middle["calls"] == before["calls"] + 1
    # float64: not a type the backend runs: TensorFlow runs it, counted.
    x64, w64 = tf.cast(x, tf.float64), tf.cast(w, tf.float64)
    y64 = gated(x64, w64)
    assert y64.dtype == tf.float64
    assert close(y64, tf.nn.sigmoid(tf.matmul(x64, w64)) * x64)
    assert rxt_tf.stats()["litert"]["fallbacks"] == middle["fallbacks"] + 1
    with pytest.raises(ValueError, match='backend is "tensorflow" or "litert"'):
        rxt_tf.function(lambda v: v, backend="xla")
    with pytest.raises(ValueError, match='backend is "tensorflow" or "litert"'):
        rxt_tf.Predictor(models.mlp_keras(), backend="")


def test_shapes_the_first_model_cannot_take_get_their_own_models_up_to_a_bound() -> None:
    # A dense GELU layer over rank 3, which LiteRT does not resize past the
    # batch size it first ran at: each other batch size is converted for
    # exactly its shapes, at most 16 times per function
    # (guide/src/litert.md); the next runs on TensorFlow.
    keras = tf.keras
    x = keras.Input((4, 4))
    model = keras.Model(x, keras.layers.Dense(8, activation="gelu")(x))
    predictor = rxt_tf.Predictor(model, backend="litert")
    before = rxt_tf.stats()["litert"]
    for batch in range(1, 19):
        x = tf.random.stateless_normal((batch, 4, 4), seed=(batch, 3))
        assert close(predictor(x), model(x, training=False)), batch
    after = rxt_tf.stats()["litert"]
    assert after["conversions"] - before["conversions"] == 1 + 16
    assert after["calls"] - before["calls"] == 17
    assert after["fallbacks"] - before["fallbacks"] == 1


@pytest.mark.parametrize("name", ["lstm", "gru"])
def test_recurrent_models_convert_for_each_batch_size_and_do_not_fall_back(name: str) -> None:
    # A recurrent layer's loop keeps its steps' shapes as traced, the batch
    # unknown, which TFLite's converter refuses: the model is traced again
    # for each call's exact shapes (one conversion per batch size, kept).
    model = getattr(models, f"{name}_keras")()
    predictor = rxt_tf.Predictor(model, backend="litert")
    before = rxt_tf.stats()["litert"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        for batch in (1, 32, 1):
            x = model_input(name, batch)
            assert close(predictor(x), model(x, training=False)), (name, batch)
    after = rxt_tf.stats()["litert"]
    assert after["fallbacks"] == before["fallbacks"], after["reasons"]
    assert after["calls"] - before["calls"] == 3
    # The model for any batch size (refused), then one per batch size.
    assert after["conversions"] - before["conversions"] == 3
    assert after["compiles"] - before["compiles"] == 2
