"""Calling TensorFlow functions from Rust (`rxt_tf::Function`): Keras
models, `tf.function`s, concrete functions and SavedModel signatures, each
bitwise equal to Python's own call; the signature checks; the fail-closed
checks; a fused body around a call; threads; and memory over many calls."""

from __future__ import annotations

import gc
import weakref

import keras
import models
import numpy as np
import pytest
import rxt_tf_example as ext
import tensorflow as tf


def bitwise(native: tf.Tensor, reference: tf.Tensor) -> None:
    assert native.dtype == reference.dtype and native.shape == reference.shape
    assert native.numpy().tobytes() == reference.numpy().tobytes()


@pytest.fixture(scope="module")
def model() -> keras.Model:
    return models.mlp_keras()


@pytest.fixture
def x() -> tf.Tensor:
    return tf.random.stateless_normal((3, 16), seed=(1, 2))


def test_keras_sequential(model: keras.Model, x: tf.Tensor) -> None:
    bitwise(ext.call_one(model, x), model(x, training=False))
    predictor = ext.Predictor(model)
    bitwise(predictor(x), model(x, training=False))


def test_a_built_keras_layer(x: tf.Tensor) -> None:
    layer = keras.layers.Dense(4, activation="tanh")
    layer.build((None, 16))
    bitwise(ext.call_one(layer, x), layer(x, training=False))
    unbuilt = keras.layers.Dense(4)
    with pytest.raises(TypeError, match="has no known inputs"):
        ext.call_one(unbuilt, x)


def test_functional_model_two_inputs_dict_output(x: tf.Tensor) -> None:
    a_in, b_in = keras.Input((16,), name="a"), keras.Input((16,), name="b")
    merged = keras.layers.Dense(8)(keras.layers.Concatenate()([a_in, b_in]))
    functional = keras.Model([a_in, b_in], {"zeta": merged * 2.0, "alpha": merged})

    @tf.function(input_signature=[tf.TensorSpec((None, 16)), tf.TensorSpec((None, 16))])
    def wrapper(a, b):  # type: ignore[no-untyped-def]
        return functional([a, b], training=False)

    b = x * 3.0
    alpha, zeta = ext.call_two(wrapper, x, b)
    reference = functional([x, b], training=False)
    bitwise(alpha, reference["alpha"])
    bitwise(zeta, reference["zeta"])


def test_tf_function_with_signature_and_once_traced(x: tf.Tensor) -> None:
    w = tf.Variable(tf.random.stateless_normal((16, 5), seed=(3, 4)))

    @tf.function(input_signature=[tf.TensorSpec((None, 16), tf.float32)])
    def signed(v):  # type: ignore[no-untyped-def]
        return tf.nn.relu(v @ w)

    bitwise(ext.call_one(signed, x), signed(x))

    @tf.function
    def once(v):  # type: ignore[no-untyped-def]
        return tf.tanh(v @ w)

    with pytest.raises(TypeError, match="traced 0 times; give it an input_signature"):
        ext.call_one(once, x)
    reference = once(x)
    bitwise(ext.call_one(once, x), reference)
    fresh = tf.function(lambda v: v * 2.0)
    fresh(x)
    fresh(tf.zeros((1, 1, 1)))
    with pytest.raises(TypeError, match="traced 2 times"):
        ext.call_one(fresh, x)


def test_tf_function_traced_per_presence_of_a_mask(x: tf.Tensor) -> None:
    w = tf.Variable(tf.random.stateless_normal((16, 16), seed=(5, 6)))

    @tf.function
    def attend(v, mask=None):  # type: ignore[no-untyped-def]
        scores = v @ w
        if mask is not None:
            scores += (1.0 - mask) * -1e9
        return tf.nn.softmax(scores)

    mask = tf.cast(tf.random.stateless_uniform((3, 16), seed=(7, 8)) > 0.5, tf.float32)
    with pytest.raises(TypeError, match="traced 0 times"):
        ext.call_masked(attend, x)
    without, with_mask = attend(x), attend(x, mask)
    # One concrete function per presence of the mask: `None` picks one.
    bitwise(ext.call_masked(attend, x), without)
    bitwise(ext.call_masked(attend, x, mask), with_mask)
    assert not np.array_equal(without.numpy(), with_mask.numpy())

    @tf.function
    def scaled(v, mask=None):  # type: ignore[no-untyped-def]
        return v * 2.0 if mask is None else v * mask

    scaled(x)
    bitwise(ext.call_masked(scaled, x), scaled(x))
    with pytest.raises(TypeError, match=r"takes arguments \(tensor, tensor\); traced for "
                       r"\(tensor, None\)"):
        ext.call_masked(scaled, x, mask)
    # Traced twice with the mask present: which one to call is not known.
    fresh = tf.function(lambda v, mask=None: v if mask is None else v * mask)
    fresh(x, mask)
    fresh(x[:1], mask[:1])
    with pytest.raises(TypeError, match="traced 2 times"):
        ext.call_masked(fresh, x, mask)


def test_concrete_function(x: tf.Tensor) -> None:
    w = tf.Variable(tf.ones((16, 2)))
    concrete = tf.function(lambda v: v @ w).get_concrete_function(tf.TensorSpec((None, 16)))
    bitwise(ext.call_one(concrete, x), concrete(x))


def test_saved_model_signature(tmp_path, model: keras.Model, x: tf.Tensor) -> None:  # type: ignore[no-untyped-def]
    module = tf.Module()
    module.model = model
    module.serve = tf.function(
        lambda v: {"probabilities": model(v, training=False)},
        input_signature=[tf.TensorSpec((None, 16), tf.float32, name="v")],
    )
    tf.saved_model.save(module, str(tmp_path), signatures={"serving_default": module.serve})
    loaded = tf.saved_model.load(str(tmp_path))
    signature = loaded.signatures["serving_default"]
    bitwise(ext.call_one(signature, x), signature(v=x)["probabilities"])


def test_variable_updates_are_seen(x: tf.Tensor) -> None:
    w = tf.Variable(tf.ones((16, 3)))

    @tf.function(input_signature=[tf.TensorSpec((None, 16))])
    def f(v):  # type: ignore[no-untyped-def]
        return v @ w

    predictor = ext.Predictor(f)
    before = predictor(x)
    w.assign(w * 2.0)
    after = predictor(x)
    bitwise(after, f(x))
    assert not np.array_equal(before.numpy(), after.numpy())


class Counting(keras.layers.Layer):
    """Doubles its input; counts how often it is traced."""

    traces = 0

    def call(self, v):  # type: ignore[no-untyped-def]
        Counting.traces += 1
        return v * 2.0


def test_extracting_again_reuses_the_trace_and_lets_the_model_go(x: tf.Tensor) -> None:
    counted = keras.Sequential([keras.Input((16,)), Counting()])
    bitwise(ext.call_one(counted, x), x * 2.0)
    traced = Counting.traces
    for _ in range(50):
        ext.call_one(counted, x)
    assert Counting.traces == traced
    gone = weakref.ref(counted)
    del counted
    gc.collect()
    assert gone() is None


def test_anything_else_is_a_type_error(x: tf.Tensor) -> None:
    def plain(v):  # type: ignore[no-untyped-def]
        return v

    with pytest.raises(
        TypeError,
        match="expected a TensorFlow function, a Keras model or a SavedModel signature, "
        "got function",
    ):
        ext.call_one(plain, x)
    with pytest.raises(TypeError, match="got int"):
        ext.call_one(3, x)


def test_wrong_inputs_and_outputs(model: keras.Model, x: tf.Tensor) -> None:
    with pytest.raises(ValueError, match="input 0: expected a tensor of rank 2, got rank 1"):
        ext.call_on_vector(model, x[0])
    with pytest.raises(TypeError, match="input 0: expected a float32 tensor, got a int32 tensor"):
        ext.call_on_int(model, tf.zeros((1, 16), tf.int32))
    with pytest.raises(TypeError, match="takes 1 input tensors, got 2"):
        ext.call_two(model, x, x)
    with pytest.raises(TypeError, match="returns 1 tensors, the caller takes 2"):
        ext.call_one_as_pair(model, x)
    with pytest.raises(TypeError, match="output 0: the function returns a float32 tensor"):
        ext.call_one_as_int(model, x)
    with pytest.raises(ValueError, match="output 0: the function returns a tensor of rank 2"):
        ext.call_one_as_vector(model, x)


def test_unknown_ranks_are_checked_when_the_call_returns(x: tf.Tensor) -> None:
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def anything(v):  # type: ignore[no-untyped-def]
        return v * 2.0

    bitwise(ext.call_one(anything, x), x * 2.0)
    with pytest.raises(
        ValueError, match="output 0: the function returned a tensor of rank 2, the caller takes rank 1"
    ):
        ext.call_one_as_vector(anything, x)


def test_a_tape_fails_closed(model: keras.Model, x: tf.Tensor) -> None:
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(RuntimeError, match="tf.GradientTape"):
            ext.call_one(model, x)
    with tf.GradientTape(watch_accessed_variables=True):
        with pytest.raises(RuntimeError, match="tf.GradientTape"):
            ext.call_one(model, x)
    bitwise(ext.call_one(model, x), model(x, training=False))


def test_fused_body_around_a_call(model: keras.Model, x: tf.Tensor) -> None:
    scale = tf.linspace(0.5, 2.0, 16)
    predictor = ext.Predictor(model)
    bitwise(predictor.scaled(x, scale), model(x * scale, training=False) * 2.0)


def test_threads(model: keras.Model, x: tf.Tensor) -> None:
    assert ext.call_in_threads(model, x, 4, 1000) == 4000


def test_memory_over_many_calls(model: keras.Model, x: tf.Tensor) -> None:
    from test_memory import rss_bytes  # type: ignore[import-not-found]

    predictor = ext.Predictor(model)
    predictor.repeat(x, 5_000)
    gc.collect()
    before = rss_bytes()
    predictor.repeat(x, 100_000)
    gc.collect()
    grown = rss_bytes() - before
    assert grown < 10 * 1024 * 1024, grown
