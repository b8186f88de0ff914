// The condition of `where` is a bool tensor.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(c: TensorF32Cpu2D, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(where(c, x, 0.0))
}

fn main() {}
