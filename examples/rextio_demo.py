"""The Rextio route of `make demo`: call the function `rextio build` compiled
from examples/rextio-project/seed_model.py and print it beside eager TF."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["REXTIO_NATIVE_MODE"] = "native"  # fail rather than quietly run Python

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent / "rextio-project" / ".rextio" / "build" / "python"))

import seed_model as built  # noqa: E402
from demo import per_call_us  # noqa: E402

# The pure-Python original, from the project's source (the built tree's
# fallback module has its functions replaced by Rextio's dispatcher).
_spec = importlib.util.spec_from_file_location(
    "seed_model_python", Path(__file__).parent / "rextio-project" / "seed_model.py"
)
assert _spec is not None and _spec.loader is not None
eager = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eager)


rng = np.random.default_rng(0)
x = tf.constant(rng.standard_normal((4, 8)).astype(np.float32))
w = tf.constant(rng.standard_normal((8, 4)).astype(np.float32))
b = tf.constant(rng.standard_normal(4).astype(np.float32))

native, reference = built.inference(x, w, b), eager.inference(x, w, b)
print("Rextio route (seed_model.inference built with the rxt-tf plugin):")
print(f"  native : {native.numpy()}")
print(f"  eager  : {reference.numpy()}")
print(f"  max |diff| = {float(np.max(np.abs(native.numpy() - reference.numpy())))}")
n_us, e_us = per_call_us(built.inference, (x, w, b)), per_call_us(eager.inference, (x, w, b))
print(f"  per call: native {n_us:.1f} us, eager {e_us:.1f} us ({n_us / e_us:.2f}x)")
