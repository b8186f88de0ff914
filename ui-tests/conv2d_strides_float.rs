// conv2d's strides may be Rust integers read when the op runs, not floats.
use rxt_tf::{tf, TensorF32Cpu4D};

fn f(x: TensorF32Cpu4D, k: TensorF32Cpu4D, stride: f64) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(conv2d(x, k, strides = [stride, 1], padding = "SAME"))
}

fn main() {}
