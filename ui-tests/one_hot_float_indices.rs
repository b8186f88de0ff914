// one_hot takes int32 or int64 indices.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(one_hot(x, 3))
}

fn main() {}
