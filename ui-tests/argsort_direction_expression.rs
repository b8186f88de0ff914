// argsort's direction given as a bare name is a Rust value, which must exist
// (the text is written `"DESCENDING"`, or held in a `&str`).
use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    tf!(argsort(x, direction = DESCENDING))
}

fn main() {}
