"""Functions of the TensorFlow tutorials.

Taken verbatim; see the package README for what was adapted and how.
"""

from typing import Optional, Tuple

import numpy as np
import tensorflow as tf

from rxt_tf_plugin.types import (
    TensorF32Cpu0D,
    TensorF32Cpu1D,
    TensorF32Cpu2D,
    TensorF32Cpu3D,
    TensorF32Cpu4D,
    TensorI32Cpu2D,
)


# =============================================================================
# TensorFlow tutorials
# =============================================================================


# Source: tensorflow/text docs/tutorials/transformer.ipynb @ 17c38bf014810b80abbb7c13ff1c2ac3cd9f710f, code cell 63 positional_encoding (cell lines 1-14)
# Adapted: verbatim.
def positional_encoding(length: int, depth: int) -> TensorF32Cpu2D:
  depth = depth/2

  positions = np.arange(length)[:, np.newaxis]     # (seq, 1)
  depths = np.arange(depth)[np.newaxis, :]/depth   # (1, depth)

  angle_rates = 1 / (10000**depths)         # (1, depth)
  angle_rads = positions * angle_rates      # (pos, depth)

  pos_encoding = np.concatenate(
      [np.sin(angle_rads), np.cos(angle_rads)],
      axis=-1) 

  return tf.cast(pos_encoding, dtype=tf.float32)


# Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 48 scaled_dot_product_attention (cell lines 1-35)
# Adapted: verbatim (old TF Core transformer tutorial, last revision before it moved to tensorflow/text).
def scaled_dot_product_attention(
    q: TensorF32Cpu4D, k: TensorF32Cpu4D, v: TensorF32Cpu4D, mask: Optional[TensorF32Cpu4D]
) -> Tuple[TensorF32Cpu4D, TensorF32Cpu4D]:
  """Calculate the attention weights.
  q, k, v must have matching leading dimensions.
  k, v must have matching penultimate dimension, i.e.: seq_len_k = seq_len_v.
  The mask has different shapes depending on its type(padding or look ahead)
  but it must be broadcastable for addition.

  Args:
    q: query shape == (..., seq_len_q, depth)
    k: key shape == (..., seq_len_k, depth)
    v: value shape == (..., seq_len_v, depth_v)
    mask: Float tensor with shape broadcastable
          to (..., seq_len_q, seq_len_k). Defaults to None.

  Returns:
    output, attention_weights
  """

  matmul_qk = tf.matmul(q, k, transpose_b=True)  # (..., seq_len_q, seq_len_k)

  # scale matmul_qk
  dk = tf.cast(tf.shape(k)[-1], tf.float32)
  scaled_attention_logits = matmul_qk / tf.math.sqrt(dk)

  # add the mask to the scaled tensor.
  if mask is not None:
    scaled_attention_logits += (mask * -1e9)

  # softmax is normalized on the last axis (seq_len_k) so that the scores
  # add up to 1.
  attention_weights = tf.nn.softmax(scaled_attention_logits, axis=-1)  # (..., seq_len_q, seq_len_k)

  output = tf.matmul(attention_weights, v)  # (..., seq_len_q, depth_v)

  return output, attention_weights


# Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 41 create_padding_mask (cell lines 1-6)
# Adapted: verbatim (old TF Core transformer tutorial).
def create_padding_mask(seq: TensorI32Cpu2D) -> TensorF32Cpu4D:
  seq = tf.cast(tf.math.equal(seq, 0), tf.float32)

  # add extra dimensions to add the padding
  # to the attention logits.
  return seq[:, tf.newaxis, tf.newaxis, :]  # (batch_size, 1, 1, seq_len)


# Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 44 create_look_ahead_mask (cell lines 1-3)
# Adapted: verbatim (old TF Core transformer tutorial).
def create_look_ahead_mask(size: int) -> TensorF32Cpu2D:
  mask = 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)
  return mask  # (seq_len, seq_len)


# Source: tensorflow/docs site/en/tutorials/text/transformer.ipynb @ f957ee6185e5b2135da5c3d3f8ba0c429794ebe1, code cell 59 MultiHeadAttention.split_heads (cell lines 17-22)
# Adapted: tutorial MultiHeadAttention(d_model=8, num_heads=2): num_heads and depth (= d_model // num_heads) as constants.
TUTORIAL_MHA_NUM_HEADS = 2
TUTORIAL_MHA_DEPTH = 4
def split_heads(x: TensorF32Cpu3D, batch_size: int) -> TensorF32Cpu4D:
  """Split the last dimension into (num_heads, depth).
  Transpose the result such that the shape is (batch_size, num_heads, seq_len, depth)
  """
  x = tf.reshape(x, (batch_size, -1, TUTORIAL_MHA_NUM_HEADS, TUTORIAL_MHA_DEPTH))
  return tf.transpose(x, perm=[0, 2, 1, 3])


# Source: tensorflow/docs site/en/tutorials/generative/style_transfer.ipynb @ 7c3650212740204359d4ceae481abc79345541be, code cell 37 gram_matrix (cell lines 1-5)
# Adapted: verbatim.
def gram_matrix(input_tensor: TensorF32Cpu4D) -> TensorF32Cpu3D:
  result = tf.linalg.einsum('bijc,bijd->bcd', input_tensor, input_tensor)
  input_shape = tf.shape(input_tensor)
  num_locations = tf.cast(input_shape[1]*input_shape[2], tf.float32)
  return result/(num_locations)


# Source: tensorflow/docs site/en/tutorials/generative/style_transfer.ipynb @ 7c3650212740204359d4ceae481abc79345541be, code cell 61 high_pass_x_y (cell lines 1-5)
# Adapted: verbatim.
def high_pass_x_y(image: TensorF32Cpu4D) -> Tuple[TensorF32Cpu4D, TensorF32Cpu4D]:
  x_var = image[:, :, 1:, :] - image[:, :, :-1, :]
  y_var = image[:, 1:, :, :] - image[:, :-1, :, :]

  return x_var, y_var


# Source: tensorflow/docs site/en/tutorials/generative/style_transfer.ipynb @ 7c3650212740204359d4ceae481abc79345541be, code cell 66 total_variation_loss (cell lines 1-3)
# Adapted: verbatim; calls the tutorial's high_pass_x_y above.
def total_variation_loss(image: TensorF32Cpu4D) -> TensorF32Cpu0D:
  x_deltas, y_deltas = high_pass_x_y(image)
  return tf.reduce_sum(tf.abs(x_deltas)) + tf.reduce_sum(tf.abs(y_deltas))


# Source: tensorflow/docs site/en/tutorials/interpretability/integrated_gradients.ipynb @ 7c3650212740204359d4ceae481abc79345541be, code cell 36 interpolate_images (cell lines 1-9)
# Adapted: verbatim.
def interpolate_images(baseline: TensorF32Cpu3D,
                       image: TensorF32Cpu3D,
                       alphas: TensorF32Cpu1D) -> TensorF32Cpu4D:
  alphas_x = alphas[:, tf.newaxis, tf.newaxis, tf.newaxis]
  baseline_x = tf.expand_dims(baseline, axis=0)
  input_x = tf.expand_dims(image, axis=0)
  delta = input_x - baseline_x
  images = baseline_x +  alphas_x * delta
  return images


# Source: tensorflow/docs site/en/tutorials/interpretability/integrated_gradients.ipynb @ 7c3650212740204359d4ceae481abc79345541be, code cell 57 integral_approximation (cell lines 1-5)
# Adapted: verbatim.
def integral_approximation(gradients: TensorF32Cpu4D) -> TensorF32Cpu3D:
  # riemann_trapezoidal
  grads = (gradients[:-1] + gradients[1:]) / tf.constant(2.0)
  integrated_gradients = tf.math.reduce_mean(grads, axis=0)
  return integrated_gradients


# Source: tensorflow/docs site/en/tutorials/customization/custom_layers.ipynb @ 7c3650212740204359d4ceae481abc79345541be, code cell 14 MyDenseLayer.call (cell lines 11-12)
# Adapted: the `kernel` weight as a parameter.
def my_dense_layer(inputs: TensorF32Cpu2D, kernel: TensorF32Cpu2D) -> TensorF32Cpu2D:
  return tf.matmul(inputs, kernel)
