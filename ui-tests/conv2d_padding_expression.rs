// conv2d's padding is a string literal, checked at compile time.
use rxt_tf::{tf, TensorF32Cpu4D};

fn f(x: TensorF32Cpu4D, k: TensorF32Cpu4D, same: &'static str) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(conv2d(x, k, padding = same))
}

fn main() {}
