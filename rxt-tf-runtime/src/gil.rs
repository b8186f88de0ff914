//! Releasing the GIL while TensorFlow computes a large op, as TensorFlow's
//! own Python path does, so other Python threads keep running. A layer of
//! its own, below everything that runs ops: it knows only CPython's thread
//! state.
//!
//! Small ops keep the GIL: handing it over and taking it back costs little
//! alone, but when another Python thread is busy, taking it back can wait a
//! whole switch interval (5 ms by default), far longer than a small op runs.

/// Ops estimated at this much work or more run with the GIL released. Work is
/// multiply-adds for `matmul` and elements touched for the element-wise ops
/// and the reduction: 2^18 is roughly 0.1 ms of TensorFlow CPU time here, so
/// a 256×256 matmul (16.8 M) releases it and its 256×256 relu (65 K) does not;
/// every op of a 1024×1024 chain does.
pub const RELEASE_WORK: i64 = 1 << 18;

/// Runs `f`, with the GIL released if this thread holds it and `work` is at
/// least [`RELEASE_WORK`]. `f` must not touch Python objects.
///
/// Callers beware, as with `Python::detach`: while `f` runs, other Python
/// threads run too, so a large op must not be run while holding a lock that
/// a thread holding the GIL may wait for.
pub(crate) fn maybe_released<T>(work: i64, f: impl FnOnce() -> T) -> T {
    if work < RELEASE_WORK || !this_thread_holds_the_gil() {
        return f();
    }
    // SAFETY: this thread holds the GIL (checked above); the thread state is
    // restored by `Reacquire` on the same thread, also if `f` unwinds.
    let _reacquire = Reacquire(unsafe { pyo3::ffi::PyEval_SaveThread() });
    f()
}

/// Whether the calling thread holds the GIL: the interpreter's current
/// thread state (the GIL holder's) is this thread's own. Unlike
/// `PyGILState_Check`, never true for another thread's state, also once a
/// subinterpreter has existed.
fn this_thread_holds_the_gil() -> bool {
    // SAFETY: reads the interpreter's current thread state; no preconditions.
    let current = unsafe { pyo3::ffi::compat::PyThreadState_GetUnchecked() };
    // SAFETY: reads this thread's registered thread state; no preconditions.
    let own = unsafe { pyo3::ffi::PyGILState_GetThisThreadState() };
    !current.is_null() && current == own
}

/// Takes the GIL back when dropped.
struct Reacquire(*mut pyo3::ffi::PyThreadState);

impl Drop for Reacquire {
    fn drop(&mut self) {
        // SAFETY: the state came from `PyEval_SaveThread` on this thread and
        // is restored exactly once.
        unsafe { pyo3::ffi::PyEval_RestoreThread(self.0) };
    }
}

/// A lock's guard: taken at once if free, else waited for with the GIL
/// given up (the holder may be running a large call with the GIL released,
/// and need it back to finish). A poisoned lock is taken as it is: what it
/// guards is left consistent by every holder.
pub(crate) fn acquire<G>(
    try_now: impl FnOnce() -> std::sync::TryLockResult<G>,
    wait: impl FnOnce() -> std::sync::LockResult<G>,
) -> G {
    use std::sync::{PoisonError, TryLockError};
    match try_now() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(TryLockError::WouldBlock) => maybe_released(RELEASE_WORK, || {
            wait().unwrap_or_else(PoisonError::into_inner)
        }),
    }
}
