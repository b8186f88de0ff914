"""Runs every corpus function on generated inputs; writes each result's bytes.

Usage: python run_cases.py <modules dir> <out.json>

Imports the corpus modules from ``<modules dir>`` (the sources as written, the
sources after ``explain --fix``, or a ``rextio build`` tree, whose dispatchers
run the native functions when ``REXTIO_NATIVE_MODE=native``) and calls each
function of ``cases.CASES`` on three input sets: standard normal values, small
integers and a set of special values (NaN, infinities, signed zeros, values
beyond float32's range of exp). Each result is recorded as its structure,
dtypes, shapes and hex bytes, or as the exception's type, so two runs compare
bit for bit.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -3.5, 88.8, 1e30], np.float32)
"""Values that tell kernels apart: a result differs in their places first."""


def argument(spec: Any, rng: np.random.Generator, special: bool) -> Any:
    if not (isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str)):
        return spec
    dtype, shape = spec
    if dtype in ("float32", "float64"):
        if special:
            value = rng.choice(SPECIAL, size=shape).astype(dtype)
        else:
            value = rng.standard_normal(shape).astype(dtype)
    elif dtype in ("int32", "int64"):
        value = rng.integers(0, 5, size=shape).astype(dtype)
    else:
        value = rng.random(shape) < 0.7
    return tf.constant(value)


def record(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [record(item) for item in value]
    if value is None:
        return None
    array = np.asarray(value)
    return {
        "type": type(value).__name__,
        "dtype": str(array.dtype),
        "shape": list(array.shape),
        "bytes": array.tobytes().hex(),
    }


def main() -> int:
    sys.path.insert(0, sys.argv[1])
    cases = importlib.import_module("cases")
    modules = [importlib.import_module(name) for name in cases.MODULES]
    # A module Rextio built with native functions is a dispatcher that leaves
    # out `_private` names; they stay on Python, in its `_fallback_` module.
    modules += [
        importlib.import_module(f"_fallback_{name}")
        for name in cases.MODULES
        if importlib.util.find_spec(f"_fallback_{name}") is not None
    ]
    results: dict[str, list[Any]] = {}
    for name, specs in cases.CASES.items():
        function = next(getattr(m, name) for m in modules if hasattr(m, name))
        runs: list[Any] = []
        for seed, special in ((0, False), (1, False), (2, True)):
            rng = np.random.default_rng(seed)
            args = [argument(spec, rng, special) for spec in specs]
            try:
                runs.append(record(function(*args)))
            except Exception as exc:  # noqa: BLE001 - the type is the result
                runs.append({"error": type(exc).__name__})
        results[name] = runs
    with open(sys.argv[2], "w") as out:
        json.dump(results, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
