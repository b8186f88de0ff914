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
