"""`rxt_tf.function`: same results as the `tf.function` it wraps, bit for
bit; structures, keywords, methods, layers; calls that must go through
TensorFlow's own function do, and are counted."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import gil_probe
import numpy as np
import pytest
import tensorflow as tf
from bitwise import same_bits
from test_memory import rss_bytes

import rxt_tf


def normal(*shape: int, seed: int = 1) -> tf.Tensor:
    return tf.random.stateless_normal(shape, seed=[seed, 7])


def same_structure(native: Any, reference: Any) -> bool:
    if isinstance(reference, dict):
        return (
            type(native) is dict
            and list(native) == list(reference)
            and all(same_structure(native[k], reference[k]) for k in reference)
        )
    if isinstance(reference, tuple | list):
        return (
            type(native) is type(reference)
            and len(native) == len(reference)
            and all(same_structure(a, b) for a, b in zip(native, reference, strict=True))
        )
    if reference is None:
        return native is None
    return same_bits(native, reference)


def counts() -> dict[str, Any]:
    return rxt_tf.stats()


@rxt_tf.function
def block(x, w, b=None, *, scale=1.0, gate=None):
    y = tf.matmul(x, w)
    if b is not None:
        y += b
    out = {"y": tf.nn.relu(y) * scale, "raw": (y, None), "list": [tf.shape(y)[0]]}
    if gate is not None:
        out["gated"] = y * tf.cast(gate, y.dtype)
    return out


def test_results_equal_the_tf_function_bit_for_bit_and_run_natively() -> None:
    x, w, b = normal(3, 4), normal(4, 5, seed=2), normal(5, seed=3)
    gate = normal(3, 5, seed=4) > 0
    before = counts()["native"]
    for kwargs in ({}, {"scale": 2.5}, {"gate": gate}, {"scale": 0.5, "gate": gate}):
        for args in ((x, w), (x, w, b), (x, w, None)):
            assert same_structure(block(*args, **kwargs), block.tf_function(*args, **kwargs))
    assert counts()["native"] - before == 12


def test_keyword_arguments_bind_as_python_binds_them() -> None:
    x, w, b = normal(2, 4), normal(4, 3, seed=2), normal(3, seed=3)
    reference = block.tf_function(x, w, b, scale=3.0)
    assert same_structure(block(x=x, w=w, b=b, scale=3.0), reference)
    assert same_structure(block(x, b=b, w=w, scale=3.0), reference)
    with pytest.raises(TypeError):
        block(x, w, b, 3.0)  # scale is keyword-only: tf.function says so


def test_batch_sizes_retrace_as_tf_function_does() -> None:
    @rxt_tf.function(reduce_retracing=True)
    def f(x):
        return x * 2.0

    @tf.function(reduce_retracing=True)
    def g(x):
        return x * 2.0

    for batch in (1, 2, 3, 4, 5):
        assert same_bits(f(normal(batch, 4)), g(normal(batch, 4)))
    traced = f.tf_function._list_all_concrete_functions()
    assert len(traced) == len(g._list_all_concrete_functions()) == 2
    shapes = sorted(str(c.inputs[0].shape) for c in traced)
    assert shapes == ["(1, 4)", "(None, 4)"]


def test_new_dtypes_and_ranks_trace_as_tf_function_does() -> None:
    @rxt_tf.function(reduce_retracing=True)
    def f(x):
        return x * 2

    @tf.function(reduce_retracing=True)
    def g(x):
        return x * 2

    arguments = [
        normal(2, 3),
        tf.cast(normal(2, 3), tf.float64),
        tf.constant([[1, 2, 3]], tf.int32),
        normal(4),
        normal(2, 3, 4),
        tf.constant(7, tf.int64),
    ]
    before = counts()["native"]
    for x in arguments:
        assert same_bits(f(x), g(x))
    assert counts()["native"] - before == len(arguments)
    assert len(f.tf_function._list_all_concrete_functions()) == len(
        g._list_all_concrete_functions()
    )


def test_nested_arguments_flatten_as_tf_nest_does() -> None:
    @rxt_tf.function
    def f(pair, table, scale=1.0):
        a, b = pair
        return [a * table["z"] + b * table["a"] * scale, {"b": b, "a": a}]

    a, b, c, d = (normal(2, 2, seed=s) for s in range(4))
    table = {"z": c, "a": d}
    before = counts()["native"]
    for args in (((a, b), table), ([a, b], table), ((a, b), table, 2.0)):
        assert same_structure(f(*args), f.tf_function(*args))
    assert counts()["native"] - before == 3


def test_control_flow_runs_natively() -> None:
    @rxt_tf.function
    def f(x, n):
        total = tf.zeros_like(x)
        for i in tf.range(n):
            total += x * tf.cast(i, x.dtype)
        if tf.reduce_sum(total) > 0:
            total = -total
        return total

    x = normal(3, 2)
    before = counts()["native"]
    for n in (0, 1, 4):
        assert same_bits(f(x, tf.constant(n)), f.tf_function(x, tf.constant(n)))
    assert counts()["native"] - before == 3


def test_python_values_are_part_of_the_key() -> None:
    @rxt_tf.function
    def f(x, n, mode):
        return x * n if mode == "mul" else x + n

    x = normal(2, 2)
    assert same_bits(f(x, 3, "mul"), x * 3)
    assert same_bits(f(x, 3, "add"), x + 3)
    assert same_bits(f(x, 2.0, "add"), x + 2.0)
    assert f.cache_size() == 3


def test_the_cache_is_bounded() -> None:
    @rxt_tf.function
    def f(x, n):
        return x + n

    x = normal(1)
    for n in range(rxt_tf.CACHE_SIZE + 20):
        assert same_bits(f(x, n), x + n)
    assert f.cache_size() == rxt_tf.CACHE_SIZE


def test_variables_changed_in_python_are_seen() -> None:
    v = tf.Variable(tf.ones((4, 3)))

    @rxt_tf.function
    def f(x):
        return tf.matmul(x, v)

    x = normal(2, 4)
    assert same_bits(f(x), tf.matmul(x, v))
    v.assign(normal(4, 3, seed=9))
    assert same_bits(f(x), tf.matmul(x, v))


class Scaled:
    def __init__(self, factor: float) -> None:
        self.factor = tf.Variable(factor)

    @rxt_tf.function
    def __call__(self, x):
        return x * self.factor

    @rxt_tf.function
    def shifted(self, x, by=1.0):
        return x * self.factor + by


def test_methods_bind_per_instance() -> None:
    a, b = Scaled(2.0), Scaled(3.0)
    x = normal(2, 2)
    before = counts()["native"]
    assert same_bits(a(x), x * 2.0) and same_bits(b(x), x * 3.0)
    assert same_bits(a.shifted(x, by=0.5), x * 2.0 + 0.5)
    assert a.shifted is a.shifted  # bound once, kept on the instance
    assert counts()["native"] - before == 3


def test_a_keras_layer_and_model_run_natively_and_equal_their_tf_function() -> None:
    import keras

    keras.utils.set_random_seed(3)
    model = keras.Sequential(
        [keras.Input((16,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dropout(0.5)]
    )
    f = rxt_tf.function(model)
    x = normal(4, 16)
    before = counts()["native"]
    # training=False: Dropout is the identity, as in model(x).
    assert same_bits(f(x), f.tf_function(x))
    assert same_bits(f(x), model(x, training=False))
    layer = keras.layers.Dense(3)
    layer.build((None, 5))
    g = rxt_tf.function(layer)
    assert same_bits(g(normal(2, 5)), layer(normal(2, 5)))
    assert counts()["native"] - before == 3


def test_a_gradient_tape_goes_through_tf_function_and_gradients_hold() -> None:
    w = tf.Variable(normal(4, 3))

    @rxt_tf.function
    def f(x):
        return tf.reduce_sum(tf.matmul(x, w) ** 2)

    x = normal(2, 4)
    before = counts()["fallbacks"]["tape"]
    with tf.GradientTape() as tape:
        loss = f(x)
    gradient = tape.gradient(loss, w)
    with tf.GradientTape() as tape:
        expected = tf.reduce_sum(tf.matmul(x, w) ** 2)
    assert np.allclose(gradient, tape.gradient(expected, w), rtol=1e-6)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as accumulator:
        f(x)
    assert counts()["fallbacks"]["tape"] - before == 2
    assert accumulator is not None


def test_inside_a_tf_function_and_eager_functions_go_through_tensorflow() -> None:
    @rxt_tf.function
    def inner(x):
        return x + 1.0

    @tf.function
    def outer(x):
        return inner(x) * 2.0

    x = normal(2)
    before = counts()["fallbacks"]
    assert same_bits(outer(x), (x + 1.0) * 2.0)
    tf.config.run_functions_eagerly(True)
    try:
        assert same_bits(inner(x), x + 1.0)
    finally:
        tf.config.run_functions_eagerly(False)
    after = counts()["fallbacks"]
    assert after["not_eager"] - before["not_eager"] >= 1
    assert after["functions_run_eagerly"] - before["functions_run_eagerly"] == 1


def test_an_exception_while_tracing_surfaces_unchanged() -> None:
    class Refused(Exception):
        pass

    @rxt_tf.function
    def f(x):
        raise Refused("not this one")

    with pytest.raises(Refused, match="not this one"):
        f(normal(2))


def test_arguments_it_does_not_key_go_through_tf_function() -> None:
    @rxt_tf.function
    def f(x):
        return x * 2.0

    before = counts()["fallbacks"]["argument"]
    assert same_bits(f(tf.Variable([1.0, 2.0])), tf.constant([2.0, 4.0]))
    assert same_bits(f(np.float32(3.0)), tf.constant(6.0))
    assert counts()["fallbacks"]["argument"] - before == 2


def test_threads_call_one_function_at_once() -> None:
    @rxt_tf.function
    def f(x, w):
        return tf.nn.relu(tf.matmul(x, w))

    w = normal(16, 16, seed=5)
    inputs = [normal(b, 16, seed=b) for b in range(1, 9)]
    expected = [f.tf_function(x, w) for x in inputs]
    failures: list[str] = []

    def work(offset: int) -> None:
        for round_ in range(200):
            index = (offset + round_) % len(inputs)
            if not same_bits(f(inputs[index], w), expected[index]):
                failures.append(f"thread {offset} round {round_}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_the_gil_is_released_while_tensorflow_computes() -> None:
    @rxt_tf.function
    def f(x):
        for _ in range(4):
            x = tf.matmul(x, x) * 1e-3
        return x

    def prepare(size: int) -> Callable[[], object]:
        x = normal(size, size)
        f(x)  # traced for this shape outside the observed call
        return lambda: f(x)

    # Held for the whole call, the other thread would stop for all of it.
    observed = gil_probe.observe(prepare, 256)
    assert observed.other_thread_ran, observed


def test_memory_stays_flat_over_100k_calls() -> None:
    import gc

    v = tf.Variable(normal(8, 4))

    @rxt_tf.function
    def f(x, b=None):
        y = tf.matmul(x, v)
        return {"y": y, "pair": (y + b if b is not None else y, None)}

    x, b = normal(1, 8), normal(4, seed=2)
    predict = rxt_tf.Predictor(f.tf_function.get_concrete_function(x, b))
    for _ in range(2_000):
        f(x, b=b)
        predict(x, b)
    gc.collect()
    before = rss_bytes()
    for _ in range(50_000):
        f(x, b=b)
        predict(x, b)
    gc.collect()
    growth = rss_bytes() - before
    assert growth < 10 * 1024 * 1024, growth


def test_a_saved_model_signature_takes_its_inputs_by_name(tmp_path: Any) -> None:
    class Scale(tf.Module):
        def __init__(self) -> None:
            self.w = tf.Variable(normal(3, 2))

        @tf.function(input_signature=[tf.TensorSpec((None, 3), tf.float32, name="x")])
        def serve(self, x):
            y = tf.matmul(x, self.w)
            return {"y": y, "relu": tf.nn.relu(y)}

    module = Scale()
    tf.saved_model.save(module, str(tmp_path), signatures={"serving_default": module.serve})
    loaded = tf.saved_model.load(str(tmp_path))
    signature = loaded.signatures["serving_default"]
    predict = rxt_tf.Predictor(signature)
    x = normal(4, 3, seed=8)
    before = counts()["native"]
    result = predict(x=x)
    assert counts()["native"] == before + 1
    assert same_structure(result, signature(x=x))
    assert same_structure(predict(x), signature(x=x))
    with pytest.raises(TypeError, match="named"):
        predict(y=x)


def test_composite_outputs_go_through_tf_function() -> None:
    @rxt_tf.function
    def f(x):
        return tf.RaggedTensor.from_row_lengths(tf.reshape(x, [-1]), [1, 3])

    x = normal(2, 2)
    before = counts()["fallbacks"]["signature"]
    for _ in range(2):
        result = f(x)
        assert isinstance(result, tf.RaggedTensor)
        assert result.to_list() == f.tf_function(x).to_list()
    assert counts()["fallbacks"]["signature"] - before == 2


@rxt_tf.function
def attention(q, k, v, mask=None):
    # The guide's example, as written there.
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], q.dtype))
    if mask is not None:
        scores += (1.0 - tf.cast(mask, scores.dtype)) * -1e9
    return tf.matmul(tf.nn.softmax(scores), v)


def test_the_guide_s_attention_runs_natively_with_and_without_a_mask() -> None:
    q, k, v = normal(2, 4, 8, seed=1), normal(2, 6, 8, seed=2), normal(2, 6, 8, seed=3)
    mask = normal(2, 4, 6, seed=4) > 0
    before = counts()["native"]
    assert same_bits(attention(q, k, v), attention.tf_function(q, k, v))
    assert same_bits(attention(q, k, v, mask), attention.tf_function(q, k, v, mask))
    assert same_bits(attention(q, k, v, mask=None), attention.tf_function(q, k, v))
    assert counts()["native"] - before == 3


def test_a_tensor_on_another_device_goes_through_tf_function() -> None:
    @rxt_tf.function
    def f(x):
        return x * 3.0

    with tf.device("/CPU:1"):
        x = tf.constant([1.0, -2.0])
    before = counts()["fallbacks"]["device"]
    assert same_bits(f(x), f.tf_function(x))
    predict = rxt_tf.Predictor(f.tf_function.get_concrete_function(x))
    assert same_bits(predict(x), f.tf_function(x))
    assert counts()["fallbacks"]["device"] - before == 2
    assert same_bits(f(tf.constant([1.0, -2.0])), tf.constant([3.0, -6.0]))


def test_a_device_scope_goes_through_tf_function_in_its_thread_only() -> None:
    import threading

    @rxt_tf.function
    def f(x):
        return x * 3.0

    x = normal(2, seed=8)
    assert same_bits(f(x), f.tf_function(x))
    seen: dict[str, int] = {}
    before = counts()
    with tf.device("/CPU:0"):
        assert same_bits(f(x), f.tf_function(x))
        seen["scoped"] = counts()["fallbacks"]["not_eager"] - before["fallbacks"]["not_eager"]

        def elsewhere() -> None:
            start = counts()["native"]
            assert same_bits(f(x), x * 3.0)
            seen["other_thread"] = counts()["native"] - start

        worker = threading.Thread(target=elsewhere)
        worker.start()
        worker.join()
    start = counts()["native"]
    assert same_bits(f(x), f.tf_function(x))
    assert seen == {"scoped": 1, "other_thread": 1}
    assert counts()["native"] - start == 1


def test_a_predictor_of_a_built_layer_and_of_a_signed_tf_function() -> None:
    import keras

    layer = keras.layers.Dense(3, activation="tanh")
    layer.build((None, 5))
    x = normal(2, 5, seed=6)
    # Bit for bit the layer's tf.function (its graph fuses matmul, bias and
    # tanh, so eager `layer(x)` may differ in the last place).
    traced = tf.function(lambda v: layer(v, training=False))
    assert same_bits(rxt_tf.Predictor(layer)(x), traced(x))
    signed = tf.function(
        lambda a, b: (a @ b, {"sum": a + 1.0}),
        input_signature=[tf.TensorSpec((None, 5)), tf.TensorSpec((5, 5))],
    )
    b = normal(5, 5, seed=7)
    assert same_structure(rxt_tf.Predictor(signed)(x, b), signed(x, b))
    assert same_structure(rxt_tf.Predictor(signed)([x, b]), signed(x, b))


def test_a_bound_method_keeps_no_instance_alive_and_copies_bind_anew() -> None:
    import copy
    import gc
    import weakref

    a = Scaled(2.0)
    x = normal(2, 2)
    assert same_bits(a(x), x * 2.0)
    b = copy.copy(a)
    b.factor = tf.Variable(5.0)
    assert same_bits(b(x), x * 5.0) and same_bits(a(x), x * 2.0)
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None


def test_handles_and_odd_strings_go_through_tf_function() -> None:
    v = tf.Variable([1.0, 2.0, 3.0])

    @rxt_tf.function
    def read(handle):
        return tf.raw_ops.ReadVariableOp(resource=handle, dtype=tf.float32) * 2.0

    before = counts()["fallbacks"]["argument"]
    assert same_bits(read(v.handle), v * 2.0)

    @rxt_tf.function
    def tagged(x, tag):
        return x + float(len(tag))

    assert same_bits(tagged(normal(2), "\ud800"), normal(2) + 1.0)
    assert counts()["fallbacks"]["argument"] - before == 2


def test_a_predictor_refuses_a_dict_given_positionally() -> None:
    signed = tf.function(
        lambda a, b: a - b, input_signature=[tf.TensorSpec((2,)), tf.TensorSpec((2,))]
    )
    predict = rxt_tf.Predictor(signed)
    a, b = normal(2, seed=1), normal(2, seed=2)
    assert same_bits(predict(a, b), a - b)
    with pytest.raises(TypeError, match="list or tuple"):
        predict({"b": b, "a": a})
