// range's bounds and step share an element type.
use rxt_tf::{tf, ops::Scalar, TensorI64Cpu1D};

fn f(n: i64) -> rxt_tf::Result<TensorI64Cpu1D> {
    tf!(range(0, Scalar(n), 0.5))
}

fn main() {}
