// The result keeps the most broadcast axes: rank 6 here.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D, TensorF32Cpu5D};

fn f(a: TensorF32Cpu2D, b: TensorF32Cpu3D, c: TensorF32Cpu5D) -> rxt_tf::Result<TensorF32Cpu5D> {
    tf!(einsum("...ij,jk,...kl->...ijl", c, a, b))
}

fn main() {}
