use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

#[pyfunction]
#[rxt_tf::inference]
fn deep(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
    depth: usize,
    use_relu: bool,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    let mut h = x;
    for _ in 0..depth {
        let z = tf!(matmul(h, weight))?;
        h = if use_relu { tf!(relu(z))? } else { tf!(sigmoid(z))? };
    }
    tf!(reduce_mean(tf!(h + bias)?, axis = 1))
}

fn main() {
    let _ = deep;
}
