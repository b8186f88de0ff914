"""Runs inside a fresh interpreter over a `rextio build` output; prints JSON.

Usage: python check_built.py <build dir> <e2e_model.py>  (REXTIO_NATIVE_MODE=native).
Compares each built function, through Rextio's dispatcher and by its native
symbol, with the pure-Python original loaded from the source file (the built
tree's `_fallback_e2e_model` gets its functions replaced by the dispatcher): same
type, dtype and shape, the dtype and rank the return annotation names, integers
exactly equal and floats within what the test allows. Records the boundary errors.
"""

from __future__ import annotations

import importlib.util
import json
import sys

import numpy as np
import tensorflow as tf
from rxt_tf_plugin.ops import TENSOR_TYPES

sys.path.insert(0, sys.argv[1])

import _rextio_native as native_module  # noqa: E402
import e2e_model as built_module  # noqa: E402

_spec = importlib.util.spec_from_file_location("e2e_model_python", sys.argv[2])
assert _spec is not None and _spec.loader is not None
python_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(python_module)
assert python_module.inference is not built_module.inference

from e2e_cases import CASES, b_seq, bias, ids32, ints, k, v, w_seq, weight  # noqa: E402


def annotated(name: str) -> tuple[str, int]:
    """The dtype and rank of the function's return marker (`TensorI32Cpu2D`)."""
    marker = getattr(python_module, name).__annotations__["return"].__name__
    kinds = {tensor.marker: (tensor.dtype, tensor.rank) for tensor in TENSOR_TYPES}
    assert marker in kinds, (name, marker)
    return kinds[marker]


def compare(name: str) -> dict[str, object]:
    worst = 0.0
    kinds = set()
    dtypes = set()
    exact = True
    dtype, rank = annotated(name)
    for args in CASES[name]:
        want = getattr(python_module, name)(*args)
        assert want.dtype.name == dtype and want.shape.rank == rank, (name, want)
        routes = [getattr(built_module, name)]
        symbol = f"e2e_model__{name}"
        if hasattr(native_module, symbol):
            routes.append(getattr(native_module, symbol))
        for route in routes:
            got = route(*args)
            kinds.add(type(got).__name__)
            dtypes.add(got.dtype.name)
            assert got.shape == want.shape and got.dtype == want.dtype, (name, got, want)
            got_np, want_np = got.numpy(), want.numpy()
            exact = exact and np.array_equal(got_np, want_np, equal_nan=got_np.dtype.kind == "f")
            if got_np.dtype.kind == "f":
                # NaN in the same places, then compare the rest.
                assert np.array_equal(np.isnan(got_np), np.isnan(want_np)), (name, got, want)
                got_np, want_np = np.nan_to_num(got_np), np.nan_to_num(want_np)
            if got_np.size:
                diff = got_np.astype(np.float64) - want_np.astype(np.float64)
                worst = max(worst, float(np.max(np.abs(diff))))
    return {
        "max_abs_diff": worst,
        "exact": exact,
        "result_types": sorted(kinds),
        "result_dtypes": sorted(dtypes),
        "native_symbol": hasattr(native_module, f"e2e_model__{name}"),
    }


def boundary_errors() -> dict[str, list[str]]:
    bad = {
        "float64": (built_module.inference, tf.constant(np.ones((3, 8))), weight, bias),
        "rank1": (built_module.inference, tf.ones((8,)), weight, bias),
        "variable": (built_module.inference, tf.Variable(tf.ones((3, 8))), weight, bias),
        "numpy": (built_module.inference, np.ones((3, 8), np.float32), weight, bias),
        "rank3_for_rank4": (built_module.attention, tf.ones((3, 5, 64)), k, v),
        "int64_for_int32": (built_module.shift_ids, tf.cast(ids32, tf.int64),
                            ints(np.int32, 7)),
        "float32_for_int32": (built_module.id_counts, tf.ones((3, 7))),
        "int32_for_float32": (built_module.sequence_encoder, tf.ones((2, 6, 8), tf.int32),
                              w_seq, b_seq),
    }
    seen = {}
    for label, (function, *args) in bad.items():
        try:
            function(*args)
        except Exception as exc:  # noqa: BLE001 - recorded for the test to judge
            seen[label] = [type(exc).__name__, str(exc)]
        else:
            seen[label] = ["no error", ""]
    return seen


print(json.dumps({
    "functions": {name: compare(name) for name in CASES},
    "boundary_errors": boundary_errors(),
}))
