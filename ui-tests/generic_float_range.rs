// `Float` includes the half types, which `range` does not take: generic
// float code cannot call it.
use rxt_tf::{ops::Scalar, tf, Tensor};

fn f<T: rxt_tf::Float>(start: T) -> rxt_tf::Result<Tensor<T, 1>> {
    tf!(range(Scalar(start), 8.0, 1.0))
}

fn main() {}
