//! `rxt_tf.function`'s native half: a call bound, keyed and looked up in
//! Rust, its concrete function run as one `StatefulPartitionedCall` through
//! `rxt_tf::Function`, its outputs packed as `tf.function` returns them.
//! TensorFlow's own function is asked for a concrete function once per key,
//! and runs the call itself where rxt-tf must not (see `eligibility`).

use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use rxt_tf::__private::CallMode;

use crate::bind::Parameters;
use crate::cache::Lru;
use crate::key::{walk, KeyPart};
use crate::outputs::Template;
use crate::stats::{self, Fallback};

/// What calls of one key run.
pub(crate) enum Entry {
    /// The concrete function, called natively.
    Native {
        function: rxt_tf::Function,
        outputs: Template,
    },
    /// Always TensorFlow's own function, for this reason.
    Python(Fallback),
}

/// A Python function traced by `tf.function` and called through rxt-tf.
#[pyclass(frozen, subclass, module = "rxt_tf._native")]
pub(crate) struct Function {
    /// The `tf.function` of the Python function.
    tf_function: Py<PyAny>,
    parameters: Parameters,
    /// `rxt_tf._trace.trace`.
    tracer: Py<PyAny>,
    cache: Mutex<Lru<Vec<KeyPart>, Arc<Entry>>>,
    /// How each call runs.
    mode: CallMode,
}

#[pymethods]
impl Function {
    /// Wraps `tf_function`, whose Python function takes `parameters`
    /// (`rxt_tf._trace.parameters`); `tracer` is `rxt_tf._trace.trace`;
    /// at most `capacity` keys are kept; `exact` keeps the `tf.function`'s
    /// results bit for bit (inlined where proven the same graph, else by
    /// name), else always inlined;
    /// `backend="litert"` runs it through LiteRT.
    #[new]
    #[pyo3(signature = (tf_function, parameters, tracer, capacity, exact, backend = "tensorflow"))]
    fn new(
        tf_function: Py<PyAny>,
        parameters: &Bound<'_, PyAny>,
        tracer: Py<PyAny>,
        capacity: usize,
        exact: bool,
        backend: &str,
    ) -> PyResult<Self> {
        Ok(Function {
            tf_function,
            parameters: Parameters::from_python(parameters)?,
            tracer,
            cache: Mutex::new(Lru::new(capacity)),
            mode: crate::call_mode(exact, backend)?,
        })
    }

    /// Calls the function: natively on a key seen before, after asking
    /// `tf.function` for its concrete function on a new key, and through
    /// `tf.function` itself where rxt-tf must not run it.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(why) = crate::eligibility::refusal(py)? {
            return self.through_tensorflow(py, why, args, kwargs);
        }
        let Some(values) = self.parameters.bind(args, kwargs)? else {
            return self.through_tensorflow(py, Fallback::Binding, args, kwargs);
        };
        let eager_tensor = crate::eligibility::tf_objects(py)?.eager_tensor.bind(py);
        let Some(walked) = walk(&values, eager_tensor)? else {
            return self.through_tensorflow(py, Fallback::Argument, args, kwargs);
        };
        let found = self.lock().get(&walked.key);
        let entry = match found {
            Some(entry) => entry,
            None => {
                let entry = Arc::new(self.trace(py, args, kwargs, &walked.tensors)?);
                let evicted = self.lock().insert(walked.key, Arc::clone(&entry));
                // Dropped with the cache unlocked: a concrete function's last
                // reference runs Python code.
                drop(evicted);
                entry
            }
        };
        match &*entry {
            Entry::Native { function, outputs } => {
                match crate::run::native(py, function, &walked.tensors, self.mode, outputs)? {
                    Ok(packed) => Ok(packed),
                    Err(why) => self.through_tensorflow(py, why, args, kwargs),
                }
            }
            Entry::Python(why) => self.through_tensorflow(py, *why, args, kwargs),
        }
    }

    /// The `tf.function` it calls when it must not run natively.
    #[getter]
    fn tf_function(&self, py: Python<'_>) -> Py<PyAny> {
        self.tf_function.clone_ref(py)
    }

    /// Whether calls run as the `tf.function` does, bit for bit.
    #[getter]
    fn exact(&self) -> bool {
        self.mode == CallMode::AsTfFunction
    }

    /// The backend calls run on: `"tensorflow"` or `"litert"`.
    #[getter]
    fn backend(&self) -> &'static str {
        crate::backend_name(self.mode)
    }

    /// The number of keys in its cache.
    fn cache_size(&self) -> usize {
        self.lock().len()
    }
}

impl Function {
    fn lock(&self) -> std::sync::MutexGuard<'_, Lru<Vec<KeyPart>, Arc<Entry>>> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The entry of a new key: `tf.function`'s concrete function for these
    /// arguments (traced now if it must be; an exception while tracing
    /// surfaces unchanged), if rxt-tf can call it with `tensors`.
    fn trace<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
        tensors: &[Bound<'py, PyAny>],
    ) -> PyResult<Entry> {
        stats::trace();
        let kwargs = kwargs.cloned().unwrap_or_else(|| PyDict::new(py));
        let tensors = PyList::new(py, tensors)?;
        let traced = self
            .tracer
            .call1(py, (self.tf_function.bind(py), args, kwargs, tensors))?;
        let (concrete, outputs): (Bound<'py, PyAny>, Bound<'py, PyAny>) = traced.extract(py)?;
        if outputs.is_none() {
            return Ok(Entry::Python(Fallback::Signature));
        }
        let function = match concrete.extract::<rxt_tf::Function>() {
            Ok(function) => function,
            // A definition rxt-tf cannot call: always TensorFlow's.
            Err(rxt_tf::Error::NotFunction { .. }) => {
                return Ok(Entry::Python(Fallback::Signature))
            }
            Err(err) => return Err(err.into()),
        };
        Ok(Entry::Native {
            function,
            outputs: Template::from_python(&outputs)?,
        })
    }

    fn through_tensorflow<'py>(
        &self,
        py: Python<'py>,
        why: Fallback,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        stats::fallback(why);
        self.tf_function.bind(py).call(args, kwargs)
    }
}
