//! Python's own eager context, bound for rxt-tf: the `TFE_Context*` behind
//! `tensorflow.python.eager.context.context()._handle`, kept alive by strong
//! references for as long as any tensor made on it lives. Never a
//! `TFE_NewContext`.

use std::ffi::CStr;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use rxt_tf_spec::{DType, Value};

use crate::binding::checks;
use crate::binding::constants::Constants;
use crate::binding::wheel::Wheel;
use crate::error::{Error, Result};
use crate::safe::constant::ConstantKey;
use crate::safe::handle::OwnedHandle;
use crate::safe::host::{self, ScalarBits};
use crate::safe::op::OpPool;
use crate::sys::TFE_Context;

/// `CPU_DEVICE` as a C string, for `TFE_OpSetDevice`.
pub(crate) const CPU_DEVICE_C: &CStr = c"/job:localhost/replica:0/task:0/device:CPU:0";

/// Python's synchronous eager context, with the constants rxt-tf's ops reuse.
pub struct BoundContext {
    /// A number no other context of the process has, ever.
    id: u64,
    wheel: &'static Wheel,
    raw: NonNull<TFE_Context>,
    /// Constant inputs made on this context.
    constants: Mutex<Constants>,
    /// Its ops kept for reuse; dropped before the references below, which
    /// may delete the context.
    ops: OpPool,
    // Strong references that keep the `TFE_Context*` alive: the capsule's
    // destructor deletes the context, and the Python context owns the capsule.
    _py_context: Py<PyAny>,
    _capsule: Py<PyAny>,
}

// SAFETY: a `TFE_Context` is internally synchronised (TensorFlow's Python
// layer uses it from every thread, without the GIL); the Python references
// are only dropped, which PyO3 defers until a thread holds the GIL.
unsafe impl Send for BoundContext {}
// SAFETY: as above; through `&BoundContext` the pointer is only read and
// the constants are changed under their mutex.
unsafe impl Sync for BoundContext {}

/// The id of the next context bound.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The context bound most recently, reused while Python's context is the same.
static CURRENT: Mutex<Option<Arc<BoundContext>>> = Mutex::new(None);

impl BoundContext {
    /// Binds Python's current eager context (initialising it if needed).
    /// Fails if it runs asynchronously on this thread.
    ///
    /// The fast path, taken while Python's context object and its handle are
    /// the ones bound before, costs two attribute reads and a C call; a new
    /// context (after `_reset_context()`, say) is bound afresh.
    pub fn current(py: Python<'_>) -> Result<Arc<BoundContext>> {
        let wheel = Wheel::get(py)?;
        if let Some(bound) = cached(py, wheel) {
            if let Some(is_async) = bound.executor_is_async() {
                checks::execution_mode(is_async)?;
                return Ok(bound);
            }
        }
        Self::bind(py, wheel)
    }

    /// Binds Python's context through its public-to-TensorFlow Python API.
    fn bind(py: Python<'_>, wheel: &'static Wheel) -> Result<Arc<BoundContext>> {
        let python = |step: &'static str| move |err: PyErr| Error::python(py, step, &err);
        let context = wheel
            .context
            .call0(py)
            .map_err(python("tensorflow.python.eager.context.context()"))?
            .into_bound(py);
        context
            .call_method0("ensure_initialized")
            .map_err(python("initialising the eager context"))?;
        let is_async = context
            .call_method0("is_async")
            .and_then(|flag| flag.is_truthy())
            .map_err(python("reading the eager context's execution mode"))?;
        checks::execution_mode(is_async)?;
        let capsule = context
            .getattr("_handle")
            .map_err(python("reading the eager context's handle"))?;
        // SAFETY: the GIL is held and `capsule` is a live object; a null name
        // matches the context's unnamed capsule, anything else returns NULL
        // with a Python error set, which is fetched below.
        let pointer =
            unsafe { pyo3::ffi::PyCapsule_GetPointer(capsule.as_ptr(), std::ptr::null()) };
        let raw = NonNull::new(pointer.cast::<TFE_Context>()).ok_or_else(|| {
            let err = PyErr::take(py).unwrap_or_else(|| {
                pyo3::exceptions::PyRuntimeError::new_err("the context capsule is empty")
            });
            Error::python(py, "reading the eager context's capsule", &err)
        })?;

        let mut current = CURRENT
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(bound) = current.as_ref().filter(|b| b.holds(&context, &capsule)) {
            return Ok(Arc::clone(bound));
        }
        let bound = Arc::new(BoundContext {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            wheel,
            raw,
            constants: Mutex::new(Constants::default()),
            // SAFETY: the pool is a field of the binding, which keeps the
            // context alive (below) and drops the pool first.
            ops: unsafe { OpPool::new(wheel.api(), raw) },
            _py_context: context.unbind(),
            _capsule: capsule.unbind(),
        });
        let previous = current.replace(Arc::clone(&bound));
        // The previous context may hold the last references to Python objects,
        // whose release can run Python code: not under the lock.
        drop(current);
        drop(previous);
        Ok(bound)
    }

    /// Whether this is the binding of Python's `context` object with handle
    /// `capsule`. It holds both alive, so equal pointers mean the very same
    /// objects, never a reused address (and so the same `TFE_Context`).
    fn holds(&self, context: &Bound<'_, PyAny>, capsule: &Bound<'_, PyAny>) -> bool {
        self._py_context.as_ptr() == context.as_ptr() && self._capsule.as_ptr() == capsule.as_ptr()
    }

    /// Fails if this thread's executor on the context is asynchronous: ops
    /// run on tensors held in Rust, from any thread, refuse it as the
    /// boundary does.
    pub(crate) fn ensure_synchronous(&self) -> Result<()> {
        checks::execution_mode(self.executor_is_async() == Some(true))
    }

    /// Whether this thread's executor on the context is asynchronous, read
    /// in C; `None` if the context returned no executor.
    fn executor_is_async(&self) -> Option<bool> {
        let api = self.wheel.api();
        // SAFETY: the context is live while `self` is.
        let executor = unsafe { (api.TFE_ContextGetExecutorForThread)(self.raw.as_ptr()) };
        if executor.is_null() {
            return None;
        }
        // SAFETY: `executor` is a live wrapper returned just above.
        let is_async = unsafe { (api.TFE_ExecutorIsAsync)(executor) };
        // SAFETY: the wrapper is ours and deleted once; it does not own the
        // context's executor it points to.
        unsafe { (api.TFE_DeleteExecutor)(executor) };
        Some(is_async)
    }

    /// Python's context object this binds.
    pub(crate) fn python_context<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self._py_context.bind(py)
    }

    /// The wheel this context belongs to.
    pub fn wheel(&self) -> &'static Wheel {
        self.wheel
    }

    /// The pool of its ops.
    pub(crate) fn ops(&self) -> &OpPool {
        &self.ops
    }

    /// The raw context, valid while `self` lives.
    pub(crate) fn as_ptr(&self) -> *mut TFE_Context {
        self.raw.as_ptr()
    }

    /// A number no other context of the process has, ever (an address may
    /// be another context's once this one is gone).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Removes the function `name` from the context; whether TensorFlow
    /// had it (its error, if any, is not reported: callers let go of
    /// functions where nothing can be reported).
    pub(crate) fn remove_function(&self, name: &CStr) -> bool {
        let api = self.wheel().api();
        let Ok(status) = crate::safe::status::Status::new(api, "removing a function") else {
            return false;
        };
        // SAFETY: the context is live (held by `self`); the name is
        // NUL-terminated.
        unsafe { (api.TFE_ContextRemoveFunction)(self.as_ptr(), name.as_ptr(), status.as_ptr()) };
        status.check("removing a function").is_ok()
    }

    /// The constant input `value` (a keyword's) as a `dtype` tensor, made
    /// once per context; `op` is named if the value does not fit.
    pub(crate) fn constant(
        &self,
        op: &'static str,
        value: &Value,
        dtype: DType,
    ) -> Result<Arc<OwnedHandle>> {
        let key = ConstantKey::new(op, value, dtype)?;
        let api = self.wheel.api();
        self.constants().keyword(key, |key| key.make(api))
    }

    /// The scalar `bits` as a tensor, kept while recently used.
    pub(crate) fn scalar(&self, bits: ScalarBits) -> Result<Arc<OwnedHandle>> {
        let api = self.wheel.api();
        self.constants().scalar(bits, || {
            host::new_handle(api, "scalar", bits.dtype, &[], bits.bytes())
        })
    }

    fn constants(&self) -> std::sync::MutexGuard<'_, Constants> {
        self.constants
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The bound context, if Python's context object (the module global
/// `_context`) and its handle (`_context_handle`, the capsule) are still the
/// ones it holds.
fn cached(py: Python<'_>, wheel: &Wheel) -> Option<Arc<BoundContext>> {
    let context = wheel
        .context_globals
        .bind(py)
        .get_item(pyo3::intern!(py, "_context"))
        .ok()??;
    let handle = context.getattr(pyo3::intern!(py, "_context_handle")).ok()?;
    let current = CURRENT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    current
        .as_ref()
        .filter(|bound| bound.holds(&context, &handle))
        .map(Arc::clone)
}
