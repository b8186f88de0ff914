//! A hand-written PyO3 extension over rxt-tf: the seed's `inference` chain,
//! and each op of the table on its own.

use pyo3::prelude::*;
use rxt_tf::{ops, TensorF32Cpu1D, TensorF32Cpu2D};

/// The seed's chain: `reduce_mean(relu(x @ weight) + bias, axis=1)`.
#[pyfunction]
fn inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    let h = ops::matmul(&x, &weight)?;
    let h = ops::relu(&h)?;
    let h = ops::add(&h, &bias)?;
    ops::reduce_mean_axis1(&h)
}

/// `tf.matmul(a, b)`.
#[pyfunction]
fn matmul(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    ops::matmul(&a, &b)
}

/// `tf.nn.relu(x)`.
#[pyfunction]
fn relu(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    ops::relu(&x)
}

/// `tf.nn.sigmoid(x)`.
#[pyfunction]
fn sigmoid(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    ops::sigmoid(&x)
}

/// `a + b` for rank-2 + rank-2.
#[pyfunction]
fn add_2d_2d(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    ops::add(&a, &b)
}

/// `a + b` for rank-1 + rank-1.
#[pyfunction]
fn add_1d_1d(a: TensorF32Cpu1D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu1D> {
    ops::add(&a, &b)
}

/// `a + b` for rank-2 + rank-1 (trailing broadcast).
#[pyfunction]
fn add_2d_1d(a: TensorF32Cpu2D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    ops::add(&a, &b)
}

/// `a + b` for rank-1 + rank-2 (trailing broadcast).
#[pyfunction]
fn add_1d_2d(a: TensorF32Cpu1D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    ops::add(&a, &b)
}

/// `tf.reduce_mean(x, axis=1)`.
#[pyfunction]
fn reduce_mean(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    ops::reduce_mean_axis1(&x)
}

/// The extension module.
#[pymodule]
fn rxt_tf_example(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(inference, m)?)?;
    m.add_function(wrap_pyfunction!(matmul, m)?)?;
    m.add_function(wrap_pyfunction!(relu, m)?)?;
    m.add_function(wrap_pyfunction!(sigmoid, m)?)?;
    m.add_function(wrap_pyfunction!(add_2d_2d, m)?)?;
    m.add_function(wrap_pyfunction!(add_1d_1d, m)?)?;
    m.add_function(wrap_pyfunction!(add_2d_1d, m)?)?;
    m.add_function(wrap_pyfunction!(add_1d_2d, m)?)?;
    m.add_function(wrap_pyfunction!(reduce_mean, m)?)?;
    Ok(())
}
