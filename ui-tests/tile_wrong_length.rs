// `tile` takes one multiple per axis.
use rxt_tf::{tf, TensorI32Cpu3D};

fn f(x: TensorI32Cpu3D) -> rxt_tf::Result<TensorI32Cpu3D> {
    tf!(tile(x, [2, 2]))
}

fn main() {}
