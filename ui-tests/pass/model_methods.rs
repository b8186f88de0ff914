//! A model: tensors held in a `#[pyclass]` (frozen too), used by `tf!` in
//! `#[inference]` methods with a `&self` receiver.

use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

#[pyclass(frozen)]
struct Dense {
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
}

#[pymethods]
impl Dense {
    #[rxt_tf::inference]
    fn forward(&self, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        tf!(relu(tf!(bias_add(tf!(matmul(x, self.weight))?, self.bias))?))
    }

    #[rxt_tf::inference]
    fn scaled(&self, x: TensorF32Cpu2D, scale: f32) -> PyResult<TensorF32Cpu2D> {
        let h = self.forward(x)?;
        Ok(tf!(h * rxt_tf::ops::Scalar(scale))?)
    }
}

fn main() {
    let _ = Dense::forward;
}
