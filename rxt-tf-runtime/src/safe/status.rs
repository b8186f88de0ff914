//! The result layer: an owned `TF_Status` whose outcome is copied out into
//! an [`Error`] (the C status object never escapes as the error).

use std::ffi::CStr;
use std::ptr::NonNull;

use crate::error::{code, Error, Result};
use crate::sys::{Api, TF_Status, TF_OK};

/// An owned `TF_Status`.
pub(crate) struct Status {
    api: &'static Api,
    raw: NonNull<TF_Status>,
}

// SAFETY: a `TF_Status` is a plain heap object (a code and a message) with
// no tie to the thread that made it; the owner may move it to another
// thread. It is not `Sync`: C calls write into it through `&self`.
unsafe impl Send for Status {}

impl Status {
    /// Allocates a status for `op`'s calls.
    pub(crate) fn new(api: &'static Api, op: &'static str) -> Result<Status> {
        // SAFETY: `TF_NewStatus` has no preconditions.
        let raw = unsafe { (api.TF_NewStatus)() };
        NonNull::new(raw)
            .map(|raw| Status { api, raw })
            .ok_or(Error::Op {
                op,
                // As TensorFlow reports a failed allocation.
                code: code::RESOURCE_EXHAUSTED,
                message: String::from("TF_NewStatus returned NULL"),
            })
    }

    /// The pointer to pass to C functions.
    pub(crate) fn as_ptr(&self) -> *mut TF_Status {
        self.raw.as_ptr()
    }

    /// Whether the last call succeeded.
    pub(crate) fn is_ok(&self) -> bool {
        // SAFETY: `raw` is a live status owned by `self`.
        unsafe { (self.api.TF_GetCode)(self.raw.as_ptr()) == TF_OK }
    }

    /// `Ok` if the last call succeeded, else the code and message as an
    /// [`Error::Op`] naming `op`.
    pub(crate) fn check(&self, op: &'static str) -> Result<()> {
        // SAFETY: `raw` is a live status owned by `self`.
        let code = unsafe { (self.api.TF_GetCode)(self.raw.as_ptr()) };
        if code == TF_OK {
            return Ok(());
        }
        // SAFETY: `raw` is a live status owned by `self`.
        let message = unsafe { (self.api.TF_Message)(self.raw.as_ptr()) };
        // SAFETY: the message is NUL-terminated and valid until the status
        // changes; it is copied out at once.
        let message = unsafe { CStr::from_ptr(message) }
            .to_string_lossy()
            .into_owned();
        Err(Error::Op { op, code, message })
    }
}

impl Drop for Status {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `TF_NewStatus` and is deleted once.
        unsafe { (self.api.TF_DeleteStatus)(self.raw.as_ptr()) };
    }
}
