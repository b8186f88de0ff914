//! `tf!` inside a user's `macro_rules!`, the expression forwarded as `$e:expr`.

use rxt_tf::{tf, TensorF32Cpu2D};

macro_rules! run {
    ($e:expr) => {
        tf!($e)
    };
}

fn f(x: &TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    run!(relu(tf!(x * 0.5)?))
}

fn main() {
    let _ = f;
}
