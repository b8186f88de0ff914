use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu3D};

fn f(x: TensorF32Cpu3D, s: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(fused_batch_norm(x, s, s, s, s))
}

fn main() {}
