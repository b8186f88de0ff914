// one_hot takes int32 or int64 indices and a non-negative depth.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D, TensorI32Cpu1D};

fn f(x: TensorF32Cpu1D, ids: TensorI32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(one_hot(ids, -3));
    tf!(one_hot(x, 3))
}

fn main() {}
