"""The four example models against the Keras models whose weights they
hold (max relative difference ≤ 1e-4), and bitwise against the same ops
run eagerly, fused and per op, at batch 1 and 32."""

from __future__ import annotations

import models
import numpy as np
import pytest
import tensorflow as tf

BATCHES = (1, 32)


def relative(native: np.ndarray, reference: np.ndarray) -> float:
    """The largest difference relative to the reference's largest entry."""
    return float(np.max(np.abs(native - reference)) / max(np.max(np.abs(reference)), 1e-30))


def bitwise(native: tf.Tensor, eager: tf.Tensor) -> None:
    assert native.dtype == eager.dtype and native.shape == eager.shape
    n, e = native.numpy(), eager.numpy()
    assert n.tobytes() == e.tobytes(), np.max(np.abs(n - e))


@pytest.fixture(scope="module")
def encoder():  # type: ignore[no-untyped-def]
    model = models.encoder_keras()
    return model, models.encoder_native(model), models.encoder_eager(model)


@pytest.fixture(scope="module")
def cnn():  # type: ignore[no-untyped-def]
    model = models.cnn_keras()
    return model, models.cnn_native(model), models.cnn_eager(model)


@pytest.fixture(scope="module")
def classifier():  # type: ignore[no-untyped-def]
    model = models.classifier_keras()
    return model, models.classifier_native(model), models.classifier_eager(model)


@pytest.fixture(scope="module")
def mlp():  # type: ignore[no-untyped-def]
    model = models.mlp_keras()
    return model, models.mlp_native(model), models.mlp_eager(model)


@pytest.mark.parametrize("batch", BATCHES)
def test_perceptron_matches_keras(mlp, batch: int) -> None:  # type: ignore[no-untyped-def]
    model, native, eager = mlp
    x = models.mlp_input(batch, seed=batch)
    out = native(x)
    assert out.shape == (batch, 4)
    assert relative(out.numpy(), model(x).numpy()) <= 1e-4
    bitwise(out, eager(x))


@pytest.mark.parametrize("batch", BATCHES)
def test_encoder_block_matches_keras(encoder, batch: int) -> None:  # type: ignore[no-untyped-def]
    model, native, eager = encoder
    x = models.encoder_input(batch, seed=batch)
    out = native(x)
    assert isinstance(out, tf.Tensor) and out.shape == (batch, models.SEQ, models.DIM)
    assert relative(out.numpy(), model(x).numpy()) <= 1e-4
    bitwise(out, eager(x))


@pytest.mark.parametrize("batch", BATCHES)
def test_cnn_matches_keras(cnn, batch: int) -> None:  # type: ignore[no-untyped-def]
    model, native, eager = cnn
    x = models.cnn_input(batch, seed=batch)
    out = native(x)
    assert out.shape == (batch, models.CLASSES)
    assert relative(out.numpy(), model(x).numpy()) <= 1e-4
    bitwise(out, eager(x))


@pytest.mark.parametrize("batch", BATCHES)
def test_text_classifier_matches_keras(classifier, batch: int) -> None:  # type: ignore[no-untyped-def]
    model, native, eager = classifier
    ids = models.classifier_input(batch, seed=batch)
    probabilities, labels = native(ids)
    assert labels.dtype == tf.int64 and labels.shape == (batch,)
    assert relative(probabilities.numpy(), model(ids).numpy()) <= 1e-4
    eager_probabilities, eager_labels = eager(ids)
    bitwise(probabilities, eager_probabilities)
    bitwise(labels, eager_labels)


def test_run_time_sizes_reuse_one_trace(encoder) -> None:  # type: ignore[no-untyped-def]
    # Batch and sequence sizes are run-time inputs of the fused call: a new
    # batch size gives the same results as eager, without a rebuild error.
    _, native, eager = encoder
    for batch in (3, 5, 3):
        x = models.encoder_input(batch, seed=batch + 10)
        bitwise(native(x), eager(x))


def test_bad_input_shapes_raise_eagers_class(cnn) -> None:  # type: ignore[no-untyped-def]
    _, native, _ = cnn
    wrong_channels = tf.zeros((1, models.IMAGE, models.IMAGE, models.CHANNELS + 1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="rxt-tf: conv2d failed"):
        native(wrong_channels)
