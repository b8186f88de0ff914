// The statistics take float tensors.
use rxt_tf::{tf, TensorI32Cpu1D, TensorI32Cpu2D};

fn f(ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorI32Cpu1D> {
    tf!(reduce_variance(ids, axis = 0))
}

fn main() {}
