//! One converted thing's LiteRT state, shared by the two callers of the
//! backend (a `Function` called in a litert scope, a fused trace recorded
//! in one): its model, converted on first use; its compiled models, one per
//! input shapes (at most [`COMPILED_CAPACITY`], the least recently used
//! evicted), each taken out while a thread runs it; and the input shapes
//! LiteRT refused to compile, not tried again.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::sync::OnceLockExt;

use super::model::{Compiled, Model};
use super::COUNTERS;
use crate::error::Result;

/// The most compiled models (input shapes) one function or trace keeps.
pub const COMPILED_CAPACITY: usize = 8;

/// What a run through LiteRT did.
pub(crate) enum Outcome<T> {
    /// It ran: what the run gave.
    Ran(T),
    /// It cannot run through LiteRT (why): the caller runs it on
    /// TensorFlow. Nothing was written but the run's own fresh outputs, so
    /// running it again is safe.
    Fallback(String),
}

/// A model and its compiled models (see the module's documentation).
#[derive(Default)]
pub(crate) struct ModelCache {
    model: OnceLock<std::result::Result<Arc<Model>, String>>,
    idle: Mutex<Vec<Compiled>>,
    refused: Mutex<Vec<(Vec<Vec<i64>>, String)>>,
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
                .get_or_init_py_attached(py, || convert(py).map_err(|err| err.to_string()))
                .clone()
        })
    }

    /// Runs `model` compiled for `shapes` (one per input) with XNNPACK on
    /// `threads` threads: a compiled model of the cache, or one compiled
    /// now. A model compiled now is first checked against `reference`, the
    /// output shapes TensorFlow gives for these inputs: LiteRT does not
    /// always carry new input sizes through a model before it runs, and
    /// would then run into outputs sized for other shapes (and fail, or
    /// crash). The GIL is released while LiteRT compiles, and while it
    /// runs a model whose last run took 0.1 ms or more.
    pub(crate) fn run<T>(
        &self,
        model: &Arc<Model>,
        shapes: Vec<Vec<i64>>,
        threads: u16,
        reference: impl FnOnce() -> Result<Vec<Vec<i64>>>,
        run: impl FnOnce(&mut Compiled) -> Result<T>,
    ) -> Outcome<T> {
        let mut compiled = match self.take(&shapes) {
            Ok(Some(compiled)) => compiled,
            Ok(None) => {
                let made = crate::gil::maybe_released(crate::gil::RELEASE_WORK, || {
                    model.compile(&shapes, threads)
                });
                match made {
                    Ok(compiled) => {
                        COUNTERS.compiles.fetch_add(1, Ordering::Relaxed);
                        let expected = match reference() {
                            Ok(expected) => expected,
                            Err(err) => return Outcome::Fallback(err.to_string()),
                        };
                        if expected != compiled.output_shapes() {
                            let reason = format!(
                                "LiteRT sizes the outputs {:?} at the input shapes {shapes:?}, \
                                 TensorFlow {expected:?}",
                                compiled.output_shapes()
                            );
                            self.refuse(shapes, &reason);
                            return Outcome::Fallback(reason);
                        }
                        compiled
                    }
                    Err(err) => {
                        let reason = err.to_string();
                        self.refuse(shapes, &reason);
                        return Outcome::Fallback(reason);
                    }
                }
            }
            Err(reason) => return Outcome::Fallback(reason),
        };
        // The GIL policy of ops (see `gil`): released for a model whose last
        // run took 0.1 ms or more (and for its first), kept for a small one,
        // which would otherwise wait to take it back while another thread
        // holds it.
        let work = match compiled.run_micros() {
            0..100 => 0,
            _ => crate::gil::RELEASE_WORK,
        };
        let started = std::time::Instant::now();
        let ran = crate::gil::maybe_released(work, || run(&mut compiled));
        compiled.timed(started.elapsed());
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

    /// An idle compiled model for `shapes`, taken out of the cache (so no
    /// other thread uses it meanwhile); `None` to compile one; the reason
    /// LiteRT refused these shapes before.
    fn take(&self, shapes: &[Vec<i64>]) -> std::result::Result<Option<Compiled>, String> {
        let refused = lock(&self.refused);
        if let Some((_, reason)) = refused.iter().find(|(refused, _)| refused == shapes) {
            return Err(reason.clone());
        }
        drop(refused);
        let mut idle = lock(&self.idle);
        let position = idle.iter().rposition(|c| c.input_shapes() == shapes);
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

/// `mutex`'s guard, also after a panic elsewhere (the lists stay valid).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
