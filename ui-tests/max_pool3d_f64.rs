// TensorFlow's CPU `MaxPool3D` has no float64 kernel.
use rxt_tf::{tf, TensorF64Cpu5D};

fn f(x: TensorF64Cpu5D) -> rxt_tf::Result<TensorF64Cpu5D> {
    tf!(max_pool3d(x, ksize = 2, strides = 2, padding = "VALID"))
}

fn main() {}
