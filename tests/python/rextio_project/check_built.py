"""Runs inside a fresh interpreter over a `rextio build` output; prints JSON.

Usage: python check_built.py <build dir> <e2e_model.py>  (REXTIO_NATIVE_MODE=native).
Compares each built function, through Rextio's dispatcher and by its native
symbol, with the pure-Python original loaded from the source file (the built
tree's `_fallback_e2e_model` gets its functions replaced by the dispatcher), and
records the boundary errors.
"""

from __future__ import annotations

import importlib.util
import json
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, sys.argv[1])

import _rextio_native as native_module  # noqa: E402
import e2e_model as built_module  # noqa: E402

_spec = importlib.util.spec_from_file_location("e2e_model_python", sys.argv[2])
assert _spec is not None and _spec.loader is not None
python_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(python_module)
assert python_module.inference is not built_module.inference

rng = np.random.default_rng(7)


def tensor(*shape: int) -> tf.Tensor:
    return tf.constant(rng.standard_normal(shape).astype(np.float32))


x, weight, bias = tensor(3, 8), tensor(8, 4), tensor(4)
a1, b1, b2 = tensor(4), tensor(4), tensor(3, 4)
head = (x, tensor(8, 16), tensor(16), tensor(16, 5), tensor(5))
special = tf.constant(
    np.array([[1.5, -2.0, 0.0, -0.0], [np.nan, 3.25, -np.inf, 7.0], [np.inf, -1e-30, 1e3, -5.5]],
             dtype=np.float32))
CASES = {
    "inference": [(x, weight, bias), (tensor(1, 8), weight, bias)],
    "inference_aliases": [(x, weight, bias)],
    "add_1d_1d": [(a1, b1)],
    "add_1d_2d": [(a1, b2)],
    "deep_inference": [
        (x, weight, bias, depth, use_relu) for depth in (0, 1, 3) for use_relu in (0, 1)
    ],
    "transposed": [(x, tensor(5, 8))],
    "classifier_head": [head, (tensor(1, 8), *head[1:])],
    "classifier_labels": [head],
    "layer_norm": [(x, tensor(8), tensor(8)), (tensor(0, 8), tensor(8), tensor(8))],
    "scalars": [(x,), (special,)],
    "activations": [(b2, tensor(4)), (special, tensor(4))],
    "reductions": [(x,), (special,)],
    "log_probs": [(tensor(6),)],
    "positional_keepdims": [(x,)],
}


def compare(name: str) -> dict[str, object]:
    worst = 0.0
    kinds = set()
    for args in CASES[name]:
        want = getattr(python_module, name)(*args)
        routes = [getattr(built_module, name)]
        symbol = f"e2e_model__{name}"
        if hasattr(native_module, symbol):
            routes.append(getattr(native_module, symbol))
        for route in routes:
            got = route(*args)
            kinds.add(type(got).__name__)
            assert got.shape == want.shape and got.dtype == want.dtype, (name, got, want)
            got_np, want_np = got.numpy(), want.numpy()
            if got_np.dtype.kind == "f":
                # NaN in the same places, then compare the rest.
                assert np.array_equal(np.isnan(got_np), np.isnan(want_np)), (name, got, want)
                got_np, want_np = np.nan_to_num(got_np), np.nan_to_num(want_np)
            if got_np.size:
                worst = max(worst, float(np.max(np.abs(got_np - want_np))))
    return {
        "max_abs_diff": worst,
        "result_types": sorted(kinds),
        "native_symbol": hasattr(native_module, f"e2e_model__{name}"),
    }


def boundary_errors() -> dict[str, list[str]]:
    bad = {
        "float64": tf.constant(np.ones((3, 8))),
        "rank1": tf.ones((8,)),
        "variable": tf.Variable(tf.ones((3, 8))),
        "numpy": np.ones((3, 8), np.float32),
    }
    seen = {}
    for label, value in bad.items():
        try:
            built_module.inference(value, weight, bias)
        except Exception as exc:  # noqa: BLE001 - recorded for the test to judge
            seen[label] = [type(exc).__name__, str(exc)]
        else:
            seen[label] = ["no error", ""]
    return seen


print(json.dumps({
    "functions": {name: compare(name) for name in CASES},
    "boundary_errors": boundary_errors(),
}))
