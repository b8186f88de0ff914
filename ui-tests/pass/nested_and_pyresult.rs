use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

struct Layer {
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
}

#[rxt_tf::inference]
fn forward(x: TensorF32Cpu2D, weight: TensorF32Cpu2D, bias: TensorF32Cpu1D) -> PyResult<TensorF32Cpu1D> {
    let layer = Layer { weight, bias };
    // Operands are any expressions: fields, nested tf! calls.
    let h = tf!(relu(tf!(matmul(x, layer.weight))?))?;
    Ok(tf!(reduce_mean(tf!(h + layer.bias)?, axis = 1, keepdims = false))?)
}

fn main() {
    let _ = forward;
}
