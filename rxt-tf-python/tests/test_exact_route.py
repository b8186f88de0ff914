"""Exact calls (the default) take an inlined route only where TensorFlow's
graph for it is proven the one the `tf.function`'s call runs (the
definition's own, or one made of the by-name graph); the check runs no
kernel, waits while `tf.summary` traces graphs, and the results stay the
`tf.function`'s bit for bit either way."""

from __future__ import annotations

import importlib
import threading
from typing import Any

import models
import numpy as np
import pytest
import tensorflow as tf
from bitwise import same_bits
from cases import CASES, MODULES
from run_cases import argument
from tensorflow.python.eager import context

import rxt_tf


def exact_counts() -> tuple[int, int]:
    exact = rxt_tf.stats()["exact"]
    return exact["inlined"], exact["by_name"]


def corpus_function(name: str) -> Any:
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        if hasattr(module, name):
            return getattr(module, name)
    raise KeyError(name)


def arguments(name: str, seed: int, special: bool) -> list[Any]:
    rng = np.random.default_rng(seed)
    return [argument(spec, rng, special) for spec in CASES[name]]


def test_a_keras_mlp_is_proven_and_runs_inlined_bit_for_bit() -> None:
    model = models.mlp_keras()
    signed = tf.function(
        lambda v: model(v, training=False), input_signature=[tf.TensorSpec((None, 16))]
    )
    predictor = rxt_tf.Predictor(signed)
    x = tf.random.stateless_normal((3, 16), seed=(4, 5))
    inlined, by_name = exact_counts()
    for _ in range(3):
        assert same_bits(predictor(x), signed(x))
    assert exact_counts() == (inlined + 3, by_name)


def test_a_real_layer_is_proven_and_runs_inlined_bit_for_bit() -> None:
    wrapped = rxt_tf.function(corpus_function("dense"))
    inlined, by_name = exact_counts()
    for seed, special in ((1, False), (3, True)):
        args = arguments("dense", seed, special)
        assert same_bits(wrapped(*args), wrapped.tf_function(*args))
    assert exact_counts() == (inlined + 2, by_name)


def test_the_checked_kernel_is_the_one_that_runs() -> None:
    # Checked on the first call; later calls find that kernel in
    # TensorFlow's cache: nothing is instantiated again.
    wrapped = rxt_tf.function(corpus_function("dense"))
    args = arguments("dense", 1, False)
    wrapped(*args)
    ctx = context.context()
    ctx.enable_graph_collection()
    try:
        again = wrapped(*args)
    finally:
        collected = ctx.export_run_metadata()
        ctx.disable_graph_collection()
    assert len(collected.function_graphs) == 0
    assert same_bits(again, wrapped.tf_function(*args))


def optimized_definitions() -> set[str]:
    return {
        name for name in context.context().list_function_names() if "_rxt_tf_optimized_" in name
    }


def test_rescaling_runs_its_optimized_graph_and_keeps_negative_zero() -> None:
    # x * scale + 0.0: the by-name graph drops the `+ 0.0`, the inlined
    # one keeps it. So the call runs a definition made of the by-name
    # graph, proven the same, and -0.0 stays -0.0 as in tf.function.
    wrapped = rxt_tf.function(corpus_function("rescaling"))
    x = tf.reshape(tf.tile(tf.constant([[-0.0, 1.0]]), [1, 192]), (2, 8, 8, 3))
    before = optimized_definitions()
    inlined, by_name = exact_counts()
    result = wrapped(x)
    assert exact_counts() == (inlined + 1, by_name)
    made = optimized_definitions() - before
    assert len(made) == 1
    assert same_bits(result, wrapped.tf_function(x))
    assert int(np.signbit(result.numpy()).sum()) == 192


@pytest.mark.parametrize(
    "name",
    [
        "layer_normalization",
        "einsum_dense",
        "softmax_layer",
        "unit_normalization",
        "_masked_softmax",
        "scaled_dot_product_attention",
    ],
)
def test_commutative_inputs_in_name_order_run_the_optimized_graph(name: str) -> None:
    wrapped = rxt_tf.function(corpus_function(name))
    inlined, by_name = exact_counts()
    before = optimized_definitions()
    for seed, special in ((1, False), (3, True)):
        args = arguments(name, seed, special)
        result = wrapped(*args)
        reference = wrapped.tf_function(*args)
        pairs = zip(tf.nest.flatten(result), tf.nest.flatten(reference), strict=True)
        assert all(same_bits(a, b) for a, b in pairs)
    assert exact_counts() == (inlined + 2, by_name)
    # Their own inlined graph is not the by-name one: a definition was made.
    assert len(optimized_definitions() - before) == 1


def test_the_check_runs_no_kernel_of_a_stateful_function() -> None:
    counter = tf.Variable(0.0)

    @rxt_tf.function
    def count(x: tf.Tensor) -> tf.Tensor:
        counter.assign_add(1.0)
        return x * counter.read_value()

    x = tf.constant([1.0, 2.0])
    inlined, by_name = exact_counts()
    results = [count(x).numpy().tolist() for _ in range(3)]
    # Proven, so checked: yet the variable moved once per call.
    assert exact_counts() == (inlined + 3, by_name)
    assert counter.numpy() == 3.0
    assert results == [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]


def test_a_loop_is_not_compared_and_runs_by_name() -> None:
    @rxt_tf.function
    def doubled(x: tf.Tensor, times: tf.Tensor) -> tf.Tensor:
        for _ in tf.range(times):
            x = x * 2.0
        return x

    x, times = tf.constant([1.5, -0.0]), tf.constant(3)
    inlined, by_name = exact_counts()
    assert same_bits(doubled(x, times), doubled.tf_function(x, times))
    assert exact_counts() == (inlined, by_name + 1)


def test_every_object_over_one_definition_shares_the_answer() -> None:
    model = models.mlp_keras()
    signed = tf.function(
        lambda v: model(v, training=False), input_signature=[tf.TensorSpec((None, 16))]
    )
    x = tf.random.stateless_normal((2, 16), seed=(6, 7))
    first = rxt_tf.Predictor(signed)
    first(x)
    # The second finds TensorFlow's kernels cached (a check now would
    # collect nothing), and the answer already given.
    second = rxt_tf.Predictor(signed)
    inlined, by_name = exact_counts()
    assert same_bits(second(x), signed(x))
    assert exact_counts() == (inlined + 1, by_name)


def test_first_calls_from_threads_agree_bit_for_bit() -> None:
    wrapped = rxt_tf.function(corpus_function("position_embedding"))
    args = arguments("position_embedding", 2, False)
    reference = wrapped.tf_function(*args)
    results: list[Any] = []
    errors: list[BaseException] = []

    def call() -> None:
        try:
            for _ in range(20):
                results.append(wrapped(*args))
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=call) for _ in range(4)]
    inlined, by_name = exact_counts()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(results) == 80
    assert all(same_bits(result, reference) for result in results)
    # One check at a time: the threads that waited read its answer (a
    # check of their own would find the kernels cached and prove nothing).
    assert exact_counts() == (inlined + 80, by_name)


def test_graph_tracing_for_tf_summary_is_left_alone() -> None:
    wrapped = rxt_tf.function(corpus_function("dense"))
    args = arguments("dense", 1, False)
    inlined, by_name = exact_counts()
    tf.summary.trace_on(graph=True, profiler=False)
    try:
        traced = wrapped(*args)
        collected = context.context().export_run_metadata()
    finally:
        tf.summary.trace_off()
    # Not checked meanwhile: called by name, whose graph TensorFlow
    # collected for the trace, as it would for the tf.function's call.
    assert exact_counts() == (inlined, by_name + 1)
    assert len(collected.function_graphs) >= 1
    assert same_bits(traced, wrapped.tf_function(*args))
    wrapped(*args)
    assert exact_counts() == (inlined + 1, by_name + 1)


def test_a_new_configuration_is_checked_again() -> None:
    wrapped = rxt_tf.function(corpus_function("rescaling"))
    x = tf.reshape(tf.tile(tf.constant([[-0.0, 1.0]]), [1, 192]), (2, 8, 8, 3))
    wrapped(x)
    before = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"constant_folding": False})
    try:
        # With constant folding off the tf.function's graph keeps `+ 0.0`.
        inlined, by_name = exact_counts()
        changed = wrapped(x)
        assert exact_counts() == (inlined + 1, by_name)
        assert same_bits(changed, wrapped.tf_function(x))
        assert int(np.signbit(changed.numpy()).sum()) == 0
    finally:
        tf.config.optimizer.set_experimental_options({"constant_folding": True, **before})
    inlined, by_name = exact_counts()
    again = wrapped(x)
    assert same_bits(again, wrapped.tf_function(x))
    assert int(np.signbit(again.numpy()).sum()) == 192
    assert exact_counts() == (inlined + 1, by_name)
