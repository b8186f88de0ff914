// The activations and statistics take float tensors; moments needs its
// axes, and l2_normalize's must fit the rank.
use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(x: TensorF32Cpu2D, ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _ = tf!(gelu(ids));
    let _ = tf!(moments(x));
    let _ = tf!(reduce_variance(ids, axis = 0));
    tf!(l2_normalize(x, axis = 2))
}

fn main() {}
