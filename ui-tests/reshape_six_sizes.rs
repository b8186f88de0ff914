// A shape of six sizes would give a rank-6 tensor.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(reshape(x, [1, 1, 1, 1, 2, -1]))
}

fn main() {}
