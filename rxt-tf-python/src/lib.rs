//! `rxt_tf._native`: the native half of the `rxt_tf` Python package.
//! `rxt_tf.function` and `rxt_tf.Predictor` call TensorFlow functions
//! through rxt-tf's runtime: arguments bound, keyed and flattened, the
//! concrete function run as one `StatefulPartitionedCall`, outputs packed,
//! all in Rust, with no Python frame between the caller and TensorFlow.

mod bind;
mod cache;
mod eligibility;
mod function;
mod key;
mod outputs;
mod predictor;
mod run;
mod stats;

use pyo3::prelude::*;

/// How a call runs its graph: through LiteRT for `backend="litert"`, else
/// as the `tf.function` does when `exact`, else inlined.
fn call_mode(exact: bool, backend: &str) -> PyResult<rxt_tf::__private::CallMode> {
    match backend {
        // Refused here, not at each call: without LiteRT every call would
        // fall back. The error names the package and its install command.
        "litert" => match rxt_tf::__private::litert::ensure_loaded() {
            Ok(()) => Ok(rxt_tf::__private::CallMode::Litert),
            Err(err) => Err(pyo3::exceptions::PyImportError::new_err(format!(
                "{err} (or `pip install 'rxt-tf[litert]'`)"
            ))),
        },
        "tensorflow" if exact => Ok(rxt_tf::__private::CallMode::AsTfFunction),
        "tensorflow" => Ok(rxt_tf::__private::CallMode::Inlined),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "rxt_tf: backend is \"tensorflow\" or \"litert\", not {other:?}"
        ))),
    }
}

/// The backend a call graph runs on, as `backend=` names it.
fn backend_name(mode: rxt_tf::__private::CallMode) -> &'static str {
    match mode {
        rxt_tf::__private::CallMode::Litert => "litert",
        _ => "tensorflow",
    }
}

/// The module `rxt_tf._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<function::Function>()?;
    module.add_class::<predictor::Predictor>()?;
    module.add_function(wrap_pyfunction!(stats::stats, module)?)?;
    module.add_function(wrap_pyfunction!(stats::reset_stats, module)?)?;
    module.add(
        "LitertFallbackWarning",
        rxt_tf::fusion::litert_fallback_warning(module.py())?,
    )?;
    Ok(())
}
