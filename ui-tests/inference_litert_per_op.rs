//! The litert backend runs a body's fused trace: `fuse = false` (per op on
//! TensorFlow) contradicts it.
use rxt_tf::{tf, TensorF32Cpu2D};

#[rxt_tf::inference(backend = "litert", fuse = false)]
fn body(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(x))
}

fn main() {
    let _ = body;
}
