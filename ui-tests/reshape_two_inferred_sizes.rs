// At most one size is inferred; sizes are integers, not a tensor.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI64Cpu1D};

fn f(x: TensorF32Cpu2D, shape: TensorI64Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(reshape(x, shape));
    tf!(reshape(x, [-1, 2, -1, -3]))
}

fn main() {}
