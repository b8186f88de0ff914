"""The GIL is released while TensorFlow computes large ops, and kept for
small ones: shown by what another Python thread did during the call
(`gil_probe`), whatever the machine's speed."""

from __future__ import annotations

import tensorflow as tf
from conftest import assert_same
from gil_probe import observe


def test_a_large_matmul_lets_other_python_threads_run(ext):
    def prepare(size: int):  # type: ignore[no-untyped-def]
        a, b = tf.random.normal([size, size]), tf.random.normal([size, size])
        ext.matmul(a, b)  # the first call at a shape is not judged
        return lambda: ext.matmul(a, b)

    observed = observe(prepare, 1024)
    assert observed.other_thread_ran, observed
    a, b = tf.random.normal([256, 256]), tf.random.normal([256, 256])
    assert_same(ext.matmul(a, b), tf.matmul(a, b))


def test_the_seed_chain_lets_other_python_threads_run(ext):
    def prepare(size: int):  # type: ignore[no-untyped-def]
        x, w = tf.random.normal([size, size]), tf.random.normal([size, size])
        bias = tf.random.normal([size])
        ext.inference(x, w, bias)  # the first call at a shape is not judged
        return lambda: ext.inference(x, w, bias)

    observed = observe(prepare, 1024)
    assert observed.other_thread_ran, observed
    x, w, bias = (
        tf.random.normal([64, 64]),
        tf.random.normal([64, 64]),
        tf.random.normal([64]),
    )
    eager = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + bias, axis=1)
    assert_same(ext.inference(x, w, bias), eager)


def test_small_ops_keep_the_gil(ext):
    """Thousands of ops below `RELEASE_WORK` in one native call: no other
    Python thread runs until it returns."""
    x, w, bias = (
        tf.random.normal([1, 8]),
        tf.random.normal([8, 4]),
        tf.random.normal([4]),
    )
    observed = observe(lambda n: lambda: ext.chain_floor_seconds(x, w, bias, n), 2000)
    assert observed.other_thread_stopped, observed


def test_small_fused_calls_keep_the_gil(ext):
    """The same chain fused, thousands of calls in one native call: each
    call's total work is below `RELEASE_WORK`, so the GIL is kept throughout."""
    x, w, bias = (
        tf.random.normal([1, 8]),
        tf.random.normal([8, 4]),
        tf.random.normal([4]),
    )
    ext.fused_floor_seconds(x, w, bias, 10)  # the trace's first call builds it
    observed = observe(lambda n: lambda: ext.fused_floor_seconds(x, w, bias, n), 5000)
    assert observed.other_thread_stopped, observed
