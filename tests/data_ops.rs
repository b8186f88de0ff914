//! The ops that move, select and accumulate data, against eager TensorFlow
//! at every element type and rank they take: running sums, reversal,
//! selection, reshapes, tiles and gathers, with zero sizes, negative axes
//! and the errors eager raises. `make test` runs it per op and again with
//! every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use common::{input, named_inputs, names, python_error, with_python};
use pyo3::prelude::*;
use rxt_tf::tf;

/// The inputs, as Python code: `name = expression`, one per line.
const INPUTS: &str = "
f0 = tf.constant(-2.5)
f1 = tf.constant([1.5, -0.0, float('nan'), float('inf'), -3.0])
f2 = tf.reshape(tf.range(-6.0, 6.0), (3, 4)) / 3.0
f3 = tf.reshape(tf.range(-12.0, 12.0), (2, 3, 4)) / 5.0
f4 = tf.reshape(tf.range(-24.0, 24.0), (2, 2, 3, 4)) / 7.0
z3 = tf.zeros((2, 0, 4))
i1 = tf.constant([3, -1, 0, 2147483647, -5])
i2 = tf.reshape(tf.range(-6, 6), (3, 4))
i4 = tf.reshape(tf.range(-24, 24), (2, 2, 3, 4))
l3 = tf.reshape(tf.range(-12, 12, dtype=tf.int64), (2, 3, 4))
m2 = tf.constant([[True, False], [False, True]])
d3 = tf.reshape(tf.range(-12.0, 12.0, dtype=tf.float64), (2, 3, 4)) / 7.0
ix0 = tf.constant(2)
ix1 = tf.constant([2, 0, -1 + 3, 1])
ix2 = tf.constant([[0, 1], [1, 0]])
lx2 = tf.constant([[3, 0, 2], [1, 1, 0]], dtype=tf.int64)
bad = tf.constant([0, 5])
neg = tf.constant([-1])
empty = tf.zeros((0,), dtype=tf.int32)
nz = tf.constant([-0.0, 0.0] * 16)
s2 = tf.constant([[3, 1, 3, -2147483648], [0, 0, -1, 2147483647]])
t2 = tf.constant([[0.5, -0.0, 0.5, float('nan')], [0.0, -1.0, float('-inf'), 0.0]])
";

/// The error a failed op gives, as Python sees it: `(class, message)`.
fn failure<T>(py: Python<'_>, result: rxt_tf::Result<T>) -> (String, String) {
    let err = result.map(|_| ()).expect_err("an error");
    python_error(py, PyErr::from(err))
}

/// `result` failed as eager does, with `InvalidArgumentError`, and its
/// message names `op`.
fn assert_fails<T>(py: Python<'_>, result: rxt_tf::Result<T>, op: &str) {
    let (class, message) = failure(py, result);
    assert_eq!(class, "InvalidArgumentError", "{message}");
    let prefix = format!("rxt-tf: {op} failed: ");
    assert!(message.starts_with(&prefix), "{message}");
}

#[test]
fn stop_gradient_cumsum_and_reverse() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f3, f4) = (input::<f32, 3>(&i, "f3"), input::<f32, 4>(&i, "f4"));
        let (i2, l3) = (input::<i32, 2>(&i, "i2"), input::<i64, 3>(&i, "l3"));
        let (m2, d3) = (input::<bool, 2>(&i, "m2"), input::<f64, 3>(&i, "d3"));
        let z3 = input::<f32, 3>(&i, "z3");
        same!(py, &names(&i),
            "tf.stop_gradient(f0)" => tf!(stop_gradient(f0)),
            "tf.stop_gradient(m2)" => tf!(stop_gradient(m2)),
            "tf.stop_gradient(l3)" => tf!(stop_gradient(l3)),
            "tf.cumsum(f1)" => tf!(cumsum(f1)),
            "tf.cumsum(f3, axis=-1)" => tf!(cumsum(f3, axis = -1)),
            "tf.cumsum(f4, axis=2, exclusive=True)" => tf!(cumsum(f4, axis = 2, exclusive = true)),
            "tf.cumsum(i2, axis=1, reverse=True)" => tf!(cumsum(i2, axis = 1, reverse = true)),
            "tf.cumsum(l3, axis=0, exclusive=True, reverse=True)" =>
                tf!(cumsum(l3, axis = 0, exclusive = true, reverse = true)),
            "tf.cumsum(d3, axis=-2)" => tf!(cumsum(d3, axis = -2)),
            "tf.cumsum(z3, axis=1)" => tf!(cumsum(z3, axis = 1)),
            "tf.reverse(f1, [0])" => tf!(reverse(f1, axis = 0)),
            "tf.reverse(f3, [0, -1])" => tf!(reverse(f3, axis = [0, -1])),
            "tf.reverse(m2, [1])" => tf!(reverse(m2, axis = 1)),
            "tf.reverse(l3, [2, 1, 0])" => tf!(reverse(l3, axis = [2, 1, 0])),
            "tf.reverse(z3, [1])" => tf!(reverse(z3, axis = [1])),
        );
        // The plain functions: a run-time axis, checked against the rank.
        same!(py, &names(&i),
            "tf.cumsum(f3, axis=1, exclusive=True)" => rxt_tf::ops::cumsum(&f3, 1, true, false),
            "tf.reverse(i2, [-1])" => rxt_tf::ops::reverse(&i2, [-1]),
        );
        let err = rxt_tf::ops::reverse(&i2, [2])
            .map(|_| ())
            .expect_err("axis 2 of rank 2");
        assert!(
            err.to_string().contains("does not fit a rank-2 tensor"),
            "{err}"
        );
    });
}

#[test]
fn where_selects_with_broadcasting_and_literals() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (i2, l3) = (input::<i32, 2>(&i, "i2"), input::<i64, 3>(&i, "l3"));
        let (m2, d3) = (input::<bool, 2>(&i, "m2"), input::<f64, 3>(&i, "d3"));
        let (z3, i4) = (input::<f32, 3>(&i, "z3"), input::<i32, 4>(&i, "i4"));
        let c2 = tf!(greater(f2, 0.0)).expect("a condition");
        let c3 = tf!(less(l3, 0)).expect("a condition");
        let c1 = tf!(is_nan(f1)).expect("a condition");
        let c0 = tf!(greater(f0, 0.0)).expect("a condition");
        let cz = tf!(greater(z3, 0.0)).expect("a condition");
        same!(py, &names(&i),
            "tf.where(f2 > 0.0, f2, -f2)" => tf!(where(c2, f2, tf!(-f2).expect("-f2"))),
            "tf.where(f2 > 0.0, f2, 0.0)" => tf!(where(c2, f2, 0.0)),
            "tf.where(f2 > 0.0, 1, i2)" => tf!(where(c2, 1, i2)),
            "tf.where(l3 < 0, l3, tf.cast(f3, tf.int64))" => tf!(where(c3, l3, tf!(cast(f3, i64)).expect("cast"))),
            "tf.where(tf.math.is_nan(f1), f0, f1)" => tf!(where(c1, f0, f1)),
            "tf.where(f0 > 0.0, d3, -1.5)" => tf!(where(c0, d3, -1.5)),
            "tf.where(m2, m2, tf.logical_not(m2))" => tf!(where(m2, m2, tf!(logical_not(m2)).expect("not"))),
            "tf.where(f0 > 0.0, i4, 7)" => tf!(where(c0, i4, 7)),
            "tf.where(z3 > 0.0, z3, f0)" => tf!(where(cz, z3, f0)),
            "tf.where(f2 > 0.0, f2, f0)" => rxt_tf::ops::r#where(&c2, &f2, &f0),
        );
        // Shapes that do not broadcast: eager's class, per op and fused.
        assert_fails(
            py,
            tf!(where(c1, f2, 0.0)).and_then(|t| t.to_vec()),
            "where",
        );
    });
}

#[test]
fn reshape_with_literal_and_run_time_sizes() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f2) = (input::<f32, 0>(&i, "f0"), input::<f32, 2>(&i, "f2"));
        let (f4, i4) = (input::<f32, 4>(&i, "f4"), input::<i32, 4>(&i, "i4"));
        let (l3, m2) = (input::<i64, 3>(&i, "l3"), input::<bool, 2>(&i, "m2"));
        let (z3, d3) = (input::<f32, 3>(&i, "z3"), input::<f64, 3>(&i, "d3"));
        let (batch, heads): (usize, i64) = (2, 2);
        let width = 12_i32;
        same!(py, &names(&i),
            "tf.reshape(f2, (2, -1))" => tf!(reshape(f2, [2, -1])),
            "tf.reshape(f2, (-1,))" => tf!(reshape(f2, [-1])),
            "tf.reshape(f0, (1, 1, 1, 1))" => tf!(reshape(f0, [1, 1, 1, 1])),
            "tf.reshape(tf.reshape(f0, (1,)), ())" => tf!(reshape(tf!(reshape(f0, [1])).expect("[1]"), [])),
            "tf.reshape(f4, (2, 2, 2, -1))" => tf!(reshape(f4, [batch, heads, 2, -1])),
            "tf.reshape(i4, (2, 24))" => tf!(reshape(i4, [batch, width * 2])),
            "tf.reshape(l3, (4, 6))" => tf!(reshape(l3, [4, 6])),
            "tf.reshape(m2, (4,))" => tf!(reshape(m2, [4])),
            "tf.reshape(z3, (0, 5, -1))" => tf!(reshape(z3, [0, 5, -1])),
            "tf.reshape(d3, (3, 8))" => tf!(reshape(d3, [3, heads * 4])),
            "tf.reshape(f2, (6, 2))" => rxt_tf::ops::reshape(&f2, &rxt_tf::ops::Dims([6, 2])),
        );
        // Sizes that do not fit the elements: eager's error, per op and fused.
        assert_fails(
            py,
            tf!(reshape(f2, [5, -1])).and_then(|t| t.to_vec()),
            "reshape",
        );
        let huge = usize::MAX;
        assert_fails(
            py,
            tf!(reshape(f2, [huge, 1])).and_then(|t| t.to_vec()),
            "reshape",
        );
    });
}

#[test]
fn tile_repeats_along_each_axis() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f1, f3) = (input::<f32, 1>(&i, "f1"), input::<f32, 3>(&i, "f3"));
        let (i2, m2) = (input::<i32, 2>(&i, "i2"), input::<bool, 2>(&i, "m2"));
        let (z3, l3) = (input::<f32, 3>(&i, "z3"), input::<i64, 3>(&i, "l3"));
        let times = 3_usize;
        same!(py, &names(&i),
            "tf.tile(f1, (2,))" => tf!(tile(f1, [2])),
            "tf.tile(f3, (1, 2, 3))" => tf!(tile(f3, [1, 2, times])),
            "tf.tile(i2, (0, 2))" => tf!(tile(i2, [0, 2])),
            "tf.tile(m2, (2, 1))" => tf!(tile(m2, [2, 1])),
            "tf.tile(z3, (2, 2, 2))" => tf!(tile(z3, [2, 2, 2])),
            "tf.tile(l3, (1, 1, 2))" => rxt_tf::ops::tile(&l3, &rxt_tf::ops::Dims([1, 1, 2])),
        );
        let minus = -1_i64;
        assert_fails(
            py,
            tf!(tile(i2, [minus, 1])).and_then(|t| t.to_vec()),
            "tile",
        );
    });
}

#[test]
fn gather_and_embedding_lookup() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f1, f2) = (input::<f32, 1>(&i, "f1"), input::<f32, 2>(&i, "f2"));
        let (f3, i2) = (input::<f32, 3>(&i, "f3"), input::<i32, 2>(&i, "i2"));
        let (m2, d3) = (input::<bool, 2>(&i, "m2"), input::<f64, 3>(&i, "d3"));
        let (l3, z3) = (input::<i64, 3>(&i, "l3"), input::<f32, 3>(&i, "z3"));
        let (ix0, ix1) = (input::<i32, 0>(&i, "ix0"), input::<i32, 1>(&i, "ix1"));
        let (ix2, lx2) = (input::<i32, 2>(&i, "ix2"), input::<i64, 2>(&i, "lx2"));
        let (bad, neg) = (input::<i32, 1>(&i, "bad"), input::<i32, 1>(&i, "neg"));
        let empty = input::<i32, 1>(&i, "empty");
        same!(py, &names(&i),
            "tf.gather(f1, ix1)" => tf!(gather(f1, ix1)),
            "tf.gather(f2, ix0)" => tf!(gather(f2, ix0)),
            "tf.gather(f2, ix2, axis=1)" => tf!(gather(f2, ix2, axis = 1)),
            "tf.gather(f3, lx2, axis=-1)" => tf!(gather(f3, lx2, axis = -1)),
            "tf.gather(i2, ix1, axis=1)" => tf!(gather(i2, ix1, axis = 1)),
            "tf.gather(m2, ix2)" => tf!(gather(m2, ix2)),
            "tf.gather(d3, ix2, axis=1, batch_dims=1)" => tf!(gather(d3, ix2, axis = 1, batch_dims = 1)),
            "tf.gather(l3, lx2, axis=2, batch_dims=1)" => tf!(gather(l3, lx2, axis = 2, batch_dims = 1)),
            "tf.gather(z3, empty, axis=2)" => tf!(gather(z3, empty, axis = 2)),
            "tf.gather(f2, empty)" => tf!(gather(f2, empty)),
            "tf.nn.embedding_lookup(f2, ix2)" => tf!(embedding_lookup(f2, ix2)),
            "tf.nn.embedding_lookup(i2, ix2)" => tf!(embedding_lookup(i2, ix2)),
            "tf.nn.embedding_lookup(l3, lx2 % 2)" => tf!(embedding_lookup(l3, tf!(floormod(lx2, 2)).expect("ids"))),
            "tf.gather(f3, ix1, axis=1)" => rxt_tf::ops::gather::<0, _, _>(&f3, &ix1, 1),
            "tf.nn.embedding_lookup(f2, ix1)" => rxt_tf::ops::embedding_lookup(&f2, &ix1),
        );
        // Out-of-range and negative indices: eager's class, per op and fused.
        for (what, result) in [
            (
                "out of range",
                tf!(gather(f2, bad)).and_then(|t| t.to_vec()),
            ),
            ("negative", tf!(gather(f2, neg)).and_then(|t| t.to_vec())),
        ] {
            let (class, message) = failure(py, result);
            assert_eq!(class, "InvalidArgumentError", "{what}: {message}");
            assert!(
                message.starts_with("rxt-tf: gather failed: "),
                "{what}: {message}"
            );
        }
        let (class, message) = failure(py, tf!(embedding_lookup(f2, bad)).and_then(|t| t.to_vec()));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: embedding_lookup failed: "),
            "{message}"
        );
        // A run-time axis out of range is the op's error before it runs.
        let err = rxt_tf::ops::gather::<0, _, _>(&f2, &ix1, 2)
            .map(|_| ())
            .expect_err("axis 2 of rank 2");
        assert!(
            err.to_string().contains("does not fit a rank-2 tensor"),
            "{err}"
        );
    });
}

#[test]
fn slice_windows_per_axis() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f1, f2) = (input::<f32, 1>(&i, "f1"), input::<f32, 2>(&i, "f2"));
        let (f4, i2) = (input::<f32, 4>(&i, "f4"), input::<i32, 2>(&i, "i2"));
        let (m2, l3) = (input::<bool, 2>(&i, "m2"), input::<i64, 3>(&i, "l3"));
        let z3 = input::<f32, 3>(&i, "z3");
        let start = 1_usize;
        same!(py, &names(&i),
            "tf.slice(f1, (1,), (3,))" => tf!(slice(f1, [1], [3])),
            "tf.slice(f2, (0, 1), (2, -1))" => tf!(slice(f2, [0, start], [2, -1])),
            "tf.slice(f4, (1, 0, 1, 2), (1, -1, 2, 2))" => tf!(slice(f4, [1, 0, 1, 2], [1, -1, 2, 2])),
            "tf.slice(i2, (2, 0), (0, 4))" => tf!(slice(i2, [2, 0], [0, 4])),
            "tf.slice(m2, (1, 1), (1, 1))" => tf!(slice(m2, [1, 1], [1, 1])),
            "tf.slice(l3, (0, 1, 0), (-1, -1, 2))" => tf!(slice(l3, [0, 1, 0], [-1, -1, 2])),
            "tf.slice(z3, (0, 0, 1), (2, 0, 3))" => tf!(slice(z3, [0, 0, 1], [2, 0, 3])),
            "tf.slice(f2, (1, 1), (1, 2))" => rxt_tf::ops::slice(&f2, &rxt_tf::ops::Dims([1, 1]), &rxt_tf::ops::Dims([1, 2])),
        );
        // A window past the end: eager's class, per op and fused.
        assert_fails(
            py,
            tf!(slice(f2, [2, start], [2, 1])).and_then(|t| t.to_vec()),
            "slice",
        );
    });
}

#[test]
fn concat_and_stack_lists_of_tensors() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (i2, m2) = (input::<i32, 2>(&i, "i2"), input::<bool, 2>(&i, "m2"));
        let (l3, z3) = (input::<i64, 3>(&i, "l3"), input::<f32, 3>(&i, "z3"));
        let d3 = input::<f64, 3>(&i, "d3");
        let twice = tf!(f2 * 2.0).expect("a second tensor");
        same!(py, &names(&i),
            "tf.concat([f1, f1], 0)" => tf!(concat([f1, f1], axis = 0)),
            "tf.concat([f2, f2 * 2.0, f2], axis=1)" => tf!(concat([f2, twice, &f2], axis = 1)),
            "tf.concat([f2, f2], -2)" => tf!(concat([f2, f2], -2)),
            "tf.concat([f3, z3, f3], axis=1)" => tf!(concat([f3, z3, f3], axis = 1)),
            "tf.concat([i2, i2, i2, i2, i2, i2, i2, i2], 0)" => tf!(concat([i2, i2, i2, i2, i2, i2, i2, i2], axis = 0)),
            "tf.concat([m2, m2], 1)" => tf!(concat([m2, m2], axis = 1)),
            "tf.concat([l3, l3], 2)" => tf!(concat([l3, l3], axis = 2)),
            "tf.concat([d3, d3], 0)" => tf!(concat([d3, d3], axis = 0)),
            "tf.stack([f0, f0, f0])" => tf!(stack([f0, f0, f0])),
            "tf.stack([f2, f2 * 2.0], axis=1)" => tf!(stack([f2, twice], axis = 1)),
            "tf.stack([f2, f2], axis=-1)" => tf!(stack([f2, f2], axis = -1)),
            "tf.stack([f3, f3], axis=3)" => tf!(stack([f3, f3], axis = 3)),
            "tf.stack([m2, m2], axis=0)" => tf!(stack([m2, m2], axis = 0)),
            "tf.stack([z3, z3], axis=1)" => tf!(stack([z3, z3], axis = 1)),
            "tf.concat([i2, i2], 1)" => rxt_tf::ops::concat(&rxt_tf::ops::TensorList::new([&i2, &i2]), 1),
            "tf.stack([l3, l3], 1)" => rxt_tf::ops::stack(&rxt_tf::ops::TensorList::new([&l3, &l3]), 1),
        );
        // Sizes that do not agree off the axis: eager's class, per op and fused.
        let (class, message) = failure(
            py,
            tf!(concat([f2, f2], axis = 0))
                .and_then(|t| tf!(concat([t, tf!(transpose(f2))?], axis = 0))?.to_vec()),
        );
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: concat failed: "), "{message}");
        let (class, message) = failure(
            py,
            tf!(stack([f2, tf!(transpose(f2)).expect("t")])).and_then(|t| t.to_vec()),
        );
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: stack failed: "), "{message}");
        // The plain functions check the list's length when they run.
        let err = rxt_tf::ops::concat(&rxt_tf::ops::TensorList::new([&i2]), 0)
            .map(|_| ())
            .expect_err("one tensor");
        assert!(
            err.to_string()
                .contains("takes a list of 2 to 8 tensors, got 1"),
            "{err}"
        );
    });
}

#[test]
fn python_indexing_in_tf() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, i2) = (input::<f32, 4>(&i, "f4"), input::<i32, 2>(&i, "i2"));
        let (m2, l3) = (input::<bool, 2>(&i, "m2"), input::<i64, 3>(&i, "l3"));
        let (z3, d3) = (input::<f32, 3>(&i, "z3"), input::<f64, 3>(&i, "d3"));
        let (row, last): (usize, i64) = (1, -1);
        let mut calls = 0;
        let mut next = || {
            calls += 1;
            2_i32
        };
        same!(py, &names(&i),
            "f2[:, 0]" => tf!(f2[:, 0]),
            "f3[..., 1:3]" => tf!(f3[..., 1:3]),
            "f3[:, -1, :]" => tf!(f3[:, -1, :]),
            "f2[:, None]" => tf!(f2[:, None]),
            "f1[::2]" => tf!(f1[::2]),
            "f1[::-1]" => tf!(f1[::-1]),
            "f2[:, 1]" => tf!(f2[:, row]),
            "f2[-1]" => tf!(f2[last]),
            "f0[None, None]" => tf!(f0[None, None]),
            "f0[...]" => tf!(f0[...]),
            "f4[1, ..., ::2, None]" => tf!(f4[1, ..., ::2, None]),
            "f4[:, :, 0, 0]" => tf!(f4[:, :, 0, 0]),
            "i2[1:, -2:]" => tf!(i2[1:, -2:]),
            "i2[-1:0:-1, 1::2]" => tf!(i2[-1:0:-1, 1::2]),
            "m2[0]" => tf!(m2[0]),
            "l3[..., 0]" => tf!(l3[..., 0]),
            "l3[1, 2, 3]" => tf!(l3[1, 2, 3]),
            "z3[:, 0:0, :]" => tf!(z3[:, 0:0, :]),
            "z3[1]" => tf!(z3[1]),
            "d3[:, 2]" => tf!(d3[:, next()]),
            "tf.nn.relu(f2)[1:]" => tf!(tf!(relu(f2)).expect("relu")[1:]),
            "f2[:, 1:3]" => tf!(f2[:, 1:(row as i64 + 2)]),
        );
        assert_eq!(calls, 1, "a run-time index is evaluated once");
        // Out-of-range indices: eager's class and message, per op and fused.
        for (what, result) in [
            ("f2[3]", tf!(f2[3]).and_then(|t| t.to_vec())),
            ("f2[:, -5]", tf!(f2[:, -5]).and_then(|t| t.to_vec())),
            (
                "f1[::0]",
                tf!(f1[::(row as i64 - 1)]).and_then(|t| t.to_vec()),
            ),
        ] {
            let (class, message) = failure(py, result);
            assert_eq!(class, "InvalidArgumentError", "{what}: {message}");
            assert!(
                message.starts_with("rxt-tf: strided_slice failed: "),
                "{what}: {message}"
            );
        }
    });
}

#[test]
fn split_unstack_and_top_k_give_several_tensors() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f1, f2) = (input::<f32, 1>(&i, "f1"), input::<f32, 2>(&i, "f2"));
        let (f3, i2) = (input::<f32, 3>(&i, "f3"), input::<i32, 2>(&i, "i2"));
        let (m2, l3) = (input::<bool, 2>(&i, "m2"), input::<i64, 3>(&i, "l3"));
        let (z3, d3) = (input::<f32, 3>(&i, "z3"), input::<f64, 3>(&i, "d3"));
        let names = names(&i);
        let check = |what: &str, native: rxt_tf::Result<Vec<Bound<'_, PyAny>>>| {
            let native = native.unwrap_or_else(|err| panic!("{what}: {err}"));
            let eager = common::eval_with(py, what, &names);
            let eager: Vec<Bound<'_, PyAny>> = eager
                .try_iter()
                .expect("a sequence")
                .map(|item| item.expect("an item"))
                .collect();
            assert_eq!(native.len(), eager.len(), "{what}");
            for (n, e) in native.iter().zip(&eager) {
                common::assert_matches_eager(py, what, n, e);
            }
        };
        macro_rules! list {
            ($result:expr) => {
                $result.map(|tensors| {
                    tensors
                        .into_iter()
                        .map(|t| t.into_pyobject(py).expect("to Python"))
                        .collect::<Vec<_>>()
                })
            };
        }
        check(
            "tf.split(f2, 2, axis=1)",
            list!(tf!(split(f2, 2, axis = 1))),
        );
        check("tf.split(f1, 5)", list!(tf!(split(f1, 5))));
        check(
            "tf.split(f3, 3, axis=-2)",
            list!(tf!(split(f3, 3, axis = -2))),
        );
        check(
            "tf.split(i2, 1, axis=0)",
            list!(tf!(split(i2, 1, axis = 0))),
        );
        check("tf.split(m2, 2)", list!(tf!(split(m2, 2))));
        check(
            "tf.split(z3, 2, axis=2)",
            list!(tf!(split(z3, 2, axis = 2))),
        );
        check("tf.unstack(f2, num=3)", list!(tf!(unstack(f2, num = 3))));
        check(
            "tf.unstack(l3, num=4, axis=-1)",
            list!(tf!(unstack(l3, num = 4, axis = -1))),
        );
        check("tf.unstack(d3, num=2)", list!(tf!(unstack(d3, num = 2))));
        check(
            "tf.unstack(z3, num=0, axis=1)",
            list!(tf!(unstack(z3, num = 0, axis = 1))),
        );
        let pair = |result: rxt_tf::Result<(rxt_tf::TensorF32Cpu2D, rxt_tf::TensorI32Cpu2D)>| {
            result.map(|(values, indices)| {
                vec![
                    values.into_pyobject(py).expect("values"),
                    indices.into_pyobject(py).expect("indices"),
                ]
            })
        };
        check("tf.math.top_k(f2, k=2)", pair(tf!(top_k(f2, k = 2))));
        check(
            "tf.math.top_k(f2, k=4, sorted=True)",
            pair(tf!(top_k(f2, k = 4, sorted = true))),
        );
        let (values, indices) = tf!(top_k(l3, k = 1)).expect("top_k of int64");
        common::assert_matches_eager(
            py,
            "values",
            &values.into_pyobject(py).expect("py"),
            &common::eval_with(py, "tf.math.top_k(l3, k=1).values", &names),
        );
        common::assert_matches_eager(
            py,
            "indices",
            &indices.into_pyobject(py).expect("py"),
            &common::eval_with(py, "tf.math.top_k(l3, k=1).indices", &names),
        );
        // Parts that do not divide, and a count that does not match: eager's class.
        assert_fails(py, tf!(split(f2, 3, axis = 1)), "split");
        assert_fails(py, tf!(unstack(f2, num = 2)), "unstack");
        assert_fails(py, tf!(top_k(f1, k = 6)), "top_k");
        // After pending ops of a fused body, the ops before run first.
        let h = tf!(f2 * 2.0).expect("recorded");
        let [a, b] = tf!(split(h, 2, axis = 1)).expect("split");
        check(
            "tf.split(f2 * 2.0, 2, axis=1)",
            Ok(vec![
                a.into_pyobject(py).expect("a"),
                b.into_pyobject(py).expect("b"),
            ]),
        );
    });
}

#[test]
fn one_hot_vectors_along_a_new_axis() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (ix0, ix1) = (input::<i32, 0>(&i, "ix0"), input::<i32, 1>(&i, "ix1"));
        let (ix2, lx2) = (input::<i32, 2>(&i, "ix2"), input::<i64, 2>(&i, "lx2"));
        let (bad, neg) = (input::<i32, 1>(&i, "bad"), input::<i32, 1>(&i, "neg"));
        let depth = 4_usize;
        same!(py, &names(&i),
            "tf.one_hot(ix1, 3)" => tf!(one_hot(ix1, 3)),
            "tf.one_hot(ix0, 4)" => tf!(one_hot(ix0, depth)),
            "tf.one_hot(ix2, 2, axis=0)" => tf!(one_hot(ix2, 2, axis = 0)),
            "tf.one_hot(lx2, 4, axis=1)" => tf!(one_hot(lx2, depth, axis = 1)),
            "tf.one_hot(lx2, 4, on_value=5.0, off_value=-1.0)" =>
                tf!(one_hot(lx2, 4, on_value = 5.0, off_value = -1.0)),
            "tf.one_hot(bad, 3)" => tf!(one_hot(bad, 3)),
            "tf.one_hot(neg, 3)" => tf!(one_hot(neg, 3)),
            "tf.one_hot(ix1, 0)" => tf!(one_hot(ix1, 0)),
            "tf.one_hot(ix1, 3, axis=0)" => rxt_tf::ops::one_hot(&ix1, &rxt_tf::ops::Size(3), 1.0, 0.0, 0),
        );
        // A negative depth: eager's class, per op and fused.
        let minus = -1_i64;
        assert_fails(
            py,
            tf!(one_hot(ix1, minus)).and_then(|t| t.to_vec()),
            "one_hot",
        );
    });
}

#[test]
fn pad_with_a_constant_or_the_mirror_image() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f1, f2) = (input::<f32, 1>(&i, "f1"), input::<f32, 2>(&i, "f2"));
        let (f3, i2) = (input::<f32, 3>(&i, "f3"), input::<i32, 2>(&i, "i2"));
        let (m2, l3) = (input::<bool, 2>(&i, "m2"), input::<i64, 3>(&i, "l3"));
        let (z3, d3) = (input::<f32, 3>(&i, "z3"), input::<f64, 3>(&i, "d3"));
        let wide = 2_usize;
        same!(py, &names(&i),
            "tf.pad(f1, [[1, 2]])" => tf!(pad(f1, [[1, 2]])),
            "tf.pad(f2, [[0, 1], [2, 0]], constant_values=-1.5)" => tf!(pad(f2, [[0, 1], [wide, 0]], constant_values = -1.5)),
            "tf.pad(f3, [[0, 0], [1, 1], [0, 2]], mode='CONSTANT')" => tf!(pad(f3, [[0, 0], [1, 1], [0, 2]], mode = "CONSTANT")),
            "tf.pad(i2, [[1, 1], [1, 1]], constant_values=7)" => tf!(pad(i2, [[1, 1], [1, 1]], constant_values = 7)),
            "tf.pad(m2, [[1, 0], [0, 1]])" => tf!(pad(m2, [[1, 0], [0, 1]])),
            "tf.pad(m2, [[1, 0], [0, 1]], constant_values=True)" => tf!(pad(m2, [[1, 0], [0, 1]], constant_values = 1)),
            "tf.pad(d3, [[1, 0], [0, 0], [0, 0]], constant_values=2)" => tf!(pad(d3, [[1, 0], [0, 0], [0, 0]], constant_values = 2)),
            "tf.pad(z3, [[1, 0], [2, 2], [0, 0]])" => tf!(pad(z3, [[1, 0], [2, 2], [0, 0]])),
            "tf.pad(f2, [[1, 1], [2, 2]], mode='REFLECT')" => tf!(mirror_pad(f2, [[1, 1], [wide, 2]], mode = "REFLECT")),
            "tf.pad(l3, [[1, 1], [0, 3], [4, 0]], mode='SYMMETRIC')" => tf!(mirror_pad(l3, [[1, 1], [0, 3], [4, 0]], mode = "SYMMETRIC")),
            "tf.pad(i2, [[0, 2], [1, 0]], constant_values=3)" => rxt_tf::ops::pad(&i2, &rxt_tf::ops::Pairs([[0, 2], [1, 0]]), 3.0),
            "tf.pad(f2, [[0, 1], [1, 1]], mode='REFLECT')" => tf!(pad(f2, [[0, 1], [1, 1]], mode = "REFLECT")),
            "tf.pad(d3, [[1, 1], [0, 1], [2, 3]], mode='SYMMETRIC')" => tf!(pad(d3, [[1, 1], [0, 1], [2, 3]], mode = "SYMMETRIC")),
            "tf.pad(f1, [[2, 2]], mode='SYMMETRIC')" => rxt_tf::ops::mirror_pad(&f1, &rxt_tf::ops::Pairs([[2, 2]]), "SYMMETRIC"),
        );
        // A mirror wider than the axis: eager's class, per op and fused.
        let (class, message) = failure(
            py,
            tf!(mirror_pad(f2, [[3, 0], [0, 0]], mode = "REFLECT")).and_then(|t| t.to_vec()),
        );
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: mirror_pad failed: "),
            "{message}"
        );
        let err = rxt_tf::ops::mirror_pad(&f1, &rxt_tf::ops::Pairs([[1, 1]]), "EDGE")
            .map(|_| ())
            .expect_err("no such mode");
        assert!(
            err.to_string()
                .contains("`mode` must be `\"REFLECT\"` or `\"SYMMETRIC\"`"),
            "{err}"
        );
    });
}

#[test]
fn fill_zeros_ones_and_range_make_tensors() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let f0 = input::<f32, 0>(&i, "f0");
        let (rows, n): (usize, i64) = (2, 5);
        same!(py, &names(&i),
            "tf.fill((2, 3), 0.5)" => tf!(fill([rows, 3], 0.5)),
            "tf.fill((4,), 7)" => tf!(fill([4], 7)),
            "tf.fill((2, 0, 1), f0)" => tf!(fill([2, 0, 1], f0)),
            "tf.fill((), tf.constant(3, tf.int64))" => tf!(fill([], rxt_tf::ops::Scalar(3_i64))),
            "tf.fill((1, 1, 2, 2), True)" => tf!(fill([1, 1, 2, 2], rxt_tf::ops::Scalar(true))),
            "tf.zeros((2, 3))" => tf!(zeros([rows, 3])),
            "tf.zeros((3,), tf.int64)" => tf!(zeros([3], i64)),
            "tf.zeros((2, 2), tf.bool)" => tf!(zeros([2, 2], dtype = bool)),
            "tf.ones((2, 1, 3))" => tf!(ones([2, 1, 3])),
            "tf.ones((4,), tf.float64)" => tf!(ones([4], f64)),
            "tf.ones((2,), tf.bool)" => tf!(ones([2], bool)),
            "tf.range(0, 5, 1)" => tf!(range(0, 5, 1)),
            "tf.range(1, 10, 3)" => tf!(range(1, 10, 3)),
            "tf.range(0.0, 1.0, 0.25)" => tf!(range(0.0, 1.0, 0.25)),
            "tf.range(0, 2, 0.5)" => tf!(range(0, 2, 0.5)),
            "tf.range(5, 0, -2)" => tf!(range(5, 0, -2)),
            "tf.range(0, tf.constant(5, tf.int64), 1)" => tf!(range(0, rxt_tf::ops::Scalar(n), 1)),
            "tf.range(f0, 1.0, 0.5)" => tf!(range(f0, 1.0, 0.5)),
            "tf.zeros((2, 3), tf.int32)" => rxt_tf::ops::zeros::<i32, _>(&rxt_tf::ops::Dims([2, 3])),
        );
        // A zero step: eager's class, per op and fused.
        let zero = 0_i32;
        let (class, message) = failure(
            py,
            tf!(range(0, 5, rxt_tf::ops::Scalar(zero))).and_then(|t| t.to_vec()),
        );
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: range failed: "), "{message}");
        let minus = -1_i64;
        assert_fails(py, tf!(zeros([2, minus])).and_then(|t| t.to_vec()), "zeros");
    });
}

#[test]
fn split_into_parts_of_given_sizes() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f2, l3) = (input::<f32, 2>(&i, "f2"), input::<i64, 3>(&i, "l3"));
        let names = names(&i);
        let check = |what: &str, native: Vec<Bound<'_, PyAny>>| {
            let eager: Vec<Bound<'_, PyAny>> = common::eval_with(py, what, &names)
                .try_iter()
                .expect("a sequence")
                .map(|item| item.expect("an item"))
                .collect();
            assert_eq!(native.len(), eager.len(), "{what}");
            for (n, e) in native.iter().zip(&eager) {
                common::assert_matches_eager(py, what, n, e);
            }
        };
        let first = 1_usize;
        let [a, b] = tf!(split(f2, [first, -1], axis = 1)).expect("split_v");
        check(
            "tf.split(f2, [1, -1], axis=1)",
            vec![
                a.into_pyobject(py).expect("a"),
                b.into_pyobject(py).expect("b"),
            ],
        );
        let [a, b, c] = tf!(split(l3, [1, 0, 3], axis = -1)).expect("split_v");
        check(
            "tf.split(l3, [1, 0, 3], axis=-1)",
            vec![
                a.into_pyobject(py).expect("a"),
                b.into_pyobject(py).expect("b"),
                c.into_pyobject(py).expect("c"),
            ],
        );
        let [a] = rxt_tf::ops::split_v(&f2, &rxt_tf::ops::Dims([3]), 0).expect("split_v");
        check("tf.split(f2, [3])", vec![a.into_pyobject(py).expect("a")]);
        // Sizes that do not add up: eager's class, per op and fused.
        assert_fails(py, tf!(split(f2, [1, 1], axis = 0)), "split_v");
    });
}

#[test]
fn clip_by_value_between_scalar_bounds() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let f1 = input::<f32, 1>(&i, "f1");
        let (f4, i2) = (input::<f32, 4>(&i, "f4"), input::<i32, 2>(&i, "i2"));
        let (l3, d3) = (input::<i64, 3>(&i, "l3"), input::<f64, 3>(&i, "d3"));
        let z3 = input::<f32, 3>(&i, "z3");
        let lo = input::<f32, 0>(&i, "f0");
        let nz = input::<f32, 1>(&i, "nz");
        let top = 3_i64;
        same!(py, &names(&i),
            "tf.clip_by_value(f1, -1.0, 2.0)" => tf!(clip_by_value(f1, -1.0, 2.0)),
            "tf.clip_by_value(f1, 2.0, -1.0)" => tf!(clip_by_value(f1, 2.0, -1.0)),
            "tf.clip_by_value(f4, f0, 0.5)" => tf!(clip_by_value(f4, lo, 0.5)),
            "tf.clip_by_value(i2, -2, 4)" => tf!(clip_by_value(i2, -2, 4)),
            "tf.clip_by_value(l3, 0, tf.constant(3, tf.int64))" => tf!(clip_by_value(l3, 0, rxt_tf::ops::Scalar(top))),
            "tf.clip_by_value(d3, -0.5, 0.5)" => tf!(clip_by_value(d3, -0.5, 0.5)),
            "tf.clip_by_value(z3, 0.0, 1.0)" => tf!(clip_by_value(z3, 0.0, 1.0)),
            // Where a ClipByValue kernel would differ from eager's
            // minimum-then-maximum: a NaN bound, and zeros of both signs
            // (eager's vectorized path).
            "tf.clip_by_value(f1, float('nan'), 1.5)" =>
                tf!(clip_by_value(f1, rxt_tf::ops::Scalar(f32::NAN), 1.5)),
            "tf.clip_by_value(nz, -1.0, 0.0)" => tf!(clip_by_value(nz, -1.0, 0.0)),
            "tf.clip_by_value(nz, 0.0, 1.0)" => tf!(clip_by_value(nz, 0.0, 1.0)),
        );
    });
}

#[test]
fn sort_and_argsort_along_any_axis() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f1, f3) = (input::<f32, 1>(&i, "f1"), input::<f32, 3>(&i, "f3"));
        let (f4, i2) = (input::<f32, 4>(&i, "f4"), input::<i32, 2>(&i, "i2"));
        let (l3, d3) = (input::<i64, 3>(&i, "l3"), input::<f64, 3>(&i, "d3"));
        let (s2, t2) = (input::<i32, 2>(&i, "s2"), input::<f32, 2>(&i, "t2"));
        let z3 = input::<f32, 3>(&i, "z3");
        same!(py, &names(&i),
            "tf.sort(f1)" => tf!(sort(f1)),
            "tf.sort(f1, direction='DESCENDING')" => tf!(sort(f1, direction = "DESCENDING")),
            "tf.sort(t2)" => tf!(sort(t2)),
            "tf.sort(t2, axis=0)" => tf!(sort(t2, axis = 0)),
            "tf.sort(t2, axis=0, direction='DESCENDING')" =>
                tf!(sort(t2, axis = 0, direction = "DESCENDING")),
            "tf.sort(s2)" => tf!(sort(s2)),
            "tf.sort(s2, axis=0)" => tf!(sort(s2, axis = 0)),
            "tf.sort(s2, direction='DESCENDING')" => tf!(sort(s2, direction = "DESCENDING")),
            "tf.sort(i2, axis=-2)" => tf!(sort(i2, axis = -2)),
            "tf.sort(f3, axis=1)" => tf!(sort(f3, axis = 1)),
            "tf.sort(f4, axis=0, direction='DESCENDING')" =>
                tf!(sort(f4, axis = 0, direction = "DESCENDING")),
            "tf.sort(l3, axis=-1)" => tf!(sort(l3, axis = -1)),
            "tf.sort(d3, axis=0)" => tf!(sort(d3, axis = 0)),
            "tf.sort(z3, axis=1)" => tf!(sort(z3, axis = 1)),
            "tf.argsort(f1)" => tf!(argsort(f1)),
            "tf.argsort(t2, direction='DESCENDING')" => tf!(argsort(t2, direction = "DESCENDING")),
            "tf.argsort(t2, axis=0)" => tf!(argsort(t2, axis = 0)),
            "tf.argsort(s2)" => tf!(argsort(s2)),
            "tf.argsort(s2, axis=0, direction='DESCENDING')" =>
                tf!(argsort(s2, axis = 0, direction = "DESCENDING")),
            "tf.argsort(f4, axis=2)" => tf!(argsort(f4, axis = 2)),
            "tf.argsort(l3, axis=0)" => tf!(argsort(l3, axis = 0)),
            "tf.argsort(z3, axis=-1)" => tf!(argsort(z3, axis = -1)),
            "tf.sort(f3, axis=0)" => rxt_tf::ops::sort(&f3, 0, "ASCENDING"),
            "tf.argsort(i2, direction='DESCENDING')" =>
                rxt_tf::ops::argsort(&i2, -1, "DESCENDING"),
        );
        // A direction the plain function does not know: a keyword error.
        let err = rxt_tf::ops::sort(&f3, 0, "UP").expect_err("an unknown direction");
        assert!(err.to_string().contains("direction"), "{err}");
        // After pending ops of a fused body: they run first.
        let h = tf!(t2 * 2.0).expect("recorded");
        let sorted = tf!(sort(h, axis = 0)).expect("sort");
        common::assert_matches_eager(
            py,
            "sort of a pending tensor",
            &sorted.into_pyobject(py).expect("py"),
            &common::eval_with(py, "tf.sort(t2 * 2.0, axis=0)", &names(&i)),
        );
    });
}

#[test]
fn eye_makes_identity_matrices() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let n = 4_usize;
        same!(py, &names(&i),
            "tf.eye(3)" => tf!(eye(3)),
            "tf.eye(4, dtype=tf.float64)" => tf!(eye(n, dtype = f64)),
            "tf.eye(2, dtype=tf.int32)" => tf!(eye(2, dtype = i32)),
            "tf.eye(1, dtype=tf.int64)" => tf!(eye(1, dtype = i64)),
            "tf.eye(3, dtype=tf.bool)" => tf!(eye(3, dtype = bool)),
            "tf.eye(0)" => tf!(eye(0)),
            "tf.eye(2, dtype=tf.int32)" => rxt_tf::ops::eye::<i32, _>(&rxt_tf::ops::Size(2)),
        );
        // A negative size: eager's class, per op and fused.
        let minus = -1_i64;
        assert_fails(py, tf!(eye(minus)).and_then(|t| t.to_vec()), "eye");
    });
}
