"""tf-keras attention and softmax: MultiHeadAttention, the dense attention layers and
Softmax (their `call` bodies and the helpers they call).

Taken verbatim; see the package README for what was adapted and how.
"""

import math
import numbers
from typing import Optional, Tuple

import tensorflow as tf

from rxt_tf_plugin.types import (
    TensorBoolCpu3D,
    TensorBoolCpu4D,
    TensorF32Cpu0D,
    TensorF32Cpu1D,
    TensorF32Cpu3D,
    TensorF32Cpu4D,
)

from keras_backend import backend


# Source: keras-team/tf-keras tf_keras/layers/activation/softmax.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, _large_compatible_negative (lines 28-45)
# Adapted: module-level helper of softmax.py, verbatim (also used by masked_softmax below).
def _large_compatible_negative(tensor_type):
    """Large negative number as Tensor.

    This function is necessary because the standard value for epsilon
    in this module (-1e9) cannot be represented using tf.float16

    Args:
        tensor_type: a dtype to determine the type.

    Returns:
        a large negative number.
    """
    # In case of dtype=float16 (e.g., for mixed-precision), the largest
    # negative number (dtypes.float16.min) is divided by 2, in order to
    # avoid overflows when summing negative inputs.
    if tensor_type == tf.float16:
        return tf.float16.min / 2.0
    return -1e9


# Source: keras-team/tf-keras tf_keras/layers/activation/softmax.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Softmax.call (lines 91-121)
# Adapted: the `self._softmax` sub-layer of MultiHeadAttention: Softmax(axis=norm_axes=(3,), robust_masking=False) for rank-4 scores; config as constants.
MULTI_HEAD_ATTENTION_SOFTMAX_ROBUST_MASKING = False
MULTI_HEAD_ATTENTION_SOFTMAX_AXIS = (3,)
def _softmax(
    inputs: TensorF32Cpu4D, mask: Optional[TensorBoolCpu4D] = None
) -> TensorF32Cpu4D:
    if mask is not None:
        if MULTI_HEAD_ATTENTION_SOFTMAX_ROBUST_MASKING:
            # We keep the positions where the mask is True or > 0.5, and set
            # the other (masked) positions to -1e.9.
            if mask.dtype is not tf.bool:
                mask = tf.greater(mask, tf.constant(0.5, dtype=mask.dtype))
            inputs = tf.where(
                mask, inputs, _large_compatible_negative(inputs.dtype)
            )
        else:
            # Since mask is 1.0 for positions we want to keep and 0.0 for
            # masked positions, this operation will create a tensor which is
            # 0.0 for positions we want to attend and -1e.9 for masked
            # positions.
            adder = (1.0 - tf.cast(mask, inputs.dtype)) * (
                _large_compatible_negative(inputs.dtype)
            )

            # Since we are adding it to the raw scores before the softmax,
            # this is effectively the same as removing these entirely.
            inputs += adder
    if isinstance(MULTI_HEAD_ATTENTION_SOFTMAX_AXIS, (tuple, list)):
        if len(MULTI_HEAD_ATTENTION_SOFTMAX_AXIS) > 1:
            return tf.exp(
                inputs
                - tf.reduce_logsumexp(inputs, axis=MULTI_HEAD_ATTENTION_SOFTMAX_AXIS, keepdims=True)
            )
        else:
            return backend.softmax(inputs, axis=MULTI_HEAD_ATTENTION_SOFTMAX_AXIS[0])
    return backend.softmax(inputs, axis=MULTI_HEAD_ATTENTION_SOFTMAX_AXIS)


# Source: keras-team/tf-keras tf_keras/layers/regularization/dropout.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Dropout.call (lines 108-123)
# Adapted: the `self._dropout_layer` sub-layer of MultiHeadAttention: Dropout(rate=0.0) (the MHA default); rate as constant; dropped the training path after the rate == 0 early return (lines 112-123: backend.learning_phase, random generator, smart_cond).
MULTI_HEAD_ATTENTION_DROPOUT_RATE = 0.0
def _dropout_layer(inputs: TensorF32Cpu4D, training: Optional[bool] = None) -> TensorF32Cpu4D:
    if isinstance(MULTI_HEAD_ATTENTION_DROPOUT_RATE, numbers.Real) and MULTI_HEAD_ATTENTION_DROPOUT_RATE == 0:
        return tf.identity(inputs)


# Source: keras-team/tf-keras tf_keras/layers/attention/multi_head_attention.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, MultiHeadAttention._masked_softmax (lines 492-506)
# Adapted: config MultiHeadAttention(num_heads=2, key_dim=4) on rank-3 query/value: _attention_axes (1,) as constant; self._softmax sub-layer call -> module helper _softmax.
MULTI_HEAD_ATTENTION_ATTENTION_AXES = (1,)
def _masked_softmax(
    attention_scores: TensorF32Cpu4D, attention_mask: Optional[TensorBoolCpu3D] = None
) -> TensorF32Cpu4D:
    # Normalize the attention scores to probabilities.
    # `attention_scores` = [B, N, T, S]
    if attention_mask is not None:
        # The expand dim happens starting from the `num_heads` dimension,
        # (<batch_dims>, num_heads, <query_attention_dims,
        # key_attention_dims>)
        mask_expansion_axis = -len(MULTI_HEAD_ATTENTION_ATTENTION_AXES) * 2 - 1
        for _ in range(
            len(attention_scores.shape) - len(attention_mask.shape)
        ):
            attention_mask = tf.expand_dims(
                attention_mask, axis=mask_expansion_axis
            )
    return _softmax(attention_scores, attention_mask)


# Source: keras-team/tf-keras tf_keras/layers/attention/multi_head_attention.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, MultiHeadAttention._compute_attention (lines 508-552)
# Adapted: config MultiHeadAttention(num_heads=2, key_dim=4) on rank-3 inputs: _key_dim and the einsum equations built by _build_attention_equation(4, attn_axes=(1,)) as constants; self._masked_softmax / self._dropout_layer -> module helpers _masked_softmax / _dropout_layer.
MULTI_HEAD_ATTENTION_KEY_DIM = 4
MULTI_HEAD_ATTENTION_DOT_PRODUCT_EQUATION = "aecd,abcd->acbe"
MULTI_HEAD_ATTENTION_COMBINE_EQUATION = "acbe,aecd->abcd"
def multi_head_attention_compute_attention(
    query: TensorF32Cpu4D,
    key: TensorF32Cpu4D,
    value: TensorF32Cpu4D,
    attention_mask: Optional[TensorBoolCpu3D] = None,
    training: Optional[bool] = None,
) -> Tuple[TensorF32Cpu4D, TensorF32Cpu4D]:
    """Applies Dot-product attention with query, key, value tensors.

    This function defines the computation inside `call` with projected
    multi-head Q, K, V inputs. Users can override this function for
    customized attention implementation.

    Args:
        query: Projected query `Tensor` of shape `(B, T, N, key_dim)`.
        key: Projected key `Tensor` of shape `(B, S, N, key_dim)`.
        value: Projected value `Tensor` of shape `(B, S, N, value_dim)`.
        attention_mask: a boolean mask of shape `(B, T, S)`, that prevents
            attention to certain positions. It is generally not needed if
            the `query` and `value` (and/or `key`) are masked.
        training: Python boolean indicating whether the layer should behave
            in training mode (adding dropout) or in inference mode (doing
            nothing).

    Returns:
      attention_output: Multi-headed outputs of attention computation.
      attention_scores: Multi-headed attention weights.
    """
    # Note: Applying scalar multiply at the smaller end of einsum improves
    # XLA performance, but may introduce slight numeric differences in
    # the Transformer attention head.
    query = tf.multiply(query, 1.0 / math.sqrt(float(MULTI_HEAD_ATTENTION_KEY_DIM)))

    # Take the dot product between "query" and "key" to get the raw
    # attention scores.
    attention_scores = tf.einsum(MULTI_HEAD_ATTENTION_DOT_PRODUCT_EQUATION, key, query)
    attention_scores = _masked_softmax(
        attention_scores, attention_mask
    )
    # This is actually dropping out entire tokens to attend to, which might
    # seem a bit unusual, but is taken from the original Transformer paper.
    attention_scores_dropout = _dropout_layer(
        attention_scores, training=training
    )
    # `context_layer` = [B, T, N, H]
    attention_output = tf.einsum(
        MULTI_HEAD_ATTENTION_COMBINE_EQUATION, attention_scores_dropout, value
    )
    return attention_output, attention_scores


# Source: keras-team/tf-keras tf_keras/layers/activation/softmax.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Softmax.call (lines 91-121)
# Adapted: config Softmax() (axis=-1, robust_masking=False) as constants; `backend` is the tf-keras stand-in above.
SOFTMAX_ROBUST_MASKING = False
SOFTMAX_AXIS = -1
def softmax_layer(
    inputs: TensorF32Cpu3D, mask: Optional[TensorBoolCpu3D] = None
) -> TensorF32Cpu3D:
    if mask is not None:
        if SOFTMAX_ROBUST_MASKING:
            # We keep the positions where the mask is True or > 0.5, and set
            # the other (masked) positions to -1e.9.
            if mask.dtype is not tf.bool:
                mask = tf.greater(mask, tf.constant(0.5, dtype=mask.dtype))
            inputs = tf.where(
                mask, inputs, _large_compatible_negative(inputs.dtype)
            )
        else:
            # Since mask is 1.0 for positions we want to keep and 0.0 for
            # masked positions, this operation will create a tensor which is
            # 0.0 for positions we want to attend and -1e.9 for masked
            # positions.
            adder = (1.0 - tf.cast(mask, inputs.dtype)) * (
                _large_compatible_negative(inputs.dtype)
            )

            # Since we are adding it to the raw scores before the softmax,
            # this is effectively the same as removing these entirely.
            inputs += adder
    if isinstance(SOFTMAX_AXIS, (tuple, list)):
        if len(SOFTMAX_AXIS) > 1:
            return tf.exp(
                inputs
                - tf.reduce_logsumexp(inputs, axis=SOFTMAX_AXIS, keepdims=True)
            )
        else:
            return backend.softmax(inputs, axis=SOFTMAX_AXIS[0])
    return backend.softmax(inputs, axis=SOFTMAX_AXIS)


# Source: keras-team/tf-keras tf_keras/layers/attention/attention.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Attention._calculate_scores (lines 171-199)
# Adapted: config Attention(use_scale=True, score_mode='dot') as constants (concat_score_weight is None for 'dot'); the scalar `scale` weight as a parameter.
ATTENTION_SCORE_MODE = "dot"
ATTENTION_CONCAT_SCORE_WEIGHT = None
def attention_calculate_scores(
    query: TensorF32Cpu3D, key: TensorF32Cpu3D, scale: TensorF32Cpu0D
) -> TensorF32Cpu3D:
    """Calculates attention scores as a query-key dot product.

    Args:
        query: Query tensor of shape `[batch_size, Tq, dim]`.
        key: Key tensor of shape `[batch_size, Tv, dim]`.
    Returns:
        Tensor of shape `[batch_size, Tq, Tv]`.
    """
    if ATTENTION_SCORE_MODE == "dot":
        scores = tf.matmul(query, key, transpose_b=True)
        if scale is not None:
            scores *= scale
    elif ATTENTION_SCORE_MODE == "concat":
        # Reshape tensors to enable broadcasting.
        # Reshape into [batch_size, Tq, 1, dim].
        q_reshaped = tf.expand_dims(query, axis=-2)
        # Reshape into [batch_size, 1, Tv, dim].
        k_reshaped = tf.expand_dims(key, axis=-3)
        if scale is not None:
            scores = ATTENTION_CONCAT_SCORE_WEIGHT * tf.reduce_sum(
                tf.tanh(scale * (q_reshaped + k_reshaped)), axis=-1
            )
        else:
            scores = ATTENTION_CONCAT_SCORE_WEIGHT * tf.reduce_sum(
                tf.tanh(q_reshaped + k_reshaped), axis=-1
            )

    return scores


# Source: keras-team/tf-keras tf_keras/layers/attention/additive_attention.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, AdditiveAttention._calculate_scores (lines 154-172)
# Adapted: config AdditiveAttention(use_scale=True) (the default) as constant; the `scale` weight (shape [dim]) as a parameter.
ADDITIVE_ATTENTION_USE_SCALE = True
def additive_attention_calculate_scores(
    query: TensorF32Cpu3D, key: TensorF32Cpu3D, scale: TensorF32Cpu1D
) -> TensorF32Cpu3D:
    """Calculates attention scores as a nonlinear sum of query and key.

    Args:
        query: Query tensor of shape `[batch_size, Tq, dim]`.
        key: Key tensor of shape `[batch_size, Tv, dim]`.
    Returns:
        Tensor of shape `[batch_size, Tq, Tv]`.
    """
    # Reshape tensors to enable broadcasting.
    # Reshape into [batch_size, Tq, 1, dim].
    q_reshaped = tf.expand_dims(query, axis=-2)
    # Reshape into [batch_size, 1, Tv, dim].
    k_reshaped = tf.expand_dims(key, axis=-3)
    if ADDITIVE_ATTENTION_USE_SCALE:
        scale = scale
    else:
        scale = 1.0
    return tf.reduce_sum(scale * tf.tanh(q_reshaped + k_reshaped), axis=-1)


# Source: keras-team/tf-keras tf_keras/layers/attention/base_dense_attention.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, BaseDenseAttention._apply_scores (lines 104-156)
# Adapted: config dropout=0.0 (the default); dropped the training-only code: `training = backend.learning_phase()` (lines 142-143) and the `if self.dropout > 0:` dropout branch (lines 146-155, needs the layer's random generator and control_flow_util).
def dense_attention_apply_scores(
    scores: TensorF32Cpu3D,
    value: TensorF32Cpu3D,
    scores_mask: Optional[TensorBoolCpu3D] = None,
    training: Optional[bool] = None,
) -> Tuple[TensorF32Cpu3D, TensorF32Cpu3D]:
    """Applies attention scores to the given value tensor.

    To use this method in your attention layer, follow the steps:

    * Use `query` tensor of shape `[batch_size, Tq]` and `key` tensor of
        shape `[batch_size, Tv]` to calculate the attention `scores`.
    * Pass `scores` and `value` tensors to this method. The method applies
        `scores_mask`, calculates
        `attention_distribution = softmax(scores)`, then returns
        `matmul(attention_distribution, value).
    * Apply `query_mask` and return the result.

    Args:
        scores: Scores float tensor of shape `[batch_size, Tq, Tv]`.
        value: Value tensor of shape `[batch_size, Tv, dim]`.
        scores_mask: A boolean mask `Tensor` of shape `[batch_size, 1, Tv]`
            or `[batch_size, Tq, Tv]`. If given, scores at positions where
            `scores_mask==False` do not contribute to the result. It must
            contain at least one `True` value in each line along the last
            dimension.
        training: Python boolean indicating whether the layer should behave
            in training mode (adding dropout) or in inference mode
            (no dropout).

    Returns:
        Tensor of shape `[batch_size, Tq, dim]`.
        Attention scores after masking and softmax with shape
            `[batch_size, Tq, Tv]`.
    """
    if scores_mask is not None:
        padding_mask = tf.logical_not(scores_mask)
        # Bias so padding positions do not contribute to attention
        # distribution.  Note 65504. is the max float16 value.
        if scores.dtype is tf.float16:
            scores -= 65504.0 * tf.cast(padding_mask, dtype=scores.dtype)
        else:
            scores -= 1.0e9 * tf.cast(padding_mask, dtype=scores.dtype)
    weights = tf.nn.softmax(scores)

    return tf.matmul(weights, value), weights
