// The result's subscripts give its rank: 3 here.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum("ij,jk->ijk", a, a))
}

fn main() {}
