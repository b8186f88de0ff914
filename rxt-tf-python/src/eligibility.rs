//! Whether a call may run natively: Python's default eager context on this
//! thread (executing eagerly, no device scope), functions not forced to run
//! eagerly. A recording gradient tape or forward accumulator is refused by
//! the native call itself (`run`), which checks it anyway. Each is read
//! from TensorFlow's own state, in C (the thread's eager state from the
//! wheel's record, through the runtime) or as a module attribute: no
//! Python frame runs.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyModule, PyType};

use crate::stats::Fallback;

/// TensorFlow's objects the eligibility check reads, found once.
pub(crate) struct TfObjects {
    /// `tensorflow.python.eager.context`: its `_context` global.
    context: Py<PyModule>,
    /// `context.context`, which makes the context when there is none yet.
    make_context: Py<PyAny>,
    /// `eager_function_run`: its `RUN_FUNCTIONS_EAGERLY` global.
    eager_function_run: Py<PyModule>,
    /// The exact type of an eager tensor.
    pub(crate) eager_tensor: Py<PyType>,
}

static TF_OBJECTS: PyOnceLock<TfObjects> = PyOnceLock::new();

/// TensorFlow's objects, imported on first use.
pub(crate) fn tf_objects(py: Python<'_>) -> PyResult<&TfObjects> {
    TF_OBJECTS.get_or_try_init(py, || {
        let context = py.import("tensorflow.python.eager.context")?;
        let eager_function_run =
            py.import("tensorflow.python.eager.polymorphic_function.eager_function_run")?;
        let ops = py.import("tensorflow.python.framework.ops")?;
        Ok(TfObjects {
            make_context: context.getattr("context")?.unbind(),
            context: context.unbind(),
            eager_function_run: eager_function_run.unbind(),
            eager_tensor: ops.getattr("EagerTensor")?.cast_into::<PyType>()?.unbind(),
        })
    })
}

/// Why this call must go through TensorFlow's own function, if it must.
pub(crate) fn refusal(py: Python<'_>) -> PyResult<Option<Fallback>> {
    let wheel = tf_objects(py)?;
    if wheel
        .eager_function_run
        .bind(py)
        .getattr(pyo3::intern!(py, "RUN_FUNCTIONS_EAGERLY"))?
        .is_truthy()?
    {
        return Ok(Some(Fallback::FunctionsRunEagerly));
    }
    let mut context = wheel
        .context
        .bind(py)
        .getattr(pyo3::intern!(py, "_context"))?;
    if context.is_none() {
        context = wheel.make_context.call0(py)?.into_bound(py);
    }
    let state = match rxt_tf::__private::eager_state(py, &context) {
        Some(state) => state,
        None => python_eager_state(&context)?,
    };
    if !state.is_eager || state.device_scope {
        return Ok(Some(Fallback::NotEager));
    }
    Ok(None)
}

/// This thread's eager state as Python's getters give it (where the
/// runtime cannot read TensorFlow's record itself).
fn python_eager_state(context: &Bound<'_, PyAny>) -> PyResult<rxt_tf::__private::EagerState> {
    let py = context.py();
    let local = context.getattr(pyo3::intern!(py, "_thread_local_data"))?;
    Ok(rxt_tf::__private::EagerState {
        is_eager: local.getattr(pyo3::intern!(py, "is_eager"))?.is_truthy()?,
        device_scope: local
            .getattr(pyo3::intern!(py, "device_name"))?
            .is_truthy()?,
    })
}
