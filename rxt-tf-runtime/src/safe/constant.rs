//! Host constants as tensor handles: the axes, permutations and other
//! constant inputs an op row declares, made once per context and reused.

use rxt_tf_spec::{DType, Value};

use crate::error::{Error, Result};
use crate::safe::handle::{null_handle, OwnedHandle};
use crate::safe::status::Status;
use crate::sys::Api;

/// A constant's identity: element type, shape and bytes (native order).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ConstantKey {
    dtype: DType,
    dims: Vec<i64>,
    bytes: Vec<u8>,
}

impl ConstantKey {
    /// The constant `value` as a tensor of `dtype`; an error names `op` when
    /// the value does not fit the element type.
    pub(crate) fn new(op: &'static str, value: &Value, dtype: DType) -> Result<ConstantKey> {
        let (dims, ints): (Vec<i64>, &[i64]) = match value {
            Value::Int(int) => (Vec::new(), std::slice::from_ref(int)),
            Value::Ints(ints) => (vec![len_i64(ints.len())], ints),
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
        let mut bytes = Vec::with_capacity(ints.len() * 8);
        for &int in ints {
            match dtype {
                DType::I32 => {
                    let narrow = i32::try_from(int).map_err(|_| Error::Keyword {
                        op,
                        message: format!("{int} does not fit an int32 constant"),
                    })?;
                    bytes.extend_from_slice(&narrow.to_ne_bytes());
                }
                DType::I64 => bytes.extend_from_slice(&int.to_ne_bytes()),
                DType::F32 => {
                    // Integer-valued float constants are exact up to 2^24,
                    // far beyond any axis; larger values are refused.
                    if int.unsigned_abs() > 1 << 24 {
                        return Err(Error::Keyword {
                            op,
                            message: format!("{int} is not exact as a float32 constant"),
                        });
                    }
                    bytes.extend_from_slice(&(int as f32).to_ne_bytes());
                }
            }
        }
        Ok(ConstantKey { dtype, dims, bytes })
    }

    /// A new host tensor handle holding this constant.
    pub(crate) fn make(&self, api: &'static Api) -> Result<OwnedHandle> {
        const OP: &str = "constant";
        let rank = i32::try_from(self.dims.len()).map_err(|_| null_handle(OP))?;
        // SAFETY: `dims` holds `rank` sizes whose product times the element
        // size is `bytes.len()` (built together in `new`).
        let tensor = unsafe {
            (api.TF_AllocateTensor)(
                self.dtype.code(),
                self.dims.as_ptr(),
                rank,
                self.bytes.len(),
            )
        };
        if tensor.is_null() {
            return Err(null_handle(OP));
        }
        if !self.bytes.is_empty() {
            // SAFETY: `tensor` is a live tensor.
            let data = unsafe { (api.TF_TensorData)(tensor) }.cast::<u8>();
            // SAFETY: its buffer is `bytes.len()` bytes long (allocated just
            // above) and cannot overlap `bytes`.
            unsafe { std::ptr::copy_nonoverlapping(self.bytes.as_ptr(), data, self.bytes.len()) };
        }
        let handle = Status::new(api, OP).and_then(|status| {
            // SAFETY: `tensor` is live; the handle shares its buffer by reference.
            let raw = unsafe { (api.TFE_NewTensorHandle)(tensor, status.as_ptr()) };
            status.check(OP)?;
            // SAFETY: on success the new handle is ours to own.
            unsafe { OwnedHandle::from_raw(api, raw) }.ok_or_else(|| null_handle(OP))
        });
        // SAFETY: our reference to `tensor` is released once; the handle keeps
        // its own reference to the buffer.
        unsafe { (api.TF_DeleteTensor)(tensor) };
        handle
    }
}

fn len_i64(len: usize) -> i64 {
    i64::try_from(len).unwrap_or(i64::MAX)
}
