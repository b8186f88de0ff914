// With `...`, the result keeps the operands' broadcast axes: none here.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(einsum("...ij,jk->...ik", a, a))
}

fn main() {}
