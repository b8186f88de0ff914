// eye makes a matrix.
use rxt_tf::{tf, TensorF32Cpu1D};

fn f() -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(eye(3))
}

fn main() {}
