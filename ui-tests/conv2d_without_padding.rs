// conv2d needs its padding.
use rxt_tf::{tf, TensorF32Cpu4D};

fn f(x: TensorF32Cpu4D, k: TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(conv2d(x, k))
}

fn main() {}
