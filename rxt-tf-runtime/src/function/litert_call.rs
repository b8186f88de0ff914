//! [`Function`](super::Function) calls in a litert scope: the concrete
//! function converted to a LiteRT model once (its variables' values read
//! then), compiled per input shapes and kept in the function's
//! [`ModelCache`] (bounded, least recently used evicted), each compiled
//! model used by one thread at a time, run on the arguments' own buffers
//! with the GIL released.

use rxt_tf_spec::TensorKind;

use super::Callee;
use crate::error::Result;
use crate::litert::{runs, HandleInput, ModelCache, Outcome};
use crate::safe::handle::OwnedHandle;

/// A function's LiteRT state, made on its first litert call.
pub(crate) type LitertState = ModelCache;

/// Runs `callee` on `inputs` through LiteRT, its outputs of `kinds`.
pub(crate) fn call(
    callee: &Callee,
    inputs: &[HandleInput<'_>],
    kinds: &[TensorKind],
) -> Result<Outcome<Vec<OwnedHandle>>> {
    if inputs.is_empty() {
        return Ok(Outcome::Fallback(String::from(
            "the litert backend runs functions of at least one tensor",
        )));
    }
    let types = inputs.iter().map(|input| input.dtype);
    if let Some(dtype) = types
        .chain(kinds.iter().map(|kind| kind.dtype))
        .find(|&d| !runs(d))
    {
        return Ok(Outcome::Fallback(format!(
            "the litert backend runs no {} tensors",
            dtype.name()
        )));
    }
    let threads = crate::litert::threads()?;
    let model = callee
        .litert
        .model(|py| crate::litert::convert(callee.node._keep.bind(py)));
    // A function whose model for any shapes did not convert converts for
    // each call's exact shapes where it can be traced again for them.
    if let (Err(reason), None) = (&model, &callee.retrace) {
        return Ok(Outcome::Fallback(reason.clone()));
    }
    let api = callee.context.wheel().api();
    // TensorFlow's outputs for these inputs, once per new input shapes.
    let reference = || {
        let mut handles: Vec<&OwnedHandle> = inputs.iter().map(|input| input.handle).collect();
        handles.extend(callee.captured.iter().map(|handle| &**handle));
        let outputs = callee.node.execute(&callee.context, &handles)?;
        crate::litert::shapes_of(api, &outputs)
    };
    // Where LiteRT cannot size that model to these inputs: one converted
    // for exactly their shapes.
    let specialize = |py: pyo3::Python<'_>, shapes: &[Vec<i64>]| {
        let retrace = callee.retrace.as_ref().map(|retrace| retrace.bind(py));
        crate::litert::convert_at(callee.node._keep.bind(py), retrace, shapes)
    };
    Ok(callee
        .litert
        .run(&model, inputs, threads, reference, specialize, |compiled| {
            crate::litert::run_handles(compiled, api, inputs, kinds)
        }))
}
