//! Converting a TensorFlow function to a LiteRT model with TensorFlow's own
//! TFLite converter (`convert.py`), in the process's Python.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyModule};

use super::model::Model;
use crate::error::{Error, Result};

/// Converts `function` (a concrete function: builtin ops, float32, its
/// variables frozen) and loads the result into LiteRT.
pub fn convert(function: &Bound<'_, PyAny>) -> Result<Arc<Model>> {
    converted(function.py(), "the function", |module| {
        module.getattr("convert")?.call1((function,))
    })
}

/// Converts `function` as [`convert`] does, its inputs of exactly
/// `shapes`: for input shapes LiteRT cannot size the first model to, or a
/// function whose model for any shapes did not convert. `retrace` (a
/// Python function of the shapes to a concrete function traced for them)
/// traces it again where given; else its graph is given those shapes.
pub(crate) fn convert_at(
    function: &Bound<'_, PyAny>,
    retrace: Option<&Bound<'_, PyAny>>,
    shapes: &[Vec<i64>],
) -> Result<Arc<Model>> {
    converted(function.py(), "the function", |module| {
        module
            .getattr("convert_at")?
            .call1((function, shapes.to_vec(), retrace))
    })
}

/// An input frozen into a converted model: its position among the
/// function's inputs, its element type's name, shape and bytes.
pub(crate) struct FrozenValue {
    pub(crate) position: usize,
    pub(crate) dtype: &'static str,
    pub(crate) shape: Vec<i64>,
    pub(crate) bytes: Vec<u8>,
}

/// Converts the function `name` of Python's eager context (built from a
/// fused trace; its inputs of `shapes`, a size of -1 unknown; the inputs
/// of `frozen` made constants of their values) and loads the result into
/// LiteRT; where that does not convert, with only the first size of each
/// input unknown, the others those of `exact` (the call's shapes) if given.
pub(crate) fn convert_function_def(
    py: Python<'_>,
    name: &str,
    shapes: &[Vec<i64>],
    frozen: &[FrozenValue],
    exact: Option<&[Vec<i64>]>,
) -> Result<Arc<Model>> {
    converted(py, "the fused trace", |module| {
        let values = frozen
            .iter()
            .map(|value| {
                (
                    value.position,
                    value.dtype,
                    value.shape.clone(),
                    PyBytes::new(py, &value.bytes),
                )
            })
            .collect::<Vec<_>>();
        module.getattr("convert_function_def")?.call1((
            name,
            shapes.to_vec(),
            values,
            exact.map(<[Vec<i64>]>::to_vec),
        ))
    })
}

/// The model LiteRT loads from the flatbuffer `convert` gets of the
/// converter module; a converter error refuses `what`.
fn converted<'py>(
    py: Python<'py>,
    what: &str,
    convert: impl FnOnce(&Bound<'py, PyModule>) -> PyResult<Bound<'py, PyAny>>,
) -> Result<Arc<Model>> {
    let bytes = crate::python::module::Private::LitertConverter
        .module(py)
        .and_then(|module| {
            let bytes = convert(module)?;
            Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
        });
    // The converter module words its refusal in one line (the first op it
    // cannot convert, and where).
    let bytes = bytes.map_err(|err| Error::LitertRefused {
        what: format!("{what} did not convert: {}", err.value(py)),
    })?;
    Model::from_bytes(bytes)
}
