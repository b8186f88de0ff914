// l2_normalize's axis fits the rank.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(l2_normalize(x, axis = 2))
}

fn main() {}
