// reshape's sizes are integers, not a tensor.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI64Cpu1D};

fn f(x: TensorF32Cpu2D, shape: TensorI64Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(reshape(x, shape))
}

fn main() {}
