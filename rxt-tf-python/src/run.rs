//! Running a concrete function natively and packing its outputs, or saying
//! why TensorFlow must run the call instead: what `rxt_tf.function` and
//! `rxt_tf.Predictor` share.

use pyo3::prelude::*;
use rxt_tf::__private::CallMode;

use crate::outputs::Template;
use crate::stats::{self, Fallback};

/// The packed outputs of `function` on `tensors` run as `mode` says, or
/// why the call must go through TensorFlow (counted by the caller): a
/// gradient tape or forward accumulator records on this thread, a tensor
/// sits on another device (TensorFlow copies it, rxt-tf does not), or
/// execution is asynchronous.
pub(crate) fn native<'py>(
    py: Python<'py>,
    function: &rxt_tf::Function,
    tensors: &[Bound<'py, PyAny>],
    mode: CallMode,
    outputs: &Template,
) -> PyResult<Result<Bound<'py, PyAny>, Fallback>> {
    match rxt_tf::__private::call_python(function, py, tensors, mode) {
        Ok(results) => {
            stats::native();
            outputs.pack(py, &results).map(Ok)
        }
        Err(rxt_tf::Error::WatchedByTape) => Ok(Err(Fallback::Tape)),
        Err(rxt_tf::Error::Device { .. }) => Ok(Err(Fallback::Device)),
        Err(rxt_tf::Error::AsyncContext) => Ok(Err(Fallback::NotEager)),
        Err(err) => Err(err.into()),
    }
}
