//! This thread's eager state as TensorFlow's Python layer keeps it (what
//! `context()._thread_local_data.is_eager` and `.device_name` read), read
//! from the wheel's own thread-local record without calling Python: the
//! gate of every call from Python asks it. The record's layout is the one
//! the 2.21.0 headers declare, checked once per process against Python's
//! own getters; where it does not match, the caller reads Python's.

use std::sync::OnceLock;

use pyo3::prelude::*;

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

/// Whether the record's layout matched Python's getters (checked once).
static LAYOUT_MATCHES: OnceLock<bool> = OnceLock::new();

/// This thread's eager state in the eager context `context` (Python's
/// `Context` object), or `None` when it cannot be read without Python (the
/// layout check failed): the caller then asks Python's getters.
pub fn eager_state(py: Python<'_>, context: &Bound<'_, PyAny>) -> Option<EagerState> {
    let wheel = Wheel::get(py).ok()?;
    if !*LAYOUT_MATCHES.get_or_init(|| layout_matches(wheel, context)) {
        return None;
    }
    read(wheel, context)
}

/// The state read from the record, `None` where the wheel has none (an
/// error, which is cleared: the caller asks Python, which raises it again).
fn read(wheel: &Wheel, context: &Bound<'_, PyAny>) -> Option<EagerState> {
    let py = context.py();
    let record = thread_record(wheel, context)?;
    // SAFETY: `record` points to this thread's live record for `context`
    // (the wheel keeps it until the context is destroyed, and `context` is
    // held); the GIL is held, so no other code changes it meanwhile; its
    // first fields are `EagerContextThreadLocalData`'s (see the layout
    // check).
    let is_eager = unsafe { (*record).is_eager };
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
/// same `is_eager`, the very same `device_name` object.
fn layout_matches(wheel: &Wheel, context: &Bound<'_, PyAny>) -> bool {
    let Ok(local) = context.getattr("_thread_local_data") else {
        return false;
    };
    let Ok(is_eager) = local
        .getattr("is_eager")
        .and_then(|flag| flag.extract::<bool>())
    else {
        return false;
    };
    let Ok(device_name) = local.getattr("device_name") else {
        return false;
    };
    let Some(record) = thread_record(wheel, context) else {
        return false;
    };
    // SAFETY: as in `read`; only compared here.
    let raw_eager = unsafe { (*record).is_eager };
    // SAFETY: as in `read`; only compared here.
    let raw_name = unsafe { (*record).device_name };
    let same_name = if raw_name.is_null() {
        device_name.is_none()
    } else {
        raw_name == device_name.as_ptr()
    };
    raw_eager == is_eager && same_name
}
