// Without `axis` the result's rank would depend on the data.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(x: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(squeeze(x))
}

fn main() {}
