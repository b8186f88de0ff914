// einsum of three operands: the subscripts give each operand's rank.
use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(a: TensorF32Cpu2D, b: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum("ij,jk,kl->il", a, b, a))
}

fn main() {}
