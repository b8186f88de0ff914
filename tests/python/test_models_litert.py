"""The four example models' `litert` methods (`#[inference(backend =
"litert")]` bodies whose weights are held in the `#[pyclass]`) against the
Keras models, within the litert backend's tolerance, at batch 1, 32 and 1
again: the weights are the same tensors every call, so they are frozen into
the converted model, with no fallback (its warning, the class `rxt_tf`
exports, made an error)."""

from __future__ import annotations

import warnings
from typing import Any

import models
import numpy as np
import pytest

import rxt_tf

BATCHES = (1, 32, 1, 1)


def close(native: Any, reference: Any) -> bool:
    n, r = np.asarray(native), np.asarray(reference)
    scale = max(1.0, float(np.max(np.abs(r))))
    return n.shape == r.shape and bool(np.all(np.abs(n - r) <= 1e-5 * scale + 1e-5 * np.abs(r)))


@pytest.mark.parametrize("name", ("cnn", "encoder", "mlp"))
def test_each_model_converts_with_its_weights_frozen(name: str) -> None:
    # The CNN converts because its filters are frozen (a filter of unknown
    # shape does not legalize); the encoder's exact `gelu` composite's
    # `erfc` converts to TFLite's GELU only where its constants are
    # constants, as frozen they are.
    model = getattr(models, f"{name}_keras")()
    native = getattr(models, f"{name}_native")(model)
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        for seed, batch in enumerate(BATCHES):
            x = getattr(models, f"{name}_input")(batch, seed=seed)
            assert close(native.litert(x), model(x)), batch


def test_the_text_classifier_converts_with_its_table_frozen() -> None:
    model = models.classifier_keras()
    native = models.classifier_native(model)
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        for seed, batch in enumerate(BATCHES):
            ids = models.classifier_input(batch, seed=seed)
            probabilities, labels = native.litert(ids)
            assert close(probabilities, model(ids)), batch
            _, tf_labels = native(ids)
            assert np.array_equal(labels, tf_labels)


def test_a_second_instance_converts_from_its_first_call() -> None:
    # The trace is the first instance's too: the second's weights are new
    # tensors, frozen on their first call since the model that takes them
    # as inputs does not convert (`conv2d`'s filter).
    first, second = models.cnn_keras(seed=4), models.cnn_keras(seed=5)
    x = models.cnn_input(1, seed=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        assert close(models.cnn_native(first).litert(x), first(x))
        assert close(models.cnn_native(second).litert(x), second(x))


@pytest.mark.parametrize("batch", (1, 32))
def test_litert_and_tensorflow_methods_agree(batch: int) -> None:
    model = models.cnn_keras(seed=9)
    native = models.cnn_native(model)
    x = models.cnn_input(batch, seed=11)
    assert close(native.litert(x), native(x))
