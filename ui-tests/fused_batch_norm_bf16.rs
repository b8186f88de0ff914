// `FusedBatchNormV3` takes a bfloat16 image only with float32 statistics;
// the row types its statistics as the image, so it takes float32 only.
use rxt_tf::{tf, TensorBf16Cpu1D, TensorBf16Cpu4D};

fn f(
    x: TensorBf16Cpu4D,
    scale: TensorBf16Cpu1D,
    offset: TensorBf16Cpu1D,
    mean: TensorBf16Cpu1D,
    variance: TensorBf16Cpu1D,
) -> rxt_tf::Result<TensorBf16Cpu4D> {
    tf!(fused_batch_norm(x, scale, offset, mean, variance, epsilon = 0.001))
}

fn main() {}
