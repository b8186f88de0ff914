//! [`Function`](super::Function) calls in a litert scope: the concrete
//! function converted to a LiteRT model once (its variables' values read
//! then), compiled per input shapes and kept (at most
//! [`COMPILED_CAPACITY`] per function, the least recently used evicted),
//! each compiled model used by one thread at a time, run on the arguments'
//! own buffers with the GIL released.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::sync::OnceLockExt;
use rxt_tf_spec::{DType, TensorKind};

use super::Callee;
use crate::error::Result;
use crate::litert::{Compiled, Model, COUNTERS};
use crate::tensor::Untyped;

/// The most compiled models (input shapes) a function keeps.
pub const COMPILED_CAPACITY: usize = 8;

/// XNNPACK's threads per compiled model.
const THREADS: u16 = 1;

/// A function's LiteRT state: its model, made on the first litert call,
/// its idle compiled models, least recently used first, and the input
/// shapes LiteRT refused to compile (not tried again).
#[derive(Default)]
pub(crate) struct LitertState {
    model: OnceLock<std::result::Result<Arc<Model>, String>>,
    idle: Mutex<Vec<Compiled>>,
    refused: Mutex<Vec<(Vec<Vec<i64>>, String)>>,
}

/// What a litert call did.
pub(crate) enum Outcome {
    /// It ran through LiteRT: the outputs.
    Ran(Vec<Untyped>),
    /// It cannot run through LiteRT (why): the caller runs it on
    /// TensorFlow. Nothing of the call's was written but its own fresh
    /// outputs, so running it again is safe.
    Fallback(String),
}

/// Runs `callee` on `arguments` through LiteRT, its outputs of `kinds`.
pub(crate) fn call(
    callee: &Callee,
    arguments: &[(&Untyped, TensorKind)],
    kinds: &[TensorKind],
) -> Result<Outcome> {
    if arguments.is_empty() {
        return Ok(Outcome::Fallback(String::from(
            "the litert backend runs functions of at least one tensor",
        )));
    }
    let types = arguments.iter().map(|(_, kind)| kind).chain(kinds);
    if let Some(kind) = types.into_iter().find(|kind| !runs(kind.dtype)) {
        return Ok(Outcome::Fallback(format!(
            "the litert backend runs no {} tensors",
            kind.dtype.name()
        )));
    }
    let model = match model(callee) {
        Ok(model) => model,
        Err(reason) => return Ok(Outcome::Fallback(reason)),
    };
    let shapes = arguments
        .iter()
        .map(|(core, kind)| core.shape(usize::from(kind.rank)))
        .collect::<Result<Vec<_>>>()?;
    let mut compiled = match take_compiled(&callee.litert, &shapes) {
        Ok(Some(compiled)) => compiled,
        Ok(None) => {
            let made = crate::gil::maybe_released(crate::gil::RELEASE_WORK, || {
                model.compile(&shapes, THREADS)
            });
            match made {
                Ok(compiled) => {
                    COUNTERS.compiles.fetch_add(1, Ordering::Relaxed);
                    compiled
                }
                Err(err) => {
                    let reason = err.to_string();
                    refuse(&callee.litert, shapes, &reason);
                    return Ok(Outcome::Fallback(reason));
                }
            }
        }
        Err(reason) => return Ok(Outcome::Fallback(reason)),
    };
    let outputs = crate::gil::maybe_released(crate::gil::RELEASE_WORK, || {
        crate::litert::run_untyped(&mut compiled, arguments, kinds)
    });
    keep_compiled(&callee.litert, compiled);
    match outputs {
        Ok(outputs) => {
            COUNTERS.calls.fetch_add(1, Ordering::Relaxed);
            Ok(Outcome::Ran(outputs))
        }
        // A model LiteRT cannot run as compiled (an output whose shape
        // depends on the data, a type or rank the caller does not take):
        // TensorFlow runs the call.
        Err(err) => Ok(Outcome::Fallback(err.to_string())),
    }
}

/// Whether the backend runs tensors of `dtype`.
fn runs(dtype: DType) -> bool {
    matches!(dtype, DType::F32 | DType::I32 | DType::I64 | DType::Bool)
}

/// The function's model, converted on first use (a failure is kept: the
/// function falls back every time, without converting again). A thread
/// waiting for another's conversion lets go of the GIL, which the
/// conversion needs.
fn model(callee: &Callee) -> std::result::Result<Arc<Model>, String> {
    if let Some(made) = callee.litert.model.get() {
        return made.clone();
    }
    Python::attach(|py| {
        callee
            .litert
            .model
            .get_or_init_py_attached(py, || {
                crate::litert::convert(callee.node._keep.bind(py)).map_err(|err| err.to_string())
            })
            .clone()
    })
}

/// An idle compiled model for `shapes`, taken out of the cache (so no
/// other thread uses it meanwhile); `None` to compile one; the reason
/// LiteRT refused these shapes before.
fn take_compiled(
    state: &LitertState,
    shapes: &[Vec<i64>],
) -> std::result::Result<Option<Compiled>, String> {
    let refused = lock(&state.refused);
    if let Some((_, reason)) = refused.iter().find(|(refused, _)| refused == shapes) {
        return Err(reason.clone());
    }
    drop(refused);
    let mut idle = lock(&state.idle);
    let position = idle.iter().rposition(|c| c.input_shapes() == shapes);
    Ok(position.map(|position| idle.remove(position)))
}

/// Remembers that LiteRT refused to compile for `shapes` (the most
/// recent [`COMPILED_CAPACITY`] such shapes).
fn refuse(state: &LitertState, shapes: Vec<Vec<i64>>, reason: &str) {
    let mut refused = lock(&state.refused);
    refused.push((shapes, reason.to_owned()));
    if refused.len() > COMPILED_CAPACITY {
        refused.remove(0);
    }
}

/// Puts `compiled` back as the most recently used; the least recently
/// used goes past [`COMPILED_CAPACITY`].
fn keep_compiled(state: &LitertState, compiled: Compiled) {
    let evicted = {
        let mut idle = lock(&state.idle);
        idle.push(compiled);
        (idle.len() > COMPILED_CAPACITY).then(|| idle.remove(0))
    };
    drop(evicted);
}

/// `mutex`'s guard, also after a panic elsewhere (the lists stay valid).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
