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
use crate::eager::emit::NodeKind;
use crate::eager::node::Arg;
use crate::eager::sizes::Sizes;
use crate::error::{Error, Result};
use crate::fused::library::FusedFunction;
use crate::fused::recording::TraceParts;
use crate::litert::{runs, Frozen, FrozenValue, HandleInput, Outcome};
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
fn unchecked(recording: TraceParts<'_>) -> Option<String> {
    let sizes = |arg: &Arg| match *arg {
        Arg::Input(index) => recording
            .inputs
            .get(index as usize)
            .map(|input| &input.sizes),
        Arg::Node(index) => recording
            .outputs
            .get(index as usize)
            .map(|output| &output.sizes),
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
            (true, [value, bias]) => match (sizes(value), sizes(bias)) {
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
    recording: TraceParts<'_>,
    outputs: &[(u32, DType)],
) -> Result<Outcome<Vec<OwnedHandle>>> {
    let threads = crate::litert::threads()?;
    if let Some(reason) = unchecked(recording) {
        return Ok(Outcome::Fallback(reason));
    }
    let mut inputs = Vec::with_capacity(recording.inputs.len());
    for input in recording.inputs {
        let Some(dtype) = DType::from_code(input.dtype).filter(|&dtype| runs(dtype)) else {
            return Ok(Outcome::Fallback(unconvertible_input(input.dtype)));
        };
        let shape = (0..input.sizes.rank())
            .map(|i| input.sizes.size(i))
            .collect();
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
            .map_or(0, |output| output.sizes.rank());
        kinds.push(TensorKind {
            dtype,
            rank: u8::try_from(rank).unwrap_or(u8::MAX),
        });
    }
    let handles: Vec<&std::sync::Arc<OwnedHandle>> =
        recording.inputs.iter().map(|input| &input.handle).collect();
    // Weights and float constants freeze: float32 inputs (a literal's
    // scalar is a cached tensor, the same while its value is; `gelu`'s
    // constants must be constants for the converter to see its pattern).
    // Integer inputs are sizes, paddings, axes and ids, which frozen would
    // change the kernels LiteRT picks (a `pad` whose paddings are
    // constants runs one that writes `inf` as the largest float). A scalar
    // below 1e-3 stays an input: as a constant ε, TFLite's converter folds
    // `l2_normalize` into its `L2_NORMALIZATION`, which normalizes the last
    // axis whatever the axes.
    let api = context.wheel().api();
    let freezable = |position: usize| {
        inputs.get(position).is_some_and(|input| {
            input.dtype == DType::F32
                && (!input.shape.is_empty() || !tiny_scalar(api, input.handle))
        })
    };
    // The body's argument, most likely: its first input that is not a scalar.
    let argument = inputs
        .iter()
        .position(|input| !input.shape.is_empty())
        .unwrap_or(0);
    let trace = Trace {
        function,
        context,
        recording,
        outputs,
        kinds: &kinds,
        inputs: &inputs,
        threads,
    };
    let refused = function.litert().refused();
    let frozen = function
        .frozen()
        .for_inputs(&handles, freezable, argument, refused);
    if let Some(frozen) = &frozen {
        // A frozen model that does not convert or run leaves the call to
        // the model of no frozen input.
        if let Outcome::Ran(ran) = trace.run(Some(frozen))? {
            return Ok(Outcome::Ran(ran));
        }
    }
    let unfrozen = trace.run(None)?;
    if matches!(unfrozen, Outcome::Fallback(_)) && frozen.is_none() && function.litert().refused() {
        // The model of no frozen input does not convert (a `conv2d` filter
        // of unknown shape): freezing may make one that does.
        if let Some(frozen) = function.frozen().guessed(&handles, freezable, argument) {
            if let Outcome::Ran(ran) = trace.run(Some(&frozen))? {
                return Ok(Outcome::Ran(ran));
            }
        }
    }
    Ok(unfrozen)
}

/// Whether the float32 scalar `handle` is below 1e-3 in magnitude (or
/// cannot be read: then it stays an input too).
fn tiny_scalar(api: &'static crate::sys::Api, handle: &OwnedHandle) -> bool {
    match crate::litert::host_bytes(api, handle).map(<[u8; 4]>::try_from) {
        Ok(Ok(bytes)) => f32::from_ne_bytes(bytes).abs() < 1e-3,
        _ => true,
    }
}

/// One call of a trace through LiteRT.
struct Trace<'a> {
    function: &'a FusedFunction,
    context: &'a std::sync::Arc<BoundContext>,
    recording: TraceParts<'a>,
    outputs: &'a [(u32, DType)],
    kinds: &'a [TensorKind],
    inputs: &'a [HandleInput<'a>],
    threads: u16,
}

impl Trace<'_> {
    /// Runs it through its model with the inputs of `frozen` made
    /// constants, or of none.
    fn run(&self, frozen: Option<&Frozen>) -> Result<Outcome<Vec<OwnedHandle>>> {
        let (function, context, recording) = (self.function, self.context, self.recording);
        let api = context.wheel().api();
        let is_frozen = |position: usize| frozen.is_some_and(|f| f.freezes(position));
        let cache = frozen.map_or(function.litert(), |frozen| &frozen.cache);
        let live: Vec<HandleInput<'_>> = self
            .inputs
            .iter()
            .enumerate()
            .filter(|&(position, _)| !is_frozen(position))
            .map(|(_, input)| HandleInput {
                handle: input.handle,
                dtype: input.dtype,
                shape: input.shape.clone(),
            })
            .collect();
        // The frozen inputs' values, read when a model is converted.
        let values = || -> Result<Vec<FrozenValue>> {
            let Some(frozen) = frozen else {
                return Ok(Vec::new());
            };
            frozen
                .inputs
                .iter()
                .map(|(position, handle)| {
                    let input = self.inputs.get(*position).ok_or_else(|| {
                        Error::internal("litert call", "a frozen input past the trace's")
                    })?;
                    Ok(FrozenValue {
                        position: *position,
                        dtype: input.dtype.name(),
                        shape: input.shape.clone(),
                        bytes: crate::litert::host_bytes(api, handle)?,
                    })
                })
                .collect()
        };
        let model = cache.model(|py| {
            // Every size unknown, but the length of an integer vector: run-time
            // sizes, axes and permutations, whose count the trace's form fixes
            // (so LiteRT knows the rank of a `reshape`'s result); a frozen
            // input's all known.
            let signature: Vec<Vec<i64>> = self
                .inputs
                .iter()
                .enumerate()
                .map(|(position, input)| match (input.dtype, &input.shape[..]) {
                    _ if is_frozen(position) => input.shape.clone(),
                    (DType::I32 | DType::I64, &[length]) => vec![length],
                    (_, shape) => vec![-1; shape.len()],
                })
                .collect();
            let exact: Vec<Vec<i64>> = self.inputs.iter().map(|i| i.shape.clone()).collect();
            let values = values()?;
            crate::litert::convert_function_def(
                py,
                function.name(),
                &signature,
                &values,
                Some(&exact),
            )
        });
        if let Err(reason) = &model {
            return Ok(Outcome::Fallback(reason.clone()));
        }
        // TensorFlow's outputs for these inputs, once per new input shapes.
        let reference = || {
            let outputs = function.call(context, recording.inputs, recording.work)?;
            crate::litert::shapes_of(api, &outputs)
        };
        // Where LiteRT cannot size that model to these inputs: one converted
        // for exactly their shapes (the live inputs', then the frozen ones').
        let specialize = |py: pyo3::Python<'_>, shapes: &[Vec<i64>]| {
            let mut live_shapes = shapes.iter();
            let all: Vec<Vec<i64>> = self
                .inputs
                .iter()
                .enumerate()
                .map(|(position, input)| match is_frozen(position) {
                    true => input.shape.clone(),
                    false => live_shapes.next().cloned().unwrap_or_default(),
                })
                .collect();
            crate::litert::convert_function_def(py, function.name(), &all, &values()?, None)
        };
        Ok(cache.run(
            &model,
            &live,
            self.threads,
            reference,
            specialize,
            |compiled| {
                // The outputs' sizes where the rules know them: LiteRT must give
                // those.
                let given = compiled
                    .output_shapes()
                    .iter()
                    .zip(self.outputs)
                    .enumerate();
                for (index, (given, &(node, _))) in given {
                    let Some(sizes) = recording.outputs.get(node as usize).map(|o| &o.sizes) else {
                        continue;
                    };
                    let differs = given.len() != sizes.rank()
                        || given
                            .iter()
                            .enumerate()
                            .any(|(i, &size)| size != sizes.size(i));
                    if sizes.exact && differs {
                        let expected: Vec<i64> = (0..sizes.rank()).map(|i| sizes.size(i)).collect();
                        return Err(Error::LitertRefused {
                            what: format!(
                                "LiteRT gives output {index} the shape {given:?}, TensorFlow \
                                 {expected:?}"
                            ),
                        });
                    }
                }
                crate::litert::run_handles(compiled, api, &live, self.kinds)
            },
        ))
    }
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
