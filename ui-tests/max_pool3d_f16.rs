// TensorFlow's CPU `MaxPool3D` has a bfloat16 kernel but no float16 one.
use rxt_tf::{tf, TensorF16Cpu5D};

fn f(x: TensorF16Cpu5D) -> rxt_tf::Result<TensorF16Cpu5D> {
    tf!(max_pool3d(x, ksize = 2, strides = 2, padding = "VALID"))
}

fn main() {}
