//! Host constants as tensor handles: the axes, permutations and other
//! constant inputs an op row declares, made once per context and reused.

use rxt_tf_spec::{DType, Value};

use crate::error::{Error, Result};
use crate::safe::handle::OwnedHandle;
use crate::safe::host::{self, Number, ScalarBits};
use crate::sys::Api;

/// The most elements a constant input may have (axes, a permutation: one
/// per axis of the largest rank).
const MAX_ELEMENTS: usize = rxt_tf_spec::MAX_RANK as usize;

/// A constant's identity: element type, shape and bytes (native order), held
/// inline so looking one up on every call allocates nothing.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ConstantKey {
    dtype: DType,
    /// `None` for a scalar, else the length of a rank-1 constant.
    length: Option<i64>,
    bytes: [u8; MAX_ELEMENTS * 8],
    used: usize,
}

impl ConstantKey {
    /// The constant `value` as a tensor of `dtype`; an error names `op` when
    /// the value does not fit the element type.
    pub(crate) fn new(op: &'static str, value: &Value, dtype: DType) -> Result<ConstantKey> {
        let mut key = ConstantKey {
            dtype,
            length: None,
            bytes: [0; MAX_ELEMENTS * 8],
            used: 0,
        };
        // A number scalar of a float or bool type (`one_hot`'s `on_value`,
        // `pad`'s `constant_values`), as that type.
        match (value, dtype) {
            (Value::Float(float), dtype) if dtype.is_float() => {
                key.push(ScalarBits::new(op, Number::Float(*float), dtype)?.bytes());
            }
            (Value::Int(int), dtype) if dtype.is_float() => {
                key.push(ScalarBits::new(op, Number::Int(*int), dtype)?.bytes());
            }
            (Value::Int(int @ (0 | 1)), DType::Bool) => key.push(&[u8::from(*int == 1)]),
            (Value::Float(float), DType::Bool) if *float == 0.0 || *float == 1.0 => {
                key.push(&[u8::from(*float == 1.0)]);
            }
            // An integral float for an integer type (the plain functions
            // take `f64`): exact in `i64`'s range.
            (Value::Float(float), DType::I32 | DType::I64)
                if float.fract() == 0.0
                    && (i64::MIN as f64..-(i64::MIN as f64)).contains(float) =>
            {
                return ConstantKey::new(op, &Value::Int(*float as i64), dtype);
            }
            _ => {}
        }
        if key.used > 0 {
            return Ok(key);
        }
        let ints: &[i64] = match value {
            Value::Int(int) => std::slice::from_ref(int),
            Value::Ints(ints) if ints.len() <= MAX_ELEMENTS => {
                key.length = Some(i64::try_from(ints.len()).unwrap_or(i64::MAX));
                ints
            }
            other => {
                return Err(Error::Keyword {
                    op,
                    message: format!(
                        "`{}` cannot become a {} constant input",
                        other.rust(),
                        dtype.name()
                    ),
                })
            }
        };
        for &int in ints {
            // Constant inputs are axes and permutations: integers.
            if dtype.is_float() || dtype == DType::Bool {
                return Err(Error::Keyword {
                    op,
                    message: format!("{int} cannot become a {} constant input", dtype.name()),
                });
            }
            if dtype.size() == 8 {
                key.push(&int.to_ne_bytes());
            } else {
                let narrow = i32::try_from(int).map_err(|_| Error::Keyword {
                    op,
                    message: format!("{int} does not fit an int32 constant"),
                })?;
                key.push(&narrow.to_ne_bytes());
            }
        }
        Ok(key)
    }

    /// Appends `bytes` (at most 8, at most [`MAX_ELEMENTS`] times: callers
    /// keep within `bytes`).
    fn push(&mut self, bytes: &[u8]) {
        if let Some(room) = self.bytes.get_mut(self.used..self.used + bytes.len()) {
            room.copy_from_slice(bytes);
            self.used += bytes.len();
        }
    }

    /// The constant's bytes.
    fn data(&self) -> &[u8] {
        &self.bytes[..self.used]
    }

    /// A new host tensor handle holding this constant.
    pub(crate) fn make(&self, api: &'static Api) -> Result<OwnedHandle> {
        let dims: &[i64] = match &self.length {
            Some(length) => std::slice::from_ref(length),
            None => &[],
        };
        host::new_handle(api, "constant", self.dtype, dims, self.data())
    }
}
