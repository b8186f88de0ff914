// einsum's equation is a string literal, first.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D, eq: &'static str) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(einsum(eq, a, a))
}

fn main() {}
