"""tf-keras layers: the bodies of their `call` methods (and the helpers they call).

Taken verbatim; see the package README for what was adapted and how.
"""

import functools
import operator
from typing import Optional

import tensorflow as tf

from rxt_tf_plugin.types import (
    TensorBoolCpu2D,
    TensorF32Cpu1D,
    TensorF32Cpu2D,
    TensorF32Cpu3D,
    TensorF32Cpu4D,
)

from keras_backend import backend, utils  # noqa: F401


# =============================================================================
# tf-keras layers
# =============================================================================


# Source: keras-team/tf-keras tf_keras/layers/normalization/layer_normalization.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, LayerNormalization.call (lines 254-350)
# Adapted: config LayerNormalization(axis=-1, epsilon=1e-6) built on a rank-3 input (axis -> [2], _fused False since epsilon < 1.001e-5) as constants; gamma/beta weights as parameters.
LAYER_NORMALIZATION_COMPUTE_DTYPE = "float32"
LAYER_NORMALIZATION_DTYPE = "float32"
LAYER_NORMALIZATION_AXIS = [2]
LAYER_NORMALIZATION_EPSILON = 1e-6
LAYER_NORMALIZATION_FUSED = False
def layer_normalization(
    inputs: TensorF32Cpu3D, gamma: TensorF32Cpu1D, beta: TensorF32Cpu1D
) -> TensorF32Cpu3D:
    # TODO(b/229545225): Remove the RaggedTensor check.
    is_ragged = isinstance(inputs, tf.RaggedTensor)
    if is_ragged:
        inputs_lengths = inputs.nested_row_lengths()
        inputs = inputs.to_tensor()
    inputs = tf.cast(inputs, LAYER_NORMALIZATION_COMPUTE_DTYPE)
    # Compute the axes along which to reduce the mean / variance
    input_shape = inputs.shape
    ndims = len(input_shape)

    # Broadcasting only necessary for norm when the axis is not just
    # the last dimension
    broadcast_shape = [1] * ndims
    for dim in LAYER_NORMALIZATION_AXIS:
        broadcast_shape[dim] = input_shape.dims[dim].value

    def _broadcast(v):
        if (
            v is not None
            and len(v.shape) != ndims
            and LAYER_NORMALIZATION_AXIS != [ndims - 1]
        ):
            return tf.reshape(v, broadcast_shape)
        return v

    if not LAYER_NORMALIZATION_FUSED:
        input_dtype = inputs.dtype
        if (
            input_dtype in ("float16", "bfloat16")
            and LAYER_NORMALIZATION_DTYPE == "float32"
        ):
            # If mixed precision is used, cast inputs to float32 so that
            # this is at least as numerically stable as the fused version.
            inputs = tf.cast(inputs, "float32")

        # Calculate the moments on the last axis (layer activations).
        mean, variance = tf.nn.moments(inputs, LAYER_NORMALIZATION_AXIS, keepdims=True)

        scale, offset = _broadcast(gamma), _broadcast(beta)

        # Compute layer normalization using the batch_normalization
        # function.
        outputs = tf.nn.batch_normalization(
            inputs,
            mean,
            variance,
            offset=offset,
            scale=scale,
            variance_epsilon=LAYER_NORMALIZATION_EPSILON,
        )
        outputs = tf.cast(outputs, input_dtype)
    else:
        # Collapse dims before self.axis, and dims in self.axis

        axis = sorted(LAYER_NORMALIZATION_AXIS)
        tensor_shape = tf.shape(inputs)
        pre_dim = tf.reduce_prod(tensor_shape[: axis[0]])
        in_dim = tf.reduce_prod(tensor_shape[axis[0] :])
        squeezed_shape = [1, pre_dim, in_dim, 1]
        # This fused operation requires reshaped inputs to be NCHW.
        data_format = "NCHW"

        inputs = tf.reshape(inputs, squeezed_shape)

        # self.gamma and self.beta have the wrong shape for
        # fused_batch_norm, so we cannot pass them as the scale and offset
        # parameters. Therefore, we create two constant tensors in correct
        # shapes for fused_batch_norm and later construct a separate
        # calculation on the scale and offset.
        scale = tf.ones([pre_dim], dtype=LAYER_NORMALIZATION_DTYPE)
        offset = tf.zeros([pre_dim], dtype=LAYER_NORMALIZATION_DTYPE)

        # Compute layer normalization using the fused_batch_norm function.
        outputs, _, _ = tf.compat.v1.nn.fused_batch_norm(
            inputs,
            scale=scale,
            offset=offset,
            epsilon=LAYER_NORMALIZATION_EPSILON,
            data_format=data_format,
        )

        outputs = tf.reshape(outputs, tensor_shape)

        scale, offset = _broadcast(gamma), _broadcast(beta)

        if scale is not None:
            outputs = outputs * tf.cast(scale, outputs.dtype)
        if offset is not None:
            outputs = outputs + tf.cast(offset, outputs.dtype)

    # If some components of the shape got lost due to adjustments, fix that.
    outputs.set_shape(input_shape)

    if is_ragged:
        outputs = tf.RaggedTensor.from_tensor(outputs, inputs_lengths)
    return outputs


# Source: keras-team/tf-keras tf_keras/layers/core/dense.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Dense.call (lines 179-260)
# Adapted: config Dense(16, activation='relu') as constants (tf.nn.relu stands in for keras.activations.relu); kernel/bias weights as parameters. Rank-3 input takes the tensordot path.
DENSE_COMPUTE_DTYPE_OBJECT = tf.float32
DENSE_USE_BIAS = True
DENSE_ACTIVATION = tf.nn.relu
def dense(
    inputs: TensorF32Cpu3D, kernel: TensorF32Cpu2D, bias: TensorF32Cpu1D
) -> TensorF32Cpu3D:
    if inputs.dtype.base_dtype != DENSE_COMPUTE_DTYPE_OBJECT.base_dtype:
        inputs = tf.cast(inputs, dtype=DENSE_COMPUTE_DTYPE_OBJECT)

    is_ragged = isinstance(inputs, tf.RaggedTensor)
    if is_ragged:
        # In case we encounter a RaggedTensor with a fixed last dimension
        # (last dimension not ragged), we can flatten the input and restore
        # the ragged dimensions at the end.
        if tf.compat.dimension_value(inputs.shape[-1]) is None:
            raise ValueError(
                "Dense layer only supports RaggedTensors when the "
                "innermost dimension is non-ragged. Received: "
                f"inputs.shape={inputs.shape}."
            )
        original_inputs = inputs
        if inputs.flat_values.shape.rank > 1:
            inputs = inputs.flat_values
        else:
            # Innermost partition is encoded using uniform_row_length.
            # (This is unusual, but we can handle it.)
            if inputs.shape.rank == 2:
                inputs = inputs.to_tensor()
                is_ragged = False
            else:
                for _ in range(original_inputs.ragged_rank - 1):
                    inputs = inputs.values
                inputs = inputs.to_tensor()
                original_inputs = tf.RaggedTensor.from_nested_row_splits(
                    inputs, original_inputs.nested_row_splits[:-1]
                )

    rank = inputs.shape.rank
    if rank == 2 or rank is None:
        # We use embedding_lookup_sparse as a more efficient matmul
        # operation for large sparse input tensors. The op will result in a
        # sparse gradient, as opposed to
        # sparse_ops.sparse_tensor_dense_matmul which results in dense
        # gradients. This can lead to sigfinicant speedups, see b/171762937.
        if isinstance(inputs, tf.SparseTensor):
            # We need to fill empty rows, as the op assumes at least one id
            # per row.
            inputs, _ = tf.sparse.fill_empty_rows(inputs, 0)
            # We need to do some munging of our input to use the embedding
            # lookup as a matrix multiply. We split our input matrix into
            # separate ids and weights tensors. The values of the ids tensor
            # should be the column indices of our input matrix and the
            # values of the weights tensor can continue to the actual matrix
            # weights.  The column arrangement of ids and weights will be
            # summed over and does not matter. See the documentation for
            # sparse_ops.sparse_tensor_dense_matmul a more detailed
            # explanation of the inputs to both ops.
            ids = tf.SparseTensor(
                indices=inputs.indices,
                values=inputs.indices[:, 1],
                dense_shape=inputs.dense_shape,
            )
            weights = inputs
            outputs = tf.nn.embedding_lookup_sparse(
                kernel, ids, weights, combiner="sum"
            )
        else:
            outputs = tf.matmul(a=inputs, b=kernel)
    # Broadcast kernel to inputs.
    else:
        outputs = tf.tensordot(inputs, kernel, [[rank - 1], [0]])
        # Reshape the output back to the original ndim of the input.
        if not tf.executing_eagerly():
            shape = inputs.shape.as_list()
            output_shape = shape[:-1] + [kernel.shape[-1]]
            outputs.set_shape(output_shape)

    if DENSE_USE_BIAS:
        outputs = tf.nn.bias_add(outputs, bias)

    if DENSE_ACTIVATION is not None:
        outputs = DENSE_ACTIVATION(outputs)

    if is_ragged:
        outputs = original_inputs.with_flat_values(outputs)

    return outputs


# Source: keras-team/tf-keras tf_keras/layers/core/einsum_dense.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, EinsumDense.call (lines 206-212)
# Adapted: config EinsumDense('abc,cd->abd', output_shape=(None, 16), bias_axes='d') as constants (activation None); kernel/bias weights as parameters.
EINSUM_DENSE_EQUATION = "abc,cd->abd"
EINSUM_DENSE_ACTIVATION = None
def einsum_dense(
    inputs: TensorF32Cpu3D, kernel: TensorF32Cpu2D, bias: TensorF32Cpu1D
) -> TensorF32Cpu3D:
    ret = tf.einsum(EINSUM_DENSE_EQUATION, inputs, kernel)
    if bias is not None:
        ret += bias
    if EINSUM_DENSE_ACTIVATION is not None:
        ret = EINSUM_DENSE_ACTIVATION(ret)
    return ret


# Source: keras-team/tf-keras tf_keras/layers/pooling/global_average_pooling1d.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, GlobalAveragePooling1D.call (lines 83-95)
# Adapted: config GlobalAveragePooling1D() (channels_last, keepdims=False) as constants; `backend` is the tf-keras stand-in above.
GLOBAL_AVERAGE_POOLING1D_DATA_FORMAT = "channels_last"
GLOBAL_AVERAGE_POOLING1D_KEEPDIMS = False
def global_average_pooling1d(
    inputs: TensorF32Cpu3D, mask: Optional[TensorBoolCpu2D] = None
) -> TensorF32Cpu2D:
    steps_axis = 1 if GLOBAL_AVERAGE_POOLING1D_DATA_FORMAT == "channels_last" else 2
    if mask is not None:
        mask = tf.cast(mask, inputs[0].dtype)
        mask = tf.expand_dims(
            mask, 2 if GLOBAL_AVERAGE_POOLING1D_DATA_FORMAT == "channels_last" else 1
        )
        inputs *= mask
        return backend.sum(
            inputs, axis=steps_axis, keepdims=GLOBAL_AVERAGE_POOLING1D_KEEPDIMS
        ) / tf.reduce_sum(mask, axis=steps_axis, keepdims=GLOBAL_AVERAGE_POOLING1D_KEEPDIMS)
    else:
        return backend.mean(inputs, axis=steps_axis, keepdims=GLOBAL_AVERAGE_POOLING1D_KEEPDIMS)


# Source: keras-team/tf-keras tf_keras/layers/normalization/unit_normalization.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, UnitNormalization.call (lines 66-68)
# Adapted: config UnitNormalization(axis=-1) as constants.
UNIT_NORMALIZATION_COMPUTE_DTYPE = "float32"
UNIT_NORMALIZATION_AXIS = -1
def unit_normalization(inputs: TensorF32Cpu2D) -> TensorF32Cpu2D:
    inputs = tf.cast(inputs, UNIT_NORMALIZATION_COMPUTE_DTYPE)
    return tf.linalg.l2_normalize(inputs, axis=UNIT_NORMALIZATION_AXIS)


# Source: keras-team/tf-keras tf_keras/layers/preprocessing/normalization.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Normalization._standardize_inputs (lines 381-385)
# Adapted: compute dtype as constant.
NORMALIZATION_COMPUTE_DTYPE = "float32"
NORMALIZATION_INVERT = False
def _standardize_inputs(inputs):
    inputs = tf.convert_to_tensor(inputs)
    if inputs.dtype != NORMALIZATION_COMPUTE_DTYPE:
        inputs = tf.cast(inputs, NORMALIZATION_COMPUTE_DTYPE)
    return inputs


# Source: keras-team/tf-keras tf_keras/layers/preprocessing/normalization.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Normalization.call (lines 349-361)
# Adapted: config Normalization(axis=-1, invert=False) adapted on [batch, 8] data: compute dtype and invert as constants (above _standardize_inputs); the adapted `mean`/`variance` tensors (shape [1, 8]) as parameters; self._standardize_inputs -> module helper; `backend` is the tf-keras stand-in above.
def normalization(
    inputs: TensorF32Cpu2D, mean: TensorF32Cpu2D, variance: TensorF32Cpu2D
) -> TensorF32Cpu2D:
    inputs = _standardize_inputs(inputs)
    # The base layer automatically casts floating-point inputs, but we
    # explicitly cast here to also allow integer inputs to be passed
    inputs = tf.cast(inputs, NORMALIZATION_COMPUTE_DTYPE)
    if NORMALIZATION_INVERT:
        return mean + (
            inputs * tf.maximum(tf.sqrt(variance), backend.epsilon())
        )
    else:
        return (inputs - mean) / tf.maximum(
            tf.sqrt(variance), backend.epsilon()
        )


# Source: keras-team/tf-keras tf_keras/layers/preprocessing/image_preprocessing.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, convert_inputs (lines 1720-1732)
# Adapted: module-level helper of image_preprocessing.py, verbatim; `utils` is the tf-keras stand-in above.
def convert_inputs(inputs, dtype=None):
    if isinstance(inputs, dict):
        raise ValueError(
            "This layer can only process a tensor representing an image or "
            f"a batch of images. Received: type(inputs)={type(inputs)}."
            "If you need to pass a dict containing "
            "images, labels, and bounding boxes, you should "
            "instead use the preprocessing and augmentation layers "
            "from `keras_cv.layers`. See docs at "
            "https://keras.io/api/keras_cv/layers/"
        )
    inputs = utils.ensure_tensor(inputs, dtype=dtype)
    return inputs


# Source: keras-team/tf-keras tf_keras/layers/preprocessing/image_preprocessing.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Rescaling.call (lines 361-366)
# Adapted: config Rescaling(scale=1.0 / 255, offset=0.0) as constants.
RESCALING_COMPUTE_DTYPE = "float32"
RESCALING_SCALE = 1.0 / 255
RESCALING_OFFSET = 0.0
def rescaling(inputs: TensorF32Cpu4D) -> TensorF32Cpu4D:
    dtype = RESCALING_COMPUTE_DTYPE
    inputs = convert_inputs(inputs, dtype=dtype)
    scale = tf.cast(RESCALING_SCALE, dtype)
    offset = tf.cast(RESCALING_OFFSET, dtype)
    return tf.cast(inputs, dtype) * scale + offset


# Source: keras-team/tf-keras tf_keras/layers/activation/thresholded_relu.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, ThresholdedReLU.call (lines 66-68)
# Adapted: config ThresholdedReLU(theta=1.0) as constants (theta as a Python float, which
# tf.greater converts to the same float32 1.0 that backend.cast_to_floatx stores).
THRESHOLDED_RELU_COMPUTE_DTYPE = "float32"
THRESHOLDED_RELU_THETA = 1.0
def thresholded_relu(inputs: TensorF32Cpu3D) -> TensorF32Cpu3D:
    dtype = THRESHOLDED_RELU_COMPUTE_DTYPE
    return inputs * tf.cast(tf.greater(inputs, THRESHOLDED_RELU_THETA), dtype)


# Source: keras-team/tf-keras tf_keras/layers/reshaping/flatten.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Flatten.call (lines 70-105)
# Adapted: config Flatten() (channels_last) as constant.
FLATTEN_CHANNELS_FIRST = False
def flatten(inputs: TensorF32Cpu4D) -> TensorF32Cpu2D:
    if FLATTEN_CHANNELS_FIRST:
        rank = inputs.shape.rank
        if rank and rank > 1:
            # Switch to channels-last format.
            permutation = [0]
            permutation.extend(range(2, rank))
            permutation.append(1)
            inputs = tf.transpose(inputs, perm=permutation)

    if tf.executing_eagerly():
        # Full static shape is guaranteed to be available.
        # Performance: Using `constant_op` is much faster than passing a
        # list.
        flattened_shape = tf.constant([inputs.shape[0], -1])
        return tf.reshape(inputs, flattened_shape)
    else:
        input_shape = inputs.shape
        rank = input_shape.rank
        if rank == 1:
            return tf.expand_dims(inputs, axis=1)
        else:
            batch_dim = tf.compat.dimension_value(input_shape[0])
            non_batch_dims = input_shape[1:]
            # Reshape in a way that preserves as much shape info as
            # possible.
            if non_batch_dims.is_fully_defined():
                last_dim = int(
                    functools.reduce(operator.mul, non_batch_dims)
                )
                flattened_shape = tf.constant([-1, last_dim])
            elif batch_dim is not None:
                flattened_shape = tf.constant([int(batch_dim), -1])
            else:
                flattened_shape = [tf.shape(inputs)[0], -1]
            return tf.reshape(inputs, flattened_shape)


# Source: keras-team/tf-keras tf_keras/layers/reshaping/permute.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Permute.call (lines 79-80)
# Adapted: config Permute((2, 1)) as constant.
PERMUTE_DIMS = (2, 1)
def permute(inputs: TensorF32Cpu3D) -> TensorF32Cpu3D:
    return tf.transpose(inputs, perm=(0,) + PERMUTE_DIMS)


# Source: keras-team/tf-keras tf_keras/layers/reshaping/cropping1d.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Cropping1D.call (lines 79-92)
# Adapted: config Cropping1D(cropping=(1, 1)) (the default) as constant.
CROPPING1D_CROPPING = (1, 1)
def cropping1d(inputs: TensorF32Cpu3D) -> TensorF32Cpu3D:
    if (
        inputs.shape[1] is not None
        and sum(CROPPING1D_CROPPING) >= inputs.shape[1]
    ):
        raise ValueError(
            "cropping parameter of Cropping layer must be "
            "greater than the input shape. Received: inputs.shape="
            f"{inputs.shape}, and cropping={CROPPING1D_CROPPING}"
        )
    if CROPPING1D_CROPPING[1] == 0:
        return inputs[:, CROPPING1D_CROPPING[0] :, :]
    else:
        return inputs[:, CROPPING1D_CROPPING[0] : -CROPPING1D_CROPPING[1], :]


# Source: keras-team/tf-keras tf_keras/layers/reshaping/cropping2d.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Cropping2D.call (lines 139-213)
# Adapted: config Cropping2D(cropping=((1, 1), (2, 2))) (channels_last) as constants.
CROPPING2D_DATA_FORMAT = "channels_last"
CROPPING2D_CROPPING = ((1, 1), (2, 2))
def cropping2d(inputs: TensorF32Cpu4D) -> TensorF32Cpu4D:
    if CROPPING2D_DATA_FORMAT == "channels_first":
        if (
            inputs.shape[2] is not None
            and sum(CROPPING2D_CROPPING[0]) >= inputs.shape[2]
        ) or (
            inputs.shape[3] is not None
            and sum(CROPPING2D_CROPPING[1]) >= inputs.shape[3]
        ):
            raise ValueError(
                "Argument `cropping` must be "
                "greater than the input shape. Received: inputs.shape="
                f"{inputs.shape}, and cropping={CROPPING2D_CROPPING}"
            )
        if CROPPING2D_CROPPING[0][1] == CROPPING2D_CROPPING[1][1] == 0:
            return inputs[
                :, :, CROPPING2D_CROPPING[0][0] :, CROPPING2D_CROPPING[1][0] :
            ]
        elif CROPPING2D_CROPPING[0][1] == 0:
            return inputs[
                :,
                :,
                CROPPING2D_CROPPING[0][0] :,
                CROPPING2D_CROPPING[1][0] : -CROPPING2D_CROPPING[1][1],
            ]
        elif CROPPING2D_CROPPING[1][1] == 0:
            return inputs[
                :,
                :,
                CROPPING2D_CROPPING[0][0] : -CROPPING2D_CROPPING[0][1],
                CROPPING2D_CROPPING[1][0] :,
            ]
        return inputs[
            :,
            :,
            CROPPING2D_CROPPING[0][0] : -CROPPING2D_CROPPING[0][1],
            CROPPING2D_CROPPING[1][0] : -CROPPING2D_CROPPING[1][1],
        ]
    else:
        if (
            inputs.shape[1] is not None
            and sum(CROPPING2D_CROPPING[0]) >= inputs.shape[1]
        ) or (
            inputs.shape[2] is not None
            and sum(CROPPING2D_CROPPING[1]) >= inputs.shape[2]
        ):
            raise ValueError(
                "Argument `cropping` must be "
                "greater than the input shape. Received: inputs.shape="
                f"{inputs.shape}, and cropping={CROPPING2D_CROPPING}"
            )
        if CROPPING2D_CROPPING[0][1] == CROPPING2D_CROPPING[1][1] == 0:
            return inputs[
                :, CROPPING2D_CROPPING[0][0] :, CROPPING2D_CROPPING[1][0] :, :
            ]
        elif CROPPING2D_CROPPING[0][1] == 0:
            return inputs[
                :,
                CROPPING2D_CROPPING[0][0] :,
                CROPPING2D_CROPPING[1][0] : -CROPPING2D_CROPPING[1][1],
                :,
            ]
        elif CROPPING2D_CROPPING[1][1] == 0:
            return inputs[
                :,
                CROPPING2D_CROPPING[0][0] : -CROPPING2D_CROPPING[0][1],
                CROPPING2D_CROPPING[1][0] :,
                :,
            ]
        return inputs[
            :,
            CROPPING2D_CROPPING[0][0] : -CROPPING2D_CROPPING[0][1],
            CROPPING2D_CROPPING[1][0] : -CROPPING2D_CROPPING[1][1],
            :,
        ]


# Source: keras-team/tf-keras tf_keras/layers/reshaping/repeat_vector.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, RepeatVector.call (lines 63-64)
# Adapted: config RepeatVector(3) as constant; `backend` is the tf-keras stand-in above.
REPEAT_VECTOR_N = 3
def repeat_vector(inputs: TensorF32Cpu2D) -> TensorF32Cpu3D:
    return backend.repeat(inputs, REPEAT_VECTOR_N)


# Source: keras-team/tf-keras tf_keras/layers/reshaping/zero_padding2d.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, ZeroPadding2D.call (lines 148-151)
# Adapted: config ZeroPadding2D(padding=1) (normalized to ((1, 1), (1, 1)), channels_last) as constants; `backend` is the tf-keras stand-in above.
ZERO_PADDING2D_PADDING = ((1, 1), (1, 1))
ZERO_PADDING2D_DATA_FORMAT = "channels_last"
def zero_padding2d(inputs: TensorF32Cpu4D) -> TensorF32Cpu4D:
    return backend.spatial_2d_padding(
        inputs, padding=ZERO_PADDING2D_PADDING, data_format=ZERO_PADDING2D_DATA_FORMAT
    )
