// A list holds 2 to 8 tensors.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(concat([a], axis = 0))
}

fn main() {}
