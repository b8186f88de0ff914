// The tensors of a list share one element type and rank.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(a: TensorF32Cpu2D, b: TensorI32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(concat([a, b], axis = 0))
}

fn main() {}
