//! The gate between calls through TensorFlow's per-arity call wrappers and
//! the removal of those wrappers.
//!
//! TensorFlow runs an eager `PartitionedCall` or `StatefulPartitionedCall`
//! through a one-op wrapper function it adds to the context per arity (its
//! name holds the numbers of inputs and outputs). The kernel of every call
//! of that arity is cached under the wrapper and only freed when the
//! wrapper is removed. Calls and removals exclude each other: a call
//! instantiated through a wrapper being removed fails, and its kernel is
//! cached where no removal reaches it.
//!
//! Removals happen where a function is let go of, often in a finalizer,
//! and on any thread: a `tf.py_function`'s Python, running inside a call,
//! may let a function go. So a removal never waits for a call: it is
//! queued and made as soon as no call is in flight, by whichever thread
//! frees the gate (the one queueing it, or the last call to leave).
//! [`state`] holds the rules (one `Mutex` and one `Condvar`, no atomics of
//! its own) and their invariants: a queued removal puts new calls off once
//! it has waited [`state::PRIORITY_AFTER`], so it is made at the latest when the
//! calls then in flight have left, whatever their length, unless one of
//! them may call back into rxt-tf from another thread (a function with a
//! stateful op other than variable reads: `tf.py_function`), when new calls
//! wait [`state::WAIT_AT_MOST`] at most, once per thread.

mod state;

use std::cell::Cell;
use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Instant;

use state::{Asking, Entry, State};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::gil::{maybe_released, RELEASE_WORK};

/// The gate's state and the wrappers calls used, under one lock.
struct Gate {
    state: State<Removal>,
    /// The wrappers calls used since they were last removed, by context
    /// id: only those are removed. An id is never another context's, so
    /// the entries of a context that is gone match nothing.
    used: Vec<(u64, Wrapper)>,
}

static GATE: Mutex<Gate> = Mutex::new(Gate {
    state: State::new(),
    used: Vec::new(),
});

/// Notified when removals are made, and when a call that may call back
/// goes in while removals wait (waiting calls look again).
static CHANGED: Condvar = Condvar::new();

/// Wrappers a call used that TensorFlow did not have when asked to remove
/// them.
pub(crate) static WRAPPERS_KEPT: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// How many calls of this thread are in flight.
    static OPEN_HERE: Cell<usize> = const { Cell::new(0) };
    /// The overdue queue (by when it was queued) this thread waited for in
    /// vain: not waited for again.
    static GAVE_UP_ON: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The gate, locked; never held while waiting for the GIL or TensorFlow.
fn gate() -> MutexGuard<'static, Gate> {
    // Every step leaves the state consistent before it can panic.
    GATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The op a wrapper wraps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum WrappedOp {
    /// `PartitionedCall`: fused calls.
    Partitioned,
    /// `StatefulPartitionedCall`: function calls.
    StatefulPartitioned,
}

/// One of TensorFlow's call wrappers in a context: its op and arity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Wrapper {
    /// The op it wraps.
    pub(crate) op: WrappedOp,
    /// Its number of inputs.
    pub(crate) inputs: usize,
    /// Its number of outputs.
    pub(crate) outputs: usize,
}

impl Wrapper {
    /// Its name in the context (none holds a NUL byte).
    fn name(self) -> Option<CString> {
        let op = match self.op {
            WrappedOp::Partitioned => "PartitionedCall",
            WrappedOp::StatefulPartitioned => "StatefulPartitionedCall",
        };
        let name = format!(
            "__wrapped__{op}_Tin_{}_Tout_{}_device_{}",
            self.inputs,
            self.outputs,
            CPU_DEVICE_C.to_string_lossy()
        );
        CString::new(name).ok()
    }
}

/// The removal of one wrapper from one context (a context that is gone
/// took its wrappers with it).
#[derive(Debug)]
pub(crate) struct Removal {
    /// The context the wrapper is in.
    pub(crate) context: Weak<BoundContext>,
    /// The wrapper.
    pub(crate) wrapper: Wrapper,
}

impl Removal {
    /// Whether `other` removes the same wrapper.
    fn same_wrapper(&self, other: &Removal) -> bool {
        Weak::ptr_eq(&self.context, &other.context) && self.wrapper == other.wrapper
    }
}

/// A call in flight: the gate, held until it drops.
pub(crate) struct Open {
    may_call_back: bool,
    /// The wrapper it ran through, and on which context, once noted.
    used: Option<(u64, Wrapper)>,
}

/// The gate for a call through a wrapper: waited for while removals are
/// being made and while an overdue removal waits (see the module's text),
/// with the GIL given up. `may_call_back`: the call's function may call
/// back into rxt-tf from another thread.
pub(crate) fn open(may_call_back: bool) -> Open {
    let mut asking = Asking {
        nested: OPEN_HERE.get() > 0,
        may_call_back,
        since: None,
        gave_up_on: GAVE_UP_ON.get(),
    };
    let entered = {
        let mut gate = gate();
        let busy = gate.state.busy();
        match gate.state.enter(asking, Instant::now) {
            Entry::Wait(_) => None,
            entered => Some((entered, busy)),
        }
    };
    let (entered, busy) = entered.unwrap_or_else(|| {
        asking.since = Some(Instant::now());
        maybe_released(RELEASE_WORK, || wait_to_enter(asking))
    });
    if let Entry::InGivingUp(queue) = entered {
        GAVE_UP_ON.set(Some(queue));
    }
    if may_call_back && busy {
        // A waiting call may now wait a bounded time only.
        CHANGED.notify_all();
    }
    OPEN_HERE.set(OPEN_HERE.get() + 1);
    Open {
        may_call_back,
        used: None,
    }
}

/// Asks to go in until let in, waiting on [`CHANGED`] meanwhile; how it
/// went in, and whether removals were waiting then.
fn wait_to_enter(asking: Asking) -> (Entry, bool) {
    let mut gate = gate();
    loop {
        let busy = gate.state.busy();
        gate = match gate.state.enter(asking, Instant::now) {
            Entry::Wait(None) => CHANGED.wait(gate).unwrap_or_else(PoisonError::into_inner),
            Entry::Wait(Some(deadline)) => {
                let left = deadline.saturating_duration_since(Instant::now());
                CHANGED
                    .wait_timeout(gate, left)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            entered => return (entered, busy),
        };
    }
}

impl Open {
    /// Notes that the call ran through `wrapper` on `context`: a removal
    /// made as it leaves sees it.
    pub(crate) fn used(&mut self, context: &BoundContext, wrapper: Wrapper) {
        self.used = Some((context.id(), wrapper));
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        OPEN_HERE.set(OPEN_HERE.get().saturating_sub(1));
        let batch = {
            let mut gate = gate();
            if let Some(used_now) = self.used {
                if !gate.used.contains(&used_now) {
                    gate.used.push(used_now);
                }
            }
            gate.state.leave(self.may_call_back)
        };
        // The last call to leave makes the queued removals. A context only
        // they still held is released here, where the caller may hold a
        // lock of its own: its release deletes TensorFlow's context and
        // drops TensorFlow's Python context object and capsule.
        if let Some(batch) = batch {
            make(batch);
        }
    }
}

/// Makes `removals` with no call in flight, or leaves them to the last
/// call to leave (see the module's text). Never waits for a call.
pub(crate) fn remove(removals: Vec<Removal>) {
    if removals.is_empty() {
        return;
    }
    let batch = gate()
        .state
        .queue(removals, Instant::now(), Removal::same_wrapper);
    if let Some(batch) = batch {
        make(batch);
    }
}

/// Makes the removals of `batch` (the gate closed to calls meanwhile), then
/// those queued meanwhile; wakes the calls waiting. The contexts they hold
/// are let go of after the gate opens (a call's thread may then release
/// one).
fn make(mut batch: Vec<Removal>) {
    loop {
        let contexts = make_batch(&batch);
        let next = gate().state.removed();
        CHANGED.notify_all();
        drop(contexts);
        match next {
            Some(more) => batch = more,
            None => return,
        }
    }
}

/// Removes the wrappers of `batch` that calls used since their last
/// removal; the live contexts, held.
fn make_batch(batch: &[Removal]) -> Vec<Arc<BoundContext>> {
    let mut contexts = Vec::with_capacity(batch.len());
    for removal in batch {
        // Gone, with its wrappers: nothing to remove.
        let Some(context) = removal.context.upgrade() else {
            continue;
        };
        let used_now = (context.id(), removal.wrapper);
        let used = {
            let mut gate = gate();
            let position = gate.used.iter().position(|known| *known == used_now);
            position.map(|position| gate.used.swap_remove(position))
        };
        // Without a call since it was last removed, nothing to free.
        if used.is_some() {
            let removed = removal
                .wrapper
                .name()
                .is_some_and(|name| context.remove_function(&name));
            if !removed {
                WRAPPERS_KEPT.fetch_add(1, Ordering::Relaxed);
            }
        }
        contexts.push(context);
    }
    contexts
}
