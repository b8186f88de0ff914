// clip_by_value takes scalar bounds.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, lo: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(clip_by_value(x, lo, 1.0))
}

fn main() {}
