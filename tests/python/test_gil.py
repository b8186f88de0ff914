"""The GIL is released while TensorFlow computes large ops, and kept for small ones."""

from __future__ import annotations

import sys
import threading
import time

import tensorflow as tf

from conftest import assert_same


def longest_stall(fn, *args) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Runs `fn(*args)` inside a helper frame while another Python thread
    samples the main thread's stack as often as it can. Returns (the longest
    time without a sample of the helper frame between the helper's two time
    marks, the time between the marks).

    Holding the GIL through the native call stops every other Python thread,
    so the longest gap is the call itself; releasing it, the sampler keeps
    sampling (gaps of at most about a switch interval)."""
    main = threading.get_ident()
    seen: list[float] = []
    marks: list[float] = []
    stop = threading.Event()

    def helper() -> None:
        marks.append(time.perf_counter())
        fn(*args)
        marks.append(time.perf_counter())

    def sample() -> None:
        while not stop.is_set():
            frame = sys._current_frames().get(main)
            if frame is not None and frame.f_code is helper.__code__:
                seen.append(time.perf_counter())

    sampler = threading.Thread(target=sample)
    sampler.start()
    helper()
    stop.set()
    sampler.join()
    start, end = marks
    points = [start, *(t for t in seen if start < t < end), end]
    return max(b - a for a, b in zip(points, points[1:])), end - start


def test_a_large_matmul_lets_other_python_threads_run(ext):
    a = tf.random.normal([2048, 2048])
    b = tf.random.normal([2048, 2048])
    assert_same(ext.matmul(a, b), tf.matmul(a, b))
    stall, took = longest_stall(ext.matmul, a, b)
    assert took > 6 * sys.getswitchinterval(), f"too quick to judge ({took:.3f} s)"
    assert stall < 0.5 * took, (stall, took)


def test_the_seed_chain_lets_other_python_threads_run_at_2048(ext):
    x = tf.random.normal([2048, 2048])
    w = tf.random.normal([2048, 2048])
    bias = tf.random.normal([2048])
    stall, took = longest_stall(ext.inference, x, w, bias)
    assert took > 6 * sys.getswitchinterval(), f"too quick to judge ({took:.3f} s)"
    assert stall < 0.5 * took, (stall, took)
    eager = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + bias, axis=1)
    assert_same(ext.inference(x, w, bias), eager)


def test_small_ops_keep_the_gil(ext):
    """Thousands of ops below `RELEASE_WORK` in one native call: no other
    Python thread runs until it returns."""
    x, w, bias = tf.random.normal([1, 8]), tf.random.normal([8, 4]), tf.random.normal([4])
    stall, took = longest_stall(ext.chain_floor_seconds, x, w, bias, 5000)
    assert took > 6 * sys.getswitchinterval(), f"too quick to judge ({took:.3f} s)"
    assert stall > 0.9 * took, (stall, took)


def test_small_fused_calls_keep_the_gil(ext):
    """The same chain fused, 20000 calls in one native call: each call's total
    work is below `RELEASE_WORK`, so the GIL is kept throughout."""
    x, w, bias = tf.random.normal([1, 8]), tf.random.normal([8, 4]), tf.random.normal([4])
    ext.fused_floor_seconds(x, w, bias, 10)  # the trace's first call builds it
    stall, took = longest_stall(ext.fused_floor_seconds, x, w, bias, 20000)
    assert took > 6 * sys.getswitchinterval(), f"too quick to judge ({took:.3f} s)"
    assert stall > 0.9 * took, (stall, took)
