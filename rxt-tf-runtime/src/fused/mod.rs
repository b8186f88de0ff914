//! Fused execution: the ops of one call run as one TensorFlow function.
//!
//! TensorFlow runs every eager op as a one-op function, so each op pays a
//! per-op floor of several microseconds. Inside a fusing [`Scope`] (every
//! `#[rxt_tf::inference]` body opens one) the ops are recorded instead of
//! run; when a result is first needed, the recorded trace is built once into
//! a function (a graph made through the C API, added to Python's context),
//! cached by its trace, and run as one `PartitionedCall`, which TensorFlow
//! inlines and runs on the calling thread. Each distinct path through a body
//! (scalar `if`s, loop counts) is its own trace.
//!
//! Results equal the per-op path's: the same kernels run. If a fused call
//! fails, its ops run again one by one, so the error is the per-op one,
//! naming the failing op. The environment variable `RXT_TF_FUSE=0` (or
//! `false`, `off`, `no`) turns fusion off for the process;
//! `#[rxt_tf::inference(fuse = false)]` turns it off for one function.

mod emit;
mod key;
mod library;
mod trace;

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::eager::Input;
use crate::error::Result;
use crate::tensor::Untyped;

pub use library::{stats, Stats, TRACE_CAPACITY};
pub(crate) use trace::Pending;

/// How the ops of the current thread run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No scope: each op runs at once.
    Outside,
    /// Recorded and run fused.
    Fused,
    /// A scope that asked for per-op execution.
    PerOp,
}

struct ThreadState {
    mode: Mode,
    /// The batch new ops join.
    batch: Option<Arc<trace::Batch>>,
    /// The batch of the last scope, reused when no tensor holds it any more.
    spare: Option<Arc<trace::Batch>>,
}

thread_local! {
    static STATE: RefCell<ThreadState> = const {
        RefCell::new(ThreadState {
            mode: Mode::Outside,
            batch: None,
            spare: None,
        })
    };
}

/// Whether fusion is on for this process: unless `RXT_TF_FUSE` is `0`,
/// `false`, `off` or `no` (read once).
pub fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| {
        std::env::var("RXT_TF_FUSE").map_or(true, |value| {
            !matches!(
                value.trim().to_ascii_lowercase().as_str(),
                "0" | "false" | "off" | "no"
            )
        })
    })
}

/// A region of code whose ops run fused (or, if asked, one by one) on this
/// thread, until the scope is dropped. Scopes nest: an inner fused scope
/// joins the outer one's trace; a per-op scope suspends fusion within it.
///
/// Tensors made inside a fused scope may be pending; reading one (its
/// shape, its data, returning it to Python, using it after the scope) runs
/// what is pending. Errors of fused ops surface there.
///
/// Scopes must end in the reverse order they began (as guards in nested
/// blocks do); a scope that is leaked (`mem::forget`) leaves its mode on
/// for the thread.
#[must_use = "the scope ends when this guard is dropped"]
pub struct Scope {
    previous: Mode,
    /// Thread-bound: the scope is this thread's.
    _thread: PhantomData<*const ()>,
}

impl Scope {
    /// A fused scope, unless fusion is off for the process (`RXT_TF_FUSE`).
    pub fn fused() -> Scope {
        Scope::enter(if enabled() { Mode::Fused } else { Mode::PerOp })
    }

    /// A scope whose ops run one by one, each its own TensorFlow call.
    pub fn per_op() -> Scope {
        Scope::enter(Mode::PerOp)
    }

    /// `fused()` when `fuse`, else `per_op()`.
    pub fn new(fuse: bool) -> Scope {
        if fuse {
            Scope::fused()
        } else {
            Scope::per_op()
        }
    }

    fn enter(mode: Mode) -> Scope {
        let previous = STATE
            .try_with(|state| std::mem::replace(&mut state.borrow_mut().mode, mode))
            .unwrap_or(Mode::Outside);
        Scope {
            previous,
            _thread: PhantomData,
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let displaced = STATE
            .try_with(|state| {
                let mut state = state.try_borrow_mut().ok()?;
                state.mode = self.previous;
                if self.previous == Mode::Fused {
                    return None;
                }
                // Pending tensors keep their batch; new ops start afresh, in
                // this batch emptied once nothing holds it. Its inputs stay
                // until then: until its last pending tensor is read or
                // dropped, or the thread's next fused op.
                let batch = state.batch.take()?;
                if Arc::strong_count(&batch) == 1 {
                    batch.forget_unread();
                }
                state.spare.replace(batch)
            })
            .ok()
            .flatten();
        // Dropped outside the borrow: it may drop the last reference to a
        // context, which runs Python code.
        drop(displaced);
    }
}

/// Records `row` if this thread is in a fused scope (returning its pending
/// output), else `None`: the caller runs it at once.
pub(crate) fn record(
    row: &'static Op,
    operands: &[Input<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Option<Result<Untyped>> {
    // The batches are taken out of the thread's state while the op is
    // recorded (which may run other code: reading a tensor of another
    // batch, dropping a context), and put back after.
    let (mut batch, mut spare) = STATE
        .try_with(|state| {
            let mut state = state.try_borrow_mut().ok()?;
            (state.mode == Mode::Fused).then(|| (state.batch.take(), state.spare.take()))
        })
        .ok()
        .flatten()?;
    let recorded = trace::record(&mut batch, &mut spare, row, operands, keywords, kind);
    let displaced = STATE
        .try_with(|state| match state.try_borrow_mut() {
            Ok(mut state) => {
                let old = (
                    std::mem::replace(&mut state.batch, batch),
                    std::mem::replace(&mut state.spare, spare),
                );
                Some(old)
            }
            Err(_) => Some((batch, spare)),
        })
        .ok()
        .flatten();
    drop(displaced);
    Some(recorded)
}
