"""The four example models, in Keras, in Rust and as eager TensorFlow ops.

Each is built in Keras, its weights handed to the Rust model
(`rxt_tf_example.EncoderBlock`, `SmallCnn`, `TextClassifier`,
`Perceptron`), and the same math is written with eager TensorFlow ops. Shared by `test_models.py` and
`bench/models.py`.
"""

from __future__ import annotations

import math
from typing import Any

import keras
import numpy as np
import rxt_tf_example
import tensorflow as tf

SEQ, DIM, HEADS, KEY_DIM, FF = 16, 32, 4, 8, 64
IMAGE, CHANNELS, CLASSES = 16, 3, 10
VOCAB, TOKENS, EMBED, LABELS = 50, 12, 16, 5
EPSILON = 1e-6
FEATURES = 16


def mlp_keras(seed: int = 7) -> keras.Model:
    """The Keras MLP 16 → 32 → 32 → 4 with softmax (called through
    `rxt_tf::Function` by `test_functions.py` and `bench/functions.py`)."""
    keras.utils.set_random_seed(seed)
    return keras.Sequential(
        [
            keras.Input((FEATURES,)),
            keras.layers.Dense(32, activation="relu"),
            keras.layers.Dense(32, activation="relu"),
            keras.layers.Dense(4, activation="softmax"),
        ]
    )


def encoder_keras(seed: int = 1) -> keras.Model:
    """Self-attention, residual and layer norm, GELU feed-forward, residual
    and layer norm, on `[batch, SEQ, DIM]`."""
    keras.utils.set_random_seed(seed)
    x = keras.Input((SEQ, DIM))
    attention = keras.layers.MultiHeadAttention(HEADS, KEY_DIM, name="attention")
    first = keras.layers.LayerNormalization(epsilon=EPSILON, name="norm1")
    hidden = keras.layers.Dense(FF, activation="gelu", name="ff1")
    back = keras.layers.Dense(DIM, name="ff2")
    second = keras.layers.LayerNormalization(epsilon=EPSILON, name="norm2")
    h = first(x + attention(x, x))
    model = keras.Model(x, second(h + back(hidden(h))))
    # Non-zero biases and norms, so every weight counts.
    for weight in model.weights:
        if "bias" in weight.path or "beta" in weight.path or "gamma" in weight.path:
            weight.assign(
                np.random.default_rng(seed).normal(0.0, 0.3, weight.shape)
                + (1.0 if "gamma" in weight.path else 0.0)
            )
    return model


def encoder_weights(model: keras.Model) -> dict[str, Any]:
    """The Keras weights as the Rust constructor takes them (no reshaping
    here: the constructor maps the heads)."""
    attention = model.get_layer("attention")
    dense = {
        "query": attention._query_dense,
        "key": attention._key_dense,
        "value": attention._value_dense,
        "output": attention._output_dense,
    }
    weights: dict[str, Any] = {}
    for name, layer in dense.items():
        weights[name] = tf.convert_to_tensor(layer.kernel)
        weights[f"{name}_bias"] = tf.convert_to_tensor(layer.bias)
    for name in ("norm1", "norm2"):
        layer = model.get_layer(name)
        weights[f"{name}_gamma"] = tf.convert_to_tensor(layer.gamma)
        weights[f"{name}_beta"] = tf.convert_to_tensor(layer.beta)
    for name in ("ff1", "ff2"):
        layer = model.get_layer(name)
        weights[name] = tf.convert_to_tensor(layer.kernel)
        weights[f"{name}_bias"] = tf.convert_to_tensor(layer.bias)
    return weights


def encoder_native(model: keras.Model) -> Any:
    """The Rust encoder block with the Keras model's weights."""
    return rxt_tf_example.EncoderBlock(**encoder_weights(model), epsilon=EPSILON)


def encoder_eager(model: keras.Model) -> Any:
    """The Rust encoder's ops, one by one in eager TensorFlow."""
    w = encoder_weights(model)
    merged = {
        name: tf.reshape(w[name], (DIM, HEADS * KEY_DIM)) for name in ("query", "key", "value")
    }
    biases = {name: tf.reshape(w[f"{name}_bias"], (-1,)) for name in ("query", "key", "value")}
    output = tf.reshape(w["output"], (HEADS * KEY_DIM, DIM))

    def norm(x: Any, gamma: Any, beta: Any) -> Any:
        mean, variance = tf.nn.moments(x, axes=[-1], keepdims=True)
        return tf.nn.batch_normalization(x, mean, variance, beta, gamma, EPSILON)

    def call(x: Any) -> Any:
        batch, seq = x.shape[0], x.shape[1]

        def split(name: str) -> Any:
            projected = tf.matmul(x, merged[name]) + biases[name]
            return tf.transpose(tf.reshape(projected, (batch, seq, HEADS, KEY_DIM)), (0, 2, 1, 3))

        query, key, value = split("query"), split("key"), split("value")
        scores = tf.matmul(query * (1.0 / math.sqrt(KEY_DIM)), key, transpose_b=True)
        context = tf.transpose(tf.matmul(tf.nn.softmax(scores), value), (0, 2, 1, 3))
        context = tf.reshape(context, (batch, seq, HEADS * KEY_DIM))
        h = norm(
            x + (tf.matmul(context, output) + w["output_bias"]), w["norm1_gamma"], w["norm1_beta"]
        )
        hidden = tf.nn.gelu(tf.matmul(h, w["ff1"]) + w["ff1_bias"])
        fed = tf.matmul(hidden, w["ff2"]) + w["ff2_bias"]
        return norm(h + fed, w["norm2_gamma"], w["norm2_beta"])

    return call


def cnn_keras(seed: int = 2) -> keras.Model:
    """Conv2D (relu) → MaxPooling2D → Conv2D (relu) → AveragePooling2D →
    GlobalAveragePooling2D → Dense (softmax), on NHWC images."""
    keras.utils.set_random_seed(seed)
    model = keras.Sequential(
        [
            keras.Input((IMAGE, IMAGE, CHANNELS)),
            keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="conv1"),
            keras.layers.MaxPooling2D(2),
            keras.layers.Conv2D(16, 3, activation="relu", name="conv2"),
            keras.layers.AveragePooling2D(2),
            keras.layers.GlobalAveragePooling2D(),
            keras.layers.Dense(CLASSES, activation="softmax", name="dense"),
        ]
    )
    for weight in model.weights:
        if "bias" in weight.path:
            weight.assign(np.random.default_rng(seed).normal(0.0, 0.1, weight.shape))
    return model


def cnn_weights(model: keras.Model) -> list[Any]:
    """Kernels (Keras's `[h, w, in, out]`) and biases, in layer order."""
    return [
        tf.convert_to_tensor(w)
        for name in ("conv1", "conv2", "dense")
        for w in (model.get_layer(name).kernel, model.get_layer(name).bias)
    ]


def cnn_native(model: keras.Model) -> Any:
    """The Rust CNN with the Keras model's weights."""
    return rxt_tf_example.SmallCnn(*cnn_weights(model))


def cnn_eager(model: keras.Model) -> Any:
    """The Rust CNN's ops, one by one in eager TensorFlow."""
    k1, b1, k2, b2, dense, bias = cnn_weights(model)

    def call(x: Any) -> Any:
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k1, 1, "SAME"), b1))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, k2, 1, "VALID"), b2))
        h = tf.nn.avg_pool2d(h, 2, 2, "VALID")
        pooled = tf.reduce_mean(h, axis=[1, 2])
        return tf.nn.softmax(tf.nn.bias_add(tf.matmul(pooled, dense), bias))

    return call


def classifier_keras(seed: int = 3) -> keras.Model:
    """Embedding(mask_zero=True) → GlobalAveragePooling1D → Dense (softmax)."""
    keras.utils.set_random_seed(seed)
    ids = keras.Input((TOKENS,), dtype="int32")
    embedded = keras.layers.Embedding(VOCAB, EMBED, mask_zero=True, name="embedding")(ids)
    pooled = keras.layers.GlobalAveragePooling1D()(embedded)
    probabilities = keras.layers.Dense(LABELS, activation="softmax", name="dense")(pooled)
    model = keras.Model(ids, probabilities)
    model.get_layer("dense").bias.assign(np.random.default_rng(seed).normal(0.0, 0.2, LABELS))
    return model


def lstm_keras(seed: int = 4) -> keras.Model:
    """A recurrent text classifier: Embedding(mask_zero=True) → LSTM →
    Dense (softmax), on the classifier's token ids."""
    keras.utils.set_random_seed(seed)
    ids = keras.Input((TOKENS,), dtype="int32")
    embedded = keras.layers.Embedding(VOCAB, EMBED, mask_zero=True)(ids)
    state = keras.layers.LSTM(32)(embedded)
    return keras.Model(ids, keras.layers.Dense(LABELS, activation="softmax")(state))


def gru_keras(seed: int = 5) -> keras.Model:
    """A recurrent tagger: Embedding → GRU (every step's state) → Dense, one
    label's logits per token."""
    keras.utils.set_random_seed(seed)
    ids = keras.Input((TOKENS,), dtype="int32")
    embedded = keras.layers.Embedding(VOCAB, EMBED)(ids)
    states = keras.layers.GRU(24, return_sequences=True)(embedded)
    return keras.Model(ids, keras.layers.Dense(LABELS)(states))


def classifier_weights(model: keras.Model) -> list[Any]:
    """The embedding table, then the Dense kernel and bias."""
    dense = model.get_layer("dense")
    table = model.get_layer("embedding").embeddings
    return [tf.convert_to_tensor(w) for w in (table, dense.kernel, dense.bias)]


def classifier_native(model: keras.Model) -> Any:
    """The Rust classifier with the Keras model's weights."""
    return rxt_tf_example.TextClassifier(*classifier_weights(model))


def classifier_eager(model: keras.Model) -> Any:
    """The Rust classifier's ops, one by one in eager TensorFlow."""
    table, dense, bias = classifier_weights(model)

    def call(ids: Any) -> Any:
        embedded = tf.nn.embedding_lookup(table, ids)
        mask = tf.expand_dims(tf.cast(tf.not_equal(ids, 0), tf.float32), axis=2)
        mean = tf.reduce_sum(embedded * mask, axis=1) / tf.reduce_sum(mask, axis=1)
        probabilities = tf.nn.softmax(tf.nn.bias_add(tf.matmul(mean, dense), bias))
        return probabilities, tf.argmax(probabilities, axis=1)

    return call


def mlp_weights(model: keras.Model) -> list[Any]:
    """Each `Dense` layer's kernel and bias, in layer order."""
    return [tf.convert_to_tensor(w) for layer in model.layers for w in (layer.kernel, layer.bias)]


def mlp_native(model: keras.Model) -> Any:
    """The Rust perceptron with the Keras MLP's weights."""
    return rxt_tf_example.Perceptron(*mlp_weights(model))


def mlp_eager(model: keras.Model) -> Any:
    """The Rust perceptron's ops, one by one in eager TensorFlow."""
    k1, b1, k2, b2, k3, b3 = mlp_weights(model)

    def call(x: Any) -> Any:
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, k1), b1))
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(h, k2), b2))
        return tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, k3), b3))

    return call


def mlp_input(batch: int, seed: int = 0) -> Any:
    """A `[batch, FEATURES]` float32 input."""
    return tf.constant(np.random.default_rng(seed).normal(size=(batch, FEATURES)), tf.float32)


def encoder_input(batch: int, seed: int = 0) -> Any:
    """A `[batch, SEQ, DIM]` float32 input."""
    return tf.constant(np.random.default_rng(seed).normal(size=(batch, SEQ, DIM)), tf.float32)


def cnn_input(batch: int, seed: int = 0) -> Any:
    """A batch of NHWC images."""
    shape = (batch, IMAGE, IMAGE, CHANNELS)
    return tf.constant(np.random.default_rng(seed).uniform(size=shape), tf.float32)


def classifier_input(batch: int, seed: int = 0) -> Any:
    """Token ids with trailing padding (0), each row at least one token."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(1, VOCAB, size=(batch, TOKENS))
    lengths = rng.integers(1, TOKENS + 1, size=batch)
    ids[np.arange(TOKENS)[None, :] >= lengths[:, None]] = 0
    return tf.constant(ids, tf.int32)


lstm_input = gru_input = classifier_input
