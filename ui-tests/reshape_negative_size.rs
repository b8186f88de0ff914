// A size is at least 0, or -1 for the inferred one.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(reshape(x, [2, -3]))
}

fn main() {}
