// A 3-D convolution's strides are one size or a triple.
use rxt_tf::{tf, TensorF32Cpu5D};

fn f(x: TensorF32Cpu5D, w: TensorF32Cpu5D) -> rxt_tf::Result<TensorF32Cpu5D> {
    tf!(conv3d(x, w, strides = [2, 2], padding = "SAME"))
}

fn main() {}
