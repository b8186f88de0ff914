//! `tf!` on every element type and rank the rules take, against eager
//! TensorFlow: element-wise ops at ranks 0–4, broadcasting across ranks,
//! batched matmuls, reductions over negative and multiple axes, softmax on
//! any axis, argmax with both output types, permutations, literals taking
//! the other operand's type, zero sizes, NaN and ±inf. `make test` runs it
//! per op and again with every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use common::{assert_matches_eager, eval_with, input, names, to_python, with_python};
use pyo3::prelude::*;
use rxt_tf::ops::Scalar;
use rxt_tf::{tf, Element, Tensor};

/// The inputs, as Python code: `name = expression`, one per line.
const INPUTS: &str = "
f0 = tf.constant(-2.5)
f1 = tf.constant([1.5, -0.0, float('nan'), float('inf'), -3.0])
f2 = tf.reshape(tf.range(-6.0, 6.0), (3, 4)) / 3.0
f3 = tf.reshape(tf.range(-12.0, 12.0), (2, 3, 4)) / 5.0
f4 = tf.reshape(tf.range(-24.0, 24.0), (2, 2, 3, 4)) / 7.0
w2 = tf.reshape(tf.range(0.0, 20.0), (4, 5)) / 10.0
w3 = tf.reshape(tf.range(0.0, 40.0), (2, 4, 5)) / 10.0
w4 = tf.reshape(tf.range(0.0, 80.0), (2, 2, 4, 5)) / 10.0
z3 = tf.zeros((2, 0, 4))
b4 = tf.constant([0.5, -1.0, 2.0, 0.25])
i0 = tf.constant(7)
i1 = tf.constant([3, -1, 0, 2147483647, -5])
i1_4 = tf.constant([3, -1, 0, 2147483647])
i2 = tf.reshape(tf.range(-6, 6), (3, 4))
i3 = tf.reshape(tf.range(-12, 12), (2, 3, 4))
i4 = tf.reshape(tf.range(-24, 24), (2, 2, 3, 4))
j2 = tf.reshape(tf.range(0, 20), (4, 5))
l1 = tf.constant([4, -9, 0], dtype=tf.int64)
l3 = tf.reshape(tf.range(-12, 12, dtype=tf.int64), (2, 3, 4))
k4 = tf.constant([1, 2, 3, 4], dtype=tf.int64)
m2 = tf.constant([[True, False], [False, True]])
m4 = tf.reshape(tf.range(24) % 3 == 0, (2, 2, 3, 2))
s4 = tf.reshape(tf.range(6.0), (1, 2, 1, 3))
d0 = tf.constant(0.1, dtype=tf.float64)
d1 = tf.constant([1e-300, -0.0, float('nan'), float('-inf'), 3.0], dtype=tf.float64)
d3 = tf.reshape(tf.range(-12.0, 12.0, dtype=tf.float64), (2, 3, 4)) / 7.0
d4 = tf.reshape(tf.range(0.0, 40.0, dtype=tf.float64), (2, 1, 4, 5)) / 3.0
e1 = tf.constant([0.5, -1.0, 2.0, 1e-9], dtype=tf.float64)
e3 = tf.reshape(tf.range(0.0, 40.0, dtype=tf.float64), (2, 4, 5)) / 9.0
";

/// Every input by name, with its Python object.
fn inputs(py: Python<'_>) -> Vec<(String, Bound<'_, PyAny>)> {
    common::named_inputs(py, INPUTS)
}

#[test]
fn element_wise_ops_at_every_rank_and_element_type() {
    with_python(|py| {
        let i = inputs(py);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f3, f4) = (input::<f32, 3>(&i, "f3"), input::<f32, 4>(&i, "f4"));
        let (i0, i2) = (input::<i32, 0>(&i, "i0"), input::<i32, 2>(&i, "i2"));
        let (i4, l3) = (input::<i32, 4>(&i, "i4"), input::<i64, 3>(&i, "l3"));
        let z3 = input::<f32, 3>(&i, "z3");
        same!(py, &names(&i),
            "tf.nn.relu(f0)" => tf!(relu(f0)),
            "tf.exp(f1)" => tf!(exp(f1)),
            "tf.math.log(f1)" => tf!(log(f1)),
            "tf.sigmoid(f3)" => tf!(sigmoid(f3)),
            "tf.tanh(f4)" => tf!(tanh(f4)),
            "tf.math.rsqrt(f4)" => tf!(rsqrt(f4)),
            "tf.nn.leaky_relu(f3, alpha=0.1)" => tf!(leaky_relu(f3, alpha = 0.1)),
            "tf.square(z3)" => tf!(square(z3)),
            "tf.abs(i0)" => tf!(abs(i0)),
            "-i2" => tf!(-i2),
            "tf.square(i4)" => tf!(square(i4)),
            "tf.nn.relu(l3)" => tf!(relu(l3)),
            "tf.nn.relu6(i2)" => tf!(relu6(i2)),
            "tf.abs(l3)" => tf!(abs(l3)),
        );
    });
}

#[test]
fn broadcasting_across_ranks_and_literals_of_the_other_type() {
    with_python(|py| {
        let i = inputs(py);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, b4) = (input::<f32, 4>(&i, "f4"), input::<f32, 1>(&i, "b4"));
        let (i0, i1) = (input::<i32, 0>(&i, "i0"), input::<i32, 1>(&i, "i1"));
        let (i2, i3) = (input::<i32, 2>(&i, "i2"), input::<i32, 3>(&i, "i3"));
        let (l1, l3) = (input::<i64, 1>(&i, "l1"), input::<i64, 3>(&i, "l3"));
        let (k4, i4) = (input::<i64, 1>(&i, "k4"), input::<i32, 4>(&i, "i4"));
        let i1_4 = input::<i32, 1>(&i, "i1_4");
        let z3 = input::<f32, 3>(&i, "z3");
        same!(py, &names(&i),
            "f0 + f4" => tf!(f0 + f4),
            "f4 - f0" => tf!(f4 - f0),
            "f3 * b4" => tf!(f3 * b4),
            "b4 / f4" => tf!(b4 / f4),
            "tf.maximum(f2, f4)" => tf!(maximum(f2, f4)),
            "tf.minimum(f3, f2)" => tf!(minimum(f3, f2)),
            "f1 * f0" => tf!(f1 * f0),
            "f4 * 2" => tf!(f4 * 2),
            "0.5 - f3" => tf!(0.5 - f3),
            "f1 / 0.0" => tf!(f1 / 0.0),
            "z3 + b4" => tf!(z3 + b4),
            "i0 + i4" => tf!(i0 + i4),
            "i3 * i2" => tf!(i3 * i2),
            "i1 - i1" => tf!(i1 - i1),
            "tf.maximum(i2, 0)" => tf!(maximum(i2, 0)),
            "i3 + 1" => tf!(i3 + 1),
            "-3 * i4" => tf!(-3 * i4),
            "(l3 - 0) + 4" => tf!(tf!(l3 - 0).expect("sub") + 4),
            "tf.minimum(l3, k4)" => tf!(minimum(l3, k4)),
            "f2 * np.float32(1.5)" => tf!(f2 * Scalar(1.5_f32)),
            "i3 + np.int32(-2)" => tf!(i3 + Scalar(-2_i32)),
            "l1 * np.int64(3)" => tf!(l1 * Scalar(3_i64)),
            // Integer division is true division in float64, as `tf.divide`.
            "i2 / i2" => tf!(i2 / i2),
            "tf.divide(i3, i1[:4])" => tf!(div(i3, i1_4)),
            "i4 / 7" => tf!(i4 / 7),
            "-3 / i0" => tf!(-3 / i0),
            "l3 / k4" => tf!(l3 / k4),
            "l1 / np.int64(-2)" => tf!(l1 / Scalar(-2_i64)),
        );
    });
}

#[test]
fn matmuls_of_ranks_two_to_four_broadcast_batch_dimensions() {
    with_python(|py| {
        let i = inputs(py);
        let (f2, f3, f4) = (
            input::<f32, 2>(&i, "f2"),
            input::<f32, 3>(&i, "f3"),
            input::<f32, 4>(&i, "f4"),
        );
        let (w2, w3, w4) = (
            input::<f32, 2>(&i, "w2"),
            input::<f32, 3>(&i, "w3"),
            input::<f32, 4>(&i, "w4"),
        );
        let (i2, j2) = (input::<i32, 2>(&i, "i2"), input::<i32, 2>(&i, "j2"));
        same!(py, &names(&i),
            "tf.matmul(f2, w2)" => tf!(matmul(f2, w2)),
            "tf.matmul(f3, w2)" => tf!(matmul(f3, w2)),
            "tf.matmul(f2, w3)" => tf!(matmul(f2, w3)),
            "tf.matmul(f3, w3)" => tf!(matmul(f3, w3)),
            "tf.matmul(f4, w4)" => tf!(matmul(f4, w4)),
            "tf.matmul(f4, w3)" => tf!(matmul(f4, w3)),
            "tf.matmul(f4, f4, transpose_b=True)" => tf!(matmul(f4, f4, transpose_b = true)),
            "tf.matmul(f3, f3, transpose_a=True)" => tf!(matmul(f3, f3, transpose_a = true)),
            "tf.matmul(i2, j2)" => tf!(matmul(i2, j2)),
        );
    });
}

#[test]
fn reductions_softmax_argmax_and_transpose_on_any_axes() {
    with_python(|py| {
        let i = inputs(py);
        let (f1, f2) = (input::<f32, 1>(&i, "f1"), input::<f32, 2>(&i, "f2"));
        let (f3, f4) = (input::<f32, 3>(&i, "f3"), input::<f32, 4>(&i, "f4"));
        let (i3, l3) = (input::<i32, 3>(&i, "i3"), input::<i64, 3>(&i, "l3"));
        let (m2, m4) = (input::<bool, 2>(&i, "m2"), input::<bool, 4>(&i, "m4"));
        let b4 = input::<f32, 1>(&i, "b4");
        let z3 = input::<f32, 3>(&i, "z3");
        same!(py, &names(&i),
            "tf.reduce_mean(f4, axis=[0, 2])" => tf!(reduce_mean(f4, axis = [0, 2])),
            "tf.reduce_sum(f3, axis=-1)" => tf!(reduce_sum(f3, axis = -1)),
            "tf.reduce_max(f3, axis=[-1, 0], keepdims=True)" => tf!(reduce_max(f3, axis = [-1, 0], keepdims = true)),
            "tf.reduce_min(f1, axis=0)" => tf!(reduce_min(f1, axis = 0)),
            "tf.reduce_sum(f4, axis=[0, 1, 2, 3])" => tf!(reduce_sum(f4, axis = [0, 1, 2, 3])),
            "tf.reduce_sum(i3, axis=[1, 2])" => tf!(reduce_sum(i3, axis = [1, 2])),
            "tf.reduce_max(l3, axis=1, keepdims=True)" => tf!(reduce_max(l3, axis = 1, keepdims = true)),
            "tf.reduce_mean(i3, axis=0)" => tf!(reduce_mean(i3, axis = 0)),
            "tf.reduce_sum(z3, axis=1)" => tf!(reduce_sum(z3, axis = 1)),
            "tf.nn.softmax(f4, axis=1)" => tf!(softmax(f4, axis = 1)),
            "tf.nn.softmax(f3)" => tf!(softmax(f3)),
            "tf.nn.log_softmax(f3, axis=0)" => tf!(log_softmax(f3, axis = 0)),
            "tf.nn.log_softmax(f2, axis=-2)" => tf!(log_softmax(f2, axis = -2)),
            "tf.nn.softmax(f1)" => tf!(softmax(f1)),
            "tf.argmax(f4, axis=2)" => tf!(argmax(f4, axis = 2)),
            "tf.argmax(f1, axis=0, output_type=tf.int32)" => tf!(argmax(f1, axis = 0, output_type = i32)),
            "tf.argmax(l3, axis=-1)" => tf!(argmax(l3, axis = -1)),
            "tf.argmax(m4, axis=3)" => tf!(argmax(m4, axis = 3)),
            "tf.argmax(f3)" => tf!(argmax(f3)),
            "tf.transpose(f3)" => tf!(transpose(f3)),
            "tf.transpose(f4, perm=[0, 2, 1, 3])" => tf!(transpose(f4, perm = [0, 2, 1, 3])),
            "tf.transpose(m2)" => tf!(transpose(m2)),
            "tf.transpose(i3, perm=[2, 0, 1])" => tf!(transpose(i3, perm = [2, 0, 1])),
            "tf.nn.bias_add(f4, b4)" => tf!(bias_add(f4, b4)),
        );
    });
}

#[test]
fn plain_functions_check_run_time_keywords_against_the_rank() {
    with_python(|py| {
        let i = inputs(py);
        let f3 = input::<f32, 3>(&i, "f3");
        let names: Vec<(&str, &Bound<'_, PyAny>)> =
            i.iter().map(|(n, o)| (n.as_str(), o)).collect();
        let native = to_python(
            py,
            "reduce_sum",
            rxt_tf::ops::reduce_sum::<2, false, _>(&f3, [0, -1]),
        );
        let eager = eval_with(py, "tf.reduce_sum(f3, axis=[0, -1])", &names);
        assert_matches_eager(py, "plain reduce_sum", &native, &eager);
        let repeated = rxt_tf::ops::reduce_sum::<2, false, _>(&f3, [1, -2]);
        let err = repeated.expect_err("axis 1 twice");
        assert!(
            err.to_string().contains("does not fit a rank-3 tensor"),
            "{err}"
        );
        let perm = rxt_tf::ops::transpose(&f3, [0, 1, 1]).expect_err("not a permutation");
        assert!(perm.to_string().contains("is not a permutation"), "{perm}");
        let native = to_python(py, "argmax", rxt_tf::ops::argmax::<i32, _>(&f3, -2));
        let eager = eval_with(py, "tf.argmax(f3, axis=-2, output_type=tf.int32)", &names);
        assert_matches_eager(py, "plain argmax", &native, &eager);
    });
}

#[test]
fn every_alias_crosses_the_boundary_with_the_seeds_checks() {
    with_python(|py| {
        let i = inputs(py);
        let names: Vec<(&str, &Bound<'_, PyAny>)> =
            i.iter().map(|(n, o)| (n.as_str(), o)).collect();
        // Round trips keep dtype, shape and data.
        for name in ["f0", "f4", "i1", "l3", "m2", "m4"] {
            let value = eval_with(py, name, &names);
            let back = match name {
                "f0" => value
                    .extract::<rxt_tf::TensorF32Cpu0D>()
                    .map(|t| t.into_pyobject(py)),
                "f4" => value
                    .extract::<rxt_tf::TensorF32Cpu4D>()
                    .map(|t| t.into_pyobject(py)),
                "i1" => value
                    .extract::<rxt_tf::TensorI32Cpu1D>()
                    .map(|t| t.into_pyobject(py)),
                "l3" => value
                    .extract::<rxt_tf::TensorI64Cpu3D>()
                    .map(|t| t.into_pyobject(py)),
                "m2" => value
                    .extract::<rxt_tf::TensorBoolCpu2D>()
                    .map(|t| t.into_pyobject(py)),
                _ => value
                    .extract::<rxt_tf::TensorBoolCpu4D>()
                    .map(|t| t.into_pyobject(py)),
            };
            let back = back.expect("extract").expect("materialize");
            assert_matches_eager(py, name, &back, &value);
        }
        // A wrong element type or rank is a ValueError naming both.
        let err = eval_with(py, "i2", &names)
            .extract::<rxt_tf::TensorF32Cpu2D>()
            .expect_err("int32 is not float32");
        assert!(err.to_string().contains("int32"), "{err}");
        let err = eval_with(py, "m2", &names)
            .extract::<rxt_tf::TensorBoolCpu3D>()
            .expect_err("rank 2 is not rank 3");
        assert!(err.to_string().contains('3'), "{err}");
        // Host data of every element type.
        let b = rxt_tf::TensorBoolCpu1D::from_slice(py, &[true, false, true], [3]).expect("bools");
        assert_eq!(b.to_vec().expect("read"), vec![true, false, true]);
        let s = rxt_tf::TensorF32Cpu0D::from_slice(py, &[2.5], []).expect("scalar");
        assert_eq!(
            (s.to_vec().expect("read"), s.shape().expect("shape")),
            (vec![2.5], vec![])
        );
        let l = rxt_tf::TensorI64Cpu4D::from_slice(py, &[1, 2, 3, 4], [1, 2, 1, 2]).expect("i64");
        assert_eq!(l.shape().expect("shape"), vec![1, 2, 1, 2]);
        assert_eq!(
            l.try_clone().expect("clone").to_vec().expect("read"),
            vec![1, 2, 3, 4]
        );
    });
}

#[test]
fn float64_through_every_rule() {
    with_python(|py| {
        let i = inputs(py);
        let (d0, d1) = (input::<f64, 0>(&i, "d0"), input::<f64, 1>(&i, "d1"));
        let (d3, d4) = (input::<f64, 3>(&i, "d3"), input::<f64, 4>(&i, "d4"));
        let (e1, e3) = (input::<f64, 1>(&i, "e1"), input::<f64, 3>(&i, "e3"));
        same!(py, &names(&i),
            "tf.exp(d1)" => tf!(exp(d1)),
            "tf.sigmoid(d3)" => tf!(sigmoid(d3)),
            "tf.nn.relu(d0)" => tf!(relu(d0)),
            "-d3" => tf!(-d3),
            "d0 * d3" => tf!(d0 * d3),
            "d3 + e1" => tf!(d3 + e1),
            "tf.reduce_sum(d4, axis=[0, 1, 3])" => tf!(reduce_sum(d4, axis = [0, 1, 3])),
            "d3 / 3" => tf!(d3 / 3),
            "d3 * 0.1" => tf!(d3 * 0.1),
            "tf.maximum(d1, 0.5)" => tf!(maximum(d1, 0.5)),
            "tf.matmul(d3, e3)" => tf!(matmul(d3, e3)),
            "tf.nn.bias_add(d3, e1)" => tf!(bias_add(d3, e1)),
            "tf.reduce_max(d4, axis=1)" => tf!(reduce_max(d4, axis = 1)),
            "tf.reduce_mean(d4, axis=[-1, 1], keepdims=True)" => tf!(reduce_mean(d4, axis = [-1, 1], keepdims = true)),
            "tf.nn.softmax(d3, axis=1)" => tf!(softmax(d3, axis = 1)),
            "tf.nn.log_softmax(d4)" => tf!(log_softmax(d4)),
            "tf.argmax(d3, axis=-1, output_type=tf.int32)" => tf!(argmax(d3, axis = -1, output_type = i32)),
            "tf.transpose(d4)" => tf!(transpose(d4)),
        );
        let made = rxt_tf::TensorF64Cpu2D::from_slice(py, &[0.1, 1e300, -2.5, 4.0], [2, 2])
            .expect("an f64 tensor");
        assert_eq!(made.to_vec().expect("read"), vec![0.1, 1e300, -2.5, 4.0]);
        assert_eq!(made.shape().expect("shape"), vec![2, 2]);
        let err = d1_as_f32(&i).expect_err("float64 is not float32");
        assert!(err.contains("float64"), "{err}");
    });
}

/// `d1` (float64) extracted as a float32 tensor: the boundary's error.
fn d1_as_f32(inputs: &[(String, Bound<'_, PyAny>)]) -> Result<rxt_tf::TensorF32Cpu1D, String> {
    let (_, value) = inputs.iter().find(|(n, _)| n == "d1").expect("d1");
    value
        .extract()
        .map_err(|err: rxt_tf::Error| err.to_string())
}

/// One alias at the boundary: a tensor of its element type and rank round
/// trips unchanged; another rank, another element type and a non-tensor
/// are refused with the seed's errors and messages.
fn alias_at_the_boundary<T: Element, const R: usize>(py: Python<'_>)
where
    for<'a, 'py> Tensor<T, R>: FromPyObject<'a, 'py, Error = rxt_tf::Error>,
    for<'py> Tensor<T, R>:
        IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    let dtype = T::DTYPE.name();
    let other = if dtype == "int32" { "float32" } else { "int32" };
    let made = |rank: usize, dtype: &str| {
        let shape = vec!["2"; rank].join(", ");
        common::eval(
            py,
            &format!(
                "tf.cast(tf.reshape(tf.range({}), [{shape}]) % 3, tf.{dtype})",
                1 << rank
            ),
        )
    };
    let value = made(R, dtype);
    let tensor: Tensor<T, R> = value
        .extract()
        .unwrap_or_else(|err| panic!("{dtype} rank {R}: {err}"));
    let back = tensor.into_pyobject(py).expect("to Python");
    assert_matches_eager(py, &format!("{dtype} rank {R}"), &back, &value);
    let wrong_rank = made((R + 1) % 5, dtype).extract::<Tensor<T, R>>();
    let wrong_rank = refused(wrong_rank, "rank");
    assert_eq!(
        wrong_rank.to_string(),
        format!(
            "rxt-tf: expected a rank-{R} tensor, got a rank-{} tensor",
            (R + 1) % 5
        )
    );
    let wrong_type = refused(made(R, other).extract::<Tensor<T, R>>(), "dtype");
    assert!(
        matches!(&wrong_type, rxt_tf::Error::Dtype { expected, found } if *expected == dtype && found == other),
        "{wrong_type}"
    );
    let array = refused(
        common::eval(py, "np.zeros([2])").extract::<Tensor<T, R>>(),
        "numpy",
    );
    assert_eq!(
        array.to_string(),
        "rxt-tf: expected a TensorFlow EagerTensor, got numpy.ndarray"
    );
}

/// The error of a refused extraction (`expect_err` would need `Debug`).
fn refused<T>(result: rxt_tf::Result<T>, what: &str) -> rxt_tf::Error {
    match result {
        Ok(_) => panic!("{what}: accepted"),
        Err(err) => err,
    }
}

/// Every alias: each element type at every rank.
macro_rules! every_alias {
    ($py:expr, $($element:ty),+) => {{
        let mut tested = Vec::new();
        $(
            alias_at_the_boundary::<$element, 0>($py);
            alias_at_the_boundary::<$element, 1>($py);
            alias_at_the_boundary::<$element, 2>($py);
            alias_at_the_boundary::<$element, 3>($py);
            alias_at_the_boundary::<$element, 4>($py);
            tested.push(<$element as Element>::DTYPE);
        )+
        tested
    }};
}

#[test]
fn every_alias_refuses_wrong_ranks_types_and_non_tensors() {
    with_python(|py| {
        let tested = every_alias!(py, f32, f64, rxt_tf::bf16, rxt_tf::f16, i32, i64, bool);
        assert_eq!(
            tested,
            rxt_tf::__private::DType::ALL,
            "a new element type needs its aliases tested"
        );
    });
}

#[test]
fn comparisons_and_logical_ops_give_bool_tensors() {
    with_python(|py| {
        let i = inputs(py);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f3, f4) = (input::<f32, 3>(&i, "f3"), input::<f32, 4>(&i, "f4"));
        let (i2, i3) = (input::<i32, 2>(&i, "i2"), input::<i32, 3>(&i, "i3"));
        let (l3, k4) = (input::<i64, 3>(&i, "l3"), input::<i64, 1>(&i, "k4"));
        let (m2, m4) = (input::<bool, 2>(&i, "m2"), input::<bool, 4>(&i, "m4"));
        let (b4, d3) = (input::<f32, 1>(&i, "b4"), input::<f64, 3>(&i, "d3"));
        let z3 = input::<f32, 3>(&i, "z3");
        same!(py, &names(&i),
            "tf.equal(i2, i2)" => tf!(equal(i2, i2)),
            "tf.not_equal(i3, 0)" => tf!(not_equal(i3, 0)),
            "tf.less(f1, f0)" => tf!(less(f1, f0)),
            "tf.greater(f3, 0.0)" => tf!(greater(f3, 0.0)),
            "tf.greater_equal(l3, k4)" => tf!(greater_equal(l3, k4)),
            "tf.less_equal(f4, b4)" => tf!(less_equal(f4, b4)),
            "tf.math.less(-1, i2)" => tf!(less(-1, i2)),
            "tf.equal(d3, d3)" => tf!(equal(d3, d3)),
            "tf.equal(f1, f1)" => tf!(equal(f1, f1)),
            "tf.greater(z3, f0)" => tf!(greater(z3, f0)),
            "tf.equal(m2, m2)" => tf!(equal(m2, m2)),
            "tf.not_equal(m4, m4)" => tf!(not_equal(m4, m4)),
            "tf.logical_and(m4, m4)" => tf!(logical_and(m4, m4)),
            "tf.logical_or(m2, m2)" => tf!(logical_or(m2, m2)),
            "tf.logical_not(m4)" => tf!(logical_not(m4)),
        );
        // A comparison's result feeds the logical ops and argmax.
        let positive = tf!(greater(f3, 0.0)).expect("greater");
        let small = tf!(less(f3, 1.0)).expect("less");
        let both = tf!(logical_and(positive, small)).expect("and");
        let eager = common::eval(
            py,
            "tf.logical_and(tf.greater(tf.reshape(tf.range(-12.0, 12.0), (2, 3, 4)) / 5.0, 0.0), \
             tf.less(tf.reshape(tf.range(-12.0, 12.0), (2, 3, 4)) / 5.0, 1.0))",
        );
        let native = to_python(py, "and", Ok(both));
        assert_matches_eager(py, "logical_and of comparisons", &native, &eager);
    });
}

#[test]
fn more_element_wise_ops_reductions_and_argmin() {
    with_python(|py| {
        let i = inputs(py);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, b4) = (input::<f32, 4>(&i, "f4"), input::<f32, 1>(&i, "b4"));
        let (i2, i3) = (input::<i32, 2>(&i, "i2"), input::<i32, 3>(&i, "i3"));
        let (l3, k4) = (input::<i64, 3>(&i, "l3"), input::<i64, 1>(&i, "k4"));
        let (m2, m4) = (input::<bool, 2>(&i, "m2"), input::<bool, 4>(&i, "m4"));
        let (d1, d3) = (input::<f64, 1>(&i, "d1"), input::<f64, 3>(&i, "d3"));
        let z3 = input::<f32, 3>(&i, "z3");
        let scaled = tf!(f3 * 2.5).expect("scaled");
        same!(py, &names(&i),
            "tf.zeros_like(m4)" => tf!(zeros_like(m4)),
            "tf.ones_like(l3)" => tf!(ones_like(l3)),
            "tf.identity(f1)" => tf!(identity(f1)),
            "tf.sign(f1)" => tf!(sign(f1)),
            "tf.sign(i3)" => tf!(sign(i3)),
            "tf.round(f3 * 2.5)" => tf!(round(scaled)),
            "tf.math.round(d3 * 2.5)" => tf!(round(tf!(d3 * 2.5).expect("scaled"))),
            "tf.floor(f4)" => tf!(floor(f4)),
            "tf.math.ceil(d3)" => tf!(ceil(d3)),
            "tf.math.reciprocal(f1)" => tf!(reciprocal(f1)),
            "tf.math.log1p(f3)" => tf!(log1p(f3)),
            "tf.math.expm1(f0)" => tf!(expm1(f0)),
            "tf.sin(f2)" => tf!(sin(f2)),
            "tf.cos(d1)" => tf!(cos(d1)),
            "tf.math.erf(f3)" => tf!(erf(f3)),
            "tf.math.is_nan(f1)" => tf!(is_nan(f1)),
            "tf.math.is_finite(d1)" => tf!(is_finite(d1)),
            "tf.math.squared_difference(f4, b4)" => tf!(squared_difference(f4, b4)),
            "tf.pow(f3, 2.0)" => tf!(pow(f3, 2.0)),
            "tf.pow(l3, k4)" => tf!(pow(l3, k4)),
            "tf.math.floordiv(i3, 3)" => tf!(floordiv(i3, 3)),
            "tf.math.floordiv(f3, 0.75)" => tf!(floordiv(f3, 0.75)),
            "tf.math.floormod(i3, -5)" => tf!(floormod(i3, -5)),
            "tf.math.floormod(f1, f0)" => tf!(floormod(f1, f0)),
            "tf.reduce_prod(f3, axis=[0, 2])" => tf!(reduce_prod(f3, axis = [0, 2])),
            "tf.reduce_prod(i2, axis=1, keepdims=True)" => tf!(reduce_prod(i2, axis = 1, keepdims = true)),
            "tf.reduce_prod(z3, axis=1)" => tf!(reduce_prod(z3, axis = 1)),
            "tf.reduce_any(m4, axis=[1, -1])" => tf!(reduce_any(m4, axis = [1, -1])),
            "tf.reduce_all(m2, axis=0)" => tf!(reduce_all(m2, axis = 0)),
            "tf.argmin(f3, axis=-1)" => tf!(argmin(f3, axis = -1)),
            "tf.argmin(m2)" => tf!(argmin(m2)),
            "tf.argmin(m2, axis=1, output_type=tf.int32)" => tf!(argmin(m2, axis = 1, output_type = i32)),
        );
    });
}

#[test]
fn casts_between_every_element_type() {
    with_python(|py| {
        let i = inputs(py);
        let (f1, f3) = (input::<f32, 1>(&i, "f1"), input::<f32, 3>(&i, "f3"));
        let (i2, i3) = (input::<i32, 2>(&i, "i2"), input::<i32, 3>(&i, "i3"));
        let (l3, m4) = (input::<i64, 3>(&i, "l3"), input::<bool, 4>(&i, "m4"));
        let (d3, z3) = (input::<f64, 3>(&i, "d3"), input::<f32, 3>(&i, "z3"));
        same!(py, &names(&i),
            "tf.cast(f1, tf.int32)" => tf!(cast(f1, i32)),
            "tf.cast(f3 * 3.0, tf.int64)" => tf!(cast(tf!(f3 * 3.0).expect("scaled"), i64)),
            "tf.cast(i2, tf.float32)" => tf!(cast(i2, f32)),
            "tf.cast(i2, tf.float64)" => tf!(cast(i2, dtype = f64)),
            "tf.cast(i3, tf.int64)" => tf!(cast(i3, i64)),
            "tf.cast(l3, tf.bool)" => tf!(cast(l3, bool)),
            "tf.cast(m4, tf.float32)" => tf!(cast(m4, f32)),
            "tf.cast(m4, tf.int32)" => tf!(cast(m4, i32)),
            "tf.cast(f3, tf.float64)" => tf!(cast(f3, f64)),
            "tf.cast(d3, tf.float32)" => tf!(cast(d3, f32)),
            "tf.cast(f1, tf.float32)" => tf!(cast(f1, f32)),
            "tf.cast(z3, tf.bool)" => tf!(cast(z3, bool)),
        );
        // The plain function takes the target type as a generic parameter.
        let native = to_python(py, "ops::cast", rxt_tf::ops::cast::<f64, _>(&i2));
        let eager = eval_with(py, "tf.cast(i2, tf.float64)", &names(&i));
        assert_matches_eager(py, "ops::cast", &native, &eager);
    });
}

#[test]
fn expand_dims_adds_an_axis_anywhere() {
    with_python(|py| {
        let i = inputs(py);
        let (f0, f2) = (input::<f32, 0>(&i, "f0"), input::<f32, 2>(&i, "f2"));
        let (i3, m2) = (input::<i32, 3>(&i, "i3"), input::<bool, 2>(&i, "m2"));
        let (z3, d1) = (input::<f32, 3>(&i, "z3"), input::<f64, 1>(&i, "d1"));
        same!(py, &names(&i),
            "tf.expand_dims(f0, 0)" => tf!(expand_dims(f0, axis = 0)),
            "tf.expand_dims(f0, -1)" => tf!(expand_dims(f0, axis = -1)),
            "tf.expand_dims(f2, 1)" => tf!(expand_dims(f2, axis = 1)),
            "tf.expand_dims(f2, -1)" => tf!(expand_dims(f2, axis = -1)),
            "tf.expand_dims(f2, -3)" => tf!(expand_dims(f2, axis = -3)),
            "tf.expand_dims(i3, 3)" => tf!(expand_dims(i3, axis = 3)),
            "tf.expand_dims(m2, 0)" => tf!(expand_dims(m2, axis = 0)),
            "tf.expand_dims(z3, 1)" => tf!(expand_dims(z3, axis = 1)),
            "tf.expand_dims(d1, 1)" => tf!(expand_dims(d1, axis = 1)),
        );
        // The plain function checks the run-time axis against rank + 1.
        let err = rxt_tf::ops::expand_dims(&f2, 3)
            .map(|_| ())
            .expect_err("axis 3 of rank 2");
        assert!(
            err.to_string().contains("does not fit a rank-3 tensor"),
            "{err}"
        );
        let native = to_python(py, "ops::expand_dims", rxt_tf::ops::expand_dims(&f2, 2));
        let eager = eval_with(py, "tf.expand_dims(f2, 2)", &names(&i));
        assert_matches_eager(py, "ops::expand_dims", &native, &eager);
    });
}

#[test]
fn shape_gives_the_sizes_as_int32_or_int64() {
    with_python(|py| {
        let i = inputs(py);
        let (f0, i3) = (input::<f32, 0>(&i, "f0"), input::<i32, 3>(&i, "i3"));
        let (z3, m4) = (input::<f32, 3>(&i, "z3"), input::<bool, 4>(&i, "m4"));
        let d1 = input::<f64, 1>(&i, "d1");
        same!(py, &names(&i),
            "tf.shape(f0)" => tf!(shape(f0)),
            "tf.shape(i3)" => tf!(shape(i3)),
            "tf.shape(z3)" => tf!(shape(z3)),
            "tf.shape(m4, out_type=tf.int64)" => tf!(shape(m4, out_type = i64)),
            "tf.shape(d1, out_type=tf.int32)" => tf!(shape(d1, out_type = i32)),
        );
    });
}

#[test]
fn squeeze_removes_named_axes_of_size_one() {
    with_python(|py| {
        let i = inputs(py);
        let (s4, z3) = (input::<f32, 4>(&i, "s4"), input::<f32, 3>(&i, "z3"));
        let f3 = input::<f32, 3>(&i, "f3");
        let one = tf!(expand_dims(f3, axis = 0)).expect("a leading 1");
        let ids =
            tf!(expand_dims(tf!(cast(f3, i64)).expect("ints"), axis = -1)).expect("a trailing 1");
        same!(py, &names(&i),
            "tf.squeeze(s4, axis=0)" => tf!(squeeze(s4, axis = 0)),
            "tf.squeeze(s4, axis=[0, 2])" => tf!(squeeze(s4, axis = [0, 2])),
            "tf.squeeze(s4, axis=-2)" => tf!(squeeze(s4, axis = -2)),
            "tf.squeeze(tf.expand_dims(f3, 0), axis=0)" => tf!(squeeze(one, axis = 0)),
            "tf.squeeze(tf.expand_dims(tf.cast(f3, tf.int64), -1), axis=3)" => tf!(squeeze(ids, axis = 3)),
        );
        // An axis whose size is not 1 is eager's error, per op and fused.
        let (class, message) = common::python_error(
            py,
            pyo3::PyErr::from(
                tf!(squeeze(z3, axis = 1))
                    .and_then(|t| t.to_vec())
                    .map(|_| ())
                    .expect_err("size 0 is not 1"),
            ),
        );
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: squeeze failed: "), "{message}");
    });
}
