// The dependency under another name: `crate = "..."` for the attribute, and
// `tf!` through the renamed path forwards its own `$crate`.
extern crate rxt_tf as tensorflow_native;

use tensorflow_native::{TensorF32Cpu1D, TensorF32Cpu2D};

#[tensorflow_native::inference(crate = "tensorflow_native")]
fn inference(x: TensorF32Cpu2D, w: TensorF32Cpu2D, b: TensorF32Cpu1D) -> tensorflow_native::Result<TensorF32Cpu1D> {
    let h = tensorflow_native::tf!(matmul(x, w))?;
    let h = tensorflow_native::tf!(h + b)?;
    tensorflow_native::tf!(reduce_mean(h, axis = 1))
}

fn main() {
    let _ = inference;
}
