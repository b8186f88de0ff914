//! Calling TensorFlow functions from Rust: a `Predictor` holding a Keras
//! model (or any `tf.function`, concrete function or SavedModel signature)
//! as an `rxt_tf::Function`, and the forms the tests call it in.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rxt_tf::fusion::Scope;
use rxt_tf::{tf, Function, TensorF32Cpu1D, TensorF32Cpu2D, TensorI32Cpu2D};

/// A model called from Rust at the cost of one TensorFlow call (or, with
/// `backend="litert"`, one LiteRT call).
#[pyclass(frozen)]
pub struct Predictor {
    model: Function,
    /// Calls run in a litert scope.
    litert: bool,
}

#[pymethods]
impl Predictor {
    /// Holds `model`: a Keras model, a `tf.function`, a concrete function or
    /// a SavedModel signature taking and returning one float32 matrix;
    /// `backend` is `"tensorflow"` (the default) or `"litert"`.
    #[new]
    #[pyo3(signature = (model, backend = "tensorflow"))]
    fn new(model: Function, backend: &str) -> PyResult<Self> {
        let litert = match backend {
            "tensorflow" => false,
            "litert" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "backend is \"tensorflow\" or \"litert\", not {other:?}"
                )))
            }
        };
        Ok(Predictor { model, litert })
    }

    /// The model's output for `x`.
    fn __call__(&self, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        let _scope = self.litert.then(Scope::litert);
        self.model.call((&x,))
    }

    /// The model's output for `x`, `calls` times in a Rust loop (the
    /// per-call cost without Python's).
    fn repeat(&self, py: Python<'_>, x: TensorF32Cpu2D, calls: usize) -> rxt_tf::Result<()> {
        py.detach(|| {
            let _scope = self.litert.then(Scope::litert);
            for _ in 0..calls {
                let _: TensorF32Cpu2D = self.model.call((&x,))?;
            }
            Ok(())
        })
    }

    /// The model's probabilities for `x`, and each row's arg-max, with the
    /// call between `tf!` ops of one fused body.
    #[rxt_tf::inference]
    fn scaled(&self, x: TensorF32Cpu2D, scale: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
        let scaled = tf!(x * scale)?;
        let y: TensorF32Cpu2D = self.model.call((&scaled,))?;
        tf!(y * 2.0)
    }
}

/// `f(x)` for a function of one float32 matrix to one.
#[pyfunction]
pub fn call_one(f: Function, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    f.call((&x,))
}

/// `f(a, b)` for a function of two float32 matrices to two (flattened
/// order: a dict's values by sorted key).
#[pyfunction]
pub fn call_two(
    f: Function,
    a: TensorF32Cpu2D,
    b: TensorF32Cpu2D,
) -> rxt_tf::Result<(TensorF32Cpu2D, TensorF32Cpu2D)> {
    f.call((&a, &b))
}

/// `f(x, mask)` for a function of a float32 matrix and an optional one
/// (Python's `None` for `None`), traced once per presence of the mask.
#[pyfunction]
#[pyo3(signature = (f, x, mask=None))]
pub fn call_masked(
    f: Function,
    x: TensorF32Cpu2D,
    mask: Option<TensorF32Cpu2D>,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    f.call((&x, mask.as_ref()))
}

/// `f(x)` taken as a pair of matrices (a wrong-output case for one).
#[pyfunction]
pub fn call_one_as_pair(
    f: Function,
    x: TensorF32Cpu2D,
) -> rxt_tf::Result<(TensorF32Cpu2D, TensorF32Cpu2D)> {
    f.call((&x,))
}

/// `f(x)` taken as an int32 matrix (a wrong-output case for float32).
#[pyfunction]
pub fn call_one_as_int(f: Function, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    f.call((&x,))
}

/// `f(x)` taken as a vector (a wrong-output case for a matrix).
#[pyfunction]
pub fn call_one_as_vector(f: Function, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    f.call((&x,))
}

/// `f(x)` on a vector (a wrong-input case for a matrix).
#[pyfunction]
pub fn call_on_vector(f: Function, x: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    f.call((&x,))
}

/// `f(x)` on an int32 matrix (a wrong-input case for float32).
#[pyfunction]
pub fn call_on_int(f: Function, x: TensorI32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    f.call((&x,))
}

/// `f(x)` from `threads` threads that never held the GIL, `calls` times
/// each; the results, read in Rust, must all equal the first call's.
#[pyfunction]
pub fn call_in_threads(
    py: Python<'_>,
    f: Function,
    x: TensorF32Cpu2D,
    threads: usize,
    calls: usize,
) -> rxt_tf::Result<usize> {
    let expected = f.call::<_, TensorF32Cpu2D>((&x,))?.to_vec()?;
    py.detach(|| {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| -> rxt_tf::Result<usize> {
                        let mut same = 0;
                        for _ in 0..calls {
                            let y: TensorF32Cpu2D = f.call((&x,))?;
                            same += usize::from(y.to_vec()? == expected);
                        }
                        Ok(same)
                    })
                })
                .collect();
            let mut same = 0;
            for worker in workers {
                same += worker.join().unwrap_or(Ok(0))?;
            }
            Ok(same)
        })
    })
}

/// `relu(x @ w + b)`: the tiny body of the litert benchmark, which the two
/// functions below run in their scopes.
fn dense_body(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let y = tf!(matmul(x, w))?;
    let z = tf!(y + b)?;
    tf!(relu(z))
}

/// `relu(x @ w + b)`, fused on TensorFlow.
#[pyfunction]
#[rxt_tf::inference]
pub fn dense_fused(
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    b: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    dense_body(&x, &w, &b)
}

/// `relu(x @ w + b)` on the litert backend.
#[pyfunction]
#[rxt_tf::inference(backend = "litert")]
pub fn dense_litert(
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    b: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    dense_body(&x, &w, &b)
}
