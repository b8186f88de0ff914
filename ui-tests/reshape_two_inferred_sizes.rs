// At most one size is inferred.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(reshape(x, [-1, 2, -1]))
}

fn main() {}
