// Indices are int32 or int64 tensors.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, ids: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(gather(x, ids))
}

fn main() {}
