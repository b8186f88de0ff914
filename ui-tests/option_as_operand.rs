// An optional tensor is no operand: match on it first (`if let Some(m) = mask`).
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(mask: Option<&TensorF32Cpu2D>) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(mask))
}

fn main() {}
