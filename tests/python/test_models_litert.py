"""The three example models' `litert` methods (`#[inference(backend =
"litert")]` bodies whose weights are held in the `#[pyclass]`) against the
Keras models, within the litert backend's tolerance, at batch 1, 32 and 1
again: the weights are the same tensors every call, so they are frozen into
the converted model. A body that does not convert runs on TensorFlow (its
results then bitwise the TensorFlow method's) and says so once, with the
warning class `rxt_tf` exports."""

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


def test_the_cnn_converts_with_its_filters_frozen() -> None:
    model = models.cnn_keras()
    native = models.cnn_native(model)
    with warnings.catch_warnings():
        warnings.simplefilter("error", rxt_tf.LitertFallbackWarning)
        for seed, batch in enumerate(BATCHES):
            x = models.cnn_input(batch, seed=seed)
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


def test_the_encoder_runs_and_says_why_it_falls_back() -> None:
    model = models.encoder_keras()
    native = models.encoder_native(model)
    x = models.encoder_input(1, seed=5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            y = native.litert(x)
            assert close(y, model(x))
    ours = [w for w in caught if w.category is rxt_tf.LitertFallbackWarning]
    # The exact `gelu` composite's `erfc` has no TFLite builtin yet.
    assert len(ours) <= 1, [str(w.message) for w in ours]
    if ours:
        message = str(ours[0].message)
        assert "`rxt_tf_example::models::litert`" in message, message
        assert "tf.Erfc" in message, message
        assert np.array_equal(y, native(x)), "a fallback runs the TensorFlow body"


@pytest.mark.parametrize("batch", (1, 32))
def test_litert_and_tensorflow_methods_agree(batch: int) -> None:
    model = models.cnn_keras(seed=9)
    native = models.cnn_native(model)
    x = models.cnn_input(batch, seed=11)
    assert close(native.litert(x), native(x))
