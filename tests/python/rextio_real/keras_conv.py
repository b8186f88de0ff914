"""tf-keras convolution: Conv.call and the helpers it calls, one of them a tf.function.

Taken verbatim; see the package README for what was adapted and how.
"""


import tensorflow as tf

from rxt_tf_plugin.types import TensorF32Cpu1D, TensorF32Cpu4D

from keras_backend import conv_utils  # noqa: F401


# Config Conv2D(filters=8, kernel_size=3, padding='same') (strides 1, dilation 1, groups 1,
# channels_last, use_bias=True, activation None) as constants, shared by the helpers below.
CONV2D_RANK = 2
CONV2D_FILTERS = 8
CONV2D_KERNEL_SIZE = (3, 3)
CONV2D_STRIDES = (1, 1)
CONV2D_PADDING = "same"
CONV2D_DATA_FORMAT = "channels_last"
CONV2D_DILATION_RATE = (1, 1)
CONV2D_GROUPS = 1
CONV2D_USE_BIAS = True
CONV2D_ACTIVATION = None
CONV2D_IS_CAUSAL = False
CONV2D_CHANNELS_FIRST = False
CONV2D_TF_DATA_FORMAT = "NHWC"
CONV2D_CLASS_NAME = "Conv2D"


# Source: keras-team/tf-keras tf_keras/layers/convolutional/base_conv.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Conv.convolution_op (lines 253-269)
# Adapted: Conv2D config as the CONV2D_* constants above; `self.__class__.__name__` -> CONV2D_CLASS_NAME.
def convolution_op(inputs: TensorF32Cpu4D, kernel: TensorF32Cpu4D) -> TensorF32Cpu4D:
    if CONV2D_PADDING == "causal":
        tf_padding = "VALID"  # Causal padding handled in `call`.
    elif isinstance(CONV2D_PADDING, str):
        tf_padding = CONV2D_PADDING.upper()
    else:
        tf_padding = CONV2D_PADDING

    return tf.nn.convolution(
        inputs,
        kernel,
        strides=list(CONV2D_STRIDES),
        padding=tf_padding,
        dilations=list(CONV2D_DILATION_RATE),
        data_format=CONV2D_TF_DATA_FORMAT,
        name=CONV2D_CLASS_NAME,
    )


# Source: keras-team/tf-keras tf_keras/layers/convolutional/base_conv.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Conv._jit_compiled_convolution_op (lines 274-276)
# Adapted: verbatim (decorator kept); self.convolution_op -> module helper convolution_op. Only reached when groups > 1.
@tf.function(jit_compile=True)
def _jit_compiled_convolution_op(inputs, kernel):
    return convolution_op(inputs, kernel)


# Source: keras-team/tf-keras tf_keras/layers/convolutional/base_conv.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Conv._compute_causal_padding (lines 393-404)
# Adapted: Conv2D config as the CONV2D_* constants above. Only reached for padding='causal' (Conv1D).
def _compute_causal_padding(inputs):
    """Calculates padding for 'causal' option for 1-d conv layers."""
    left_pad = CONV2D_DILATION_RATE[0] * (CONV2D_KERNEL_SIZE[0] - 1)
    if getattr(inputs.shape, "ndims", None) is None:
        batch_rank = 1
    else:
        batch_rank = len(inputs.shape) - 2
    if CONV2D_DATA_FORMAT == "channels_last":
        causal_padding = [[0, 0]] * batch_rank + [[left_pad, 0], [0, 0]]
    else:
        causal_padding = [[0, 0]] * batch_rank + [[0, 0], [left_pad, 0]]
    return causal_padding


# Source: keras-team/tf-keras tf_keras/layers/convolutional/base_conv.py @ dd0a7237b9b24132dba3f491f3c84b0094ab796e, Conv.call (lines 278-321)
# Adapted: Conv2D config as the CONV2D_* constants above; kernel/bias weights as parameters; self._compute_causal_padding / self._jit_compiled_convolution_op / self.convolution_op -> module helpers; dropped the graph-mode-only static shape fix-up `if not tf.executing_eagerly() and input_shape.rank: ... set_shape(self.compute_output_shape(...))` (lines 314-317, needs the layer's compute_output_shape).
def conv2d(
    inputs: TensorF32Cpu4D, kernel: TensorF32Cpu4D, bias: TensorF32Cpu1D
) -> TensorF32Cpu4D:
    input_shape = inputs.shape

    if CONV2D_IS_CAUSAL:  # Apply causal padding to inputs for Conv1D.
        inputs = tf.pad(inputs, _compute_causal_padding(inputs))

    if CONV2D_GROUPS > 1:
        outputs = _jit_compiled_convolution_op(
            inputs, tf.convert_to_tensor(kernel)
        )
    else:
        outputs = convolution_op(inputs, kernel)

    if CONV2D_USE_BIAS:
        output_rank = outputs.shape.rank
        if CONV2D_RANK == 1 and CONV2D_CHANNELS_FIRST:
            # nn.bias_add does not accept a 1D input tensor.
            bias = tf.reshape(bias, (1, CONV2D_FILTERS, 1))
            outputs += bias
        else:
            # Handle multiple batch dimensions.
            if output_rank is not None and output_rank > 2 + CONV2D_RANK:

                def _apply_fn(o):
                    return tf.nn.bias_add(
                        o, bias, data_format=CONV2D_TF_DATA_FORMAT
                    )

                outputs = conv_utils.squeeze_batch_dims(
                    outputs, _apply_fn, inner_rank=CONV2D_RANK + 1
                )
            else:
                outputs = tf.nn.bias_add(
                    outputs, bias, data_format=CONV2D_TF_DATA_FORMAT
                )

    if CONV2D_ACTIVATION is not None:
        return CONV2D_ACTIVATION(outputs)
    return outputs
