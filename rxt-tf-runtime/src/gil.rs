//! Releasing the GIL while TensorFlow computes a large op, as TensorFlow's
//! own Python path does, so other Python threads keep running.
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
pub(crate) fn maybe_released<T>(work: i64, f: impl FnOnce() -> T) -> T {
    // SAFETY: `PyGILState_Check` only reads the calling thread's state; the
    // interpreter is initialised (binding the wheel needed it).
    if work < RELEASE_WORK || unsafe { pyo3::ffi::PyGILState_Check() } != 1 {
        return f();
    }
    // SAFETY: this thread holds the GIL (checked above); the thread state is
    // restored by `Reacquire` on the same thread, also if `f` unwinds.
    let _reacquire = Reacquire(unsafe { pyo3::ffi::PyEval_SaveThread() });
    f()
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
