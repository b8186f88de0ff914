"""Letting functions go while a call runs: no wait, the wrapper still freed.

A function let go of frees its kernels by removing TensorFlow's per-arity
call wrapper, which must not happen while a call runs through it. The
Python of a `tf.py_function` runs inside such a call; there it may let
functions go and make new ones. Each case runs in a child process, so a
deadlock fails the test by its timeout instead of hanging the suite.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

TIMEOUT = 240
"""Seconds a child may take (a few seconds when nothing hangs)."""

PRELUDE = """
import gc, os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf
from tensorflow.python.eager import context
import rxt_tf

SPEC = tf.TensorSpec([], tf.float32)
WRAPPER = (
    "__wrapped__StatefulPartitionedCall_Tin_1_Tout_1_device_"
    "/job:localhost/replica:0/task:0/device:CPU:0"
)

def predictors(count, start):
    # More than the resolver remembers (64), so the first ones are let go.
    made = []
    for i in range(count):
        concrete = tf.function(lambda v, i=i: v + float(start + i)).get_concrete_function(SPEC)
        predictor = rxt_tf.Predictor(concrete)
        assert float(predictor(tf.constant(1.0))) == 1.0 + start + i
        made.append(predictor)
    return made
"""


def run(body: str) -> str:
    """Runs `body` after the prelude in a child; its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


def test_functions_let_go_inside_a_call_do_not_wait_for_it() -> None:
    """A `tf.py_function` inside an exact call lets 70 functions go (each
    ran, so each frees its wrapper) and checks 70 new ones: the call
    returns, and the wrapper is removed once it has left."""
    out = run(
        """
        def let_go(x):
            predictors(70, 0)
            gc.collect()
            predictors(70, 100)
            gc.collect()
            return x * 2.0

        @rxt_tf.function
        def outer(x):
            return tf.py_function(let_go, [x], tf.float32)

        assert float(outer(tf.constant(3.0))) == 6.0
        print("wrapper kept:", context.context().has_function(WRAPPER))
        assert float(outer(tf.constant(4.0))) == 8.0
        """
    )
    assert "wrapper kept: False" in out


def test_functions_let_go_outside_any_call_free_the_wrapper_at_once() -> None:
    """With no call running, letting a function go removes the wrapper
    before the next line runs."""
    out = run(
        """
        kept = predictors(70, 0)
        print("before:", context.context().has_function(WRAPPER))
        # The first ones are remembered no more: this lets them go.
        del kept
        print("after:", context.context().has_function(WRAPPER))
        """
    )
    assert "before: True" in out
    assert "after: False" in out


def test_python_calls_of_the_same_arity_survive_removals_on_another_thread() -> None:
    """A Python thread calls a plain `tf.function` of the same arity while
    the main thread lets rxt-tf functions go, each removal removing the
    wrapper of that arity. Python's own eager call of a function does not
    go through that wrapper (it does not make it), so removals cannot race
    with it: every Python call returns its value."""
    out = run(
        """
        import threading

        @tf.function(input_signature=[SPEC])
        def plain(v):
            return v * 3.0

        assert float(plain(tf.constant(2.0))) == 6.0
        print("made by python:", context.context().has_function(WRAPPER))
        failures, calls = [], [0]
        stop = threading.Event()

        def call_from_python():
            while not stop.is_set():
                try:
                    value = float(plain(tf.constant(2.0)))
                    if value != 6.0:
                        failures.append(value)
                except Exception as error:  # what a race would raise
                    failures.append(repr(error))
                calls[0] += 1

        caller = threading.Thread(target=call_from_python)
        caller.start()
        for round_ in range(6):
            kept = predictors(70, 1000 * round_)
            print("made by rxt-tf:", context.context().has_function(WRAPPER))
            del kept
            gc.collect()
        stop.set()
        caller.join()
        print("failures:", failures[:3], len(failures))
        print("python calls:", calls[0] > 0)
        print("removed at the end:", not context.context().has_function(WRAPPER))
        """
    )
    assert "made by python: False" in out, out
    assert "made by rxt-tf: True" in out, out
    assert "failures: [] 0" in out, out
    assert "python calls: True" in out
    assert "removed at the end: True" in out, out
