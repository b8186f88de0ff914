// A new tensor has at most 5 sizes.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f() -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(zeros([1, 1, 1, 1, 1, 1]))
}

fn main() {}
