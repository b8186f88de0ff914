//! The Python boundary: extracting tensors from EagerTensors without a copy,
//! and materialising them back as EagerTensors, ownership transferred.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::binding::checks;
use crate::binding::context::BoundContext;
use crate::error::{Error, Result};
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use rxt_tf_spec::TensorKind;

use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType, Untyped};

const EXTRACT: &str = "extract";

/// Takes an owned reference to the tensor behind `obj`, checked to be an
/// exact EagerTensor of `kind` (element type and rank), on `CPU:0`, and not
/// watched by a gradient tape.
pub(crate) fn extract(obj: &Bound<'_, PyAny>, kind: TensorKind) -> Result<Untyped> {
    let py = obj.py();
    let context = BoundContext::current(py)?;
    extract_on(obj, kind, context)
}

/// As [`extract`], on a context the caller has already bound.
pub(crate) fn extract_on(
    obj: &Bound<'_, PyAny>,
    kind: TensorKind,
    context: Arc<BoundContext>,
) -> Result<Untyped> {
    let wheel = context.wheel();
    let api = wheel.api();
    // SAFETY: the GIL is held (`obj` is bound) and `obj` is a live object.
    if !unsafe { (api.EagerTensor_CheckExact)(obj.as_ptr()) } {
        return Err(Error::NotEagerTensor {
            type_name: python_type_name(obj),
        });
    }
    ensure_not_watched(obj, wheel)?;
    // SAFETY: `obj` is an exact EagerTensor and the GIL is held; the returned
    // handle is borrowed from `obj`, which outlives this function.
    let borrowed = unsafe { (api.EagerTensor_Handle)(obj.as_ptr()) };
    if borrowed.is_null() {
        return Err(crate::safe::handle::null_handle(EXTRACT));
    }
    let status = Status::new(api, EXTRACT)?;
    // SAFETY: `borrowed` is live while `obj` is.
    let handle = unsafe { OwnedHandle::copy_sharing(api, borrowed, &status, EXTRACT) }?;
    checks::dtype(kind.dtype, handle.dtype())?;
    checks::rank(usize::from(kind.rank), handle.rank(&status, EXTRACT)?)?;
    handle.with_device(&status, EXTRACT, checks::device)??;
    Ok(Untyped::ready(handle, context))
}

/// A new reference to the tensor behind `obj`, an exact EagerTensor of
/// any element type (a variable's resource handle, say) on `CPU:0`.
pub(crate) fn share_handle(obj: &Bound<'_, PyAny>, context: &BoundContext) -> Result<OwnedHandle> {
    let api = context.wheel().api();
    // SAFETY: the GIL is held (`obj` is bound) and `obj` is a live object.
    if !unsafe { (api.EagerTensor_CheckExact)(obj.as_ptr()) } {
        return Err(Error::NotEagerTensor {
            type_name: python_type_name(obj),
        });
    }
    // SAFETY: `obj` is an exact EagerTensor and the GIL is held; the
    // returned handle is borrowed from `obj`, which outlives this function.
    let borrowed = unsafe { (api.EagerTensor_Handle)(obj.as_ptr()) };
    if borrowed.is_null() {
        return Err(crate::safe::handle::null_handle(EXTRACT));
    }
    let status = Status::new(api, EXTRACT)?;
    // SAFETY: `borrowed` is live while `obj` is.
    let handle = unsafe { OwnedHandle::copy_sharing(api, borrowed, &status, EXTRACT) }?;
    handle.with_device(&status, EXTRACT, checks::device)??;
    Ok(handle)
}

/// Fails closed if an active `tf.GradientTape` or
/// `tf.autodiff.ForwardAccumulator` watches `obj`: running the op natively
/// would silently drop its gradient or its JVP. Asks the wheel's own
/// `TFE_Py_TapeSetPossibleGradientTypes` (what `record.possible_gradient_types`
/// calls), which sees both kinds, after `TFE_Py_TapeSetIsEmpty`, which says
/// without allocating when neither is active.
fn ensure_not_watched(obj: &Bound<'_, PyAny>, wheel: &crate::binding::wheel::Wheel) -> Result<()> {
    let py = obj.py();
    let api = wheel.api();
    let python = |err: PyErr| Error::python(py, "checking for an active gradient tape", &err);
    // Fast path: no tape and no accumulator on this thread (or recording
    // stopped), answered without allocating.
    // SAFETY: the GIL is held; the function takes no arguments.
    let empty = unsafe { (api.TFE_Py_TapeSetIsEmpty)() };
    // SAFETY: `empty` is the function's new reference to a bool, or NULL
    // with an exception.
    if unsafe { owned_bool(py, empty) }.map_err(python)? {
        return Ok(());
    }
    let inputs = PyTuple::new(py, [obj]).map_err(python)?;
    // SAFETY: the GIL is held and `inputs` is a live tuple of tensors.
    let kinds = unsafe { (api.TFE_Py_TapeSetPossibleGradientTypes)(inputs.as_ptr()) };
    // SAFETY: `kinds` is the function's new reference (an int: 0 when nothing
    // watches the inputs), or NULL with an exception.
    if unsafe { owned_bool(py, kinds) }.map_err(python)? {
        return Err(Error::WatchedByTape);
    }
    Ok(())
}

/// Whether a gradient tape or forward accumulator is active (recording) on
/// this thread, as TensorFlow's `TFE_Py_TapeSetIsEmpty` says.
pub(crate) fn tape_active(py: Python<'_>, wheel: &crate::binding::wheel::Wheel) -> Result<bool> {
    let python = |err: PyErr| Error::python(py, "checking for an active gradient tape", &err);
    // SAFETY: the GIL is held; the function takes no arguments.
    let empty = unsafe { (wheel.api().TFE_Py_TapeSetIsEmpty)() };
    // SAFETY: `empty` is the function's new reference to a bool, or NULL
    // with an exception.
    let empty = unsafe { owned_bool(py, empty) }.map_err(python)?;
    Ok(!empty)
}

/// The truth of `raw`, a reference returned by a wheel function; the
/// reference is released.
///
/// # Safety
/// `raw` must be a new (owned) reference, or NULL with a Python exception set.
unsafe fn owned_bool(py: Python<'_>, raw: *mut pyo3::ffi::PyObject) -> PyResult<bool> {
    // SAFETY: the GIL is held (`py`); `raw` is as the caller promised.
    unsafe { Bound::from_owned_ptr_or_err(py, raw) }?.is_truthy()
}

/// `module.QualName` of `obj`'s type (just the name for builtins).
fn python_type_name(obj: &Bound<'_, PyAny>) -> String {
    let ty = obj.get_type();
    let name = ty
        .qualname()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| String::from("<unknown type>"));
    match ty.module().map(|m| m.to_string()) {
        Ok(module) if module != "builtins" => format!("{module}.{name}"),
        _ => name,
    }
}

/// Hands `tensor`'s handle to a new EagerTensor.
pub(crate) fn materialize<'py>(py: Python<'py>, tensor: Untyped) -> PyResult<Bound<'py, PyAny>> {
    let api = tensor.context.wheel().api();
    let raw = tensor.into_handle()?.into_raw();
    // SAFETY: the GIL is held; `raw` is an owned handle whose ownership
    // `EagerTensorFromHandle` takes when it succeeds (is_packed = false).
    let obj = unsafe { (api.EagerTensorFromHandle)(raw, false) };
    if obj.is_null() {
        // On failure the bridge has not taken the handle: free it here.
        // SAFETY: `raw` is still owned by us and is deleted once.
        unsafe { (api.TFE_DeleteTensorHandle)(raw) };
    }
    // SAFETY: the bridge returns a new reference, or NULL with an exception set.
    unsafe { Bound::from_owned_ptr_or_err(py, obj) }
}

impl<'a, 'py, T: Element, const R: usize> FromPyObject<'a, 'py> for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    type Error = Error;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> Result<Self> {
        extract(&obj, <Self as TensorType>::KIND).map(Self::from_core)
    }
}

impl<'py, T: Element, const R: usize> IntoPyObject<'py> for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        materialize(py, self.core)
    }
}
