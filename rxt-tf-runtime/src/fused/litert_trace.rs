//! Fused traces recorded in a litert scope, run through LiteRT: the
//! trace's function (already in the context, built for TensorFlow) is
//! converted once by TensorFlow's TFLite converter, compiled per input
//! shapes and kept with the function in the fused cache; each call runs on
//! the inputs' own buffers. A trace LiteRT cannot take (a captured
//! variable, an element type it lacks, an op the converter refuses, shapes
//! it cannot compile) runs on TensorFlow instead, counted, or refused under
//! `RXT_TF_LITERT_STRICT`.

use rxt_tf_spec::{DType, TensorKind};

use crate::binding::context::BoundContext;
use crate::error::Result;
use crate::fused::library::FusedFunction;
use crate::fused::recording::Recording;
use crate::litert::{runs, HandleInput, Outcome};
use crate::safe::handle::OwnedHandle;

/// Runs the trace of `recording` (its function `function`) through LiteRT,
/// its `outputs` (node, element type) returned.
pub(super) fn run(
    function: &FusedFunction,
    context: &BoundContext,
    recording: &Recording,
    outputs: &[(u32, DType)],
) -> Result<Outcome<Vec<OwnedHandle>>> {
    let threads = crate::litert::threads()?;
    let mut inputs = Vec::with_capacity(recording.inputs.len());
    for input in &recording.inputs {
        let Some(dtype) = DType::from_code(input.dtype).filter(|&dtype| runs(dtype)) else {
            return Ok(Outcome::Fallback(unconvertible_input(input.dtype)));
        };
        let shape = (0..input.dims.rank()).map(|i| input.dims.size(i)).collect();
        inputs.push(HandleInput {
            handle: &input.handle,
            dtype,
            shape,
        });
    }
    if inputs.is_empty() {
        return Ok(Outcome::Fallback(String::from(
            "the litert backend runs traces of at least one input tensor",
        )));
    }
    let mut kinds = Vec::with_capacity(outputs.len());
    for &(node, dtype) in outputs {
        if !runs(dtype) {
            return Ok(Outcome::Fallback(format!(
                "the litert backend runs no {} tensors",
                dtype.name()
            )));
        }
        let rank = recording
            .outputs
            .get(node as usize)
            .map_or(0, |output| output.dims.rank());
        kinds.push(TensorKind {
            dtype,
            rank: u8::try_from(rank).unwrap_or(u8::MAX),
        });
    }
    let ranks: Vec<usize> = inputs.iter().map(|input| input.shape.len()).collect();
    let model = function
        .litert()
        .model(|py| crate::litert::convert_function_def(py, function.name(), &ranks));
    let model = match model {
        Ok(model) => model,
        Err(reason) => return Ok(Outcome::Fallback(reason)),
    };
    let shapes = inputs.iter().map(|input| input.shape.clone()).collect();
    let api = context.wheel().api();
    Ok(function.litert().run(&model, shapes, threads, |compiled| {
        crate::litert::run_handles(compiled, api, &inputs, &kinds)
    }))
}

/// Why a trace with an input of the `TF_DataType` `code` falls back.
fn unconvertible_input(code: i32) -> String {
    match DType::from_code(code) {
        Some(dtype) => format!("the litert backend runs no {} tensors", dtype.name()),
        None => String::from(
            "the trace calls a function with captured variables, which the litert backend \
             converts only when the function is called in the scope itself",
        ),
    }
}
