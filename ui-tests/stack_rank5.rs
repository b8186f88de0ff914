// Stacking rank-5 tensors would give rank 6: tensors have ranks 0 to 5.
use rxt_tf::{tf, TensorF32Cpu5D};

fn f(a: TensorF32Cpu5D) -> rxt_tf::Result<TensorF32Cpu5D> {
    tf!(stack([a, a], axis = 0))
}

fn main() {}
