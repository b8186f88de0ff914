//! Fused execution: the ops of one call run as one TensorFlow function.
//!
//! TensorFlow runs every eager op as a one-op function, so each op pays a
//! per-op floor of several microseconds. Inside a fusing [`Scope`] (every
//! `#[rxt_tf::inference]` body opens one) the ops are recorded instead of
//! run. When the thread leaves fused mode (the scope closes, or a per-op
//! scope opens inside it), or earlier when a result is needed, the recorded
//! trace is built once into a function (a graph made through the C API,
//! added to Python's context), cached by its trace, and run as one
//! `PartitionedCall`, which TensorFlow inlines and runs on the calling
//! thread. So no tensor stays promised past the scope that recorded it, and
//! a computed tensor holds only its handle. Each distinct path through a
//! body (scalar `if`s, loop counts) is its own trace.
//!
//! Results equal the per-op path's, value for value and error for error:
//! the same kernels run. If a fused call fails, its ops run again one by
//! one, so a failing op fails exactly the results that depend on it (with
//! the per-op error, naming the op), and every other result holds its
//! value, whatever order results are read in. The environment variable `RXT_TF_FUSE=0` (or
//! `false`, `off`, `no`) turns fusion off for the process;
//! `#[rxt_tf::inference(fuse = false)]` turns it off for one function.

mod batch;
mod input;
mod key;
mod library;
mod litert_trace;
mod recording;

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::eager::{FunctionNode, Operand};
use crate::error::Result;
use crate::tensor::Untyped;

pub use library::{stats, Stats, TRACE_CAPACITY};
pub(crate) use library::{EXACT_BY_NAME, EXACT_INLINED};

/// How the ops of the current thread run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No scope: each op runs at once.
    Outside,
    /// Recorded and run fused.
    Fused,
    /// A scope that asked for per-op execution.
    PerOp,
    /// A litert scope: `Function` calls run through LiteRT; ops are
    /// recorded and their trace runs through LiteRT where it converts. The
    /// body it runs, as a fallback warning names it.
    Litert(&'static str),
}

impl Mode {
    /// Whether ops are recorded into the thread's batch.
    fn fuses(self) -> bool {
        match self {
            Mode::Fused => true,
            Mode::Litert(_) => enabled(),
            Mode::Outside | Mode::PerOp => false,
        }
    }
}

/// The body of this thread's newest scope if it is a litert scope
/// ([`Scope::litert`]).
pub(crate) fn litert_active() -> Option<&'static str> {
    STATE
        .try_with(|state| match state.try_borrow().map(|state| state.mode()) {
            Ok(Mode::Litert(body)) => Some(body),
            _ => None,
        })
        .ok()
        .flatten()
}

struct ThreadState {
    /// The open scopes, oldest first, by number: the newest sets the mode.
    scopes: Vec<(u64, Mode)>,
    /// The batch new ops join.
    batch: Option<Arc<batch::Batch>>,
    /// The emptied recording of the last batch, for the next one's room.
    spare: Option<recording::Recording>,
}

impl ThreadState {
    fn mode(&self) -> Mode {
        self.scopes.last().map_or(Mode::Outside, |&(_, mode)| mode)
    }
}

thread_local! {
    static STATE: RefCell<ThreadState> = const {
        RefCell::new(ThreadState {
            scopes: Vec::new(),
            batch: None,
            spare: None,
        })
    };
    /// The number of the thread's next scope.
    static NEXT_SCOPE: Cell<u64> = const { Cell::new(0) };
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
/// Tensors made inside a fused scope are promised until the thread leaves
/// fused mode: when the scope closes (or a per-op scope opens inside it)
/// the recorded ops run as one call, on this thread. A promised tensor read
/// earlier (its shape, its data, returning it to Python, an op outside the
/// trace) runs them then. Errors of fused ops surface when the tensor they
/// produce is read.
///
/// The newest scope still open sets the mode, whatever the order scopes are
/// dropped in; a scope that is leaked (`mem::forget`) keeps its mode on for
/// the thread.
#[must_use = "the scope ends when this guard is dropped"]
pub struct Scope {
    /// Its number among the thread's scopes.
    number: u64,
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

    /// A litert scope: the opt-in backend. `tf!` ops made in it are
    /// recorded as in [`Scope::fused`], and their trace, like every
    /// [`Function`](crate::Function) call made in it, runs through LiteRT:
    /// converted once by TensorFlow's TFLite converter, compiled per input
    /// shape for the CPU (XNNPACK, `RXT_TF_LITERT_THREADS` threads, 1 by
    /// default), needs the `ai-edge-litert` 2.3.0 package. What does not
    /// convert runs on TensorFlow ([`stats`] counts it;
    /// `RXT_TF_LITERT_STRICT=1` makes it an error). Results are within
    /// LiteRT's float tolerance of TensorFlow's, not bitwise. A function's
    /// variables are read when it is converted (its first litert call):
    /// later assignments are not seen by its litert calls. Nests like the
    /// other scopes; entering or leaving one runs the trace recorded so far
    /// (a trace runs through one backend).
    pub fn litert() -> Scope {
        Scope::litert_for("a litert scope")
    }

    /// [`Scope::litert`] for the body `body` (`#[inference(backend =
    /// "litert")]` passes the function's path), which a fallback's warning
    /// and `stats` name.
    pub fn litert_for(body: &'static str) -> Scope {
        Scope::enter(Mode::Litert(body))
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
        let number = NEXT_SCOPE
            .try_with(|next| {
                let number = next.get();
                next.set(number.wrapping_add(1));
                number
            })
            .unwrap_or(u64::MAX);
        let left = change_scopes(|scopes| scopes.push((number, mode)));
        run_left(left);
        Scope {
            number,
            _thread: PhantomData,
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let number = self.number;
        let left = change_scopes(|scopes| {
            if let Some(position) = scopes.iter().rposition(|&(n, _)| n == number) {
                scopes.remove(position);
            }
        });
        run_left(left);
    }
}

/// Applies `change` to the thread's open scopes; if the thread leaves the
/// mode it was recording in (for another fusing mode too: a trace runs
/// through one backend), returns the batch it was recording.
fn change_scopes(change: impl FnOnce(&mut Vec<(u64, Mode)>)) -> Option<Arc<batch::Batch>> {
    STATE
        .try_with(|state| {
            let mut state = state.try_borrow_mut().ok()?;
            let before = state.mode();
            change(&mut state.scopes);
            let after = state.mode();
            (before.fuses() && (!after.fuses() || after != before))
                .then(|| state.batch.take())
                .flatten()
        })
        .ok()
        .flatten()
}

/// Runs the batch a thread left fused mode with, on this thread (outside
/// the thread's state: it runs TensorFlow and may release a context), and
/// keeps its emptied recording for the next batch. Its errors stay with its
/// tensors, which report them when read.
fn run_left(batch: Option<Arc<batch::Batch>>) {
    let Some(batch) = batch else {
        return;
    };
    let _ = batch.flush();
    if let Some(recording) = batch::Batch::recycle(batch) {
        let _ = STATE.try_with(|state| {
            if let Ok(mut state) = state.try_borrow_mut() {
                state.spare.get_or_insert(recording);
            }
        });
    }
}

/// What [`record`] or [`record_function`] did with a call.
pub(crate) enum Recorded {
    /// The thread fuses: the call's pending output, or its error.
    Pending(Result<Untyped>),
    /// The thread does not fuse: the caller runs the call at once.
    NotFusing,
}

/// Records `row` if this thread is in a fused scope (its pending output).
/// `runtime` marks the keywords given at run time (bit `i` for keyword `i`).
pub(crate) fn record(
    row: &'static Op,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
    runtime: u32,
) -> Recorded {
    in_thread_batch(|batch| batch::record(batch, row, operands, keywords, kind, runtime))
}

/// Records a call of `function` (number `id`) on `arguments` and its
/// `captured` inputs, on `context`, if the thread is fusing: its output,
/// of `kind`, is promised.
pub(crate) fn record_function(
    function: &Arc<FunctionNode>,
    id: u64,
    arguments: &[&Untyped],
    captured: &[Arc<crate::safe::handle::OwnedHandle>],
    context: &Arc<crate::binding::context::BoundContext>,
    kind: TensorKind,
) -> Recorded {
    let call = batch::FunctionInvocation {
        function,
        id,
        arguments,
        captured,
        context,
        kind,
    };
    in_thread_batch(|batch| batch::record_function(batch, &call))
}

/// Runs `record` on this thread's batch if it is fusing. The batch is taken out of the thread's state while it
/// records (which may run other code: reading a tensor of another batch,
/// dropping a context), and put back after.
fn in_thread_batch(
    record: impl FnOnce(&mut Option<Arc<batch::Batch>>) -> Result<Untyped>,
) -> Recorded {
    let taken = STATE
        .try_with(|state| {
            let mut state = state.try_borrow_mut().ok()?;
            state.mode().fuses().then(|| state.batch.take())
        })
        .ok()
        .flatten();
    let Some(mut batch) = taken else {
        return Recorded::NotFusing;
    };
    let recorded = record(&mut batch);
    let displaced = STATE
        .try_with(|state| match state.try_borrow_mut() {
            Ok(mut state) => std::mem::replace(&mut state.batch, batch),
            Err(_) => batch,
        })
        .ok()
        .flatten();
    drop(displaced);
    Recorded::Pending(recorded)
}

/// The room of a recording the thread kept from an earlier batch, if any.
fn take_spare() -> Option<recording::Recording> {
    STATE
        .try_with(|state| state.try_borrow_mut().ok()?.spare.take())
        .ok()
        .flatten()
}
