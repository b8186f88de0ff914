//! `rxt_tf.Predictor`: one TensorFlow function (a Keras model or layer, a
//! `tf.function` with a signature, a concrete function, a SavedModel
//! signature) called through `rxt_tf::Function` with its inputs, its
//! outputs packed as its Python function returns them.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::key::tensors;
use crate::outputs::Template;
use crate::stats;

/// A model or signature called at the cost of one TensorFlow call.
#[pyclass(frozen, module = "rxt_tf._native")]
pub(crate) struct Predictor {
    function: rxt_tf::Function,
    outputs: Template,
    /// The names its inputs may be given by, in input order.
    names: Vec<String>,
    /// How each call runs.
    mode: rxt_tf::__private::CallMode,
}

#[pymethods]
impl Predictor {
    /// Resolves `target` once; `exact` keeps the results of the function's
    /// own eager call bit for bit (inlined where proven the same graph,
    /// else by name), else always inlined;
    /// `backend="litert"` runs it through LiteRT.
    #[new]
    #[pyo3(signature = (target, *, exact = true, backend = "tensorflow"))]
    fn new(target: &Bound<'_, PyAny>, exact: bool, backend: &str) -> PyResult<Self> {
        let mode = crate::call_mode(exact, backend)?;
        let py = target.py();
        let function: rxt_tf::Function = target.extract()?;
        let describe = py.import("rxt_tf._trace")?.getattr("describe")?;
        let described = describe.call1((rxt_tf::__private::concrete(&function, py),))?;
        let (outputs, names): (Bound<'_, PyAny>, Vec<String>) = described.extract()?;
        Ok(Predictor {
            outputs: Template::from_python(&outputs)?,
            function,
            names,
            mode,
        })
    }

    /// Runs it on its inputs: tensors given positionally in input order
    /// (or as one list or tuple), or by name.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(why) = crate::eligibility::refusal(py)? {
            stats::fallback(why);
            return rxt_tf::__private::concrete(&self.function, py).call(args, kwargs);
        }
        let mut values: Vec<Bound<'py, PyAny>> = args.iter().collect();
        if let Some(kwargs) = kwargs {
            if !values.is_empty() {
                return Err(PyTypeError::new_err(
                    "rxt_tf.Predictor: give the inputs positionally or by name, not both",
                ));
            }
            for name in &self.names {
                if let Some(value) = kwargs.get_item(name)? {
                    values.push(value);
                }
            }
            if values.len() != kwargs.len() {
                return Err(PyTypeError::new_err(format!(
                    "rxt_tf.Predictor: the inputs are named {:?}",
                    self.names
                )));
            }
        }
        let eager_tensor = crate::eligibility::tf_objects(py)?.eager_tensor.bind(py);
        // Tensors, or lists and tuples of them (a dict's order would be its
        // sorted keys, not the inputs' names: given by name instead).
        let tensors = tensors(&values, eager_tensor)?.ok_or_else(|| {
            PyTypeError::new_err(
                "rxt_tf.Predictor: every input must be an eager tf.Tensor (or a list or \
                 tuple of them)",
            )
        })?;
        match crate::run::native(py, &self.function, &tensors, self.mode, &self.outputs)? {
            Ok(packed) => Ok(packed),
            Err(why) => {
                stats::fallback(why);
                rxt_tf::__private::concrete(&self.function, py).call(args, kwargs)
            }
        }
    }
}
