//! `rxt_tf._native`: the native half of the `rxt_tf` Python package.
//! `rxt_tf.function` and `rxt_tf.Predictor` call TensorFlow functions
//! through rxt-tf's runtime: arguments bound, keyed and flattened, the
//! concrete function run as one `StatefulPartitionedCall`, outputs packed,
//! all in Rust, with no Python frame between the caller and TensorFlow.

mod bind;
mod cache;
mod function;
mod gate;
mod key;
mod outputs;
mod predictor;
mod run;
mod stats;

use pyo3::prelude::*;

/// How a call runs its graph: as the `tf.function` does when `exact`.
fn call_graph(exact: bool) -> rxt_tf::CallGraph {
    if exact {
        rxt_tf::CallGraph::AsTfFunction
    } else {
        rxt_tf::CallGraph::Inlined
    }
}

/// The module `rxt_tf._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<function::Function>()?;
    module.add_class::<predictor::Predictor>()?;
    module.add_function(wrap_pyfunction!(stats::stats, module)?)?;
    module.add_function(wrap_pyfunction!(stats::reset_stats, module)?)?;
    Ok(())
}
