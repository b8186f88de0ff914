//! Packing a function's flat outputs into the structure its Python function
//! returned, as `tf.function` does: tensors, `None`, tuples, named tuples,
//! lists and dicts (a dict's tensors numbered in sorted key order, the dict
//! rebuilt in its own order).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The returned structure, with each tensor's index among the outputs.
pub(crate) enum Template {
    Tensor(usize),
    None,
    Tuple(Vec<Template>),
    List(Vec<Template>),
    /// A named tuple's type and fields.
    NamedTuple(Py<PyAny>, Vec<Template>),
    Dict(Vec<(Py<PyAny>, Template)>),
}

impl Template {
    /// Reads the encoding `rxt_tf._trace.encode` writes: `("tensor", i)`,
    /// `("none",)`, `("tuple", [...])`, `("list", [...])`,
    /// `("namedtuple", type, [...])`, `("dict", [(key, ...), ...])`.
    pub(crate) fn from_python(encoded: &Bound<'_, PyAny>) -> PyResult<Template> {
        let tag: String = encoded.get_item(0)?.extract()?;
        let items = |at: usize| -> PyResult<Vec<Template>> {
            encoded
                .get_item(at)?
                .try_iter()?
                .map(|item| Template::from_python(&item?))
                .collect()
        };
        Ok(match tag.as_str() {
            "tensor" => Template::Tensor(encoded.get_item(1)?.extract()?),
            "none" => Template::None,
            "tuple" => Template::Tuple(items(1)?),
            "list" => Template::List(items(1)?),
            "namedtuple" => Template::NamedTuple(encoded.get_item(1)?.unbind(), items(2)?),
            "dict" => Template::Dict(
                encoded
                    .get_item(1)?
                    .try_iter()?
                    .map(|pair| {
                        let pair = pair?;
                        Ok((
                            pair.get_item(0)?.unbind(),
                            Template::from_python(&pair.get_item(1)?)?,
                        ))
                    })
                    .collect::<PyResult<_>>()?,
            ),
            other => {
                return Err(PyValueError::new_err(format!(
                    "rxt_tf: unknown output structure {other:?}"
                )))
            }
        })
    }

    /// The structure with `outputs` in place of the indices.
    pub(crate) fn pack<'py>(
        &self,
        py: Python<'py>,
        outputs: &[Bound<'py, PyAny>],
    ) -> PyResult<Bound<'py, PyAny>> {
        let many = |items: &[Template]| -> PyResult<Vec<Bound<'py, PyAny>>> {
            items.iter().map(|item| item.pack(py, outputs)).collect()
        };
        Ok(match self {
            Template::Tensor(index) => outputs
                .get(*index)
                .ok_or_else(|| PyValueError::new_err("rxt_tf: an output index is out of range"))?
                .clone(),
            Template::None => py.None().into_bound(py),
            Template::Tuple(items) => PyTuple::new(py, many(items)?)?.into_any(),
            Template::List(items) => PyList::new(py, many(items)?)?.into_any(),
            Template::NamedTuple(kind, items) => {
                kind.bind(py).call1(PyTuple::new(py, many(items)?)?)?
            }
            Template::Dict(pairs) => {
                let dict = PyDict::new(py);
                for (key, item) in pairs {
                    dict.set_item(key.bind(py), item.pack(py, outputs)?)?;
                }
                dict.into_any()
            }
        })
    }
}
