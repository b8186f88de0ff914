//! Calling a function on Python tensors of the element types and ranks its
//! signature takes, outputs handed back as new EagerTensors: what a caller
//! that does not know the types at compile time (a Python package) uses.

use std::sync::Arc;

use pyo3::prelude::*;

use super::{Function, CALL};
use crate::binding::context::BoundContext;
use crate::error::{Error, Result};
use crate::python::boundary::{materialize, share_handle, tape_active};
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use crate::tensor::Untyped;

/// How [`Function::call_python`] runs a function's graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallMode {
    /// As Python's eager call of the `tf.function` runs it: the definition
    /// called by name with the context's configuration, so the graph passes
    /// and kernels are the same and the results equal the `tf.function`'s
    /// bit for bit. Where TensorFlow's graph for one `StatefulPartitionedCall`
    /// is proven the same graph (of the definition with that configuration,
    /// or of a definition made of the by-name graph, without one; checked
    /// once per definition and configuration, no kernel run), the call
    /// runs that way instead, at about a third of the cost.
    AsTfFunction,
    /// As one `StatefulPartitionedCall` without a configuration (what
    /// [`Function::call`] runs): TensorFlow inlines the body into its
    /// wrapper of the op and, given no `config_proto`, runs no Grappler
    /// pass over it, so a result may differ from the `tf.function`'s in
    /// signed zeros or NaN payloads (`x + 0.0` is kept there, removed in
    /// the `tf.function`). About a third of the call by name.
    Inlined,
    /// Through LiteRT, as a [`Function`] call in a litert scope runs
    /// ([`Scope::litert`](crate::fusion::Scope::litert)): within LiteRT's
    /// float tolerance of TensorFlow, not bitwise. A call LiteRT cannot
    /// take runs as `Inlined` (counted in
    /// [`stats`](crate::fusion::stats), an error under
    /// `RXT_TF_LITERT_STRICT`).
    Litert,
}

impl Function {
    /// Calls the function on `arguments`, EagerTensors on `CPU:0` in its
    /// flattened input order, as `mode` says, and returns its flattened
    /// outputs as new EagerTensors. Checks the arguments' count, element
    /// types and ranks against the signature before running anything, and
    /// refuses while a gradient tape or forward accumulator records on this
    /// thread (the call would record nothing). The GIL is released while
    /// TensorFlow runs.
    pub(crate) fn call_python<'py>(
        &self,
        py: Python<'py>,
        arguments: &[Bound<'py, PyAny>],
        mode: CallMode,
    ) -> Result<Vec<Bound<'py, PyAny>>> {
        let callee = self.variant(std::iter::repeat_n(true, arguments.len()))?;
        super::check_count(callee, arguments.len())?;
        let context = &callee.context;
        if !Arc::ptr_eq(&BoundContext::current(py)?, context) {
            return Err(Error::MixedContexts { op: CALL });
        }
        if tape_active(py, context.wheel())? {
            return Err(Error::WatchedByTape);
        }
        let status = Status::new(context.wheel().api(), CALL)?;
        let mut handles = Vec::with_capacity(arguments.len());
        for (position, (argument, spec)) in arguments.iter().zip(&callee.inputs).enumerate() {
            let handle = share_handle(argument, context)?;
            check_argument(position, *spec, &handle, &status)?;
            handles.push(handle);
        }
        let mut inputs: Vec<&OwnedHandle> = handles.iter().collect();
        inputs.extend(callee.captured.iter().map(|handle| &**handle));
        let outputs = {
            // What a fusing scope on this thread recorded runs first.
            let _per_op = crate::fused::Scope::per_op();
            match mode {
                CallMode::AsTfFunction => {
                    let config = thread_call_config(py, context)?;
                    use super::same_graph::{route, Route};
                    match route(py, callee, arguments, &config)? {
                        Route::Inlined => callee.node.execute_definition(
                            context,
                            &inputs,
                            &callee.node.name,
                            Some(&config),
                        )?,
                        Route::Optimized(definition) => callee.node.execute_definition(
                            context,
                            &inputs,
                            definition.name(),
                            None,
                        )?,
                        Route::ByName => callee.node.execute_by_name(context, &inputs, &config)?,
                    }
                }
                CallMode::Inlined => callee.node.execute(context, &inputs)?,
                CallMode::Litert => match through_litert(callee, &handles, &status)? {
                    Some(outputs) => outputs,
                    None => callee.node.execute(context, &inputs)?,
                },
            }
        };
        let python = |err: PyErr| Error::python(py, "handing a function's output to Python", &err);
        outputs
            .into_iter()
            .map(|handle| {
                materialize(py, Untyped::ready(handle, Arc::clone(context))).map_err(python)
            })
            .collect()
    }
}

/// The outputs of `callee` on `handles` run through LiteRT, or `None`
/// when the call falls back to TensorFlow (counted; an error under
/// `RXT_TF_LITERT_STRICT`).
fn through_litert(
    callee: &super::Callee,
    handles: &[OwnedHandle],
    status: &Status,
) -> Result<Option<Vec<OwnedHandle>>> {
    let mut inputs = Vec::with_capacity(handles.len());
    for handle in handles {
        let Some(dtype) = rxt_tf_spec::DType::from_code(handle.dtype()) else {
            let reason = format!(
                "the litert backend runs no {} tensors",
                crate::sys::dtype_name(handle.dtype())
            );
            crate::litert::fall_back(&callee.label(), &reason)?;
            return Ok(None);
        };
        let rank = i32::try_from(handle.rank(status, CALL)?).unwrap_or(i32::MAX);
        let shape = (0..rank)
            .map(|index| handle.dim(index, status, CALL))
            .collect::<Result<Vec<_>>>()?;
        inputs.push(crate::litert::HandleInput {
            handle,
            dtype,
            shape,
        });
    }
    let kinds = callee
        .outputs
        .iter()
        .map(|spec| {
            Some(rxt_tf_spec::TensorKind {
                dtype: rxt_tf_spec::DType::from_code(spec.dtype)?,
                rank: spec.rank?,
            })
        })
        .collect::<Option<Vec<_>>>();
    let Some(kinds) = kinds else {
        crate::litert::fall_back(
            &callee.label(),
            "an output of unknown rank or of a type rxt-tf lacks",
        )?;
        return Ok(None);
    };
    match super::litert_call::call(callee, &inputs, &kinds)? {
        crate::litert::Outcome::Ran(outputs) => Ok(Some(outputs)),
        crate::litert::Outcome::Fallback(reason) => {
            crate::litert::fall_back(&callee.label(), &reason)?;
            Ok(None)
        }
    }
}

/// The `config_proto` this thread's eager function calls pass now, as
/// Python's `context.function_call_options` gives it. TensorFlow remakes
/// that object when the configuration changes (`set_jit`, optimizer
/// options, soft placement): the bytes are kept per thread for the object
/// they were read from, and read again when it is another.
fn thread_call_config(py: Python<'_>, context: &BoundContext) -> Result<std::rc::Rc<[u8]>> {
    type Seen = Option<(Py<PyAny>, std::rc::Rc<[u8]>)>;
    thread_local! {
        static SEEN: std::cell::RefCell<Seen> = const { std::cell::RefCell::new(None) };
    }
    let python = |err: PyErr| Error::python(py, "reading the function call options", &err);
    let python_context = context.python_context(py);
    let current = python_context
        .getattr(pyo3::intern!(py, "_thread_local_data"))
        .and_then(|local| local.getattr(pyo3::intern!(py, "function_call_options")))
        .map_err(python)?;
    let known = SEEN.with_borrow(|seen| match seen {
        Some((options, bytes)) if options.is(&current) => Some(std::rc::Rc::clone(bytes)),
        _ => None,
    });
    if let Some(bytes) = known {
        return Ok(bytes);
    }
    // Made on first use (and after a change) by the context's property.
    let options = python_context
        .getattr(pyo3::intern!(py, "function_call_options"))
        .map_err(python)?;
    let bytes: Vec<u8> = options
        .call_method0(pyo3::intern!(py, "as_attrs"))
        .and_then(|attrs| attrs.get_item("config_proto"))
        .and_then(|config| config.extract())
        .map_err(python)?;
    let bytes: std::rc::Rc<[u8]> = bytes.into();
    let kept = std::rc::Rc::clone(&bytes);
    // Dropped outside the borrow: releasing a Python object may run code.
    let previous = SEEN.with_borrow_mut(|seen| seen.replace((options.unbind(), kept)));
    drop(previous);
    Ok(bytes)
}

/// Checks the tensor behind argument `position` against its `spec`.
fn check_argument(
    position: usize,
    spec: super::Spec,
    handle: &OwnedHandle,
    status: &Status,
) -> Result<()> {
    if handle.dtype() != spec.dtype {
        return Err(Error::FunctionArguments {
            message: format!(
                "input {position}: expected a {} tensor, got a {} tensor",
                spec.dtype_name(),
                crate::sys::dtype_name(handle.dtype())
            ),
        });
    }
    let Some(rank) = spec.rank else {
        return Ok(());
    };
    let got = handle.rank(status, CALL)?;
    if got != i64::from(rank) {
        return Err(Error::FunctionShapes {
            message: format!("input {position}: expected a tensor of rank {rank}, got rank {got}"),
        });
    }
    Ok(())
}

impl Function {
    /// The Python object it calls: a `ConcreteFunction` (the first, of a
    /// function traced once per pattern of `None` arguments).
    pub(crate) fn concrete<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.variants[0].callee.node._keep.bind(py).clone()
    }
}
