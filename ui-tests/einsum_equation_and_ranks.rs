// einsum's equation is a string literal whose subscripts give each
// operand's rank and the result's; `...` broadcast axes stay in the result.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(a: TensorF32Cpu2D, b: TensorF32Cpu3D, eq: &'static str) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(einsum("ij,jk->ik", a, b));
    let _ = tf!(einsum("ij,jk->ii", a, a));
    let _ = tf!(einsum("...ij,jk->ik", a, a));
    let _: rxt_tf::Result<TensorF32Cpu3D> = tf!(einsum("...ij,jk->...ik", a, a));
    let _ = tf!(einsum("ij,jk->ik", a));
    let _ = tf!(einsum(eq, a, a));
    tf!(einsum("ij,jk->ijk", a, a))
}

fn main() {}
