"""A Keras `Dense` on a sequence (`tf.tensordot`, bias, relu) per call.

The example extension's `dense_sequence` (fused by `#[rxt_tf::inference]`;
`tensordot` itself runs per op inside the body, as it reads sizes) beside
the same Python eagerly and through `tf.function`, interleaved in one
process. Prints medians (µs) and ratios to eager.

    python bench/dense_sequence.py
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import rxt_tf_example
import tensorflow as tf

from interleaved import medians


def eager(args: tuple[tf.Tensor, tf.Tensor, tf.Tensor]) -> tf.Tensor:
    """The layer as Keras writes it."""
    x, kernel, bias = args
    return tf.nn.relu(tf.tensordot(x, kernel, [[2], [0]]) + bias)


def main() -> None:
    """Two sizes, each timed interleaved."""
    rng = np.random.default_rng(0)
    for batch, steps, width, units in [(1, 8, 16, 16), (8, 32, 64, 64)]:
        args = tuple(
            tf.constant(rng.standard_normal(shape).astype(np.float32))
            for shape in [(batch, steps, width), (width, units), (units,)]
        )
        function = tf.function(eager)
        calls = {
            "native": lambda a: rxt_tf_example.dense_sequence(*a),
            "eager": eager,
            "tf.function": function,
        }
        times = medians(calls, args, rounds=15, per_round=200)
        base = times["eager"]
        print(f"[{batch}, {steps}, {width}] × [{width}, {units}]:")
        for label, seconds in times.items():
            print(f"  {label:12} {seconds * 1e6:8.1f} µs  {seconds / base:5.2f}× eager")


if __name__ == "__main__":
    sys.exit(main())
