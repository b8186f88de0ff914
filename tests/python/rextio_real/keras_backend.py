"""Stand-ins for the tf-keras modules the layer bodies call (backend, utils, conv_utils).

Taken verbatim; see the package README for what was adapted and how.
"""


import tensorflow as tf


# -----------------------------------------------------------------------------
# Stand-ins for tf-keras modules (tf-keras is not installed next to TF 2.21).
# Each member is a verbatim copy of the tf-keras function of the same name
# (docstring and export/dispatch decorators removed), so the layer bodies below
# keep their calls `backend.softmax(...)`, `utils.ensure_tensor(...)`,
# `conv_utils.squeeze_batch_dims(...)` unchanged.
# Source: keras-team/tf-keras tf_keras/backend_config.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e:
# _FLOATX, _EPSILON, _IMAGE_DATA_FORMAT (lines 23-29), floatx, epsilon, image_data_format.
# Source: keras-team/tf-keras tf_keras/backend.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e: ndim, sum, mean, repeat,
# spatial_2d_padding, softmax.
# Source: keras-team/tf-keras tf_keras/layers/preprocessing/preprocessing_utils.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e: ensure_tensor.
# Source: keras-team/tf-keras tf_keras/utils/conv_utils.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e: squeeze_batch_dims.
# -----------------------------------------------------------------------------
_FLOATX = "float32"

# Epsilon fuzz factor used throughout the codebase.
_EPSILON = 1e-7

# Default image data format, one of "channels_last", "channels_first".
_IMAGE_DATA_FORMAT = "channels_last"


def epsilon():
    return _EPSILON


def floatx():
    return _FLOATX


def image_data_format():
    return _IMAGE_DATA_FORMAT


# Module-level in tf_keras/backend.py too (backend.repeat calls it unqualified).
def ndim(x):
    return x.shape.rank


class backend:
    """Stand-in for `tf_keras.backend`."""

    epsilon = staticmethod(epsilon)
    floatx = staticmethod(floatx)
    image_data_format = staticmethod(image_data_format)
    ndim = staticmethod(ndim)

    @staticmethod
    def sum(x, axis=None, keepdims=False):
        return tf.reduce_sum(x, axis, keepdims)

    @staticmethod
    def mean(x, axis=None, keepdims=False):
        if x.dtype.base_dtype == tf.bool:
            x = tf.cast(x, floatx())
        return tf.reduce_mean(x, axis, keepdims)

    @staticmethod
    def repeat(x, n):
        assert ndim(x) == 2
        x = tf.expand_dims(x, 1)
        pattern = tf.stack([1, n, 1])
        return tf.tile(x, pattern)

    @staticmethod
    def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
        assert len(padding) == 2
        assert len(padding[0]) == 2
        assert len(padding[1]) == 2
        if data_format is None:
            data_format = image_data_format()
        if data_format not in {"channels_first", "channels_last"}:
            raise ValueError("Unknown data_format: " + str(data_format))

        if data_format == "channels_first":
            pattern = [[0, 0], [0, 0], list(padding[0]), list(padding[1])]
        else:
            pattern = [[0, 0], list(padding[0]), list(padding[1]), [0, 0]]
        return tf.compat.v1.pad(x, pattern)

    @staticmethod
    def softmax(x, axis=-1):
        if x.shape.rank <= 1:
            raise ValueError(
                f"Cannot apply softmax to a tensor that is 1D. Received input: {x}"
            )

        if isinstance(axis, int):
            output = tf.nn.softmax(x, axis=axis)
        else:
            # nn.softmax does not support tuple axis.
            numerator = tf.exp(x - tf.reduce_max(x, axis=axis, keepdims=True))
            denominator = tf.reduce_sum(numerator, axis=axis, keepdims=True)
            output = numerator / denominator

        # Cache the logits to use for crossentropy loss.
        output._keras_logits = x
        return output


class utils:
    """Stand-in for `tf_keras.layers.preprocessing.preprocessing_utils`."""

    @staticmethod
    def ensure_tensor(inputs, dtype=None):
        if not isinstance(inputs, (tf.Tensor, tf.RaggedTensor, tf.SparseTensor)):
            inputs = tf.convert_to_tensor(inputs, dtype)
        if dtype is not None and inputs.dtype != dtype:
            inputs = tf.cast(inputs, dtype)
        return inputs


class conv_utils:
    """Stand-in for `tf_keras.utils.conv_utils`."""

    @staticmethod
    def squeeze_batch_dims(inp, op, inner_rank):
        with tf.name_scope("squeeze_batch_dims"):
            shape = inp.shape

            inner_shape = shape[-inner_rank:]
            if not inner_shape.is_fully_defined():
                inner_shape = tf.shape(inp)[-inner_rank:]

            batch_shape = shape[:-inner_rank]
            if not batch_shape.is_fully_defined():
                batch_shape = tf.shape(inp)[:-inner_rank]

            if isinstance(inner_shape, tf.TensorShape):
                inp_reshaped = tf.reshape(inp, [-1] + inner_shape.as_list())
            else:
                inp_reshaped = tf.reshape(
                    inp, tf.concat(([-1], inner_shape), axis=-1)
                )

            out_reshaped = op(inp_reshaped)

            out_inner_shape = out_reshaped.shape[-inner_rank:]
            if not out_inner_shape.is_fully_defined():
                out_inner_shape = tf.shape(out_reshaped)[-inner_rank:]

            out = tf.reshape(
                out_reshaped, tf.concat((batch_shape, out_inner_shape), axis=-1)
            )

            out.set_shape(inp.shape[:-inner_rank] + out.shape[-inner_rank:])
            return out
