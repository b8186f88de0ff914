//! Every form of the op table through `tf!`, against eager TensorFlow's own
//! result for the same inputs: every rank pair, both `keepdims`, every axis,
//! float-literal operands, special values (NaN, ±inf, −0.0) and zero sizes;
//! shape errors raise eager's `tf.errors` class with an `rxt-tf:` message.

#[macro_use]
mod common;

use common::{eval, eval_with, with_python};
use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

/// Special values in every position kind: NaN, ±inf, −0.0, large, tiny.
const M: &str = "tf.constant(np.array([[1.5, -2.0, 0.0, -0.0], [np.nan, 3.25, -np.inf, 7.0], \
                 [np.inf, -1e-30, 1e30, -5.5]], dtype=np.float32))";
/// Positive values (for log, sqrt, rsqrt), with a zero.
const P: &str = "tf.constant(np.array([[0.5, 2.0, 0.0, 9.0], [1e-3, 4.0, 100.0, 0.25], \
                 [3.0, 1.0, np.inf, 7.0]], dtype=np.float32))";
/// A 4×3 matrix for matmul with `M`.
const W: &str = "tf.constant(np.arange(-6, 6, dtype=np.float32).reshape(4, 3) / 4)";
const R: &str = "tf.constant(np.array([0.5, -0.0, np.nan, -np.inf], dtype=np.float32))";
const C: &str = "tf.constant(np.array([2.0, -3.0, 0.25, 1e-7], dtype=np.float32))";
const Z2: &str = "tf.zeros([0, 4], tf.float32)";
const Z1: &str = "tf.zeros([0], tf.float32)";

use common::{assert_matches_eager as assert_same, to_python as py_out};

/// The inputs, as Python objects (named for the eager expressions) and as
/// rxt-tf tensors.
struct Inputs<'py> {
    names: Vec<(&'static str, Bound<'py, PyAny>)>,
    m: TensorF32Cpu2D,
    p: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    r: TensorF32Cpu1D,
    c: TensorF32Cpu1D,
    z2: TensorF32Cpu2D,
    z1: TensorF32Cpu1D,
}

fn inputs(py: Python<'_>) -> Inputs<'_> {
    let names: Vec<(&'static str, Bound<'_, PyAny>)> = [
        ("m", M),
        ("p", P),
        ("w", W),
        ("r", R),
        ("c", C),
        ("z2", Z2),
        ("z1", Z1),
    ]
    .into_iter()
    .map(|(name, code)| (name, eval(py, code)))
    .collect();
    let get = |name: &str| {
        names
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, obj)| obj.clone())
            .unwrap_or_else(|| panic!("{name}"))
    };
    let t2 = |name: &str| {
        get(name)
            .extract::<TensorF32Cpu2D>()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let t1 = |name: &str| {
        get(name)
            .extract::<TensorF32Cpu1D>()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    Inputs {
        m: t2("m"),
        p: t2("p"),
        w: t2("w"),
        r: t1("r"),
        c: t1("c"),
        z2: t2("z2"),
        z1: t1("z1"),
        names,
    }
}

/// The inputs as `(name, object)` pairs, for [`same!`].
fn names<'a, 'py>(inputs: &'a Inputs<'py>) -> Vec<(&'a str, &'a Bound<'py, PyAny>)> {
    inputs.names.iter().map(|(n, o)| (*n, o)).collect()
}

#[test]
fn unary_ops_equal_eager_at_both_ranks_and_zero_size() {
    with_python(|py| {
        let i = inputs(py);
        let (m, p, r, z2, z1) = (&i.m, &i.p, &i.r, &i.z2, &i.z1);
        same!(py, &names(&i),
            "tf.nn.relu(m)" => tf!(relu(m)),
            "tf.nn.relu(r)" => tf!(relu(r)),
            "tf.nn.sigmoid(m)" => tf!(sigmoid(m)),
            "tf.math.sigmoid(r)" => tf!(sigmoid(r)),
            "tf.tanh(m)" => tf!(tanh(m)),
            "tf.abs(m)" => tf!(abs(m)),
            "tf.math.abs(r)" => tf!(abs(r)),
            "tf.negative(m)" => tf!(neg(m)),
            "-r" => tf!(-r),
            "-m" => tf!(-m),
            "tf.square(m)" => tf!(square(m)),
            "tf.exp(m)" => tf!(exp(m)),
            "tf.math.exp(r)" => tf!(exp(r)),
            "tf.math.log(p)" => tf!(log(p)),
            "tf.math.log(m)" => tf!(log(m)),
            "tf.sqrt(p)" => tf!(sqrt(p)),
            "tf.math.rsqrt(p)" => tf!(rsqrt(p)),
            "tf.nn.relu6(m)" => tf!(relu6(m)),
            "tf.nn.elu(m)" => tf!(elu(m)),
            "tf.nn.elu(r)" => tf!(elu(r)),
            "tf.nn.softplus(m)" => tf!(softplus(m)),
            "tf.math.softplus(r)" => tf!(softplus(r)),
            "tf.nn.leaky_relu(m)" => tf!(leaky_relu(m)),
            "tf.nn.leaky_relu(m, alpha=0.1)" => tf!(leaky_relu(m, alpha = 0.1)),
            "tf.nn.leaky_relu(r, alpha=-0.5)" => tf!(leaky_relu(r, alpha = -0.5)),
            "tf.nn.relu(z2)" => tf!(relu(z2)),
            "tf.exp(z1)" => tf!(exp(z1)),
            "tf.nn.softplus(z2)" => tf!(softplus(z2)),
        );
    });
}

#[test]
fn binary_ops_equal_eager_for_every_rank_pair_and_literal() {
    with_python(|py| {
        let i = inputs(py);
        let (m, r, c, z2, z1) = (&i.m, &i.r, &i.c, &i.z2, &i.z1);
        same!(py, &names(&i),
            "m + m" => tf!(m + m),
            "r + c" => tf!(add(r, c)),
            "m + r" => tf!(m + r),
            "c + m" => tf!(c + m),
            "m - r" => tf!(m - r),
            "tf.subtract(c, m)" => tf!(sub(c, m)),
            "r - c" => tf!(r - c),
            "m * m" => tf!(m * m),
            "tf.multiply(r, m)" => tf!(mul(r, m)),
            "c * r" => tf!(c * r),
            "m / r" => tf!(m / r),
            "tf.divide(c, m)" => tf!(div(c, m)),
            "r / c" => tf!(r / c),
            "tf.maximum(m, r)" => tf!(maximum(m, r)),
            "tf.maximum(r, c)" => tf!(maximum(r, c)),
            "tf.math.minimum(c, m)" => tf!(minimum(c, m)),
            "tf.minimum(m, m)" => tf!(minimum(m, m)),
            "m * 0.5" => tf!(m * 0.5),
            "0.5 * m" => tf!(0.5 * m),
            "m - 1.0" => tf!(m - 1.0),
            "1.0 - r" => tf!(1.0 - r),
            "m * -3.0" => tf!(m * -3.0),
            "tf.divide(m, 2.0)" => tf!(div(m, 2.0)),
            "2.0 / r" => tf!(2.0 / r),
            // Eager's Python scalar cache keys 0.0 and -0.0 alike (equal
            // floats), so once one is cached the other comes back; spell the
            // signed zeros as NumPy scalars, which bypass that cache.
            "m + np.float32(-0.0)" => tf!(m + -0.0),
            "tf.maximum(m, np.float32(0.0))" => tf!(maximum(m, 0.0)),
            "tf.minimum(1.0, r)" => tf!(minimum(1.0, r)),
            "z2 + z2" => tf!(z2 + z2),
            "z2 * 2.0" => tf!(z2 * 2.0),
            "z1 - z1" => tf!(z1 - z1),
        );
    });
}

#[test]
fn matrix_ops_equal_eager() {
    with_python(|py| {
        let i = inputs(py);
        let (m, w, r, c, z2) = (&i.m, &i.w, &i.r, &i.c, &i.z2);
        same!(py, &names(&i),
            "tf.matmul(m, w)" => tf!(matmul(m, w)),
            "tf.matmul(w, m, transpose_a=True, transpose_b=True)" =>
                tf!(matmul(w, m, transpose_a = true, transpose_b = true)),
            "tf.matmul(m, m, transpose_b=True)" => tf!(matmul(m, m, transpose_b = true)),
            "tf.linalg.matmul(m, m, transpose_a=True)" => tf!(matmul(m, m, transpose_a = true)),
            "tf.matmul(z2, w)" => tf!(matmul(z2, w)),
            "tf.nn.bias_add(m, r)" => tf!(bias_add(m, r)),
            "tf.nn.bias_add(m, c)" => tf!(bias_add(m, c)),
            "tf.nn.bias_add(z2, c)" => tf!(bias_add(z2, c)),
            "tf.transpose(m)" => tf!(transpose(m)),
            "tf.transpose(m, perm=[1, 0])" => tf!(transpose(m, perm = [1, 0])),
            "tf.transpose(z2)" => tf!(transpose(z2)),
        );
    });
}

#[test]
fn reductions_equal_eager_for_every_axis_and_keepdims() {
    with_python(|py| {
        let i = inputs(py);
        let (m, p, z2) = (&i.m, &i.p, &i.z2);
        same!(py, &names(&i),
            "tf.reduce_mean(m, axis=0)" => tf!(reduce_mean(m, axis = 0)),
            "tf.reduce_mean(p, axis=1)" => tf!(reduce_mean(p, axis = 1)),
            "tf.math.reduce_mean(p, axis=-1, keepdims=True)" =>
                tf!(reduce_mean(p, axis = -1, keepdims = true)),
            "tf.reduce_mean(p, axis=-2, keepdims=False)" =>
                tf!(reduce_mean(p, axis = -2, keepdims = false)),
            "tf.reduce_sum(m, axis=0)" => tf!(reduce_sum(m, axis = 0)),
            "tf.reduce_sum(m, axis=1, keepdims=True)" => tf!(reduce_sum(m, axis = 1, keepdims = true)),
            "tf.reduce_sum(p, axis=-1)" => tf!(reduce_sum(p, axis = -1)),
            "tf.math.reduce_sum(p, axis=-2, keepdims=True)" =>
                tf!(reduce_sum(p, axis = -2, keepdims = true)),
            "tf.reduce_max(m, axis=0)" => tf!(reduce_max(m, axis = 0)),
            "tf.reduce_max(m, axis=1, keepdims=True)" => tf!(reduce_max(m, axis = 1, keepdims = true)),
            "tf.reduce_max(p, axis=-1)" => tf!(reduce_max(p, axis = -1)),
            "tf.reduce_max(p, axis=-2, keepdims=True)" => tf!(reduce_max(p, axis = -2, keepdims = true)),
            "tf.reduce_min(m, axis=0, keepdims=True)" => tf!(reduce_min(m, axis = 0, keepdims = true)),
            "tf.reduce_min(m, axis=1)" => tf!(reduce_min(m, axis = 1)),
            "tf.math.reduce_min(p, axis=-1, keepdims=True)" =>
                tf!(reduce_min(p, axis = -1, keepdims = true)),
            "tf.reduce_min(p, axis=-2)" => tf!(reduce_min(p, axis = -2)),
            "tf.reduce_sum(z2, axis=0)" => tf!(reduce_sum(z2, axis = 0)),
            "tf.reduce_mean(z2, axis=1)" => tf!(reduce_mean(z2, axis = 1)),
            "tf.reduce_max(z2, axis=0, keepdims=True)" => tf!(reduce_max(z2, axis = 0, keepdims = true)),
        );
    });
}

#[test]
fn softmax_and_argmax_equal_eager_for_every_axis() {
    with_python(|py| {
        let i = inputs(py);
        let (m, p, r, c, z2) = (&i.m, &i.p, &i.r, &i.c, &i.z2);
        same!(py, &names(&i),
            "tf.nn.softmax(m)" => tf!(softmax(m)),
            "tf.nn.softmax(p, axis=0)" => tf!(softmax(p, axis = 0)),
            "tf.math.softmax(p, axis=1)" => tf!(softmax(p, axis = 1)),
            "tf.nn.softmax(p, axis=-1)" => tf!(softmax(p, axis = -1)),
            "tf.nn.softmax(c)" => tf!(softmax(c)),
            "tf.nn.softmax(r, axis=0)" => tf!(softmax(r, axis = 0)),
            "tf.nn.log_softmax(m)" => tf!(log_softmax(m)),
            "tf.nn.log_softmax(p, axis=0)" => tf!(log_softmax(p, axis = 0)),
            "tf.math.log_softmax(p, axis=1)" => tf!(log_softmax(p, axis = 1)),
            "tf.nn.log_softmax(c, axis=-1)" => tf!(log_softmax(c, axis = -1)),
            "tf.nn.softmax(z2, axis=0)" => tf!(softmax(z2, axis = 0)),
            "tf.argmax(p, axis=0)" => tf!(argmax(p, axis = 0)),
            "tf.argmax(p, axis=1)" => tf!(argmax(p, axis = 1)),
            "tf.math.argmax(p, axis=-1, output_type=tf.int64)" =>
                tf!(argmax(p, axis = -1, output_type = i64)),
            "tf.argmax(m, axis=-2)" => tf!(argmax(m, axis = -2)),
            "tf.argmax(m, axis=1)" => tf!(argmax(m, axis = 1)),
        );
    });
}

/// The error `result` raises in Python: its class name and message.
/// In a fused scope the op is only recorded: its error surfaces when the
/// result is first read (here, when it crosses into Python).
fn raised<'py, T>(py: Python<'py>, result: rxt_tf::Result<T>) -> (String, String)
where
    T: IntoPyObject<'py, Error = PyErr>,
{
    let err = match result
        .map_err(PyErr::from)
        .and_then(|t| t.into_pyobject(py))
    {
        Ok(_) => panic!("expected an error"),
        Err(err) => err,
    };
    common::python_error(py, err)
}

#[test]
fn shape_errors_raise_eagers_class_naming_the_op() {
    with_python(|py| {
        let i = inputs(py);
        let long = eval(py, "tf.ones([5])")
            .extract::<TensorF32Cpu1D>()
            .unwrap_or_else(|e| panic!("{e}"));
        let cases: Vec<(&str, (String, String))> = vec![
            ("sub", raised(py, tf!(i.m - long))),
            ("mul", raised(py, tf!(mul(long, i.r)))),
            ("maximum", raised(py, tf!(maximum(i.m, long)))),
            ("bias_add", raised(py, tf!(bias_add(i.m, long)))),
            ("matmul", raised(py, tf!(matmul(i.m, i.m)))),
        ];
        for (op, (class, message)) in cases {
            assert_eq!(class, "InvalidArgumentError", "{op}: {message}");
            assert!(
                message.starts_with(&format!("rxt-tf: {op} failed: ")),
                "{op}: {message}"
            );
        }
    });
}

#[test]
fn argmax_crosses_the_boundary_as_int64() {
    with_python(|py| {
        let i = inputs(py);
        let out = py_out(py, "argmax", tf!(argmax(i.p, axis = 1)));
        let dtype: String = eval_with(py, "o.dtype.name", &[("o", &out)])
            .extract()
            .unwrap_or_default();
        assert_eq!(dtype, "int64");
        let back = out
            .extract::<rxt_tf::TensorI64Cpu1D>()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.shape().unwrap_or_default(), vec![3]);
        let err = out
            .extract::<TensorF32Cpu1D>()
            .expect_err("int64 is not float32");
        assert!(
            err.to_string()
                .contains("expected a float32 tensor, got an int64 tensor"),
            "{err}"
        );
    });
}

#[test]
fn run_time_scalars_equal_eager_beyond_the_constant_cache() {
    with_python(|py| {
        let i = inputs(py);
        let names: Vec<(&str, &Bound<'_, PyAny>)> = i.names.iter().map(|(n, o)| (*n, o)).collect();
        // More distinct values than a context keeps: the rest are made per call.
        for step in 0..100_u8 {
            let value = f32::from(step) * 0.37 - 5.0;
            let native = py_out(py, "scalar", tf!(i.m * rxt_tf::ops::Scalar(value)));
            let eager = eval_with(py, &format!("m * np.float32({value:?})"), &names);
            assert_same(py, &format!("m * {value:?}"), &native, &eager);
        }
        let native = py_out(
            py,
            "inf",
            tf!(maximum(i.r, rxt_tf::ops::Scalar(f32::INFINITY))),
        );
        let eager = eval_with(py, "tf.maximum(r, np.float32(np.inf))", &names);
        assert_same(py, "maximum(r, inf)", &native, &eager);
    });
}

#[test]
fn the_ops_run_in_the_mode_asked_for() {
    let fused = std::env::var_os("RXT_TF_TEST_FUSED").is_some_and(|v| v == "1");
    with_python(|py| {
        let i = inputs(py);
        let before = rxt_tf::fusion::stats();
        // A trace no other test records, so a fused run must build it.
        let mut h = tf!(tanh(i.m)).expect("tanh");
        for _ in 0..6 {
            h = tf!(sigmoid(tf!(tanh(h)).expect("tanh"))).expect("sigmoid");
        }
        assert_eq!(h.to_vec().expect("read").len(), 12);
        let built = rxt_tf::fusion::stats().builds - before.builds;
        assert_eq!(built, u64::from(fused), "fused = {fused}");
    });
}
