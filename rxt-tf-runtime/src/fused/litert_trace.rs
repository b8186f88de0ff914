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
use crate::eager::node::Arg;
use crate::eager::work::Sizes;
use crate::error::{Error, Result};
use crate::fused::emit::NodeKind;
use crate::fused::library::FusedFunction;
use crate::fused::recording::Recording;
use crate::litert::{runs, HandleInput, Outcome};
use crate::safe::handle::OwnedHandle;

/// TensorFlow ops whose kernels check at run time what LiteRT's converted
/// kernels do not (found by the fuzz's litert run): a trace with one runs
/// on TensorFlow, so an operand TensorFlow refuses still raises. LiteRT
/// squeezes an axis whose size is not 1 and takes band widths past the
/// matrix.
const UNCHECKED: &[&std::ffi::CStr] = &[c"Squeeze", c"MatrixBandPart"];

/// Why the trace cannot run through LiteRT as TensorFlow would run it, if
/// it cannot: an op of [`UNCHECKED`], or a `BiasAdd` whose bias LiteRT
/// could broadcast where TensorFlow raises (a bias of rank other than 1,
/// or of one value for several channels).
fn unchecked(recording: &Recording) -> Option<String> {
    let dims = |arg: &Arg| match *arg {
        Arg::Input(index) => recording
            .inputs
            .get(index as usize)
            .map(|input| &input.dims),
        Arg::Node(index) => recording
            .outputs
            .get(index as usize)
            .map(|output| &output.dims),
        Arg::Constant(_) => None,
    };
    recording.nodes.iter().find_map(|node| {
        let NodeKind::Op(call) = &node.kind else {
            return None;
        };
        if UNCHECKED.contains(&call.tf_op) {
            return Some(format!(
                "LiteRT runs `{}` without TensorFlow's checks of its operands",
                call.row.name
            ));
        }
        // A bias of one value per channel, or of one value for one channel:
        // a bias of another size fails in LiteRT too (and falls back), but
        // one of size 1 broadcasts there.
        let fits = |value: &Sizes, bias: &Sizes| {
            bias.exact
                && bias.rank() == 1
                && value.rank() >= 2
                && (bias.size(0) != 1 || (value.exact && value.size_from_end(0) == 1))
        };
        let bias_add = call.tf_op == c"BiasAdd";
        let args = &node.args[..node.arg_count.min(node.args.len())];
        match (bias_add, args) {
            (true, [value, bias]) => match (dims(value), dims(bias)) {
                (Some(value), Some(bias)) if fits(value, bias) => None,
                _ => Some(String::from(
                    "LiteRT broadcasts a `bias_add` bias that TensorFlow refuses",
                )),
            },
            _ => None,
        }
    })
}

/// Runs the trace of `recording` (its function `function`) through LiteRT,
/// its `outputs` (node, element type) returned.
pub(super) fn run(
    function: &FusedFunction,
    context: &std::sync::Arc<BoundContext>,
    recording: &Recording,
    outputs: &[(u32, DType)],
) -> Result<Outcome<Vec<OwnedHandle>>> {
    let threads = crate::litert::threads()?;
    if let Some(reason) = unchecked(recording) {
        return Ok(Outcome::Fallback(reason));
    }
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
    let model = function.litert().model(|py| {
        // Every size unknown, but the length of an integer vector: run-time
        // sizes, axes and permutations, whose count the trace's form fixes
        // (so LiteRT knows the rank of a `reshape`'s result).
        let signature: Vec<Vec<i64>> = inputs
            .iter()
            .map(|input| match (input.dtype, &input.shape[..]) {
                (DType::I32 | DType::I64, &[length]) => vec![length],
                (_, shape) => vec![-1; shape.len()],
            })
            .collect();
        crate::litert::convert_function_def(py, function.name(), &signature)
    });
    let model = match model {
        Ok(model) => model,
        Err(reason) => return Ok(Outcome::Fallback(reason)),
    };
    let api = context.wheel().api();
    // TensorFlow's outputs for these inputs, once per new input shapes.
    let reference = || {
        let outputs = function.call(context, &recording.inputs, recording.work)?;
        crate::litert::shapes_of(api, &outputs)
    };
    // Where LiteRT cannot size that model to these inputs: one converted
    // for exactly their shapes.
    let specialize = |py: pyo3::Python<'_>, shapes: &[Vec<i64>]| {
        crate::litert::convert_function_def(py, function.name(), shapes)
    };
    Ok(function.litert().run(
        &model,
        &inputs,
        threads,
        reference,
        specialize,
        |compiled| {
            // The outputs' sizes where the rules know them: LiteRT must give
            // those.
            let given = compiled.output_shapes().iter().zip(outputs).enumerate();
            for (index, (given, &(node, _))) in given {
                let Some(dims) = recording.outputs.get(node as usize).map(|o| &o.dims) else {
                    continue;
                };
                let differs = given.len() != dims.rank()
                    || given
                        .iter()
                        .enumerate()
                        .any(|(i, &size)| size != dims.size(i));
                if dims.exact && differs {
                    let expected: Vec<i64> = (0..dims.rank()).map(|i| dims.size(i)).collect();
                    return Err(Error::LitertRefused {
                        what: format!(
                            "LiteRT gives output {index} the shape {given:?}, TensorFlow \
                             {expected:?}"
                        ),
                    });
                }
            }
            crate::litert::run_handles(compiled, api, &inputs, &kinds)
        },
    ))
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
