// `/` of integers is a true division, as `tf.divide`: the result is f64.
use rxt_tf::{tf, TensorI64Cpu1D};

fn f(a: TensorI64Cpu1D, b: TensorI64Cpu1D) -> rxt_tf::Result<TensorI64Cpu1D> {
    tf!(a / b)
}

fn main() {}
