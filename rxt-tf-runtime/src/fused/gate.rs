//! The gate between calls through TensorFlow's per-arity call wrappers and
//! the removal of those wrappers.
//!
//! TensorFlow runs an eager `PartitionedCall` or `StatefulPartitionedCall`
//! through a one-op wrapper function it adds to the context per arity (its
//! name holds the numbers of inputs and outputs). The kernel of every call
//! of that arity is cached under the wrapper and only freed when the
//! wrapper is removed. A call holds the gate shared and a removal holds it
//! exclusively: without it, a call instantiated through a wrapper being
//! removed fails, and its kernel is cached where no removal reaches it.
//!
//! Removals happen where a function is let go of, often in a finalizer,
//! and on any thread: a `tf.py_function`'s Python, running inside a call
//! that holds the gate shared, may let a function go. So a removal never
//! waits for the gate. It is queued (one entry per wrapper), and made when
//! no call holds the gate: at once if none does, else by the last call to
//! leave it. So that calls overlapping without pause on several threads
//! cannot put it off forever, a removal queued for [`PRIORITY_AFTER`] makes
//! new calls wait for it, [`WAIT_AT_MOST`] at most and once per thread (a
//! call may be nested in one the removal waits for in turn: on the same
//! thread it goes in at once, on another, a `tf.py_function`'s, after that
//! one wait).

use std::cell::Cell;
use std::ffi::CString;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
use std::sync::{
    Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError, Weak,
};
use std::time::{Duration, Instant};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::gil::{acquire, maybe_released, RELEASE_WORK};

/// How long a removal may be put off by running calls before new calls
/// wait for it.
pub(crate) const PRIORITY_AFTER: Duration = Duration::from_millis(20);

/// How long a new call waits for an overdue removal at most.
pub(crate) const WAIT_AT_MOST: Duration = Duration::from_millis(5);

/// The gate: calls shared, removals exclusive.
static GATE: RwLock<()> = RwLock::new(());

/// Removals not made yet, to make when the gate is free.
static QUEUED: Mutex<Queue> = Mutex::new(Queue {
    removals: Vec::new(),
    since: None,
});

/// The removals not made yet, and since when the oldest waits.
struct Queue {
    removals: Vec<Removal>,
    since: Option<Instant>,
}

/// Whether [`QUEUED`] may hold removals (read by every call leaving the
/// gate without locking the queue).
static ANY_QUEUED: AtomicBool = AtomicBool::new(false);

/// The wrappers calls used since they were last removed (by context
/// address): only those are removed.
static USED: Mutex<Vec<(usize, Wrapper)>> = Mutex::new(Vec::new());

/// Wrappers a call used that TensorFlow did not have when asked to remove
/// them.
pub(super) static WRAPPERS_KEPT: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// How many calls of this thread hold the gate.
    static OPEN_HERE: Cell<usize> = const { Cell::new(0) };
    /// The overdue queue this thread waited for in vain (by when its
    /// oldest removal was queued): not waited for again.
    static GAVE_UP_ON: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The op a wrapper wraps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Call {
    /// `PartitionedCall`: fused calls.
    Partitioned,
    /// `StatefulPartitionedCall`: function calls.
    StatefulPartitioned,
}

/// One of TensorFlow's call wrappers in a context: its op and arity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Wrapper {
    /// The op it wraps.
    pub(crate) call: Call,
    /// Its number of inputs.
    pub(crate) inputs: usize,
    /// Its number of outputs.
    pub(crate) outputs: usize,
}

impl Wrapper {
    /// Its name in the context (none holds a NUL byte).
    fn name(self) -> Option<CString> {
        let op = match self.call {
            Call::Partitioned => "PartitionedCall",
            Call::StatefulPartitioned => "StatefulPartitionedCall",
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

/// The gate, held shared by a call while it lives.
pub(crate) struct Open(Option<RwLockReadGuard<'static, ()>>);

/// The gate, shared, for a call through a wrapper: waited for while
/// removals are being made, and for an overdue removal (see the module's
/// text), with the GIL given up.
pub(crate) fn open() -> Open {
    // A thread inside a call cannot help the removal: it goes in at once.
    if ANY_QUEUED.load(Ordering::Acquire) && OPEN_HERE.get() == 0 {
        if let Some(since) = overdue_since().filter(|since| GAVE_UP_ON.get() != Some(*since)) {
            let start = Instant::now();
            let left = maybe_released(RELEASE_WORK, || loop {
                let left = drain_if_free();
                if !left || start.elapsed() >= WAIT_AT_MOST {
                    break left;
                }
                std::thread::sleep(Duration::from_micros(50));
            });
            if left {
                GAVE_UP_ON.set(Some(since));
            }
        }
    }
    let guard = acquire(|| GATE.try_read(), || GATE.read());
    OPEN_HERE.set(OPEN_HERE.get() + 1);
    Open(Some(guard))
}

impl Drop for Open {
    fn drop(&mut self) {
        OPEN_HERE.set(OPEN_HERE.get().saturating_sub(1));
        drop(self.0.take());
        // The last call to leave makes the queued removals. A context only
        // they still held is released here, where the caller may hold a
        // lock of its own: its release deletes TensorFlow's context and
        // drops TensorFlow's Python context object and capsule.
        drain_if_free();
    }
}

/// Notes that a call through `wrapper` ran on `context`: call holding the
/// gate, so a removal made as the call leaves sees it.
pub(crate) fn note_used(context: &BoundContext, wrapper: Wrapper) {
    let used_now = (std::ptr::from_ref(context) as usize, wrapper);
    let mut used = USED.lock().unwrap_or_else(PoisonError::into_inner);
    if !used.contains(&used_now) {
        used.push(used_now);
    }
}

/// When the oldest queued removal was queued, if [`PRIORITY_AFTER`] ago.
fn overdue_since() -> Option<Instant> {
    QUEUED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .since
        .filter(|since| since.elapsed() >= PRIORITY_AFTER)
}

/// Makes `removals` with the gate held exclusively (no call runs
/// meanwhile): now if no call holds the gate, else once none does (see
/// the module's text). Never waits for a call.
pub(crate) fn remove(removals: Vec<Removal>) {
    if removals.is_empty() {
        return;
    }
    {
        let mut queued = QUEUED.lock().unwrap_or_else(PoisonError::into_inner);
        for removal in removals {
            if !queued
                .removals
                .iter()
                .any(|known| known.same_wrapper(&removal))
            {
                queued.removals.push(removal);
            }
        }
        queued.since.get_or_insert_with(Instant::now);
    }
    ANY_QUEUED.store(true, Ordering::Release);
    drain_if_free();
}

/// Makes the queued removals while no call holds the gate; whether some
/// may be left (a call holds it, or another thread is making them).
fn drain_if_free() -> bool {
    loop {
        // Pairs with the fence of a thread that queued a removal (or left
        // the gate) meanwhile: one of the two sees the other's change.
        fence(Ordering::SeqCst);
        if !ANY_QUEUED.load(Ordering::Acquire) {
            return false;
        }
        match GATE.try_write() {
            Ok(closed) => drain(closed),
            // Every holder leaves what the gate guards consistent.
            Err(TryLockError::Poisoned(poisoned)) => drain(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => return true,
        }
    }
}

/// Makes the queued removals under `closed`; the contexts they hold are
/// let go of after the gate opens (a call's thread may then release one).
fn drain(closed: RwLockWriteGuard<'static, ()>) {
    let removals = {
        let mut queued = QUEUED.lock().unwrap_or_else(PoisonError::into_inner);
        ANY_QUEUED.store(false, Ordering::Release);
        queued.since = None;
        std::mem::take(&mut queued.removals)
    };
    let mut contexts = Vec::with_capacity(removals.len());
    {
        let mut used = USED.lock().unwrap_or_else(PoisonError::into_inner);
        for removal in &removals {
            let address = removal.context.as_ptr() as usize;
            let Some(context) = removal.context.upgrade() else {
                // Gone, with its wrappers: a new context at its address
                // starts afresh.
                used.retain(|(context, _)| *context != address);
                continue;
            };
            let used_now = (address, removal.wrapper);
            // Without a call since it was last removed, nothing to free.
            if let Some(position) = used.iter().position(|known| *known == used_now) {
                used.swap_remove(position);
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
    }
    drop(closed);
    drop(contexts);
}
