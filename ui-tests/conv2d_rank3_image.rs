// conv2d takes a rank-4 NHWC image.
use rxt_tf::{tf, TensorF32Cpu3D, TensorF32Cpu4D};

fn f(x: TensorF32Cpu3D, k: TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(conv2d(x, k, padding = "SAME"))
}

fn main() {}
