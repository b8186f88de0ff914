//! A hand-written PyO3 extension over rxt-tf's macros: the seed's
//! `inference` chain, a scalar-controlled variant, and each op on its own.

mod functions;
mod models;

use pyo3::prelude::*;
use rxt_tf::{tf, TensorBoolCpu2D, TensorF32Cpu1D, TensorF32Cpu2D, TensorF32Cpu3D, TensorI64Cpu1D};

/// The seed's chain: `reduce_mean(relu(x @ weight) + bias, axis=1)`.
#[pyfunction]
#[rxt_tf::inference]
fn inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    let h = tf!(matmul(x, weight))?;
    let h = tf!(relu(h))?;
    let h = tf!(h + bias)?;
    tf!(reduce_mean(h, axis = 1))
}

/// The seed's E2E shape: `depth` rounds of `x @ weight` through relu (when
/// `use_relu`) or sigmoid, then `+ bias` and the row mean.
#[pyfunction]
#[rxt_tf::inference]
fn deep_inference(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
    depth: usize,
    use_relu: bool,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    let mut h = x;
    for _ in 0..depth {
        let z = tf!(matmul(h, weight))?;
        h = if use_relu {
            tf!(relu(z))?
        } else {
            tf!(sigmoid(z))?
        };
    }
    tf!(reduce_mean(tf!(h + bias)?, axis = 1, keepdims = false))
}

/// Keras's masked softmax, `call(inputs, mask=None)`: with a mask, the
/// masked-out places get a large negative number before the softmax;
/// without one (`None` from Python), the plain softmax.
#[pyfunction]
#[pyo3(signature = (scores, mask = None))]
#[rxt_tf::inference]
fn masked_softmax(
    scores: TensorF32Cpu2D,
    mask: Option<TensorBoolCpu2D>,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    match mask {
        Some(mask) => {
            let keep = tf!(cast(mask, dtype = f32))?;
            let dropped = tf!(1.0 - keep)?;
            let adder = tf!(dropped * -1e9)?;
            tf!(softmax(tf!(scores + adder)?))
        }
        None => tf!(softmax(scores)),
    }
}

/// The rows of `x` whose `mask` is set, zeroed elsewhere, or `None` when no
/// mask is given: an optional result.
#[pyfunction]
#[pyo3(signature = (x, mask = None))]
#[rxt_tf::inference]
fn masked_rows(
    x: TensorF32Cpu2D,
    mask: Option<TensorBoolCpu2D>,
) -> rxt_tf::Result<Option<TensorF32Cpu2D>> {
    let Some(mask) = mask else {
        return Ok(None);
    };
    let zeros = tf!(zeros_like(x))?;
    tf!(where(mask, x, zeros)).map(Some)
}

/// `tf.matmul(a, b)`.
#[pyfunction]
#[rxt_tf::inference]
fn matmul(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(matmul(a, b))
}

/// `tf.nn.relu(x)`.
#[pyfunction]
#[rxt_tf::inference]
fn relu(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(relu(x))
}

/// `tf.nn.sigmoid(x)`.
#[pyfunction]
#[rxt_tf::inference]
fn sigmoid(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(sigmoid(x))
}

/// `a + b` for rank-2 + rank-2.
#[pyfunction]
#[rxt_tf::inference]
fn add_2d_2d(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(a + b)
}

/// `tf.add(a, b)` for rank-1 + rank-1.
#[pyfunction]
#[rxt_tf::inference]
fn add_1d_1d(a: TensorF32Cpu1D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(add(a, b))
}

/// `a + b` for rank-2 + rank-1 (trailing broadcast).
#[pyfunction]
#[rxt_tf::inference]
fn add_2d_1d(a: TensorF32Cpu2D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(a + b)
}

/// `tf.add(a, b)` for rank-1 + rank-2 (trailing broadcast).
#[pyfunction]
#[rxt_tf::inference]
fn add_1d_2d(a: TensorF32Cpu1D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(add(a, b))
}

/// `tf.reduce_mean(x, axis=1)`.
#[pyfunction]
#[rxt_tf::inference]
fn reduce_mean(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reduce_mean(x, axis = 1))
}

/// A classifier head: `softmax(tanh(bias_add(x @ w1, b1)) @ w2 + b2)`.
#[pyfunction]
#[rxt_tf::inference]
fn classifier_head(
    x: TensorF32Cpu2D,
    w1: TensorF32Cpu2D,
    b1: TensorF32Cpu1D,
    w2: TensorF32Cpu2D,
    b2: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let h = tf!(tanh(tf!(bias_add(tf!(matmul(x, w1))?, b1))?))?;
    let logits = tf!(tf!(matmul(h, w2))? + b2)?;
    tf!(softmax(logits))
}

/// A looped MLP: `layers` times `h = relu(h @ w + b)` with one square
/// weight, then log-softmax (10 ops for 3 layers). Each layer count is its
/// own fused trace.
#[pyfunction]
#[rxt_tf::inference]
fn mlp_loop(
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    b: TensorF32Cpu1D,
    layers: u32,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let mut h = x;
    for _ in 0..layers {
        h = tf!(relu(tf!(tf!(matmul(h, w))? + b)?))?;
    }
    tf!(log_softmax(h))
}

/// The classifier head's probabilities and the label of each row.
#[pyfunction]
#[rxt_tf::inference]
fn classify(
    x: TensorF32Cpu2D,
    w1: TensorF32Cpu2D,
    b1: TensorF32Cpu1D,
    w2: TensorF32Cpu2D,
    b2: TensorF32Cpu1D,
) -> rxt_tf::Result<(TensorF32Cpu2D, TensorI64Cpu1D)> {
    let probabilities = classifier_head(x, w1, b1, w2, b2)?;
    let labels = tf!(argmax(probabilities, axis = 1))?;
    Ok((probabilities, labels))
}

/// Layer normalisation over the last axis, with a learned scale and shift.
#[pyfunction]
#[rxt_tf::inference]
fn layer_norm(
    x: TensorF32Cpu2D,
    gamma: TensorF32Cpu1D,
    beta: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let mean = tf!(reduce_mean(x, axis = -1, keepdims = true))?;
    let centered = tf!(x - mean)?;
    let variance = tf!(reduce_mean(
        tf!(square(centered))?,
        axis = -1,
        keepdims = true
    ))?;
    let scaled = tf!(centered * tf!(rsqrt(tf!(variance + 1e-5)?))?)?;
    tf!(tf!(scaled * gamma)? + beta)
}

/// Keras's `Dense` on a sequence: `relu(tf.tensordot(x, kernel, [[2], [0]])
/// + bias)`.
#[pyfunction]
#[rxt_tf::inference]
fn dense_sequence(
    x: TensorF32Cpu3D,
    kernel: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu3D> {
    let h = tf!(tensordot(x, kernel, [[2], [0]]))?;
    tf!(relu(tf!(h + bias)?))
}

/// A two-layer perceptron whose weights live in Rust: built once from NumPy
/// arrays (copied into tensors), then called many times on `tf.Tensor`
/// inputs. `predict` is `softmax(relu(x @ w1 + b1) @ w2 + b2)`.
#[pyclass(frozen)]
struct Mlp {
    w1: TensorF32Cpu2D,
    b1: TensorF32Cpu1D,
    w2: TensorF32Cpu2D,
    b2: TensorF32Cpu1D,
}

#[pymethods]
impl Mlp {
    /// Copies the weights (2-D `w1`, `w2` and 1-D `b1`, `b2`, any numbers
    /// Python can give as floats) into tensors held by the model.
    #[new]
    fn new(
        py: Python<'_>,
        w1: Vec<Vec<f32>>,
        b1: Vec<f32>,
        w2: Vec<Vec<f32>>,
        b2: Vec<f32>,
    ) -> rxt_tf::Result<Self> {
        Ok(Mlp {
            w1: matrix(py, &w1)?,
            b1: TensorF32Cpu1D::from_slice(py, &b1, [b1.len()])?,
            w2: matrix(py, &w2)?,
            b2: TensorF32Cpu1D::from_slice(py, &b2, [b2.len()])?,
        })
    }

    /// Class probabilities for each row of `x`.
    #[rxt_tf::inference]
    fn predict(&self, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        let h = tf!(relu(tf!(bias_add(tf!(matmul(x, self.w1))?, self.b1))?))?;
        tf!(softmax(tf!(bias_add(tf!(matmul(h, self.w2))?, self.b2))?))
    }

    /// The most likely class of each row of `x`, with its probabilities.
    #[rxt_tf::inference]
    fn classify(&self, x: TensorF32Cpu2D) -> rxt_tf::Result<(TensorF32Cpu2D, TensorI64Cpu1D)> {
        let probabilities = self.predict(x)?;
        let labels = tf!(argmax(probabilities, axis = 1))?;
        Ok((probabilities, labels))
    }

    /// The first layer's weights, read back from the tensor (row-major).
    fn first_weights(&self) -> rxt_tf::Result<Vec<f32>> {
        self.w1.to_vec()
    }
}

/// A rank-2 tensor of `rows` (all of one length).
fn matrix(py: Python<'_>, rows: &[Vec<f32>]) -> rxt_tf::Result<TensorF32Cpu2D> {
    let columns = rows.first().map_or(0, Vec::len);
    let data: Vec<f32> = rows.iter().flatten().copied().collect();
    TensorF32Cpu2D::from_slice(py, &data, [rows.len(), columns])
}

/// Benchmark floor: the seed's chain run op by op `iterations` times on
/// tensors extracted once, with no Python boundary inside the loop. Returns
/// the seconds per iteration. Used by `make bench`.
#[pyfunction]
#[rxt_tf::inference(fuse = false)]
fn chain_floor_seconds(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
    iterations: u32,
) -> rxt_tf::Result<f64> {
    let start = std::time::Instant::now();
    for _ in 0..iterations {
        let h = tf!(matmul(x, weight))?;
        let h = tf!(relu(h))?;
        let h = tf!(h + bias)?;
        std::hint::black_box(tf!(reduce_mean(h, axis = 1))?);
    }
    Ok(start.elapsed().as_secs_f64() / f64::from(iterations.max(1)))
}

/// As [`chain_floor_seconds`], each chain one fused call (its result's shape
/// is read, so each iteration runs). Used by `make bench`.
#[pyfunction]
#[rxt_tf::inference]
fn fused_floor_seconds(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
    iterations: u32,
) -> rxt_tf::Result<f64> {
    let start = std::time::Instant::now();
    for _ in 0..iterations {
        // One statement, so only the result is live when it is read.
        let mean = tf!(reduce_mean(
            tf!(tf!(relu(tf!(matmul(x, weight))?))? + bias)?,
            axis = 1
        ))?;
        std::hint::black_box(mean.shape()?);
    }
    Ok(start.elapsed().as_secs_f64() / f64::from(iterations.max(1)))
}

/// Benchmark boundary cost: takes the chain's three arguments and returns
/// `bias`, running no op. Used by `make bench`.
#[pyfunction]
#[rxt_tf::inference]
fn boundary_only(
    x: TensorF32Cpu2D,
    weight: TensorF32Cpu2D,
    bias: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    drop((x, weight));
    Ok(bias)
}

/// The extension module.
#[pymodule]
fn rxt_tf_example(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(inference, m)?)?;
    m.add_function(wrap_pyfunction!(deep_inference, m)?)?;
    m.add_function(wrap_pyfunction!(matmul, m)?)?;
    m.add_function(wrap_pyfunction!(masked_softmax, m)?)?;
    m.add_function(wrap_pyfunction!(masked_rows, m)?)?;
    m.add_function(wrap_pyfunction!(relu, m)?)?;
    m.add_function(wrap_pyfunction!(sigmoid, m)?)?;
    m.add_function(wrap_pyfunction!(add_2d_2d, m)?)?;
    m.add_function(wrap_pyfunction!(add_1d_1d, m)?)?;
    m.add_function(wrap_pyfunction!(add_2d_1d, m)?)?;
    m.add_function(wrap_pyfunction!(add_1d_2d, m)?)?;
    m.add_function(wrap_pyfunction!(reduce_mean, m)?)?;
    m.add_function(wrap_pyfunction!(classifier_head, m)?)?;
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(mlp_loop, m)?)?;
    m.add_function(wrap_pyfunction!(layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(dense_sequence, m)?)?;
    m.add_class::<Mlp>()?;
    m.add_class::<functions::Predictor>()?;
    m.add_function(wrap_pyfunction!(functions::call_one, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_two, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_masked, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_one_as_pair, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_one_as_int, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_one_as_vector, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_on_vector, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_on_int, m)?)?;
    m.add_function(wrap_pyfunction!(functions::call_in_threads, m)?)?;
    m.add_function(wrap_pyfunction!(functions::dense_fused, m)?)?;
    m.add_function(wrap_pyfunction!(functions::dense_litert, m)?)?;
    m.add_class::<models::EncoderBlock>()?;
    m.add_class::<models::SmallCnn>()?;
    m.add_class::<models::TextClassifier>()?;
    m.add_class::<models::Perceptron>()?;
    m.add_function(wrap_pyfunction!(chain_floor_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(fused_floor_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(boundary_only, m)?)?;
    Ok(())
}
