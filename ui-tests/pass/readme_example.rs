use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

#[pyfunction]
#[rxt_tf::inference]
fn inference(x: TensorF32Cpu2D, weight: TensorF32Cpu2D, bias: TensorF32Cpu1D)
    -> rxt_tf::Result<TensorF32Cpu1D>
{
    let h = tf!(matmul(x, weight))?;
    let h = tf!(relu(h))?;
    let h = tf!(h + bias)?;
    tf!(reduce_mean(h, axis = 1))
}

#[pymodule]
fn example(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(inference, m)?)
}

fn main() {}
