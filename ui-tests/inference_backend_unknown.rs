//! `backend` names `"tensorflow"` (the default) or `"litert"`.
use rxt_tf::{tf, TensorF32Cpu2D};

#[rxt_tf::inference(backend = "onnx")]
fn body(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(x))
}

fn main() {
    let _ = body;
}
