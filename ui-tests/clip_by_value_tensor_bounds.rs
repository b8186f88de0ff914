// clip_by_value takes scalar bounds of the tensor's element type.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(x: TensorF32Cpu2D, lo: TensorF32Cpu1D, ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(clip_by_value(ids, 0.5, 2));
    tf!(clip_by_value(x, lo, 1.0))
}

fn main() {}
