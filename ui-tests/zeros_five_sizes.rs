// A new tensor has at most 4 sizes; range's bounds share an element type.
use rxt_tf::ops::Scalar;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(n: i64) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _: rxt_tf::Result<TensorF32Cpu1D> = tf!(range(0, Scalar(n), 0.5));
    tf!(zeros([1, 1, 1, 1, 1]))
}

fn main() {}
