// eye takes a non-negative size (a literal or a Rust integer) and an element
// type; it makes a matrix.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f() -> rxt_tf::Result<TensorF32Cpu1D> {
    let _ = tf!(eye(-2));
    let _ = tf!(eye(2.5));
    let _: rxt_tf::Result<TensorF32Cpu2D> = tf!(eye(3, dtype = f16));
    tf!(eye(3))
}

fn main() {}
