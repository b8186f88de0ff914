"""TF Model Garden (tf-models-official) NLP layers: their `call` bodies.

Taken verbatim; see the package README for what was adapted and how.
"""

from typing import Optional

import tensorflow as tf

from rxt_tf_plugin.types import (
    TensorF32Cpu2D,
    TensorF32Cpu3D,
    TensorF32Cpu4D,
    TensorI32Cpu2D,
)


# =============================================================================
# TF Model Garden (tf-models-official) NLP layers
# =============================================================================


# Source: tensorflow/models official/nlp/modeling/layers/position_embedding.py @ tf-models-official==2.19.1 (wheel), PositionEmbedding.call (lines 86-94)
# Adapted: config PositionEmbedding(max_length=16, seq_axis=1) as constant; the `embeddings` weight (self._position_embeddings, shape [16, width]) as a parameter.
POSITION_EMBEDDING_SEQ_AXIS = 1
def position_embedding(
    inputs: TensorF32Cpu3D, _position_embeddings: TensorF32Cpu2D
) -> TensorF32Cpu3D:
  input_shape = tf.shape(inputs)
  actual_seq_len = input_shape[POSITION_EMBEDDING_SEQ_AXIS]
  position_embeddings = _position_embeddings[:actual_seq_len, :]
  new_shape = [1 for _ in inputs.get_shape().as_list()]
  new_shape[POSITION_EMBEDDING_SEQ_AXIS] = actual_seq_len
  new_shape[-1] = position_embeddings.get_shape().as_list()[-1]
  position_embeddings = tf.reshape(position_embeddings, new_shape)
  return tf.broadcast_to(position_embeddings, input_shape)


# Source: tensorflow/models official/nlp/modeling/layers/masked_softmax.py @ tf-models-official==2.19.1 (wheel), _large_compatible_negative (lines 21-35)
# Adapted: verbatim.
def _large_compatible_negative(tensor_type):
  """Large negative number as Tensor.

  This function is necessary because the standard value for epsilon
  in this module (-1e9) cannot be represented using `tf.float16`.

  Args:
    tensor_type: A dtype to determine the type.

  Returns:
    A large negative number.
  """
  if tensor_type == tf.float16:
    return tf.float16.min
  return -1e9


# Source: tensorflow/models official/nlp/modeling/layers/masked_softmax.py @ tf-models-official==2.19.1 (wheel), MaskedSoftmax.call (lines 58-77)
# Adapted: config MaskedSoftmax(mask_expansion_axes=[1]) (normalization_axes default (-1,)) as constants.
MASKED_SOFTMAX_MASK_EXPANSION_AXES = [1]
MASKED_SOFTMAX_NORMALIZATION_AXES = (-1,)
def masked_softmax(
    scores: TensorF32Cpu4D, mask: Optional[TensorF32Cpu3D] = None
) -> TensorF32Cpu4D:
  if mask is not None:
    for _ in range(len(scores.shape) - len(mask.shape)):
      mask = tf.expand_dims(mask, axis=MASKED_SOFTMAX_MASK_EXPANSION_AXES)

    # Since attention_mask is 1.0 for positions we want to attend and 0.0 for
    # masked positions, this operation will create a tensor which is 0.0 for
    # positions we want to attend and -1.e9 for masked positions.
    adder = (1.0 - tf.cast(mask, scores.dtype)) * _large_compatible_negative(
        scores.dtype)
    # Since we are adding it to the raw scores before the softmax, this is
    # effectively the same as removing these entirely.
    scores += adder

  if len(MASKED_SOFTMAX_NORMALIZATION_AXES) == 1:
    return tf.nn.softmax(scores, axis=MASKED_SOFTMAX_NORMALIZATION_AXES[0])
  else:
    return tf.math.exp(scores - tf.math.reduce_logsumexp(
        scores, axis=MASKED_SOFTMAX_NORMALIZATION_AXES, keepdims=True))


# Source: tensorflow/models official/nlp/modeling/layers/self_attention_mask.py @ tf-models-official==2.19.1 (wheel), get_mask (lines 20-45)
# Adapted: module-level helper of self_attention_mask.py, verbatim (signature included).
def get_mask(inputs: tf.Tensor,
             to_mask: tf.Tensor,
             dtype: Optional[tf.DType] = None) -> tf.Tensor:
  """Gets a 3D self-attention mask.

  Args:
    inputs: from_tensor: 2D or 3D Tensor of shape [batch_size, from_seq_length,
      ...].
    to_mask: int32 Tensor of shape [batch_size, to_seq_length].
    dtype: the output Tensor dtype.

  Returns:
    float Tensor of shape [batch_size, from_seq_length, to_seq_length].
  """
  from_shape = tf.shape(inputs)
  batch_size = from_shape[0]
  from_seq_length = from_shape[1]
  dtype = inputs.dtype if dtype is None else dtype

  to_shape = tf.shape(to_mask)
  to_seq_length = to_shape[1]

  to_mask = tf.cast(
      tf.reshape(to_mask, [batch_size, 1, to_seq_length]), dtype=dtype)

  return tf.broadcast_to(to_mask, [batch_size, from_seq_length, to_seq_length])


# Source: tensorflow/models official/nlp/modeling/layers/self_attention_mask.py @ tf-models-official==2.19.1 (wheel), SelfAttentionMask.call (lines 60-64)
# Adapted: no config; verbatim.
def self_attention_mask(
    inputs: TensorF32Cpu3D, to_mask: Optional[TensorI32Cpu2D] = None
) -> TensorF32Cpu3D:
  if isinstance(inputs, list) and to_mask is None:
    to_mask = inputs[1]
    inputs = inputs[0]
  return get_mask(inputs, to_mask)


# Source: tensorflow/models official/nlp/modeling/layers/on_device_embedding.py @ tf-models-official==2.19.1 (wheel), OnDeviceEmbedding.call (lines 94-114)
# Adapted: config OnDeviceEmbedding(vocab_size=20, embedding_width=8) (use_one_hot=False, scale_factor=None) as constants; the `embeddings` weight as a parameter (the body rebinds the same name locally).
ON_DEVICE_EMBEDDING_USE_ONE_HOT = False
ON_DEVICE_EMBEDDING_COMPUTE_DTYPE = "float32"
ON_DEVICE_EMBEDDING_WEIGHT_FALLBACK_DTYPE = tf.float32
ON_DEVICE_EMBEDDING_VOCAB_SIZE = 20
ON_DEVICE_EMBEDDING_EMBEDDING_WIDTH = 8
ON_DEVICE_EMBEDDING_SCALE_FACTOR = None
def on_device_embedding(inputs: TensorI32Cpu2D, embeddings: TensorF32Cpu2D) -> TensorF32Cpu3D:
  flat_inputs = tf.reshape(inputs, [-1])
  if ON_DEVICE_EMBEDDING_USE_ONE_HOT:
    dtype = ON_DEVICE_EMBEDDING_COMPUTE_DTYPE
    if not tf.dtypes.as_dtype(dtype).is_floating:
      # TensorFlow 1 compatibility. In TF1, self.compute_dtype is int32
      # instead of a floating-point dtype, as the dtype is inferred from the
      # dtype of the inputs
      dtype = ON_DEVICE_EMBEDDING_WEIGHT_FALLBACK_DTYPE
    one_hot_data = tf.one_hot(
        flat_inputs, depth=ON_DEVICE_EMBEDDING_VOCAB_SIZE, dtype=dtype)
    embeddings = tf.matmul(one_hot_data, embeddings)
  else:
    embeddings = tf.gather(embeddings, flat_inputs)
  embeddings = tf.reshape(
      embeddings,
      tf.concat([tf.shape(inputs), [ON_DEVICE_EMBEDDING_EMBEDDING_WIDTH]], axis=0))
  embeddings.set_shape(inputs.shape.as_list() + [ON_DEVICE_EMBEDDING_EMBEDDING_WIDTH])
  if ON_DEVICE_EMBEDDING_SCALE_FACTOR:
    embeddings *= ON_DEVICE_EMBEDDING_SCALE_FACTOR
  return embeddings
