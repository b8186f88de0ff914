//! One converted thing's LiteRT state, shared by the two callers of the
//! backend (a `Function` called in a litert scope, a fused trace recorded
//! in one): its model, converted on first use; its compiled models, one per
//! input shapes (at most [`COMPILED_CAPACITY`], the least recently used
//! evicted), each taken out while a thread runs it; the models converted
//! for exactly the input shapes the first cannot be sized to (at most
//! [`SPECIALIZED_CAPACITY`] kept, [`SPECIALIZATIONS`] made); and the input
//! shapes LiteRT refused, not tried again.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::sync::OnceLockExt;

use super::model::{Compiled, Model};
use super::tensors::HandleInput;
use super::COUNTERS;
use crate::error::Result;

/// The most compiled models (input shapes) one function or trace keeps.
pub const COMPILED_CAPACITY: usize = 8;

/// The most models converted for exact input shapes one function or trace
/// keeps (the least recently made dropped first).
pub const SPECIALIZED_CAPACITY: usize = 4;

/// The most models one function or trace converts for exact input shapes
/// over its life: a conversion takes tens to hundreds of milliseconds, so
/// shapes past these run on TensorFlow.
pub const SPECIALIZATIONS: usize = 16;

/// What a run through LiteRT did.
pub(crate) enum Outcome<T> {
    /// It ran: what the run gave.
    Ran(T),
    /// It cannot run through LiteRT (why): the caller runs it on
    /// TensorFlow. Nothing was written but the run's own fresh outputs, so
    /// running it again is safe.
    Fallback(String),
}

/// One shape per input of a model.
type Shapes = Vec<Vec<i64>>;

/// A model and its compiled models (see the module's documentation).
#[derive(Default)]
pub(crate) struct ModelCache {
    model: OnceLock<std::result::Result<Arc<Model>, String>>,
    idle: Mutex<Vec<Compiled>>,
    specialized: Mutex<Vec<(Shapes, Arc<Model>)>>,
    specializations: AtomicUsize,
    /// A conversion for exact shapes was refused just as the model for any
    /// shapes was (an op the converter has no builtin for, not a size it
    /// could not know): no other shapes are tried.
    refused_alike: std::sync::atomic::AtomicBool,
    refused: Mutex<Vec<(Shapes, String)>>,
}

/// Why a model could not be compiled for some input shapes.
enum NotCompiled {
    /// LiteRT refused the shapes: not tried again.
    Refused(String),
    /// TensorFlow's own run for the reference failed (the call falls back
    /// and raises there; these shapes may run another time).
    Failed(String),
}

impl ModelCache {
    /// The model, made by `convert` on first use with the GIL held (a
    /// failure is kept: every later call falls back without converting
    /// again). A thread waiting for another's conversion lets go of the
    /// GIL, which the conversion needs.
    pub(crate) fn model(
        &self,
        convert: impl FnOnce(Python<'_>) -> Result<Arc<Model>>,
    ) -> std::result::Result<Arc<Model>, String> {
        if let Some(made) = self.model.get() {
            return made.clone();
        }
        Python::attach(|py| {
            self.model
                .get_or_init_py_attached(py, || {
                    COUNTERS.conversions.fetch_add(1, Ordering::Relaxed);
                    convert(py).map_err(|err| err.to_string())
                })
                .clone()
        })
    }

    /// Whether its model was converted and the converter refused it.
    pub(crate) fn refused(&self) -> bool {
        matches!(self.model.get(), Some(Err(_)))
    }

    /// Runs `model` compiled for the shapes of `inputs` with XNNPACK on
    /// `threads` threads: a compiled model of the cache, or one compiled
    /// now. Before compiling, TensorFlow runs the inputs (`reference`, the
    /// output shapes it gives): inputs it refuses fall back without
    /// reaching LiteRT, and a model compiled now must give those output
    /// shapes: LiteRT does not
    /// always carry new input sizes through a model before it runs, and
    /// would then run into outputs sized for other shapes (and fail, or
    /// crash). Where `model` cannot be sized to `shapes` (LiteRT refuses, or
    /// sizes its outputs otherwise), `specialize` converts the function for
    /// exactly these shapes, which is compiled and checked the same way. The
    /// GIL is released while LiteRT compiles, and while it runs a model
    /// whose last timed run (its first, then one in
    /// [`TIMED_EVERY`](super::model::TIMED_EVERY)) took 0.1 ms or more.
    pub(crate) fn run<T>(
        &self,
        model: &std::result::Result<Arc<Model>, String>,
        inputs: &[HandleInput<'_>],
        threads: u16,
        reference: impl FnOnce() -> Result<Vec<Vec<i64>>>,
        specialize: impl FnOnce(Python<'_>, &[Vec<i64>]) -> Result<Arc<Model>>,
        run: impl FnOnce(&mut Compiled) -> Result<T>,
    ) -> Outcome<T> {
        let mut compiled = match self.take(inputs) {
            Ok(Some(compiled)) => compiled,
            Ok(None) => {
                let shapes: Shapes = inputs.iter().map(|input| input.shape.clone()).collect();
                match self.compile(model, &shapes, threads, reference, specialize) {
                    Ok(compiled) => compiled,
                    Err(NotCompiled::Refused(reason)) => {
                        self.refuse(shapes, &reason);
                        return Outcome::Fallback(reason);
                    }
                    Err(NotCompiled::Failed(reason)) => return Outcome::Fallback(reason),
                }
            }
            Err(reason) => return Outcome::Fallback(reason),
        };
        // The GIL policy of ops (see `gil`): released for a model whose last
        // timed run took 0.1 ms or more (and for its first), kept for a small one,
        // which would otherwise wait to take it back while another thread
        // holds it.
        let work = match compiled.run_micros() {
            0..100 => 0,
            _ => crate::gil::RELEASE_WORK,
        };
        let started = compiled.due_for_timing().then(std::time::Instant::now);
        let ran = crate::gil::maybe_released(work, || run(&mut compiled));
        if let Some(started) = started {
            compiled.timed(started.elapsed());
        }
        if let Err(crate::error::Error::LitertRefused { what }) = &ran {
            // The model as compiled for these shapes is unusable (it left
            // outputs unwritten): dropped, and the shapes not tried again.
            self.refuse(compiled.input_shapes().to_vec(), what);
            drop(compiled);
            return Outcome::Fallback(what.clone());
        }
        self.keep(compiled);
        match ran {
            Ok(ran) => {
                COUNTERS.calls.fetch_add(1, Ordering::Relaxed);
                Outcome::Ran(ran)
            }
            // A model LiteRT cannot run as compiled (an output whose shape
            // depends on the data, a type or rank the caller does not take):
            // TensorFlow runs the call.
            Err(err) => Outcome::Fallback(err.to_string()),
        }
    }

    /// A model compiled for `shapes` and checked against `reference` (run
    /// first, its failure the call's fallback): the
    /// one converted for exactly these shapes if there is one, else
    /// `general`, else (where LiteRT cannot size `general` to them, or
    /// `general` did not convert) one `specialize` converts now, kept.
    fn compile(
        &self,
        general: &std::result::Result<Arc<Model>, String>,
        shapes: &[Vec<i64>],
        threads: u16,
        reference: impl FnOnce() -> Result<Vec<Vec<i64>>>,
        specialize: impl FnOnce(Python<'_>, &[Vec<i64>]) -> Result<Arc<Model>>,
    ) -> std::result::Result<Compiled, NotCompiled> {
        // TensorFlow runs these inputs first: inputs it refuses never reach
        // LiteRT, which aborts the process on some (a comparison
        // broadcasting sizes 2 and 3 at rank 5), nor its converter.
        let expected = reference().map_err(|err| NotCompiled::Failed(err.to_string()))?;
        let checked = |model: &Arc<Model>| {
            let made = crate::gil::maybe_released(crate::gil::RELEASE_WORK, || {
                model.compile(shapes, threads)
            });
            let compiled = made.map_err(|err| NotCompiled::Refused(err.to_string()))?;
            COUNTERS.compiles.fetch_add(1, Ordering::Relaxed);
            if expected != compiled.output_shapes() {
                return Err(NotCompiled::Refused(format!(
                    "LiteRT sizes the outputs {:?} at the input shapes {shapes:?}, TensorFlow \
                     {expected:?}",
                    compiled.output_shapes()
                )));
            }
            Ok(compiled)
        };
        if let Some(model) = self.specialized_for(shapes) {
            return checked(&model);
        }
        let general_refusal = match general.as_ref().map(checked) {
            Err(not_converted) => not_converted.clone(),
            Ok(Err(NotCompiled::Refused(reason))) => reason,
            Ok(other) => return other,
        };
        if self.refused_alike.load(Ordering::Relaxed) {
            return Err(NotCompiled::Refused(general_refusal));
        }
        let made = self.specializations.fetch_add(1, Ordering::Relaxed);
        if made >= SPECIALIZATIONS {
            return Err(NotCompiled::Refused(format!(
                "{general_refusal} (and {SPECIALIZATIONS} models converted for other exact \
                 shapes already)"
            )));
        }
        // Counted as the model's conversion is: tried, converted or not.
        COUNTERS.conversions.fetch_add(1, Ordering::Relaxed);
        let converted = Python::attach(|py| specialize(py, shapes)).map_err(|err| {
            let err = err.to_string();
            if unprefixed(&err) == unprefixed(&general_refusal) {
                self.refused_alike.store(true, Ordering::Relaxed);
                return NotCompiled::Refused(format!(
                    "{general_refusal} (for these exact shapes too)"
                ));
            }
            NotCompiled::Refused(format!(
                "{general_refusal}; converted for these shapes: {err}"
            ))
        })?;
        let compiled = checked(&converted).map_err(|err| match err {
            NotCompiled::Refused(reason) => NotCompiled::Refused(format!(
                "{general_refusal}; converted for these shapes: {reason}"
            )),
            failed => failed,
        })?;
        let mut specialized = lock(&self.specialized);
        specialized.push((shapes.to_vec(), converted));
        if specialized.len() > SPECIALIZED_CAPACITY {
            specialized.remove(0);
        }
        Ok(compiled)
    }

    /// The model converted for exactly `shapes`, if one is kept.
    fn specialized_for(&self, shapes: &[Vec<i64>]) -> Option<Arc<Model>> {
        lock(&self.specialized)
            .iter()
            .find(|(kept, _)| kept == shapes)
            .map(|(_, model)| Arc::clone(model))
    }

    /// An idle compiled model for the shapes of `inputs`, taken out of the
    /// cache (so no other thread uses it meanwhile); `None` to compile one;
    /// the reason LiteRT refused these shapes before.
    fn take(&self, inputs: &[HandleInput<'_>]) -> std::result::Result<Option<Compiled>, String> {
        let same = |shapes: &[Vec<i64>]| {
            shapes.len() == inputs.len()
                && shapes
                    .iter()
                    .zip(inputs)
                    .all(|(shape, input)| *shape == input.shape)
        };
        let refused = lock(&self.refused);
        if let Some((_, reason)) = refused.iter().find(|(refused, _)| same(refused)) {
            return Err(reason.clone());
        }
        drop(refused);
        let mut idle = lock(&self.idle);
        let position = idle.iter().rposition(|c| same(c.input_shapes()));
        Ok(position.map(|position| idle.remove(position)))
    }

    /// Remembers that LiteRT refused to compile for `shapes` (the most
    /// recent [`COMPILED_CAPACITY`] such shapes).
    fn refuse(&self, shapes: Vec<Vec<i64>>, reason: &str) {
        let mut refused = lock(&self.refused);
        refused.push((shapes, reason.to_owned()));
        if refused.len() > COMPILED_CAPACITY {
            refused.remove(0);
        }
    }

    /// Puts `compiled` back as the most recently used; the least recently
    /// used goes past [`COMPILED_CAPACITY`] (destroyed outside the lock).
    fn keep(&self, compiled: Compiled) {
        let evicted = {
            let mut idle = lock(&self.idle);
            idle.push(compiled);
            (idle.len() > COMPILED_CAPACITY).then(|| idle.remove(0))
        };
        drop(evicted);
    }
}

/// A refusal without the error's prefix, to compare two.
fn unprefixed(reason: &str) -> &str {
    reason.strip_prefix("rxt-tf: litert: ").unwrap_or(reason)
}

/// `mutex`'s guard, also after a panic elsewhere (the lists stay valid).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
