"""Functions the E2E tests build with `rextio build` and the rxt-tf plugin."""

import tensorflow as tf

from rxt_tf_plugin.types import TensorF32Cpu1D, TensorF32Cpu2D


def inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> TensorF32Cpu1D:
    h = tf.matmul(x, weight)
    h = tf.nn.relu(h)
    h = h + bias
    return tf.reduce_mean(h, axis=1)


def inference_aliases(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> TensorF32Cpu1D:
    h = tf.linalg.matmul(x, weight)
    h = tf.nn.sigmoid(h)
    h = tf.math.add(h, bias)
    return tf.math.reduce_mean(h, axis=1, keepdims=False)


def add_1d_1d(a: TensorF32Cpu1D, b: TensorF32Cpu1D) -> TensorF32Cpu1D:
    return a + tf.add(a, b)


def add_1d_2d(a: TensorF32Cpu1D, b: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.add(a, b) + a


def deep_inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
    depth: int,
    use_relu: int,
) -> TensorF32Cpu1D:
    h = tf.matmul(x, weight)
    for _ in range(depth):
        if use_relu > 0:
            h = tf.nn.relu(h)
        else:
            h = tf.nn.sigmoid(h)
    h = h + bias
    return tf.reduce_mean(h, axis=1)


def transposed(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> TensorF32Cpu2D:
    return tf.matmul(a, b, transpose_b=True)
