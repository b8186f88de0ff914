//! Converting a TensorFlow function to a LiteRT model with TensorFlow's own
//! TFLite converter (`convert.py`), in the process's Python.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyModule};

use super::model::Model;
use crate::error::{Error, Result};

/// The converter's Python source.
const CONVERTER: &str = include_str!("convert.py");

/// Converts `function` (a concrete function: builtin ops, float32, its
/// variables frozen) and loads the result into LiteRT.
pub fn convert(function: &Bound<'_, PyAny>) -> Result<Arc<Model>> {
    let bytes = flatbuffer(function).map_err(|err| Error::LitertRefused {
        what: format!("TensorFlow's TFLite converter refused the function: {err}"),
    })?;
    Model::from_bytes(bytes)
}

/// Converts `function` as [`convert`] does, its inputs of exactly
/// `shapes`: for input shapes LiteRT cannot size the first model to.
pub(crate) fn convert_at(function: &Bound<'_, PyAny>, shapes: &[Vec<i64>]) -> Result<Arc<Model>> {
    let py = function.py();
    let converted = converter(py).and_then(|module| {
        let bytes = module
            .getattr("convert_at")?
            .call1((function, shapes.to_vec()))?;
        Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
    });
    let bytes = converted.map_err(|err| Error::LitertRefused {
        what: format!("TensorFlow's TFLite converter refused the function: {err}"),
    })?;
    Model::from_bytes(bytes)
}

/// Converts the function `name` of Python's eager context (built from a
/// fused trace; its inputs of `shapes`, a size of -1 unknown) and loads the
/// result into LiteRT.
pub(crate) fn convert_function_def(
    py: Python<'_>,
    name: &str,
    shapes: &[Vec<i64>],
) -> Result<Arc<Model>> {
    let converted = converter(py).and_then(|module| {
        let bytes = module
            .getattr("convert_function_def")?
            .call1((name, shapes.to_vec()))?;
        Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
    });
    let bytes = converted.map_err(|err| Error::LitertRefused {
        what: format!("TensorFlow's TFLite converter refused the fused trace: {err}"),
    })?;
    Model::from_bytes(bytes)
}

/// The flatbuffer the converter makes of `function`.
fn flatbuffer(function: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = function.py();
    let module = converter(py)?;
    let bytes = module.getattr("convert")?.call1((function,))?;
    Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// The converter module, made once (not left in `sys.modules`).
fn converter(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static MODULE: pyo3::sync::PyOnceLock<Py<PyModule>> = pyo3::sync::PyOnceLock::new();
    crate::python::module::private_module(
        py,
        &MODULE,
        CONVERTER,
        c"rxt_tf_litert_convert.py",
        "rxt_tf_litert_convert",
    )
}
