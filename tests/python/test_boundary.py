"""The Python boundary: exact EagerTensors in and out, every violation
rejected with the right exception type and message."""

from __future__ import annotations

import gc
import sys
import threading

import numpy as np
import pytest
import tensorflow as tf
from conftest import assert_same

EAGER = type(tf.constant(0.0))


def not_eager_tensors():
    yield np.zeros((2, 2), np.float32), "numpy.ndarray"
    yield tf.Variable(tf.zeros([2, 2])), "tensorflow.python.ops.resource_variable_ops.ResourceVariable"
    yield [[1.0, 2.0]], "list"
    yield None, "NoneType"
    yield 1.0, "float"
    yield tf.RaggedTensor.from_row_splits([1.0, 2.0], [0, 1, 2]), "tensorflow.python.ops.ragged.ragged_tensor.RaggedTensor"
    yield tf.sparse.from_dense(tf.ones([2, 2])), "tensorflow.python.framework.sparse_tensor.SparseTensor"


@pytest.mark.parametrize("value,type_name", list(not_eager_tensors()), ids=lambda v: type(v).__name__)
def test_anything_but_an_eager_tensor_is_a_type_error(ext, value, type_name):
    with pytest.raises(TypeError) as info:
        ext.relu(value)
    assert type(info.value) is TypeError
    assert str(info.value) == f"rxt-tf: expected a TensorFlow EagerTensor, got {type_name}"


def test_a_tensor_subclass_is_refused(ext):
    class OwnTensor(tf.Tensor):
        pass

    with pytest.raises(TypeError) as info:
        ext.relu(object.__new__(OwnTensor))
    assert str(info.value).endswith("got test_boundary.test_a_tensor_subclass_is_refused.<locals>.OwnTensor")


def test_a_graph_tensor_is_refused(ext):
    messages: list[str] = []

    @tf.function
    def traced() -> tf.Tensor:
        try:
            ext.relu(tf.ones([2, 2]))
        except TypeError as err:
            messages.append(str(err))
        return tf.constant(0)

    traced()
    assert messages == [
        "rxt-tf: expected a TensorFlow EagerTensor, got tensorflow.python.framework.ops.SymbolicTensor"
    ]


@pytest.mark.parametrize("dtype", [tf.float64, tf.float16, tf.int32, tf.int64, tf.bfloat16])
def test_a_wrong_dtype_is_a_value_error(ext, dtype):
    with pytest.raises(ValueError) as info:
        ext.relu(tf.zeros([2, 2], dtype))
    article = "an" if dtype.name[0] in "aeiou" else "a"
    assert str(info.value) == f"rxt-tf: expected a float32 tensor, got {article} {dtype.name} tensor"


@pytest.mark.parametrize(
    "fn,shape,expected",
    [("relu", [4], 2), ("relu", [], 2), ("relu", [1, 2, 3], 2), ("add_1d_1d", [2, 2], 1)],
)
def test_a_wrong_rank_is_a_value_error(ext, fn, shape, expected):
    args = [tf.zeros(shape)] * (2 if fn.startswith("add") else 1)
    with pytest.raises(ValueError) as info:
        getattr(ext, fn)(*args)
    assert str(info.value) == f"rxt-tf: expected a rank-{expected} tensor, got a rank-{len(shape)} tensor"


def test_a_tensor_on_another_device_is_a_value_error(ext):
    with tf.device("/CPU:1"):
        other = tf.ones([2, 2])
    assert other.device.endswith("CPU:1")
    with pytest.raises(ValueError) as info:
        ext.relu(other)
    assert str(info.value) == (
        "rxt-tf: expected a tensor on /job:localhost/replica:0/task:0/device:CPU:0, "
        "got a tensor on /job:localhost/replica:0/task:0/device:CPU:1"
    )


def test_an_asynchronous_context_is_a_runtime_error(ext):
    x = tf.ones([2, 2])
    tf.config.experimental.set_synchronous_execution(False)
    try:
        with pytest.raises(RuntimeError, match="^rxt-tf: expected a synchronous eager context"):
            ext.relu(x)
    finally:
        tf.config.experimental.set_synchronous_execution(True)
    assert_same(ext.relu(x), tf.nn.relu(x))


def test_a_failed_op_raises_what_eager_raises(ext):
    a, b = tf.ones([2, 3]), tf.ones([4, 5])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.matmul(a, b)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        ext.matmul(a, b)
    assert str(info.value).startswith("rxt-tf: matmul failed: ")
    assert "Matrix size-incompatible" in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match="^rxt-tf: add failed: "):
        ext.add_2d_1d(tf.ones([2, 3]), tf.ones([4]))


def test_a_watched_input_fails_closed(ext):
    x = tf.ones([2, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(RuntimeError, match="^rxt-tf: an input is watched by an active tf.GradientTape"):
            ext.relu(x)
        # An input the tape does not watch is fine: no gradient can be lost.
        y = tf.ones([2, 2])
        assert_same(ext.relu(y), tf.nn.relu(y))


def test_an_input_watched_by_a_forward_accumulator_fails_closed(ext):
    x = tf.ones([2, 2])
    with tf.autodiff.ForwardAccumulator(x, tf.ones([2, 2])) as accumulator:
        # Eager propagates the JVP through its own op...
        eager = tf.nn.relu(x)
        assert accumulator.jvp(eager) is not None
        # ...which a native op cannot: it refuses instead of losing it.
        with pytest.raises(RuntimeError, match="tf.autodiff.ForwardAccumulator"):
            ext.relu(x)
        y = tf.ones([2, 2])
        assert_same(ext.relu(y), tf.nn.relu(y))
    assert_same(ext.relu(x), tf.nn.relu(x))


def test_results_are_plain_eager_tensors_on_cpu0(ext):
    r = ext.inference(tf.ones([3, 8]), tf.ones([8, 4]), tf.ones([4]))
    assert type(r) is EAGER
    assert r.dtype == tf.float32 and r.shape == (3,)
    assert r.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert_same(tf.nn.relu(tf.expand_dims(r, 0)), tf.fill([1, 3], 9.0))


def test_results_outlive_their_inputs(ext):
    x, w, b = tf.ones([2, 8]) * 2, tf.ones([8, 4]), tf.ones([4]) * -1
    r = ext.inference(x, w, b)
    h = ext.matmul(x, w)
    del x, w, b
    gc.collect()
    assert r.numpy().tolist() == [15.0, 15.0]
    assert h.numpy().tolist() == [[16.0] * 4] * 2


def test_input_reference_counts_are_unchanged(ext):
    x, w, b = tf.ones([2, 8]), tf.ones([8, 4]), tf.ones([4])
    before = [sys.getrefcount(t) for t in (x, w, b)]
    for _ in range(100):
        ext.inference(x, w, b)
    with pytest.raises(ValueError):
        ext.inference(x, w, tf.ones([4, 1]))
    assert [sys.getrefcount(t) for t in (x, w, b)] == before


def test_calls_from_many_threads_agree_with_eager(ext):
    x = tf.random.stateless_normal([16, 32], seed=[1, 1])
    w = tf.random.stateless_normal([32, 8], seed=[2, 2])
    b = tf.random.stateless_normal([8], seed=[3, 3])
    eager = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)
    failures: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(200):
                assert_same(ext.inference(x, w, b), eager)
        except BaseException as err:  # noqa: BLE001 - reported below
            failures.append(err)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[0]


def test_a_thread_local_asynchronous_scope_is_refused_too(ext):
    """The bound context is reused across calls, but each call still reads
    this thread's execution mode (here switched by a scope, not globally)."""
    from tensorflow.python.eager import context

    x = tf.ones([2, 2])
    assert_same(ext.relu(x), tf.nn.relu(x))  # the context is bound and cached
    with context.execution_mode(context.ASYNC):
        with pytest.raises(RuntimeError, match="^rxt-tf: expected a synchronous eager context"):
            ext.relu(x)
    assert_same(ext.relu(x), tf.nn.relu(x))
