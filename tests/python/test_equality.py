"""Every op and add rank pair equals eager TensorFlow on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from conftest import assert_same

SPECIAL = np.array(
    [[1.5, -2.0, 0.0, -0.0], [np.nan, 3.25, -np.inf, 7.0], [np.inf, -1e-30, 1e30, -5.5]],
    dtype=np.float32,
)


def matrices():
    rng = np.random.default_rng(7)
    yield tf.constant(SPECIAL)
    yield tf.constant(-SPECIAL)
    yield tf.constant(rng.standard_normal((5, 4)).astype(np.float32))
    yield tf.zeros([3, 4]) * -1.0  # all -0.0
    yield tf.zeros([0, 4])  # empty


@pytest.mark.parametrize("x", list(matrices()), ids=lambda t: str(t.shape))
def test_elementwise_ops_equal_eager(ext, x):
    assert_same(ext.relu(x), tf.nn.relu(x))
    assert_same(ext.sigmoid(x), tf.nn.sigmoid(x))
    assert_same(ext.reduce_mean(x), tf.reduce_mean(x, axis=1))
    assert_same(ext.add_2d_2d(x, x), x + x)


@pytest.mark.parametrize("x", list(matrices()), ids=lambda t: str(t.shape))
def test_matmul_equals_eager(ext, x):
    w = tf.constant(np.linspace(-2, 2, 4 * 3, dtype=np.float32).reshape(4, 3))
    assert_same(ext.matmul(x, w), tf.matmul(x, w))
    assert_same(ext.matmul(tf.transpose(x), x), tf.matmul(tf.transpose(x), x))


def test_add_rank_pairs_equal_eager(ext):
    m = tf.constant(SPECIAL)
    row = tf.constant(np.array([0.5, -0.0, np.nan, -np.inf], dtype=np.float32))
    other = tf.constant(np.array([2.0, -0.0, 0.25, 1e-7], dtype=np.float32))
    assert_same(ext.add_2d_2d(m, m), tf.add(m, m))
    assert_same(ext.add_1d_1d(row, other), row + other)
    assert_same(ext.add_2d_1d(m, row), m + row)
    assert_same(ext.add_1d_2d(other, m), other + m)


@pytest.mark.parametrize("n,k,m", [(1, 8, 4), (32, 64, 32), (256, 256, 256)])
def test_the_seed_chain_equals_eager(ext, n, k, m):
    x = tf.random.stateless_normal([n, k], seed=[1, n])
    w = tf.random.stateless_normal([k, m], seed=[2, k])
    b = tf.random.stateless_normal([m], seed=[3, m])
    eager = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)
    assert_same(ext.inference(x, w, b), eager)


def test_the_comparison_itself_catches_differences(ext):
    x = tf.constant(SPECIAL)
    with pytest.raises(AssertionError):
        assert_same(ext.relu(x), tf.nn.sigmoid(x))
    with pytest.raises(AssertionError):
        assert_same(ext.relu(x), tf.nn.relu(x) + 1e-5)
    with pytest.raises(AssertionError):
        assert_same(ext.relu(tf.zeros([1, 1]) * -1.0), tf.zeros([1, 1]))  # -0.0 vs 0.0


@pytest.mark.parametrize("depth", [0, 1, 3])
@pytest.mark.parametrize("use_relu", [True, False])
def test_scalar_control_flow_equals_eager(ext, depth, use_relu):
    x = tf.random.stateless_normal([4, 6], seed=[7, depth])
    w = tf.random.stateless_normal([6, 6], seed=[8, depth]) / 3
    b = tf.random.stateless_normal([6], seed=[9, depth])
    h = x
    for _ in range(depth):
        z = tf.matmul(h, w)
        h = tf.nn.relu(z) if use_relu else tf.nn.sigmoid(z)
    assert_same(ext.deep_inference(x, w, b, depth, use_relu), tf.reduce_mean(h + b, axis=1))


@pytest.mark.parametrize("layers", [0, 1, 3, 12])
def test_the_looped_mlp_equals_eager_for_every_layer_count(ext, layers):
    x = tf.random.stateless_normal([4, 16], seed=[1, layers])
    w = tf.random.stateless_normal([16, 16], seed=[2, layers]) / 4
    b = tf.random.stateless_normal([16], seed=[3, layers])
    h = x
    for _ in range(layers):
        h = tf.nn.relu(tf.matmul(h, w) + b)
    assert_same(ext.mlp_loop(x, w, b, layers), tf.nn.log_softmax(h))


def test_an_op_error_mid_chain_names_the_op(ext):
    """A failing op in a fused call raises what the op raises per op: eager's
    class, with a message naming the op."""
    x = tf.ones([4, 16])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^rxt-tf: matmul failed: "):
        ext.mlp_loop(x, tf.ones([8, 8]), tf.ones([8]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^rxt-tf: add failed: "):
        ext.mlp_loop(x, tf.ones([16, 16]), tf.ones([5]), 2)


@pytest.mark.parametrize("rows", [1, 5, 0])
def test_the_classifier_head_equals_eager(ext, rows):
    rng = np.random.default_rng(rows)
    x, w1, b1, w2, b2 = (
        tf.constant(rng.standard_normal(shape).astype(np.float32))
        for shape in [(rows, 8), (8, 16), (16,), (16, 5), (5,)]
    )
    eager = tf.nn.softmax(tf.matmul(tf.nn.tanh(tf.nn.bias_add(x @ w1, b1)), w2) + b2)
    assert_same(ext.classifier_head(x, w1, b1, w2, b2), eager)
    probabilities, labels = ext.classify(x, w1, b1, w2, b2)
    assert_same(probabilities, eager)
    assert labels.dtype == tf.int64
    assert np.array_equal(labels.numpy(), tf.argmax(eager, axis=1).numpy())


@pytest.mark.parametrize("x", list(matrices()), ids=lambda t: str(t.shape))
def test_layer_norm_equals_eager(ext, x):
    gamma = tf.constant(np.linspace(0.5, 2, 4, dtype=np.float32))
    beta = tf.constant(np.linspace(-1, 1, 4, dtype=np.float32))
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    centered = x - mean
    variance = tf.reduce_mean(tf.square(centered), axis=-1, keepdims=True)
    eager = centered * tf.math.rsqrt(variance + 1e-5) * gamma + beta
    assert_same(ext.layer_norm(x, gamma, beta), eager)


@pytest.mark.parametrize("shape", [(2, 5, 8), (1, 1, 8), (3, 0, 8)], ids=str)
def test_dense_on_a_sequence_equals_eager(ext, shape):
    rng = np.random.default_rng(len(shape))
    x = tf.constant(rng.standard_normal(shape).astype(np.float32))
    kernel = tf.constant(rng.standard_normal((8, 4)).astype(np.float32))
    bias = tf.constant(rng.standard_normal(4).astype(np.float32))
    eager = tf.nn.relu(tf.tensordot(x, kernel, [[2], [0]]) + bias)
    assert_same(ext.dense_sequence(x, kernel, bias), eager)


def test_the_classifier_labels_are_int64_with_eagers_errors(ext):
    x = tf.ones([2, 8])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^rxt-tf: matmul failed: "):
        ext.classifier_head(x, tf.ones([7, 16]), tf.ones([16]), tf.ones([16, 5]), tf.ones([5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="^rxt-tf: bias_add failed: "):
        ext.classifier_head(x, tf.ones([8, 16]), tf.ones([3]), tf.ones([16, 5]), tf.ones([5]))


def eager_mlp(x, w1, b1, w2, b2):
    return tf.nn.softmax(tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2)


def test_a_model_built_from_numpy_weights_equals_eager(ext):
    rng = np.random.default_rng(11)
    w1, b1 = rng.standard_normal((8, 16), np.float32), rng.standard_normal(16, np.float32)
    w2, b2 = rng.standard_normal((16, 3), np.float32), rng.standard_normal(3, np.float32)
    model = ext.Mlp(w1, b1, w2, b2)
    assert np.array_equal(np.array(model.first_weights(), np.float32), w1.ravel())
    for rows in (1, 5, 0):
        x = tf.constant(rng.standard_normal((rows, 8), np.float32))
        eager = eager_mlp(x, *(tf.constant(a) for a in (w1, b1, w2, b2)))
        assert_same(model.predict(x), eager)
        probabilities, labels = model.classify(x)
        assert_same(probabilities, eager)
        assert labels.dtype == tf.int64
        assert np.array_equal(labels.numpy(), tf.argmax(eager, axis=1).numpy())


def test_a_model_rejects_ragged_weights_and_bad_inputs(ext):
    with pytest.raises(ValueError, match="^rxt-tf: from_slice: 3 values do not fill the shape"):
        ext.Mlp([[1.0, 2.0], [3.0]], [0.0, 0.0], [[1.0], [1.0]], [0.0])
    model = ext.Mlp([[1.0, 2.0]], [0.0, 0.0], [[1.0], [1.0]], [0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^rxt-tf: matmul failed: "):
        model.predict(tf.ones([2, 3]))
    with pytest.raises(ValueError, match="rank-2"):
        model.predict(tf.ones([2]))


def test_an_optional_mask_is_none_or_a_tensor(ext):
    # `Option<TensorBoolCpu2D>`: Python's None is None; with and without a
    # mask in turn, each presence pattern is its own trace when fused.
    scores = tf.random.stateless_normal([3, 5], seed=[1, 2])
    mask = tf.random.stateless_uniform([3, 5], seed=[3, 4]) > 0.3
    masked = tf.nn.softmax(scores + (1.0 - tf.cast(mask, tf.float32)) * -1e9)
    plain = tf.nn.softmax(scores)
    for _ in range(3):
        assert_same(ext.masked_softmax(scores, mask), masked)
        assert_same(ext.masked_softmax(scores), plain)
        assert_same(ext.masked_softmax(scores, None), plain)
    assert ext.masked_rows(scores) is None
    assert_same(ext.masked_rows(scores, mask), tf.where(mask, scores, tf.zeros_like(scores)))
    with pytest.raises(ValueError, match="expected a bool tensor"):
        ext.masked_softmax(scores, scores)
