// batch_dims is not negative.
use rxt_tf::{tf, TensorF32Cpu3D, TensorI32Cpu3D};

fn f(x: TensorF32Cpu3D, ids: TensorI32Cpu3D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(gather(x, ids, batch_dims = -1))
}

fn main() {}
