// The equation names as many operands as the call passes.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum("ij,jk->ik", a))
}

fn main() {}
