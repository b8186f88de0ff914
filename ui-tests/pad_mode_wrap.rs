// pad's mode is "CONSTANT", "REFLECT" or "SYMMETRIC".
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(pad(x, [[1, 1], [0, 0]], mode = "WRAP"))
}

fn main() {}
