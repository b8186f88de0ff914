"""The seed's `inference(x, weight, bias)` natively (the example extension
over rxt-tf) and with eager TensorFlow, on the same tensors: both results,
their max difference, and the per-call time of each."""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import rxt_tf_example  # noqa: E402


def eager_inference(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor) -> tf.Tensor:
    """The seed's function, run by eager TensorFlow."""
    h = tf.matmul(x, weight)
    h = tf.nn.relu(h)
    h = h + bias
    return tf.reduce_mean(h, axis=1)


def per_call_us(fn, args, calls: int = 2_000, rounds: int = 7) -> float:
    """Median over `rounds` of the mean time of `calls` calls, in µs."""
    for _ in range(200):
        fn(*args)
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def main() -> None:
    x = tf.random.stateless_normal([4, 8], seed=[1, 2])
    weight = tf.random.stateless_normal([8, 4], seed=[3, 4])
    bias = tf.random.stateless_normal([4], seed=[5, 6])
    args = (x, weight, bias)

    native = rxt_tf_example.inference(*args)
    eager = eager_inference(*args)
    diff = float(np.max(np.abs(native.numpy() - eager.numpy())))
    print(f"inputs: x {x.shape}, weight {weight.shape}, bias {bias.shape} (float32, CPU:0)")
    print(f"native (rxt-tf): {native.numpy()}  [{type(native).__name__}]")
    print(f"eager TF:        {eager.numpy()}  [{type(eager).__name__}]")
    print(f"max |native - eager| = {diff:.3g}")

    native_us = per_call_us(rxt_tf_example.inference, args)
    eager_us = per_call_us(eager_inference, args)
    print(f"per call: native {native_us:.1f} µs, eager {eager_us:.1f} µs "
          f"(native/eager = {native_us / eager_us:.2f})")

    # A model whose weights live in Rust: built once from NumPy, called often.
    rng = np.random.default_rng(0)
    w1, b1 = rng.standard_normal((8, 16), np.float32), rng.standard_normal(16, np.float32)
    w2, b2 = rng.standard_normal((16, 3), np.float32), rng.standard_normal(3, np.float32)
    model = rxt_tf_example.Mlp(w1, b1, w2, b2)
    weights = [tf.constant(a) for a in (w1, b1, w2, b2)]

    def eager_mlp(x: tf.Tensor) -> tf.Tensor:
        h = tf.nn.relu(tf.matmul(x, weights[0]) + weights[1])
        return tf.nn.softmax(tf.matmul(h, weights[2]) + weights[3])

    batch = tf.constant(rng.standard_normal((4, 8)).astype(np.float32))
    probabilities, labels = model.classify(batch)
    mlp_diff = float(np.max(np.abs(probabilities.numpy() - eager_mlp(batch).numpy())))
    print(f"\nMlp (weights held in Rust): labels {labels.numpy()} [{labels.dtype.name}], "
          f"max |native - eager| = {mlp_diff:.3g}")
    model_us = per_call_us(model.predict, (batch,))
    eager_mlp_us = per_call_us(eager_mlp, (batch,))
    print(f"per call: Mlp.predict {model_us:.1f} µs, eager {eager_mlp_us:.1f} µs "
          f"(native/eager = {model_us / eager_mlp_us:.2f})")


if __name__ == "__main__":
    main()
