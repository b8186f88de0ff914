//! `fuse = false` runs a body op by op; `fuse = true` is the default. Both
//! may be combined with `crate`.
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

#[rxt_tf::inference(fuse = false)]
fn per_op(x: TensorF32Cpu2D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(tf!(x + b)?))
}

#[rxt_tf::inference(fuse = true, crate = "rxt_tf")]
fn fused(x: TensorF32Cpu2D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let _nested = rxt_tf::fusion::Scope::per_op();
    tf!(relu(tf!(x + b)?))
}

fn main() {
    let _ = (per_op, fused);
}
