//! An owned `TFE_Op` being built: attributes, inputs, then one execution.

use std::ffi::{c_int, CStr};
use std::ptr::NonNull;
use std::sync::{Mutex, PoisonError};

use rxt_tf_spec::Value;

use crate::error::{Error, Result};
use crate::safe::handle::{null_handle, null_pointer, OwnedHandle};
use crate::safe::status::Status;
use crate::sys::{Api, TFE_Context, TFE_Op, TFE_TensorHandle};

/// Ops of one context kept for reuse once run: making and deleting a
/// `TFE_Op` costs more than resetting one (TensorFlow's Python layer keeps
/// one per thread for the same reason). A kept op holds no input (it is
/// reset when given back) and is reset again, on the thread that uses it,
/// when taken (so it runs on that thread's executor).
pub(crate) struct OpPool {
    api: &'static Api,
    context: NonNull<TFE_Context>,
    spare: Mutex<Vec<NonNull<TFE_Op>>>,
}

// SAFETY: a kept op is only a pointer owned by the pool: it is taken out
// under the mutex and then used by one thread at a time, as a `TFE_Op` may
// be; TensorFlow's ops are not tied to the thread that made them. The
// context is internally synchronised and used from every thread.
unsafe impl Send for OpPool {}
// SAFETY: as above; through `&OpPool` the ops are reached under the mutex.
unsafe impl Sync for OpPool {}

/// Ops a pool keeps at most (one per thread running at once is enough).
const POOL_SIZE: usize = 8;

impl OpPool {
    /// An empty pool of ops on `context`, of the wheel `api` binds.
    ///
    /// # Safety
    /// `context` must stay live for as long as the pool does.
    pub(crate) unsafe fn new(api: &'static Api, context: NonNull<TFE_Context>) -> OpPool {
        OpPool {
            api,
            context,
            spare: Mutex::new(Vec::new()),
        }
    }

    fn take(&self) -> Option<NonNull<TFE_Op>> {
        self.spare.try_lock().ok().and_then(|mut spare| spare.pop())
    }

    /// Keeps `op` (reset, holding nothing), or deletes it when the pool is
    /// full or busy.
    fn keep(&self, op: NonNull<TFE_Op>) {
        if let Ok(mut spare) = self.spare.try_lock() {
            if spare.len() < POOL_SIZE {
                spare.push(op);
                return;
            }
        }
        // SAFETY: `op` is owned here and deleted once.
        unsafe { (self.api.TFE_DeleteOp)(op.as_ptr()) };
    }
}

impl Drop for OpPool {
    fn drop(&mut self) {
        let spare = self.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
        for op in spare.drain(..) {
            // SAFETY: each kept op is owned by the pool and deleted once,
            // before its context (the pool's owner deletes the context
            // after dropping the pool).
            unsafe { (self.api.TFE_DeleteOp)(op.as_ptr()) };
        }
    }
}

/// An op of one TensorFlow kind placed on one device, given back to its
/// pool (or deleted) on drop.
pub(crate) struct OwnedOp<'s> {
    raw: NonNull<TFE_Op>,
    api: &'static Api,
    status: &'s Status,
    /// rxt-tf's name for the op, for errors.
    name: &'static str,
    /// The device it is placed on, kept when it is given back (so that
    /// resetting it to the same device parses no name).
    device: &'static CStr,
    pool: &'s OpPool,
}

impl<'s> OwnedOp<'s> {
    /// A `tf_op` on the context of `pool`, placed on `device`: one of the
    /// pool's, reset, or a new one.
    pub(crate) fn new(
        pool: &'s OpPool,
        tf_op: &CStr,
        device: &'static CStr,
        status: &'s Status,
        name: &'static str,
    ) -> Result<OwnedOp<'s>> {
        let api = pool.api;
        let (raw, reused) = match pool.take() {
            Some(raw) => (raw, true),
            None => {
                // SAFETY: the pool's context is live while the pool is (its
                // contract); the name is NUL-terminated.
                let raw = unsafe {
                    (api.TFE_NewOp)(pool.context.as_ptr(), tf_op.as_ptr(), status.as_ptr())
                };
                status.check(name)?;
                let raw = NonNull::new(raw).ok_or_else(|| null_pointer(name, "TFE_NewOp"))?;
                (raw, false)
            }
        };
        let op = OwnedOp {
            raw,
            api,
            status,
            name,
            device,
            pool,
        };
        let (raw, device) = (op.raw.as_ptr(), device.as_ptr());
        if reused {
            // SAFETY: `op` is live and reset on this thread; the names are
            // NUL-terminated. The device is parsed only if it changed.
            unsafe { (api.TFE_OpReset)(raw, tf_op.as_ptr(), device, status.as_ptr()) };
        } else {
            // SAFETY: `op` is live; the device name is NUL-terminated.
            unsafe { (api.TFE_OpSetDevice)(raw, device, status.as_ptr()) };
        }
        status.check(name)?;
        Ok(op)
    }

    /// Sets the attribute `attr` to `value`. Type attributes must be set
    /// before any input is added: set after, a wrong one is silently ignored.
    pub(crate) fn set_attr(&mut self, attr: &CStr, value: &Value) -> Result<()> {
        let (op, name) = (self.raw.as_ptr(), attr.as_ptr());
        // In every arm: `op` is live and `name` NUL-terminated; the setters
        // copy what they are given.
        match *value {
            Value::Type(dtype) => {
                // SAFETY: see above.
                unsafe { (self.api.TFE_OpSetAttrType)(op, name, dtype.code()) }
            }
            Value::Bool(flag) => {
                // SAFETY: see above.
                unsafe { (self.api.TFE_OpSetAttrBool)(op, name, u8::from(flag)) }
            }
            Value::Int(int) => {
                // SAFETY: see above.
                unsafe { (self.api.TFE_OpSetAttrInt)(op, name, int) }
            }
            Value::Float(float) => {
                // TensorFlow's float attributes are single precision.
                let float = float as f32;
                // SAFETY: see above.
                unsafe { (self.api.TFE_OpSetAttrFloat)(op, name, float) }
            }
            Value::Str(text) => {
                // SAFETY: see above; `text` is valid for `text.len()` bytes.
                unsafe {
                    (self.api.TFE_OpSetAttrString)(op, name, text.as_ptr().cast(), text.len())
                }
            }
            Value::Ints(ints) => {
                let count = c_int::try_from(ints.len()).map_err(|_| Error::Keyword {
                    op: self.name,
                    message: format!("attribute `{}`: too long a list", attr.to_string_lossy()),
                })?;
                // SAFETY: see above; `ints` holds `count` values.
                unsafe { (self.api.TFE_OpSetAttrIntList)(op, name, ints.as_ptr(), count) }
            }
        }
        Ok(())
    }

    /// Sets the string attribute `attr` to `bytes` (any bytes, such as a
    /// serialized protocol buffer).
    pub(crate) fn set_bytes(&mut self, attr: &CStr, bytes: &[u8]) -> Result<()> {
        // SAFETY: the op is live, `attr` NUL-terminated, `bytes` valid for
        // its length; the setter copies it.
        unsafe {
            (self.api.TFE_OpSetAttrString)(
                self.raw.as_ptr(),
                attr.as_ptr(),
                bytes.as_ptr().cast(),
                bytes.len(),
            )
        };
        Ok(())
    }

    /// Sets the type-list attribute `attr` to `types` (`TF_DataType` codes).
    pub(crate) fn set_type_list(&mut self, attr: &CStr, types: &[i32]) -> Result<()> {
        let count = c_int::try_from(types.len())
            .map_err(|_| Error::limit(self.name, "the number of types in a type-list attribute"))?;
        // SAFETY: the op is live, `attr` NUL-terminated, `types` valid for
        // `count` codes; the setter copies them.
        unsafe {
            (self.api.TFE_OpSetAttrTypeList)(
                self.raw.as_ptr(),
                attr.as_ptr(),
                types.as_ptr(),
                count,
            )
        };
        Ok(())
    }

    /// Sets the function attribute `attr` to the function named `function`
    /// (a function of the op's context).
    pub(crate) fn set_function(&mut self, attr: &CStr, function: &CStr) -> Result<()> {
        let name = function.to_bytes();
        // SAFETY: the op is live, `attr` NUL-terminated and `name` valid for
        // its length; the setter copies it.
        unsafe {
            (self.api.TFE_OpSetAttrFunctionName)(
                self.raw.as_ptr(),
                attr.as_ptr(),
                name.as_ptr().cast(),
                name.len(),
            )
        };
        Ok(())
    }

    /// Adds `input` as the next input; the op takes its own reference.
    pub(crate) fn add_input(&mut self, input: &OwnedHandle) -> Result<()> {
        // SAFETY: the op and the handle are live.
        unsafe {
            (self.api.TFE_OpAddInput)(self.raw.as_ptr(), input.as_ptr(), self.status.as_ptr())
        };
        self.status.check(self.name)
    }

    /// Adds `inputs` as the next input, a list (`ConcatV2`'s `values`); the
    /// op takes its own references.
    pub(crate) fn add_input_list(&mut self, inputs: &[&OwnedHandle]) -> Result<()> {
        let mut raw: Vec<*mut TFE_TensorHandle> = inputs.iter().map(|h| h.as_ptr()).collect();
        let count = c_int::try_from(raw.len())
            .map_err(|_| Error::limit(self.name, "the number of inputs in an input list"))?;
        // SAFETY: the op and every handle are live; `raw` holds `count`
        // pointers, read during the call only.
        unsafe {
            (self.api.TFE_OpAddInputList)(
                self.raw.as_ptr(),
                raw.as_mut_ptr(),
                count,
                self.status.as_ptr(),
            )
        };
        self.status.check(self.name)
    }

    /// Runs the op, expecting one output, with the GIL released when `work`
    /// says so (see [`crate::gil`]).
    pub(crate) fn execute(self, work: i64) -> Result<OwnedHandle> {
        let name = self.name;
        let mut outputs = self.execute_many(work, 1)?;
        // `execute_many` returns exactly the one output asked for.
        outputs
            .pop()
            .ok_or_else(|| Error::internal(name, "a one-output op was run for no output"))
    }

    /// Runs the op, expecting `expected` outputs, with the GIL released when
    /// `work` says so.
    pub(crate) fn execute_many(self, work: i64, expected: usize) -> Result<Vec<OwnedHandle>> {
        let mut raw: Vec<*mut TFE_TensorHandle> = vec![std::ptr::null_mut(); expected];
        let mut count = c_int::try_from(expected)
            .map_err(|_| Error::limit(self.name, "the number of an op's outputs"))?;
        crate::gil::maybe_released(work, || {
            // SAFETY: the op is fully built; `raw` has room for `count`
            // outputs, and `count` says so. No Python object is touched.
            unsafe {
                (self.api.TFE_Execute)(
                    self.raw.as_ptr(),
                    raw.as_mut_ptr(),
                    &mut count,
                    self.status.as_ptr(),
                )
            }
        });
        self.status.check(self.name)?;
        let produced = usize::try_from(count).unwrap_or(0).min(expected);
        // SAFETY: on success `TFE_Execute` hands us `count` output handles,
        // each owned once here (a null one is skipped).
        let outputs: Vec<OwnedHandle> = raw[..produced]
            .iter()
            .filter_map(|&handle| unsafe { OwnedHandle::from_raw(self.api, handle) })
            .collect();
        if usize::try_from(count).ok() != Some(expected) {
            // What rxt-tf planned (a row's or a function signature's output
            // count) disagrees with the op TensorFlow ran.
            return Err(Error::internal(
                self.name,
                "the op produced another number of outputs than was planned",
            ));
        }
        if outputs.len() != expected {
            return Err(null_handle(self.name));
        }
        Ok(outputs)
    }
}

impl Drop for OwnedOp<'_> {
    fn drop(&mut self) {
        // Reset to an op without inputs or attributes (on its device), it
        // lets go of its inputs (and what they hold) now, not when it is
        // next used.
        // SAFETY: the op is live; the names are NUL-terminated.
        unsafe {
            (self.api.TFE_OpReset)(
                self.raw.as_ptr(),
                c"NoOp".as_ptr(),
                self.device.as_ptr(),
                self.status.as_ptr(),
            )
        };
        if self.status.is_ok() {
            self.pool.keep(self.raw);
        } else {
            // SAFETY: `raw` is owned here and deleted once.
            unsafe { (self.api.TFE_DeleteOp)(self.raw.as_ptr()) };
        }
    }
}
