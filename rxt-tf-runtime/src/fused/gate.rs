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
//! waits for the gate. It is queued, and the queue is emptied whenever the
//! gate is free: at once if no call runs, else by the last call to leave
//! it (or by the next removal).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{
    Arc, Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError, Weak,
};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::gil::acquire;

/// The gate: calls shared, removals exclusive.
static GATE: RwLock<()> = RwLock::new(());

/// Removals not made yet, to make when the gate is free.
static QUEUED: Mutex<Vec<Removal>> = Mutex::new(Vec::new());

/// Whether [`QUEUED`] may hold removals (read by every call leaving the
/// gate without locking the queue).
static ANY_QUEUED: AtomicBool = AtomicBool::new(false);

/// The `PartitionedCall` wrappers fused calls used since they were last
/// removed: (context address, inputs, outputs).
static USED: Mutex<Vec<(usize, usize, usize)>> = Mutex::new(Vec::new());

/// Wrappers TensorFlow did not have when asked to remove them.
pub(super) static WRAPPERS_KEPT: AtomicU64 = AtomicU64::new(0);

/// Which wrapper a removal removes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Wrapper {
    /// The `PartitionedCall` wrapper of fused calls: removed only if a
    /// fused call used it since it was last removed.
    Fused,
    /// The `StatefulPartitionedCall` wrapper of function calls.
    Function,
}

impl Wrapper {
    /// The op the wrapper wraps.
    fn op(self) -> &'static str {
        match self {
            Wrapper::Fused => "PartitionedCall",
            Wrapper::Function => "StatefulPartitionedCall",
        }
    }
}

/// The removal of one wrapper from one context (a context that is gone
/// took its wrappers with it).
#[derive(Debug)]
pub(crate) struct Removal {
    /// The context the wrapper is in.
    pub(crate) context: Weak<BoundContext>,
    /// Which wrapper.
    pub(crate) wrapper: Wrapper,
    /// The wrapper's number of inputs.
    pub(crate) inputs: usize,
    /// The wrapper's number of outputs.
    pub(crate) outputs: usize,
}

impl Removal {
    /// Whether `other` removes the same wrapper.
    fn same_wrapper(&self, other: &Removal) -> bool {
        Weak::ptr_eq(&self.context, &other.context)
            && (self.wrapper, self.inputs, self.outputs)
                == (other.wrapper, other.inputs, other.outputs)
    }
}

/// The gate, held shared by a call while it lives.
pub(crate) struct Open(Option<RwLockReadGuard<'static, ()>>);

/// The gate, shared, for a call through a wrapper: waited for (only while
/// removals are being made) with the GIL given up.
pub(crate) fn open() -> Open {
    Open(Some(acquire(|| GATE.try_read(), || GATE.read())))
}

impl Drop for Open {
    fn drop(&mut self) {
        drop(self.0.take());
        // The last call to leave makes the queued removals. A context only
        // they still held is released here, where the caller may hold a
        // lock of its own: its release deletes TensorFlow's context and
        // runs no rxt-tf code.
        if ANY_QUEUED.load(Ordering::Acquire) {
            drain_if_free();
        }
    }
}

/// Notes that a fused call of this arity ran through its wrapper.
pub(crate) fn note_used(context: &BoundContext, inputs: usize, outputs: usize) {
    let wrapper = (std::ptr::from_ref(context) as usize, inputs, outputs);
    let mut used = USED.lock().unwrap_or_else(PoisonError::into_inner);
    if !used.contains(&wrapper) {
        used.push(wrapper);
    }
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
            // One per wrapper: the queue stays as small as the wrappers.
            if !queued.iter().any(|known| known.same_wrapper(&removal)) {
                queued.push(removal);
            }
        }
    }
    ANY_QUEUED.store(true, Ordering::Release);
    drain_if_free();
}

/// Makes the queued removals if no call holds the gate.
fn drain_if_free() {
    match GATE.try_write() {
        Ok(closed) => drain(closed),
        // Every holder leaves what the gate guards consistent.
        Err(TryLockError::Poisoned(poisoned)) => drain(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => {}
    }
}

/// Makes the queued removals under `closed`; the contexts they held alive
/// are let go of after the gate opens.
fn drain(closed: RwLockWriteGuard<'static, ()>) {
    let removals = {
        let mut queued = QUEUED.lock().unwrap_or_else(PoisonError::into_inner);
        ANY_QUEUED.store(false, Ordering::Release);
        std::mem::take(&mut *queued)
    };
    let mut contexts = Vec::with_capacity(removals.len());
    {
        let mut used = USED.lock().unwrap_or_else(PoisonError::into_inner);
        for removal in &removals {
            let Some(context) = removal.context.upgrade() else {
                // Gone, with its wrappers: a new context at its address
                // starts afresh.
                let gone = removal.context.as_ptr() as usize;
                used.retain(|(context, _, _)| *context != gone);
                continue;
            };
            if removal.wrapper == Wrapper::Fused {
                let wrapper = (
                    Arc::as_ptr(&context) as usize,
                    removal.inputs,
                    removal.outputs,
                );
                let Some(position) = used.iter().position(|known| *known == wrapper) else {
                    continue;
                };
                used.swap_remove(position);
            }
            if !remove_wrapper(&context, removal) {
                WRAPPERS_KEPT.fetch_add(1, Ordering::Relaxed);
            }
            contexts.push(context);
        }
    }
    drop(closed);
    drop(contexts);
}

/// Removes the wrapper `removal` names from `context`; whether TensorFlow
/// had it.
fn remove_wrapper(context: &BoundContext, removal: &Removal) -> bool {
    let name = format!(
        "__wrapped__{}_Tin_{}_Tout_{}_device_{}",
        removal.wrapper.op(),
        removal.inputs,
        removal.outputs,
        CPU_DEVICE_C.to_string_lossy()
    );
    std::ffi::CString::new(name).is_ok_and(|name| context.remove_function(&name))
}
