//! A call's cache key and its tensor arguments, read in one walk of the
//! bound argument values, in `tf.nest.flatten` order (a dict's values by
//! sorted key): every EagerTensor keyed by element type and exact shape,
//! every Python number, string, bool and `None` by type and value, tuples,
//! lists and dicts by their kind, length and keys. A key at least this fine
//! never maps two calls `tf.function` would trace apart to one concrete
//! function; which concrete function a key maps to is `tf.function`'s own
//! choice, asked once per key.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};

/// `TF_DataType` codes of handles: keyed by `tf.function` with what they
/// refer to, so never keyed here.
const DT_RESOURCE: i32 = 20;
const DT_VARIANT: i32 = 21;

/// One part of a key.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub(crate) enum KeyPart {
    /// An EagerTensor: its `TF_DataType` code and shape.
    Tensor {
        dtype: i32,
        shape: Vec<i64>,
    },
    None,
    Bool(bool),
    Int(i64),
    /// A Python float, by its bits.
    Float(u64),
    Str(String),
    /// A tuple of this many items, which follow.
    Tuple(usize),
    /// A list of this many items, which follow.
    List(usize),
    /// A dict with these keys (sorted); its values follow in that order.
    Dict(Vec<String>),
}

/// A call's key and tensors.
pub(crate) struct Walk<'py> {
    pub(crate) key: Vec<KeyPart>,
    pub(crate) tensors: Vec<Bound<'py, PyAny>>,
}

/// Walks `values`; `None` when one of them is something rxt-tf does not
/// key (the call then goes through `tf.function` itself).
pub(crate) fn walk<'py>(
    values: &[Bound<'py, PyAny>],
    eager_tensor: &Bound<'py, PyType>,
) -> PyResult<Option<Walk<'py>>> {
    let mut walk = Walk {
        key: Vec::with_capacity(values.len()),
        tensors: Vec::with_capacity(values.len()),
    };
    for value in values {
        if !walk.value(value, eager_tensor)? {
            return Ok(None);
        }
    }
    Ok(Some(walk))
}

impl<'py> Walk<'py> {
    /// Adds `value`; false if it cannot be keyed.
    fn value(
        &mut self,
        value: &Bound<'py, PyAny>,
        eager_tensor: &Bound<'py, PyType>,
    ) -> PyResult<bool> {
        let py = value.py();
        if value.get_type().is(eager_tensor) {
            let dtype: i32 = value
                .call_method0(pyo3::intern!(py, "_datatype_enum"))?
                .extract()?;
            // A resource or variant handle is keyed by what it refers to
            // too (a variable's shape): left to `tf.function`.
            if dtype == DT_RESOURCE || dtype == DT_VARIANT {
                return Ok(false);
            }
            let shape = value
                .call_method0(pyo3::intern!(py, "_shape_tuple"))?
                .extract::<Vec<i64>>()?;
            self.key.push(KeyPart::Tensor { dtype, shape });
            self.tensors.push(value.clone());
            return Ok(true);
        }
        if value.is_none() {
            self.key.push(KeyPart::None);
        } else if let Ok(flag) = value.cast_exact::<PyBool>() {
            self.key.push(KeyPart::Bool(flag.is_true()));
        } else if value.is_exact_instance_of::<PyInt>() {
            let Ok(int) = value.extract::<i64>() else {
                return Ok(false);
            };
            self.key.push(KeyPart::Int(int));
        } else if let Ok(float) = value.cast_exact::<PyFloat>() {
            self.key.push(KeyPart::Float(float.value().to_bits()));
        } else if let Ok(text) = value.cast_exact::<PyString>() {
            // A string that is not UTF-8 (a lone surrogate) is not keyed.
            let Ok(text) = text.to_str() else {
                return Ok(false);
            };
            self.key.push(KeyPart::Str(text.to_owned()));
        } else if let Ok(tuple) = value.cast_exact::<PyTuple>() {
            self.key.push(KeyPart::Tuple(tuple.len()));
            for item in tuple.iter() {
                if !self.value(&item, eager_tensor)? {
                    return Ok(false);
                }
            }
        } else if let Ok(list) = value.cast_exact::<PyList>() {
            self.key.push(KeyPart::List(list.len()));
            for item in list.iter() {
                if !self.value(&item, eager_tensor)? {
                    return Ok(false);
                }
            }
        } else if let Ok(dict) = value.cast_exact::<PyDict>() {
            let mut items = Vec::with_capacity(dict.len());
            for (key, item) in dict.iter() {
                let Some(key) = key
                    .cast_exact::<PyString>()
                    .ok()
                    .and_then(|k| k.to_str().ok())
                else {
                    return Ok(false);
                };
                items.push((key.to_owned(), item));
            }
            items.sort_by(|a, b| a.0.cmp(&b.0));
            self.key.push(KeyPart::Dict(
                items.iter().map(|(key, _)| key.clone()).collect(),
            ));
            for (_, item) in &items {
                if !self.value(item, eager_tensor)? {
                    return Ok(false);
                }
            }
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

/// The EagerTensors of `values` (each a tensor, or a tuple or list of
/// them) in order, read without keying them; `None` if one is anything
/// else.
pub(crate) fn tensors<'py>(
    values: &[Bound<'py, PyAny>],
    eager_tensor: &Bound<'py, PyType>,
) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
    fn add<'py>(
        value: &Bound<'py, PyAny>,
        eager_tensor: &Bound<'py, PyType>,
        found: &mut Vec<Bound<'py, PyAny>>,
    ) -> bool {
        if value.get_type().is(eager_tensor) {
            found.push(value.clone());
            return true;
        }
        let items = match (value.cast_exact::<PyTuple>(), value.cast_exact::<PyList>()) {
            (Ok(tuple), _) => tuple.iter().collect::<Vec<_>>(),
            (_, Ok(list)) => list.iter().collect(),
            _ => return false,
        };
        items.iter().all(|item| add(item, eager_tensor, found))
    }
    let mut found = Vec::with_capacity(values.len());
    Ok(values
        .iter()
        .all(|value| add(value, eager_tensor, &mut found))
        .then_some(found))
}
