"""Import-free annotation markers for functions Rextio compiles with rxt-tf.

Annotate parameters and returns with these; at run time the values are
ordinary ``tf.Tensor`` (EagerTensor) objects. This module imports neither
TensorFlow nor Rextio.
"""


class TensorF32Cpu2D:
    """A float32 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-2d``)."""


class TensorF32Cpu1D:
    """A float32 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-1d``)."""


class TensorI64Cpu1D:
    """An int64 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-1d``).

    What ``tf.argmax`` returns.
    """


__all__ = ["TensorF32Cpu1D", "TensorF32Cpu2D", "TensorI64Cpu1D"]
