// A new axis of a rank-2 tensor is in -3..=2.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(expand_dims(x, axis = 3))
}

fn main() {}
