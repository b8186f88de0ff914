// Stacking rank-4 tensors would give rank 5.
use rxt_tf::{tf, TensorF32Cpu4D};

fn f(a: TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(stack([a, a], axis = 0))
}

fn main() {}
