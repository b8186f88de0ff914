// slice takes one begin and one size per axis.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(slice(x, [0, 0, 0], [1, 1]))
}

fn main() {}
