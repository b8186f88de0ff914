//! The op table through the Rust API, on tensors made by Python's eager
//! TensorFlow, compared with eager TensorFlow's own results.

mod common;

use common::{eval, eval_with, tensor1, tensor2, with_python};
use pyo3::prelude::*;
use rxt_tf::__private::BoundContext;
use rxt_tf::{ops, TensorF32Cpu1D};

/// Inputs with every special value: NaN, ±inf, −0.0, large and tiny numbers.
const MATRIX: &str = "tf.constant(np.array([[1.5, -2.0, 0.0, -0.0], [np.nan, 3.25, -np.inf, 7.0], \
                      [np.inf, -1e-30, 1e30, -5.5]], dtype=np.float32))";
const SQUARE: &str = "tf.constant(np.arange(-6, 10, dtype=np.float32).reshape(4, 4) / 3)";
const ROW: &str = "tf.constant(np.array([0.5, -0.0, np.nan, -np.inf], dtype=np.float32))";
const COLUMN: &str = "tf.constant(np.array([2.0, -3.0, 0.25, 1e-7], dtype=np.float32))";

/// Asserts `native` and `eager` are both float32 EagerTensors of one shape,
/// NaN in the same places, equal within 1e-6 elsewhere, with equal signs of zero.
fn assert_same<'py>(py: Python<'py>, native: &Bound<'py, PyAny>, eager: &Bound<'py, PyAny>) {
    common::assert_matches_eager(py, "op", native, eager);
    let float32: bool = eval_with(py, "n.dtype == tf.float32", &[("n", native)])
        .extract()
        .expect("bool");
    assert!(float32, "native {native} is not float32");
}

fn out<'py, T>(py: Python<'py>, value: rxt_tf::Result<T>) -> Bound<'py, PyAny>
where
    T: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    common::to_python(py, "op", value)
}

#[test]
fn matmul_relu_sigmoid_equal_eager() {
    with_python(|py| {
        let (m_obj, m) = tensor2(py, MATRIX);
        let (s_obj, s) = tensor2(py, SQUARE);
        let names = [("m", &m_obj), ("s", &s_obj)];
        assert_same(
            py,
            &out(py, ops::matmul(&m, &s, false, false)),
            &eval_with(py, "tf.matmul(m, s)", &names),
        );
        assert_same(
            py,
            &out(py, ops::relu(&m)),
            &eval_with(py, "tf.nn.relu(m)", &names),
        );
        assert_same(
            py,
            &out(py, ops::sigmoid(&m)),
            &eval_with(py, "tf.nn.sigmoid(m)", &names),
        );
    });
}

#[test]
fn tanh_equals_eager_at_both_ranks() {
    with_python(|py| {
        let (m_obj, m) = tensor2(py, MATRIX);
        let (r_obj, r) = tensor1(py, ROW);
        let names = [("m", &m_obj), ("r", &r_obj)];
        assert_same(
            py,
            &out(py, ops::tanh(&m)),
            &eval_with(py, "tf.math.tanh(m)", &names),
        );
        assert_same(
            py,
            &out(py, rxt_tf::tf!(tanh(r))),
            &eval_with(py, "tf.tanh(r)", &names),
        );
        let empty = eval(py, "tf.zeros([0], tf.float32)");
        let native = empty
            .extract::<TensorF32Cpu1D>()
            .and_then(|e| Ok(rxt_tf::tf!(tanh(e))?));
        assert_same(py, &out(py, native), &empty);
    });
}

#[test]
fn add_equals_eager_for_all_four_rank_pairs() {
    with_python(|py| {
        let (m_obj, m) = tensor2(py, MATRIX);
        let (r_obj, r) = tensor1(py, ROW);
        let (c_obj, c) = tensor1(py, COLUMN);
        let names = [("m", &m_obj), ("r", &r_obj), ("c", &c_obj)];
        assert_same(
            py,
            &out(py, ops::add(&m, &m)),
            &eval_with(py, "m + m", &names),
        );
        assert_same(
            py,
            &out(py, ops::add(&r, &c)),
            &eval_with(py, "r + c", &names),
        );
        assert_same(
            py,
            &out(py, ops::add(&m, &r)),
            &eval_with(py, "m + r", &names),
        );
        assert_same(
            py,
            &out(py, ops::add(&c, &m)),
            &eval_with(py, "c + m", &names),
        );
    });
}

#[test]
fn reduce_mean_axis1_equals_eager() {
    with_python(|py| {
        let (m_obj, m) = tensor2(py, MATRIX);
        let (s_obj, s) = tensor2(py, SQUARE);
        let names = [("m", &m_obj), ("s", &s_obj)];
        assert_same(
            py,
            &out(py, ops::reduce_mean::<1, false, _>(&m, [1])),
            &eval_with(py, "tf.reduce_mean(m, axis=1)", &names),
        );
        assert_same(
            py,
            &out(py, ops::reduce_mean::<1, false, _>(&s, [1])),
            &eval_with(py, "tf.reduce_mean(s, axis=1)", &names),
        );
    });
}

#[test]
fn the_seed_chain_equals_eager() {
    with_python(|py| {
        let (x_obj, x) = tensor2(py, "tf.random.stateless_normal([32, 64], seed=[1, 2])");
        let (w_obj, w) = tensor2(py, "tf.random.stateless_normal([64, 32], seed=[3, 4])");
        let (b_obj, b) = tensor1(py, "tf.random.stateless_normal([32], seed=[5, 6])");
        let h = ops::matmul(&x, &w, false, false)
            .and_then(|h| ops::relu(&h))
            .and_then(|h| ops::add(&h, &b));
        let native = out(py, h.and_then(|h| ops::reduce_mean::<1, false, _>(&h, [1])));
        let eager = eval_with(
            py,
            "tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)",
            &[("x", &x_obj), ("w", &w_obj), ("b", &b_obj)],
        );
        assert_same(py, &native, &eager);
    });
}

#[test]
fn results_outlive_their_inputs() {
    with_python(|py| {
        let expected = eval(
            py,
            "tf.nn.relu(tf.matmul(tf.ones([3, 5]) * 2, tf.ones([5, 2])))",
        );
        let result = {
            let (_, a) = tensor2(py, "tf.ones([3, 5]) * 2");
            let (_, b) = tensor2(py, "tf.ones([5, 2])");
            let h = ops::matmul(&a, &b, false, false).expect("matmul");
            drop((a, b));
            ops::relu(&h).expect("relu")
        };
        eval(py, "__import__('gc').collect()");
        assert_eq!(result.shape().expect("shape"), vec![3, 2]);
        let copy = result.try_clone().expect("clone");
        drop(result);
        eval(py, "__import__('gc').collect()");
        assert_same(py, &out(py, Ok(copy)), &expected);
    });
}

#[test]
fn a_shape_mismatch_is_an_op_error_naming_the_op() {
    with_python(|py| {
        let (_, a) = tensor2(py, "tf.ones([2, 3])");
        let (_, b) = tensor2(py, "tf.ones([4, 5])");
        let err = ops::matmul(&a, &b, false, false).expect_err("inner dims differ");
        assert!(
            matches!(
                err,
                rxt_tf::Error::Op {
                    op: "matmul",
                    code: 3,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("rxt-tf: matmul failed: "),
            "{err}"
        );
        assert!(
            err.to_string().contains("Matrix size-incompatible"),
            "{err}"
        );
        let (_, r) = tensor1(py, "tf.ones([4])");
        let err = ops::add(&a, &r).expect_err("broadcast fails");
        assert!(err.to_string().starts_with("rxt-tf: add failed: "), "{err}");
    });
}

#[test]
fn the_context_is_bound_once_and_reused() {
    with_python(|py| {
        let first = BoundContext::current(py).expect("bind");
        let second = BoundContext::current(py).expect("bind");
        assert!(std::sync::Arc::ptr_eq(&first, &second));
    });
}

#[test]
fn large_ops_run_from_threads_with_and_without_the_gil() {
    with_python(|py| {
        let code = "tf.reshape(tf.range(512 * 512, dtype=tf.float32) % 7 - 3, [512, 512])";
        let (x, a) = tensor2(py, code);
        let expected = eval_with(py, "tf.nn.relu(tf.matmul(x, x))", &[("x", &x)]);
        // Above `RELEASE_WORK`: with the GIL held, the op lets go of it while
        // TensorFlow computes; without it (here, in `detach`), it runs as is.
        assert!(512_i64.pow(3) >= rxt_tf::__private::RELEASE_WORK);
        let held = ops::relu(&ops::matmul(&a, &a, false, false).expect("matmul")).expect("relu");
        let detached = py.detach(|| {
            let h = ops::matmul(&a, &a, false, false).expect("matmul without the GIL");
            ops::relu(&h).expect("relu without the GIL")
        });
        let from_thread = std::thread::scope(|scope| {
            scope
                .spawn(|| ops::relu(&ops::matmul(&a, &a, false, false)?))
                .join()
                .expect("thread")
        });
        assert_same(py, &out(py, Ok(held)), &expected);
        assert_same(py, &out(py, Ok(detached)), &expected);
        assert_same(py, &out(py, from_thread), &expected);
    });
}
