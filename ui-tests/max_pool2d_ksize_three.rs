// A 2-D pool's window is one size or a pair.
use rxt_tf::{tf, TensorF32Cpu4D};

fn f(x: TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(max_pool2d(x, ksize = [2, 2, 2], strides = 1, padding = "SAME"))
}

fn main() {}
