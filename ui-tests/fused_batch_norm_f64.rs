use rxt_tf::{tf, TensorF64Cpu1D, TensorF64Cpu4D};

// `FusedBatchNormV3` has no float64 kernel on the CPU.
fn f(x: TensorF64Cpu4D, s: TensorF64Cpu1D) -> rxt_tf::Result<TensorF64Cpu4D> {
    tf!(fused_batch_norm(x, s, s, s, s, epsilon = 1e-3))
}

fn main() {}
