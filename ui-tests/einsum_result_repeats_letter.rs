// The result names each letter once.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum("ij,jk->ii", a, a))
}

fn main() {}
