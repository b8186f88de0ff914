// eye takes a non-negative size.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f() -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(eye(-2))
}

fn main() {}
