//! Finding what a Python object calls: its concrete function, the name of
//! that function's definition in the eager context, its signature and its
//! captured inputs (`resolve.py`, run once per object). Each object's
//! result is cached without keeping the object alive: extracting the same
//! model again reuses what was traced.

use std::ffi::CString;
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyWeakrefReference;

use crate::binding::context::BoundContext;
use crate::eager::FunctionNode;
use crate::error::{Error, Result};
use crate::function::{Callee, Spec, Variant};
use crate::python::boundary::share_handle;

/// Objects resolved at most this many at once are remembered (the least
/// recently resolved forgotten first).
const REMEMBERED: usize = 64;

/// A resolved object: a weak reference to it, and what it calls.
type Known = (Py<PyWeakrefReference>, Arc<[Variant]>);

static KNOWN: Mutex<Vec<Known>> = Mutex::new(Vec::new());

/// The number of the next object resolved.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What `obj` calls, resolved once per object (while it lives): one
/// concrete function, or one per pattern of `None` arguments.
pub(crate) fn variants(obj: &Bound<'_, PyAny>) -> Result<Arc<[Variant]>> {
    let py = obj.py();
    let context = BoundContext::current(py)?;
    if let Some(found) = remembered(obj, &context) {
        return Ok(found);
    }
    let callee: Arc<[Variant]> = resolve(obj, &context)?.into();
    // An object that cannot be referenced weakly is resolved at each call.
    if let Ok(weak) = PyWeakrefReference::new(obj) {
        let mut gone = Vec::new();
        {
            let mut known = KNOWN.lock().unwrap_or_else(PoisonError::into_inner);
            // This object's entry of another context, if any, is replaced.
            gone.extend(take_where(&mut known, |found| found.is(obj)));
            if known.len() >= REMEMBERED {
                gone.push(known.remove(0));
            }
            known.push((weak.unbind(), Arc::clone(&callee)));
        }
        // Released with the cache unlocked: a last reference to a concrete
        // function runs Python code, which may let another thread in.
        drop(gone);
    }
    Ok(callee)
}

/// Takes out the entries whose object is gone or matches `same`.
fn take_where(known: &mut Vec<Known>, same: impl Fn(&Bound<'_, PyAny>) -> bool) -> Vec<Known> {
    let mut taken = Vec::new();
    let mut index = 0;
    while let Some((weak, _)) = known.get(index) {
        let stale = Python::attach(|py| weak.bind(py).upgrade().is_none_or(|found| same(&found)));
        if stale {
            taken.push(known.remove(index));
        } else {
            index += 1;
        }
    }
    taken
}

/// What `obj` was resolved to before, in this context; entries of objects
/// that are gone are let go of on the way.
fn remembered(obj: &Bound<'_, PyAny>, context: &Arc<BoundContext>) -> Option<Arc<[Variant]>> {
    let py = obj.py();
    let (found, gone) = {
        let mut known = KNOWN.lock().unwrap_or_else(PoisonError::into_inner);
        let gone = take_where(&mut known, |_| false);
        let found = known
            .iter()
            .find(|(weak, variants)| {
                weak.bind(py).upgrade().is_some_and(|found| found.is(obj))
                    && variants
                        .iter()
                        .all(|variant| Arc::ptr_eq(&variant.callee.context, context))
            })
            .map(|(_, variants)| Arc::clone(variants));
        (found, gone)
    };
    drop(gone);
    found
}

/// The name of the resolving step in errors.
const STEP: &str = "resolving a TensorFlow function";

/// Runs the resolver on `obj`: each of its concrete functions.
fn resolve(obj: &Bound<'_, PyAny>, context: &Arc<BoundContext>) -> Result<Vec<Variant>> {
    let py = obj.py();
    let resolved = crate::python::module::Private::Resolver
        .module(py)
        .and_then(|module| module.call_method1("resolve", (obj,)))
        .map_err(|err| refused(py, &err))?;
    type Described<'py> = (
        Option<Vec<bool>>,
        Bound<'py, PyAny>,
        Option<Bound<'py, PyAny>>,
    );
    let variants: Vec<Described<'_>> = resolved
        .extract()
        .map_err(|err| Error::python(py, STEP, &err))?;
    if variants.is_empty() {
        return Err(Error::internal(
            STEP,
            "the resolver found no concrete function",
        ));
    }
    variants
        .into_iter()
        .map(|(present, described, retrace)| {
            let mut callee = callee(&described, Arc::clone(context))?;
            callee.retrace = retrace.map(Bound::unbind);
            Ok(Variant { present, callee })
        })
        .collect()
}

/// One concrete function as the resolver describes it; the handles of its
/// captures taken.
fn callee(resolved: &Bound<'_, PyAny>, context: Arc<BoundContext>) -> Result<Callee> {
    let py = resolved.py();
    type Raw<'py> = (
        Bound<'py, PyAny>,
        String,
        Vec<(i32, i64)>,
        Vec<(i32, i64)>,
        Vec<Bound<'py, PyAny>>,
        bool,
        bool,
    );
    let (function, name, inputs, outputs, captured, trainable, replayable): Raw<'_> = resolved
        .extract()
        .map_err(|err| Error::python(py, STEP, &err))?;
    let captured = captured
        .iter()
        .map(|capture| share_handle(capture, &context).map(Arc::new))
        .collect::<Result<Vec<_>>>()?;
    let name = CString::new(name).map_err(|_| Error::Function {
        message: "the function's name holds a NUL byte".to_owned(),
    })?;
    let spec = |(dtype, rank): (i32, i64)| Spec {
        dtype,
        rank: u8::try_from(rank).ok(),
    };
    let inputs: Vec<Spec> = inputs.into_iter().map(spec).collect();
    let outputs: Vec<Spec> = outputs.into_iter().map(spec).collect();
    let mut input_types: Vec<i32> = inputs.iter().map(|spec| spec.dtype).collect();
    input_types.extend(captured.iter().map(|handle| handle.dtype()));
    let node = FunctionNode {
        _keep: function.unbind(),
        name,
        input_types,
        output_types: outputs.iter().map(|spec| spec.dtype).collect(),
        context: Arc::downgrade(&context),
        used_wrapper: std::sync::atomic::AtomicBool::new(false),
        may_call_back: !replayable,
    };
    Ok(Callee {
        node: Arc::new(node),
        id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        joins_trace: replayable && outputs.len() == 1 && outputs.iter().all(|o| o.rank.is_some()),
        inputs,
        outputs,
        captured,
        trainable,
        context,
        litert: Default::default(),
        retrace: None,
        last_answer: Default::default(),
    })
}

/// The resolver's `TypeError` as rxt-tf's (its message is rxt-tf's own);
/// any other failure as a failed step.
fn refused(py: Python<'_>, err: &PyErr) -> Error {
    if err.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
        let message = err.value(py).to_string();
        let message = message.strip_prefix("rxt-tf: ").unwrap_or(&message);
        return Error::NotFunction {
            message: message.to_owned(),
        };
    }
    Error::python(py, "resolving a TensorFlow function", err)
}
