// one_hot's depth is not negative.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu1D};

fn f(ids: TensorI32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(one_hot(ids, -3))
}

fn main() {}
