// einsum takes one to three operands.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum("ij,jk,kl,lm->im", a, a, a, a))
}

fn main() {}
