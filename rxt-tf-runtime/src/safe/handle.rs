//! An owned `TFE_TensorHandle`, deleted on drop.

use std::ffi::CStr;
use std::ptr::NonNull;

use crate::error::Result;
use crate::safe::status::Status;
use crate::sys::{Api, TFE_TensorHandle};

/// One owned reference to an eager tensor. Deleting it needs no GIL.
pub(crate) struct OwnedHandle {
    raw: NonNull<TFE_TensorHandle>,
    api: &'static Api,
}

// SAFETY: a `TFE_TensorHandle` is reference-counted and immutable once its
// producing op has run; TensorFlow reads and releases it from any thread (its
// own Python layer does so without the GIL).
unsafe impl Send for OwnedHandle {}
// SAFETY: `&OwnedHandle` only allows reading the handle's metadata and
// passing it as an op input, both thread-safe in TensorFlow.
unsafe impl Sync for OwnedHandle {}

impl OwnedHandle {
    /// Takes ownership of `raw`, or `None` if it is null.
    ///
    /// # Safety
    /// `raw` must be null or a handle the caller owns and gives up.
    pub(crate) unsafe fn from_raw(api: &'static Api, raw: *mut TFE_TensorHandle) -> Option<Self> {
        NonNull::new(raw).map(|raw| OwnedHandle { raw, api })
    }

    /// The handle, still owned by `self`.
    pub(crate) fn as_ptr(&self) -> *mut TFE_TensorHandle {
        self.raw.as_ptr()
    }

    /// Gives up ownership of the handle.
    pub(crate) fn into_raw(self) -> *mut TFE_TensorHandle {
        let raw = self.raw.as_ptr();
        std::mem::forget(self);
        raw
    }

    /// The function table it was made with.
    pub(crate) fn api(&self) -> &'static Api {
        self.api
    }

    /// The `TF_DataType` code of the tensor.
    pub(crate) fn dtype(&self) -> i32 {
        // SAFETY: `raw` is a live handle owned by `self`.
        unsafe { (self.api.TFE_TensorHandleDataType)(self.raw.as_ptr()) }
    }

    /// The rank of the tensor.
    pub(crate) fn rank(&self, status: &Status, op: &'static str) -> Result<i64> {
        // SAFETY: `raw` is live; `status` is a live status.
        let dims =
            unsafe { (self.api.TFE_TensorHandleNumDims)(self.raw.as_ptr(), status.as_ptr()) };
        status.check(op)?;
        Ok(i64::from(dims))
    }

    /// The size of dimension `index`.
    pub(crate) fn dim(&self, index: i32, status: &Status, op: &'static str) -> Result<i64> {
        // SAFETY: `raw` is live; `status` is a live status.
        let size =
            unsafe { (self.api.TFE_TensorHandleDim)(self.raw.as_ptr(), index, status.as_ptr()) };
        status.check(op)?;
        Ok(size)
    }

    /// Applies `f` to the name of the device the tensor is on (its bytes,
    /// as TensorFlow gives them: empty if it names none).
    pub(crate) fn with_device<T>(
        &self,
        status: &Status,
        op: &'static str,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Result<T> {
        // SAFETY: `raw` is live; `status` is a live status.
        let name =
            unsafe { (self.api.TFE_TensorHandleDeviceName)(self.raw.as_ptr(), status.as_ptr()) };
        status.check(op)?;
        if name.is_null() {
            return Ok(f(b""));
        }
        // SAFETY: non-null, NUL-terminated, owned by the handle, which lives
        // through this borrow; read without a copy.
        Ok(f(unsafe { CStr::from_ptr(name) }.to_bytes()))
    }

    /// Another owned reference to the same tensor (no data copy).
    pub(crate) fn share(&self, status: &Status, op: &'static str) -> Result<OwnedHandle> {
        // SAFETY: `raw` is a live handle owned by `self`.
        unsafe { OwnedHandle::copy_sharing(self.api, self.raw.as_ptr(), status, op) }
    }

    /// A new owned reference to the tensor behind `raw` (no data copy).
    ///
    /// # Safety
    /// `raw` must be a live handle for the duration of the call.
    pub(crate) unsafe fn copy_sharing(
        api: &'static Api,
        raw: *mut TFE_TensorHandle,
        status: &Status,
        op: &'static str,
    ) -> Result<OwnedHandle> {
        // SAFETY: `raw` is live (caller's contract); `status` is a live status.
        let copy = unsafe { (api.TFE_TensorHandleCopySharingTensor)(raw, status.as_ptr()) };
        status.check(op)?;
        // SAFETY: on success the returned handle is new and ours to own.
        unsafe { OwnedHandle::from_raw(api, copy) }.ok_or_else(|| null_handle(op))
    }
}

impl Drop for OwnedHandle {
    fn drop(&mut self) {
        // SAFETY: `raw` is owned by `self` and released exactly once.
        unsafe { (self.api.TFE_DeleteTensorHandle)(self.raw.as_ptr()) };
    }
}

/// The error for a C call that reported success but returned no tensor
/// handle (for a null of another kind, see [`null_pointer`]).
pub(crate) fn null_handle(op: &'static str) -> crate::Error {
    crate::Error::Op {
        op,
        code: crate::error::code::INTERNAL,
        message: String::from("TensorFlow returned a null tensor handle"),
    }
}

/// The error for the C function `function` reporting success (or having no
/// status to report on) but returning a null pointer that is not a tensor
/// handle: a graph, a node, a tensor, an op, a function.
pub(crate) fn null_pointer(op: &'static str, function: &'static str) -> crate::Error {
    crate::Error::Op {
        op,
        code: crate::error::code::INTERNAL,
        message: format!("TensorFlow's {function} returned NULL"),
    }
}
