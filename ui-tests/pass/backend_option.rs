//! `backend = "litert"` runs a body through LiteRT; `backend =
//! "tensorflow"` is the default. Both combine with `crate`.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

#[rxt_tf::inference(backend = "litert")]
fn litert(x: TensorF32Cpu2D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(tf!(x + b)?))
}

#[rxt_tf::inference(backend = "tensorflow", crate = "rxt_tf", fuse = true)]
fn tensorflow(x: TensorF32Cpu2D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(tf!(x + b)?))
}

fn main() {
    let _ = (litert, tensorflow);
}
