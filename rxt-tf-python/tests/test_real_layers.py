"""Real layer functions, verbatim (tests/python/rextio_real: tf-keras layers,
the TensorFlow tutorials, Model Garden; sources in its cases.py), wrapped
unchanged by `rxt_tf.function`: every one runs natively and equals its
`tf.function` bit for bit on three input sets."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import tensorflow as tf
from bitwise import same_bits
from cases import CASES, MODULES
from run_cases import argument

import rxt_tf


def corpus() -> dict[str, object]:
    functions = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for function in CASES:
            if hasattr(module, function):
                functions[function] = getattr(module, function)
    return functions


FUNCTIONS = corpus()


def same(native: object, reference: object) -> bool:
    if isinstance(reference, tuple | list):
        return type(native) is type(reference) and all(
            same(a, b)
            for a, b in zip(native, reference, strict=True)  # type: ignore[call-overload]
        )
    return same_bits(native, reference)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_real_function_runs_natively_bit_for_bit(name: str) -> None:
    wrapped = rxt_tf.function(FUNCTIONS[name])
    for seed, special in ((1, False), (2, False), (3, True)):
        rng = np.random.default_rng(seed)
        args = [argument(spec, rng, special) for spec in CASES[name]]
        before = rxt_tf.stats()["native"]
        result = wrapped(*args)
        assert rxt_tf.stats()["native"] == before + 1, rxt_tf.stats()["fallbacks"]
        assert same(result, wrapped.tf_function(*args)), name


def test_the_corpus_holds_at_least_ten_real_functions() -> None:
    assert len(FUNCTIONS) >= 10
    assert all(isinstance(tf.function, object) for _ in FUNCTIONS)


def stateful_partitioned_call(function: object, args: list[object]) -> list[object]:
    """The concrete function of `function` for `args` run as Python would
    run one `StatefulPartitionedCall` of it."""
    from tensorflow.python.eager import context, execute

    concrete = function.tf_function.get_concrete_function(*args)  # type: ignore[attr-defined]
    inputs = [a for a in args if isinstance(a, tf.Tensor)] + list(concrete.captured_inputs)
    tin = [t.dtype.as_datatype_enum for t in inputs]
    tout = [t.dtype.as_datatype_enum for t in concrete.outputs]
    attrs = ("Tin", tin, "Tout", tout, "f", concrete.function_def.signature.name)
    return execute.execute(
        "StatefulPartitionedCall", len(concrete.outputs), inputs, attrs, context.context()
    )


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_inexact_calls_equal_one_stateful_partitioned_call(name: str) -> None:
    wrapped = rxt_tf.function(FUNCTIONS[name], exact=False)
    assert not wrapped.exact
    for seed, special in ((1, False), (3, True)):
        rng = np.random.default_rng(seed)
        args = [argument(spec, rng, special) for spec in CASES[name]]
        before = rxt_tf.stats()["native"]
        flat = [t for t in tf.nest.flatten(wrapped(*args)) if t is not None]
        assert rxt_tf.stats()["native"] == before + 1
        reference = stateful_partitioned_call(wrapped, args)
        assert all(same_bits(a, b) for a, b in zip(flat, reference, strict=True)), name


def test_exact_is_what_tells_rescaling_apart_on_a_negative_zero() -> None:
    # x * scale + 0.0: the tf.function's graph drops the `+ 0.0`, so -0.0
    # stays -0.0; inlined into a StatefulPartitionedCall's wrapper it stays.
    x = tf.constant([[-0.0, 1.0]])
    exact = rxt_tf.function(FUNCTIONS["rescaling"])
    inexact = rxt_tf.function(FUNCTIONS["rescaling"], exact=False)
    args = [tf.reshape(tf.tile(x, [1, 192]), (2, 8, 8, 3))]
    reference = exact.tf_function(*args)
    assert same_bits(exact(*args), reference)
    assert not same_bits(inexact(*args), reference)
    assert np.array_equal(inexact(*args).numpy(), reference.numpy())


def test_exact_calls_follow_a_changed_optimizer_configuration() -> None:
    # With constant folding off, the tf.function's graph keeps `+ 0.0` and
    # -0.0 gives +0.0: an exact call reads the thread's configuration at
    # each call, as TensorFlow does, and follows.
    x = tf.reshape(tf.tile(tf.constant([[-0.0, 1.0]]), [1, 192]), (2, 8, 8, 3))
    exact = rxt_tf.function(FUNCTIONS["rescaling"])
    negative = int(np.signbit(exact(x).numpy()).sum())
    assert negative == 192
    before = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"constant_folding": False})
    try:
        changed = exact(x)
        assert same_bits(changed, exact.tf_function(x))
        assert int(np.signbit(changed.numpy()).sum()) == 0
    finally:
        tf.config.optimizer.set_experimental_options({"constant_folding": True, **before})
    assert same_bits(exact(x), exact.tf_function(x))
