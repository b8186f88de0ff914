// With `...`, an operand has at least its letters' axes.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D, v: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum("...ij,jk,kl->...il", v, a, a))
}

fn main() {}
