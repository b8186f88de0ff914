//! Calling a TensorFlow function of Python's context from Rust: a Keras
//! model, a `tf.function`, a concrete function or a SavedModel signature,
//! run as one `StatefulPartitionedCall` of its definition, with its
//! captured inputs (the variables' handles) passed by handle.

mod litert_call;
mod python_call;
mod resolve;
mod same_graph;

pub use python_call::CallMode;

use std::sync::Arc;

use pyo3::prelude::*;
use rxt_tf_spec::TensorKind;

use crate::binding::context::BoundContext;
use crate::eager::FunctionNode;
use crate::error::{Error, Result};
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use crate::tensor::{TensorType, Untyped};

/// The name of a function call in errors.
const CALL: &str = "function call";

/// The defect of a call whose outputs, already checked against the result
/// type's count, do not fill it.
const RESULT_COUNT: &str = "the call's outputs do not fill its result type";

/// One input or output of a function's signature: its element type (a
/// `TF_DataType` code) and rank (`None` when unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spec {
    dtype: i32,
    rank: Option<u8>,
}

impl Spec {
    fn dtype_name(self) -> String {
        crate::sys::dtype_name(self.dtype)
    }

    fn rank_text(self) -> String {
        self.rank
            .map_or_else(|| "any rank".to_owned(), |rank| format!("rank {rank}"))
    }

    /// Whether a tensor of `kind` fits it.
    fn fits(self, kind: TensorKind) -> (bool, bool) {
        (
            kind.dtype.code() == self.dtype,
            self.rank.is_none_or(|rank| rank == kind.rank),
        )
    }
}

/// What a Python object calls, resolved once.
pub(crate) struct Callee {
    /// The definition to call (holding the concrete function), with the
    /// types of its inputs and first output.
    node: Arc<FunctionNode>,
    /// A number never reused: the fused trace key of a call.
    id: u64,
    inputs: Vec<Spec>,
    outputs: Vec<Spec>,
    /// The captured inputs (variables' resource handles, constants).
    captured: Vec<Arc<OwnedHandle>>,
    /// Whether it reads trainable variables.
    trainable: bool,
    /// Whether a call may be one node of a fused trace: it runs no
    /// stateful op but variable reads, so running it again (a replay) or
    /// not at all (an unread result) changes nothing, and it has one output
    /// of known rank.
    joins_trace: bool,
    context: Arc<BoundContext>,
    /// Its LiteRT model and compiled models, for calls in a litert scope.
    litert: litert_call::LitertState,
    /// A Python function of exact input shapes to the function traced
    /// again for them (a Keras model's call, a `tf.function` of an
    /// `input_signature`), for LiteRT models converted for those shapes.
    retrace: Option<Py<PyAny>>,
    /// Its last answer of whether its inlined call runs its by-name graph.
    last_answer: same_graph::LastAnswer,
}

impl Callee {
    /// The function as a fallback's warning names it: the Python function
    /// TensorFlow traced (`__inference_call_42` is "the function `call`").
    pub(crate) fn label(&self) -> String {
        let name = self.node.name.to_string_lossy();
        let name = name.strip_prefix("__inference_").unwrap_or(&name);
        let name = match name.rsplit_once('_') {
            Some((stem, uid)) if !uid.is_empty() && uid.bytes().all(|b| b.is_ascii_digit()) => stem,
            _ => name,
        };
        format!("the function `{name}`")
    }
}

/// One concrete function of what a Python object calls, and which of the
/// caller's arguments it takes as tensors (`false`: `None`); `None` when it
/// takes every argument as a tensor.
pub(crate) struct Variant {
    present: Option<Vec<bool>>,
    callee: Callee,
}

impl Variant {
    /// Whether a call whose arguments are present as `given` runs it.
    fn takes(&self, mut given: impl Iterator<Item = bool>) -> bool {
        match &self.present {
            None => given.all(|present| present),
            Some(present) => present.iter().copied().eq(given),
        }
    }
}

/// A TensorFlow function of Python's context, callable from Rust at the
/// cost of one TensorFlow call: extracted from a Keras model or layer (traced
/// once with `training=False` for its inputs), a `tf.function` (with an
/// `input_signature`, traced exactly once, or traced once per pattern of
/// `None` arguments: `mask=None` and a mask), a concrete function or a
/// SavedModel signature. Cheap to clone; `Send` and `Sync`.
///
/// ```ignore
/// #[pyfunction]
/// fn predict(model: rxt_tf::Function, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
///     model.call((&x,))
/// }
/// ```
#[derive(Clone)]
pub struct Function {
    variants: Arc<[Variant]>,
}

/// `Function` is shared across threads and cloned cheaply.
const _: () = {
    const fn shareable<T: Clone + Send + Sync>() {}
    shareable::<Function>();
};

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.variants.iter().map(|v| &v.callee.node.name).collect();
        f.debug_struct("Function")
            .field("names", &names)
            .field("variants", &self.variants.len())
            .finish()
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Function {
    type Error = Error;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> Result<Self> {
        resolve::variants(&obj).map(|variants| Function { variants })
    }
}

impl Function {
    /// The concrete function a call whose arguments are present as
    /// `given` (in order) runs.
    fn variant(&self, given: impl Iterator<Item = bool> + Clone) -> Result<&Callee> {
        if let Some(variant) = self.variants.iter().find(|v| v.takes(given.clone())) {
            return Ok(&variant.callee);
        }
        let shown = |present: &mut dyn Iterator<Item = bool>| {
            let each: Vec<_> = present.map(|p| if p { "tensor" } else { "None" }).collect();
            format!("({})", each.join(", "))
        };
        let traced: Vec<String> = self
            .variants
            .iter()
            .map(|v| {
                v.present.as_ref().map_or_else(
                    || format!("{} tensors", v.callee.inputs.len()),
                    |present| shown(&mut present.iter().copied()),
                )
            })
            .collect();
        Err(Error::FunctionArguments {
            message: format!(
                "no concrete function takes arguments {}; traced for {}",
                shown(&mut given.clone()),
                traced.join(" and ")
            ),
        })
    }

    /// Calls the function on `arguments`, a tuple of tensor references in
    /// `tf.nest.flatten` order (`(&x,)`, `(&a, &b)`; `Option<&T>` where the
    /// function was traced with and without that argument, `None` as
    /// Python's), and returns its outputs as `Out`: one tensor type or a
    /// tuple of them, in flattened order (a dict's values by sorted key).
    /// Checks the arguments' count, element types and ranks against the
    /// function's signature, and the outputs' against `Out`, before running
    /// anything.
    pub fn call<Args: Arguments, Out: Returns>(&self, arguments: Args) -> Result<Out> {
        let given = arguments.tensors();
        let callee = self.variant(given.iter().map(Option::is_some))?;
        // The arguments given, without the `None`s the variant was traced for.
        let tensors = || given.iter().flatten();
        let kinds = Out::kinds();
        check_arguments(callee, tensors())?;
        check_returns(callee, &kinds)?;
        for (tensor, _) in tensors() {
            if !Arc::ptr_eq(&tensor.context, &callee.context) {
                return Err(Error::MixedContexts { op: CALL });
            }
        }
        callee.context.ensure_synchronous()?;
        if callee.trainable {
            ensure_not_recording(&callee.context)?;
        }
        let litert = crate::fused::litert_active().is_some();
        if litert {
            let inputs = tensors()
                .map(|(tensor, kind)| {
                    Ok(crate::litert::HandleInput {
                        handle: tensor.handle()?,
                        dtype: kind.dtype,
                        shape: tensor.shape(usize::from(kind.rank))?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            match litert_call::call(callee, &inputs, &kinds)? {
                crate::litert::Outcome::Ran(handles) => {
                    let cores = handles
                        .into_iter()
                        .map(|handle| Untyped::ready(handle, Arc::clone(&callee.context)))
                        .collect();
                    return Out::from_cores(cores)
                        .ok_or_else(|| Error::internal(CALL, RESULT_COUNT));
                }
                crate::litert::Outcome::Fallback(reason) => {
                    crate::litert::fall_back(&callee.label(), &reason)?;
                }
            }
        }
        match kinds[..] {
            // In a fusing scope, a call that may join the trace is one node
            // (in a litert scope, one that fell back runs now: the trace
            // would not convert either).
            [kind] if callee.joins_trace && !litert => {
                let arguments: Vec<&Untyped> = tensors().map(|(tensor, _)| *tensor).collect();
                if let crate::fused::Recorded::Pending(recorded) = crate::fused::record_function(
                    &callee.node,
                    callee.id,
                    &arguments,
                    &callee.captured,
                    &callee.context,
                    kind,
                ) {
                    return Out::from_cores(vec![recorded?])
                        .ok_or_else(|| Error::internal(CALL, RESULT_COUNT));
                }
            }
            // Otherwise what a fusing scope recorded runs first, then the
            // call on its own.
            _ => {}
        }
        let _per_op = crate::fused::Scope::per_op();
        let mut handles = tensors()
            .map(|(tensor, _)| tensor.handle())
            .collect::<Result<Vec<_>>>()?;
        handles.extend(callee.captured.iter().map(|handle| &**handle));
        let outputs = callee.node.execute(&callee.context, &handles)?;
        check_ranks(callee, &outputs, &kinds)?;
        let cores = outputs
            .into_iter()
            .map(|handle| Untyped::ready(handle, Arc::clone(&callee.context)))
            .collect();
        Out::from_cores(cores).ok_or_else(|| Error::internal(CALL, RESULT_COUNT))
    }
}

/// Refuses when an active gradient tape or forward accumulator on this
/// thread could record the function's reads of trainable variables: Python
/// calling it would record them, rxt-tf records no gradients. A thread
/// Python never ran on has no tape: it is not asked.
fn ensure_not_recording(context: &BoundContext) -> Result<()> {
    // SAFETY: reads this thread's Python thread state pointer, which
    // needs no GIL (NULL on a thread Python never ran on).
    if unsafe { pyo3::ffi::PyGILState_GetThisThreadState() }.is_null() {
        return Ok(());
    }
    Python::attach(
        |py| match crate::python::boundary::tape_active(py, context.wheel())? {
            true => Err(Error::WatchedByTape),
            false => Ok(()),
        },
    )
}

/// Checks the ranks of `outputs` the signature left unknown against the
/// caller's `kinds`.
fn check_ranks(callee: &Callee, outputs: &[OwnedHandle], kinds: &[TensorKind]) -> Result<()> {
    let unknown = outputs.iter().zip(kinds).zip(&callee.outputs).enumerate();
    let mut unknown = unknown
        .filter(|(_, (_, spec))| spec.rank.is_none())
        .peekable();
    if unknown.peek().is_none() {
        return Ok(());
    }
    let status = Status::new(callee.context.wheel().api(), CALL)?;
    for (position, ((output, kind), _)) in unknown {
        let rank = output.rank(&status, CALL)?;
        if i64::from(kind.rank) != rank {
            return Err(Error::FunctionShapes {
                message: format!(
                    "output {position}: the function returned a tensor of rank {rank}, the \
                     caller takes rank {}",
                    kind.rank
                ),
            });
        }
    }
    Ok(())
}

/// Checks that `count` arguments fill the function's inputs.
fn check_count(callee: &Callee, count: usize) -> Result<()> {
    if count == callee.inputs.len() {
        return Ok(());
    }
    Err(Error::FunctionArguments {
        message: format!(
            "the function takes {} input tensors, got {count}",
            callee.inputs.len()
        ),
    })
}

fn check_arguments<'a>(
    callee: &Callee,
    tensors: impl Iterator<Item = &'a (&'a Untyped, TensorKind)> + Clone,
) -> Result<()> {
    check_count(callee, tensors.clone().count())?;
    for (position, ((_, kind), spec)) in tensors.zip(&callee.inputs).enumerate() {
        match spec.fits(*kind) {
            (false, _) => {
                return Err(Error::FunctionArguments {
                    message: format!(
                        "input {position}: expected a {} tensor, got a {} tensor",
                        spec.dtype_name(),
                        kind.dtype.name()
                    ),
                })
            }
            (true, false) => {
                return Err(Error::FunctionShapes {
                    message: format!(
                        "input {position}: expected a tensor of {}, got rank {}",
                        spec.rank_text(),
                        kind.rank
                    ),
                })
            }
            (true, true) => {}
        }
    }
    Ok(())
}

fn check_returns(callee: &Callee, kinds: &[TensorKind]) -> Result<()> {
    if kinds.len() != callee.outputs.len() {
        return Err(Error::FunctionArguments {
            message: format!(
                "the function returns {} tensors, the caller takes {}",
                callee.outputs.len(),
                kinds.len()
            ),
        });
    }
    for (position, (kind, spec)) in kinds.iter().zip(&callee.outputs).enumerate() {
        match spec.fits(*kind) {
            (false, _) => {
                return Err(Error::FunctionArguments {
                    message: format!(
                        "output {position}: the function returns a {} tensor, the caller \
                         takes a {} tensor",
                        spec.dtype_name(),
                        kind.dtype.name()
                    ),
                })
            }
            (true, false) => {
                return Err(Error::FunctionShapes {
                    message: format!(
                        "output {position}: the function returns a tensor of {}, the \
                         caller takes rank {}",
                        spec.rank_text(),
                        kind.rank
                    ),
                })
            }
            (true, true) => {}
        }
    }
    Ok(())
}

/// The arguments of [`Function::call`]: a tuple of references to rxt-tf
/// tensors, `(&x,)` or `(&a, &b, …)` (up to eight), each also as an
/// `Option` (`None` for Python's `None`).
pub trait Arguments {
    #[doc(hidden)]
    fn tensors(&self) -> Vec<Option<(&Untyped, TensorKind)>>;
}

/// One argument of [`Function::call`]: `&T` or `Option<&T>` of an rxt-tf
/// tensor type `T`.
pub trait Argument {
    #[doc(hidden)]
    fn tensor(&self) -> Option<(&Untyped, TensorKind)>;
}

impl<T: TensorType> Argument for &T {
    fn tensor(&self) -> Option<(&Untyped, TensorKind)> {
        Some((self.core(), T::KIND))
    }
}

impl<T: TensorType> Argument for Option<&T> {
    fn tensor(&self) -> Option<(&Untyped, TensorKind)> {
        self.map(|tensor| (tensor.core(), T::KIND))
    }
}

/// What [`Function::call`] returns: one rxt-tf tensor type, or a tuple of
/// them (up to eight), in the function's flattened output order.
pub trait Returns: Sized {
    #[doc(hidden)]
    fn kinds() -> Vec<TensorKind>;
    #[doc(hidden)]
    fn from_cores(cores: Vec<Untyped>) -> Option<Self>;
}

impl<T: TensorType> Returns for T {
    fn kinds() -> Vec<TensorKind> {
        vec![T::KIND]
    }

    fn from_cores(cores: Vec<Untyped>) -> Option<Self> {
        let [core] = <[Untyped; 1]>::try_from(cores).ok()?;
        Some(T::from_core(core))
    }
}

macro_rules! tuples {
    ($( ($($name:ident),+) )+) => {$(
        impl<$($name: Argument),+> Arguments for ($($name,)+) {
            #[allow(non_snake_case)]
            fn tensors(&self) -> Vec<Option<(&Untyped, TensorKind)>> {
                let ($($name,)+) = self;
                vec![$($name.tensor()),+]
            }
        }

        impl<$($name: TensorType),+> Returns for ($($name,)+) {
            fn kinds() -> Vec<TensorKind> {
                vec![$($name::KIND),+]
            }

            #[allow(non_snake_case)]
            fn from_cores(cores: Vec<Untyped>) -> Option<Self> {
                let mut cores = cores.into_iter();
                $(let $name = $name::from_core(cores.next()?);)+
                cores.next().is_none().then_some(($($name,)+))
            }
        }
    )+};
}

tuples! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
}
