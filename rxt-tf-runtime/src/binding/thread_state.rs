//! This thread's eager state as TensorFlow's Python layer keeps it (what
//! `context()._thread_local_data.is_eager` and `.device_name` read), read
//! from the wheel's own thread-local record without calling Python: the
//! gate of every call from Python asks it. The record's layout is the one
//! the 2.21.0 headers declare, checked once per process against Python's
//! own getters (every field: the objects by identity, among them the
//! thread's own list of op callbacks); where it does not match, the caller
//! reads Python's.

use pyo3::ffi::PyObject;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::binding::wheel::Wheel;

use crate::sys::EagerContextThreadLocalData;

/// This thread's eager state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EagerState {
    /// The thread executes eagerly (no graph being built).
    pub is_eager: bool,
    /// A `tf.device` scope is active (its device name is not empty).
    pub device_scope: bool,
}

/// Whether the record's layout matched Python's getters (a definite answer,
/// kept once made).
static LAYOUT_MATCHES: PyOnceLock<bool> = PyOnceLock::new();

/// This thread's eager state in the eager context `context` (Python's
/// `Context` object), or `None` when it cannot be read without Python (the
/// layout check failed, or could not be made): the caller then asks
/// Python's getters.
pub fn eager_state(py: Python<'_>, context: &Bound<'_, PyAny>) -> Option<EagerState> {
    let wheel = Wheel::get(py).ok()?;
    let matches = match LAYOUT_MATCHES.get(py) {
        Some(matches) => *matches,
        None => {
            // Made outside the lock: the check calls Python, which may let
            // another thread take the GIL and come here too.
            let matches = layout_matches(wheel, context)?;
            let _ = LAYOUT_MATCHES.set(py, matches);
            matches
        }
    };
    if !matches {
        return None;
    }
    read(wheel, context)
}

/// The state read from the record, `None` where the wheel has none (an
/// error, which is cleared: the caller asks Python, which raises it again).
fn read(wheel: &Wheel, context: &Bound<'_, PyAny>) -> Option<EagerState> {
    let py = context.py();
    let record = thread_record(wheel, context)?;
    // SAFETY: `record` points to this thread's own live record for
    // `context` (the wheel keeps it while the context, held here, lives;
    // only this thread's Python code changes it, and none runs between the
    // call above and these reads); its layout is
    // `EagerContextThreadLocalData`'s (checked against Python's getters).
    let is_eager = unsafe { (*record).is_eager } != 0;
    // SAFETY: as above, the same live record.
    let device_name = unsafe { (*record).device_name };
    let device_scope = if device_name.is_null() {
        false
    } else {
        // SAFETY: a non-null `device_name` is the record's reference to a
        // live Python object; borrowing it here, with the GIL held, adds a
        // reference of our own.
        let name = unsafe { Bound::from_borrowed_ptr(py, device_name) };
        name.is_truthy().ok()?
    };
    Some(EagerState {
        is_eager,
        device_scope,
    })
}

/// This thread's record for `context`, made by the wheel if it has none yet.
fn thread_record(
    wheel: &Wheel,
    context: &Bound<'_, PyAny>,
) -> Option<*mut EagerContextThreadLocalData> {
    // SAFETY: the GIL is held and `context` is a live Python object (the
    // function reads it as the eager context, as the wheel's own getters
    // do); it returns NULL with a Python exception set on failure.
    let record = unsafe { (wheel.api().GetEagerContextThreadLocalData)(context.as_ptr()) };
    if record.is_null() {
        drop(PyErr::take(context.py()));
        return None;
    }
    Some(record)
}

/// Whether the record as declared reads what Python's getters give: the
/// same flags, the very same objects in every object field (null where the
/// getter gives `None`). `None` when a getter fails (no answer: asked
/// again on a later call).
fn layout_matches(wheel: &Wheel, context: &Bound<'_, PyAny>) -> Option<bool> {
    let local = context.getattr("_thread_local_data").ok()?;
    let flag = |name: &str| {
        local
            .getattr(name)
            .and_then(|value| value.extract::<bool>())
    };
    let (is_eager, invoking) = (flag("is_eager").ok()?, flag("invoking_op_callbacks").ok()?);
    // Read first: a getter may make the field's object on first use.
    let names = [
        "device_name",
        "scope_name",
        "device_spec",
        "function_call_options",
        "executor",
        "op_callbacks",
    ];
    let mut objects = Vec::with_capacity(names.len());
    for name in names {
        objects.push(local.getattr(name).ok()?);
    }
    let record = thread_record(wheel, context)?;
    // SAFETY: as in `read`; the fields are only compared here. The flags
    // are declared as bytes, so any value read is defined.
    let r = unsafe { &*record };
    let raw = (
        [r.is_eager, r.invoking_op_callbacks],
        [
            r.device_name,
            r.scope_name,
            r.device_spec,
            r.function_call_options,
            r.executor,
            r.op_callbacks,
        ],
    );
    let same = |raw: *mut PyObject, object: &Bound<'_, PyAny>| match raw.is_null() {
        true => object.is_none(),
        false => raw == object.as_ptr(),
    };
    let flags = raw.0 == [u8::from(is_eager), u8::from(invoking)];
    Some(
        flags
            && raw
                .1
                .iter()
                .zip(&objects)
                .all(|(&raw, object)| same(raw, object)),
    )
}
