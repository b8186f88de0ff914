// einsum of three operands: the subscripts give each operand's rank and the
// result's; with `...`, each operand has at least its letters' axes, and
// the result keeps the most broadcast axes.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D, TensorF32Cpu3D, TensorF32Cpu4D};

fn f(
    a: TensorF32Cpu2D,
    b: TensorF32Cpu3D,
    c: TensorF32Cpu4D,
    v: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(einsum("ij,jk,kl->il", a, b, a));
    let _ = tf!(einsum("...ij,jk,kl->...il", v, a, a));
    let _ = tf!(einsum("...ij,jk,...kl->...ijl", c, a, b));
    let _ = tf!(einsum("ij,jk,kl,lm->im", a, a, a, a));
    let _: rxt_tf::Result<TensorF32Cpu3D> = tf!(einsum("...ij,jk,...kl->...il", b, a, c));
    tf!(einsum("ij,jk,kl->il", a, a, a))
}

fn main() {}
