//! Inputs that do not change, frozen into the model: a fused trace whose
//! input is the very same tensor on consecutive calls (a weight held in
//! `self`) gets a model with that tensor's value as a constant, so the
//! converter sees static weights and shapes and XNNPACK packs them once.
//!
//! "The same" is the same tensor handle (one `Tensor` kept and read again;
//! clones share it), not equal values: a tensor made anew each call, even
//! of equal values, stays an input. Each frozen model holds its frozen
//! tensors alive and is found by their identity, so a new tensor in their
//! place gets its own model (or runs the unfrozen one) and no address is
//! ever reused under a stale model. TensorFlow tensors are immutable; a
//! NumPy array a tensor aliases, changed in place, is not seen.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use super::cache::ModelCache;
use crate::safe::handle::OwnedHandle;

/// The most frozen models one trace keeps (the least recently used
/// dropped first, with the tensors it holds).
pub const FROZEN_CAPACITY: usize = 4;

/// The most frozen models one trace converts over its life: past these,
/// calls run its model of no frozen input.
pub const FREEZINGS: usize = 16;

/// One trace's frozen models.
#[derive(Default)]
pub(crate) struct FrozenModels {
    /// The inputs of the last call that found no frozen model, to see which
    /// are the same in the next.
    last: Mutex<Vec<Weak<OwnedHandle>>>,
    /// Most recently used last.
    variants: Mutex<Vec<Arc<Frozen>>>,
    made: AtomicUsize,
}

/// A model of a trace with some of its inputs frozen.
pub(crate) struct Frozen {
    /// The frozen inputs by position among the trace's inputs, held.
    pub(crate) inputs: Vec<(usize, Arc<OwnedHandle>)>,
    /// Its model, converted on first use, and its compiled models.
    pub(crate) cache: ModelCache,
}

impl Frozen {
    /// Whether `position` is one of its frozen inputs.
    pub(crate) fn freezes(&self, position: usize) -> bool {
        self.inputs.iter().any(|(frozen, _)| *frozen == position)
    }
}

impl FrozenModels {
    /// The frozen model for a call on `inputs` (only positions `freezable`
    /// allows freeze, and at least one input stays live), or `None` to run
    /// the model of no frozen input. An input that is the same tensor as in
    /// the previous call is frozen, and so is every other but `argument`
    /// where no kept model fits the call yet and some input stayed the same
    /// (or on the trace's first call, or where the model of no frozen input
    /// did not convert, `unfrozen_refused`): a body's first tensor input is most
    /// often its per-call argument (`matmul(x, self.w)`), its others
    /// weights and constants (a literal's tensor is cached: the same), so
    /// those held in `self` are constants from the first conversion on, and
    /// a new weight tensor in their place takes one conversion. A guess
    /// that froze a per-call input is corrected on the next call, which
    /// keeps only the inputs that stayed. The kept model whose frozen
    /// tensors are all this call's and which freezes the most is used,
    /// unless more inputs stayed the same than it freezes ([`FREEZINGS`]
    /// made at most, [`FROZEN_CAPACITY`] kept).
    pub(crate) fn for_inputs(
        &self,
        inputs: &[&Arc<OwnedHandle>],
        freezable: impl Fn(usize) -> bool,
        argument: usize,
        unfrozen_refused: bool,
    ) -> Option<Arc<Frozen>> {
        let matches = |frozen: &Frozen| {
            frozen.inputs.iter().all(|(position, held)| {
                inputs
                    .get(*position)
                    .is_some_and(|input| Arc::ptr_eq(input, held))
            })
        };
        let mut variants = lock(&self.variants);
        let best = variants
            .iter()
            .enumerate()
            .filter(|(_, frozen)| matches(frozen))
            .max_by_key(|(_, frozen)| frozen.inputs.len())
            .map(|(index, _)| index);
        let best = best.map(|index| {
            let frozen = variants.remove(index);
            variants.push(Arc::clone(&frozen));
            frozen
        });
        // The inputs that stayed the same and are not frozen yet: identity
        // first, `freezable` (which may read a scalar) only for those, so a
        // call its kept model fits asks it nothing.
        let (stable, first_call) = {
            let mut last = lock(&self.last);
            let first_call = last.is_empty();
            let stable: Vec<usize> = (0..inputs.len())
                .filter(|&position| !best.as_ref().is_some_and(|best| best.freezes(position)))
                .filter(|&position| {
                    last.get(position)
                        .and_then(Weak::upgrade)
                        .zip(inputs.get(position))
                        .is_some_and(|(before, now)| Arc::ptr_eq(&before, now))
                })
                .filter(|&position| freezable(position))
                .collect();
            last.clear();
            last.extend(inputs.iter().map(|input| Arc::downgrade(input)));
            (stable, first_call)
        };
        let guess = best.is_none() && (first_call || unfrozen_refused || !stable.is_empty());
        let mut wanted = stable;
        if guess {
            wanted.extend(
                (0..inputs.len()).filter(|&position| position != argument && freezable(position)),
            );
        }
        if let Some(best) = &best {
            wanted.extend(best.inputs.iter().map(|(position, _)| *position));
        }
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.len() >= inputs.len() {
            wanted.retain(|&position| position != argument);
        }
        if let Some(best) = &best {
            if wanted.len() <= best.inputs.len() {
                return Some(Arc::clone(best));
            }
        }
        drop(variants);
        self.make(inputs, wanted).or(best)
    }

    /// A new frozen model for a call on `inputs` freezing every input
    /// `freezable` allows but `argument`: for a trace whose model of no
    /// frozen input did not convert, which freezing may make convertible.
    pub(crate) fn guessed(
        &self,
        inputs: &[&Arc<OwnedHandle>],
        freezable: impl Fn(usize) -> bool,
        argument: usize,
    ) -> Option<Arc<Frozen>> {
        let wanted = (0..inputs.len())
            .filter(|&position| position != argument && freezable(position))
            .collect();
        self.make(inputs, wanted)
    }

    /// A new frozen model freezing the inputs at `wanted` (sorted), kept
    /// as the most recently used; `None` when it would freeze nothing or
    /// [`FREEZINGS`] are made. A model of no input is not one LiteRT runs
    /// here: the caller keeps one input live.
    fn make(&self, inputs: &[&Arc<OwnedHandle>], wanted: Vec<usize>) -> Option<Arc<Frozen>> {
        if wanted.is_empty() || self.made.fetch_add(1, Ordering::Relaxed) >= FREEZINGS {
            return None;
        }
        let frozen = Arc::new(Frozen {
            inputs: wanted
                .into_iter()
                .filter_map(|position| Some((position, Arc::clone(inputs.get(position)?))))
                .collect(),
            cache: ModelCache::default(),
        });
        let evicted = {
            let mut variants = lock(&self.variants);
            variants.push(Arc::clone(&frozen));
            (variants.len() > FROZEN_CAPACITY).then(|| variants.remove(0))
        };
        drop(evicted);
        Some(frozen)
    }
}

/// `mutex`'s guard, also after a panic elsewhere (the lists stay valid).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
