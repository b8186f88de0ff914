"""Import-free annotation markers for functions Rextio compiles with rxt-tf.

Annotate parameters and returns with these; at run time the values are
ordinary ``tf.Tensor`` (EagerTensor) objects. This module imports neither
TensorFlow nor Rextio. Generated from the crate rxt-tf-spec: one class per
element type and rank.

Do not edit: run ``cargo run -p xtask -- codegen``.
"""


class TensorF32Cpu0D:
    """A float32 rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-0d``)."""


class TensorF32Cpu1D:
    """A float32 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-1d``)."""


class TensorF32Cpu2D:
    """A float32 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-2d``)."""


class TensorF32Cpu3D:
    """A float32 rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-3d``)."""


class TensorF32Cpu4D:
    """A float32 rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-4d``)."""


class TensorF32Cpu5D:
    """A float32 rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f32-cpu-5d``)."""


class TensorF64Cpu0D:
    """A float64 rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f64-cpu-0d``)."""


class TensorF64Cpu1D:
    """A float64 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f64-cpu-1d``)."""


class TensorF64Cpu2D:
    """A float64 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f64-cpu-2d``)."""


class TensorF64Cpu3D:
    """A float64 rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f64-cpu-3d``)."""


class TensorF64Cpu4D:
    """A float64 rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f64-cpu-4d``)."""


class TensorF64Cpu5D:
    """A float64 rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f64-cpu-5d``)."""


class TensorBf16Cpu0D:
    """A bfloat16 rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bf16-cpu-0d``)."""


class TensorBf16Cpu1D:
    """A bfloat16 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bf16-cpu-1d``)."""


class TensorBf16Cpu2D:
    """A bfloat16 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bf16-cpu-2d``)."""


class TensorBf16Cpu3D:
    """A bfloat16 rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bf16-cpu-3d``)."""


class TensorBf16Cpu4D:
    """A bfloat16 rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bf16-cpu-4d``)."""


class TensorBf16Cpu5D:
    """A bfloat16 rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bf16-cpu-5d``)."""


class TensorF16Cpu0D:
    """A float16 rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f16-cpu-0d``)."""


class TensorF16Cpu1D:
    """A float16 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f16-cpu-1d``)."""


class TensorF16Cpu2D:
    """A float16 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f16-cpu-2d``)."""


class TensorF16Cpu3D:
    """A float16 rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f16-cpu-3d``)."""


class TensorF16Cpu4D:
    """A float16 rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f16-cpu-4d``)."""


class TensorF16Cpu5D:
    """A float16 rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-f16-cpu-5d``)."""


class TensorI32Cpu0D:
    """An int32 rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i32-cpu-0d``)."""


class TensorI32Cpu1D:
    """An int32 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i32-cpu-1d``)."""


class TensorI32Cpu2D:
    """An int32 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i32-cpu-2d``)."""


class TensorI32Cpu3D:
    """An int32 rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i32-cpu-3d``)."""


class TensorI32Cpu4D:
    """An int32 rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i32-cpu-4d``)."""


class TensorI32Cpu5D:
    """An int32 rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i32-cpu-5d``)."""


class TensorI64Cpu0D:
    """An int64 rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-0d``)."""


class TensorI64Cpu1D:
    """An int64 rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-1d``)."""


class TensorI64Cpu2D:
    """An int64 rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-2d``)."""


class TensorI64Cpu3D:
    """An int64 rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-3d``)."""


class TensorI64Cpu4D:
    """An int64 rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-4d``)."""


class TensorI64Cpu5D:
    """An int64 rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-i64-cpu-5d``)."""


class TensorBoolCpu0D:
    """A bool rank-0 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bool-cpu-0d``)."""


class TensorBoolCpu1D:
    """A bool rank-1 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bool-cpu-1d``)."""


class TensorBoolCpu2D:
    """A bool rank-2 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bool-cpu-2d``)."""


class TensorBoolCpu3D:
    """A bool rank-3 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bool-cpu-3d``)."""


class TensorBoolCpu4D:
    """A bool rank-4 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bool-cpu-4d``)."""


class TensorBoolCpu5D:
    """A bool rank-5 tensor on ``CPU:0`` (plugin type ``rxt-tf/tensor-bool-cpu-5d``)."""


__all__ = [
    "TensorBf16Cpu0D",
    "TensorBf16Cpu1D",
    "TensorBf16Cpu2D",
    "TensorBf16Cpu3D",
    "TensorBf16Cpu4D",
    "TensorBf16Cpu5D",
    "TensorBoolCpu0D",
    "TensorBoolCpu1D",
    "TensorBoolCpu2D",
    "TensorBoolCpu3D",
    "TensorBoolCpu4D",
    "TensorBoolCpu5D",
    "TensorF16Cpu0D",
    "TensorF16Cpu1D",
    "TensorF16Cpu2D",
    "TensorF16Cpu3D",
    "TensorF16Cpu4D",
    "TensorF16Cpu5D",
    "TensorF32Cpu0D",
    "TensorF32Cpu1D",
    "TensorF32Cpu2D",
    "TensorF32Cpu3D",
    "TensorF32Cpu4D",
    "TensorF32Cpu5D",
    "TensorF64Cpu0D",
    "TensorF64Cpu1D",
    "TensorF64Cpu2D",
    "TensorF64Cpu3D",
    "TensorF64Cpu4D",
    "TensorF64Cpu5D",
    "TensorI32Cpu0D",
    "TensorI32Cpu1D",
    "TensorI32Cpu2D",
    "TensorI32Cpu3D",
    "TensorI32Cpu4D",
    "TensorI32Cpu5D",
    "TensorI64Cpu0D",
    "TensorI64Cpu1D",
    "TensorI64Cpu2D",
    "TensorI64Cpu3D",
    "TensorI64Cpu4D",
    "TensorI64Cpu5D",
]
