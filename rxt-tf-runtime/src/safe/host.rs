//! Host memory to and from tensor handles: a new handle holding a copy of
//! bytes (constants, `from_slice`), and a copy of a handle's elements back
//! (`to_vec`). The only places rxt-tf copies tensor data.

use std::ffi::c_int;

use rxt_tf_spec::DType;

use crate::error::{Error, Result};
use crate::safe::handle::{null_handle, OwnedHandle};
use crate::safe::status::Status;
use crate::sys::Api;

/// An element type a tensor can hold in host memory.
///
/// # Safety
/// Implementors are plain numbers: no padding, and every bit pattern of
/// their size is a valid value, so they can be copied to and from bytes.
pub(crate) unsafe trait Element: Copy + Default + 'static {
    /// The tensor element type.
    const DTYPE: DType;
}

// SAFETY: `f32` has no padding and every bit pattern is a valid `f32`.
unsafe impl Element for f32 {
    const DTYPE: DType = DType::F32;
}

// SAFETY: `i64` has no padding and every bit pattern is a valid `i64`.
unsafe impl Element for i64 {
    const DTYPE: DType = DType::I64;
}

/// The bytes of `data`.
pub(crate) fn bytes_of<T: Element>(data: &[T]) -> &[u8] {
    // SAFETY: `T: Element` has no padding, so all `size_of_val(data)` bytes
    // of the slice are initialised; `u8` has no alignment requirement.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}

/// A new host tensor handle of `dtype` and `dims` holding a copy of `bytes`,
/// whose length must be the element count times the element size.
pub(crate) fn new_handle(
    api: &'static Api,
    op: &'static str,
    dtype: DType,
    dims: &[i64],
    bytes: &[u8],
) -> Result<OwnedHandle> {
    let rank = c_int::try_from(dims.len()).map_err(|_| null_handle(op))?;
    // SAFETY: `dims` holds `rank` sizes; the caller made `bytes.len()` their
    // product times the element size.
    let tensor = unsafe { (api.TF_AllocateTensor)(dtype.code(), dims.as_ptr(), rank, bytes.len()) };
    if tensor.is_null() {
        return Err(null_handle(op));
    }
    if !bytes.is_empty() {
        // SAFETY: `tensor` is a live tensor.
        let buffer = unsafe { (api.TF_TensorData)(tensor) }.cast::<u8>();
        // SAFETY: its buffer is `bytes.len()` bytes long (allocated just
        // above) and cannot overlap `bytes`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer, bytes.len()) };
    }
    let handle = Status::new(api, op).and_then(|status| {
        // SAFETY: `tensor` is live; the handle shares its buffer by reference.
        let raw = unsafe { (api.TFE_NewTensorHandle)(tensor, status.as_ptr()) };
        status.check(op)?;
        // SAFETY: on success the new handle is ours to own.
        unsafe { OwnedHandle::from_raw(api, raw) }.ok_or_else(|| null_handle(op))
    });
    // SAFETY: our reference to `tensor` is released once; the handle keeps
    // its own reference to the buffer.
    unsafe { (api.TF_DeleteTensor)(tensor) };
    handle
}

/// A copy of the elements of `handle`, which must hold `T`s, row-major.
pub(crate) fn read<T: Element>(
    api: &'static Api,
    handle: &OwnedHandle,
    op: &'static str,
) -> Result<Vec<T>> {
    if handle.dtype() != T::DTYPE.code() {
        return Err(Error::Dtype {
            expected: T::DTYPE.name(),
            found: crate::binding::checks::dtype_name(handle.dtype()),
        });
    }
    let status = Status::new(api, op)?;
    // SAFETY: the handle is live; its op has run (the context is synchronous).
    let tensor = unsafe { (api.TFE_TensorHandleResolve)(handle.as_ptr(), status.as_ptr()) };
    status.check(op)?;
    if tensor.is_null() {
        return Err(null_handle(op));
    }
    // SAFETY: `tensor` is a live host tensor.
    let bytes = unsafe { (api.TF_TensorByteSize)(tensor) };
    let count = bytes / std::mem::size_of::<T>();
    let mut values = vec![T::default(); count];
    if count > 0 {
        // SAFETY: `tensor` is live.
        let data = unsafe { (api.TF_TensorData)(tensor) }.cast::<u8>();
        // SAFETY: the buffer holds `bytes` bytes; `values` has room for
        // `count * size_of::<T>() <= bytes` bytes, and any bytes are valid
        // `T`s (`T: Element`); the regions do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data,
                values.as_mut_ptr().cast::<u8>(),
                count * std::mem::size_of::<T>(),
            )
        };
    }
    // SAFETY: the resolved tensor is ours and released once.
    unsafe { (api.TF_DeleteTensor)(tensor) };
    Ok(values)
}
