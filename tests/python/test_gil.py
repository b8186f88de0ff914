"""The GIL is released while TensorFlow computes large ops."""

from __future__ import annotations

import sys
import threading
import time

import tensorflow as tf

from conftest import assert_same


def observed_inside(fn, *args) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Runs `fn(*args)` inside a helper frame while another Python thread
    samples the main thread's stack. Returns (seconds the sampler saw the
    helper frame on top, seconds the call took).

    Holding the GIL, the native call stops every other Python thread, so the
    sampler can only see the helper frame once the call has returned (the
    interpreter may switch threads right after a call, for up to one switch
    interval, before the helper's next mark)."""
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
    inside = [t for t in seen if start < t < end]
    return (inside[-1] - inside[0] if inside else 0.0), end - start


def test_a_large_matmul_lets_other_python_threads_run(ext):
    a = tf.random.normal([2048, 2048])
    b = tf.random.normal([2048, 2048])
    assert_same(ext.matmul(a, b), tf.matmul(a, b))
    window, took = observed_inside(ext.matmul, a, b)
    switch = sys.getswitchinterval()
    assert took > 6 * switch, f"the matmul was too quick to judge ({took:.3f} s)"
    # Released, the sampler runs during most of the call; held, it could only
    # run for about two switch intervals.
    assert window > 0.5 * took, (window, took)


def test_the_chain_results_are_unchanged_when_the_gil_is_released(ext):
    x = tf.random.normal([1024, 1024])
    w = tf.random.normal([1024, 1024])
    bias = tf.random.normal([1024])
    window, _ = observed_inside(ext.inference, x, w, bias)
    assert window > 0
    eager = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + bias, axis=1)
    assert_same(ext.inference(x, w, bias), eager)
