// rank(params) - 1 + rank(indices) - batch_dims is at most 4.
use rxt_tf::{tf, TensorF32Cpu3D, TensorI32Cpu3D};

fn f(x: TensorF32Cpu3D, ids: TensorI32Cpu3D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(gather(x, ids, axis = 1))
}

fn main() {}
