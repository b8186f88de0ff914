// The activations take float tensors.
use rxt_tf::{tf, TensorI32Cpu2D};

fn f(ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    tf!(gelu(ids))
}

fn main() {}
