// argsort's direction is a string literal.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    tf!(argsort(x, direction = DESCENDING))
}

fn main() {}
