// rank(params) - 1 + rank(indices) - batch_dims is at most 5.
use rxt_tf::{tf, TensorF32Cpu4D, TensorI32Cpu3D};

fn f(x: TensorF32Cpu4D, ids: TensorI32Cpu3D) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(gather(x, ids, axis = 1))
}

fn main() {}
