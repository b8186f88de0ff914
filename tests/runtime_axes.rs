//! Axes and permutations given as Rust values inside `tf!` (`axis = k`,
//! `axis = [a, 1]`, `perm = [p, q, r]`, `axes = [a]`): their count types
//! the call, their values are checked against the rank when the op runs.
//! Floats, image sizes and texts given as Rust values (`variance_epsilon =
//! self.epsilon`, `strides = [s[0], s[1]]`, `padding = self.padding`) too,
//! checked when the op runs. Compared with eager TensorFlow per op and fused, and
//! with the errors eager raises for an axis out of range. `make test` runs
//! it per op and again with every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use std::sync::Mutex;

use common::{input, named_inputs, names, python_error, with_python};
use pyo3::prelude::*;
use rxt_tf::tf;

/// Held by each test: one counts the functions fused calls build.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `f` with the GIL, one test of this file at a time.
fn serially(f: impl for<'py> FnOnce(Python<'py>)) {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    with_python(f);
}

const INPUTS: &str = "
f2 = tf.reshape(tf.range(-6.0, 6.0), (3, 4)) / 3.0
f3 = tf.reshape(tf.range(-12.0, 12.0), (2, 3, 4)) / 5.0
i3 = tf.reshape(tf.range(-12, 12), (2, 3, 4))
ix1 = tf.constant([2, 0, 1])
m4 = tf.constant([0.5, -1.0, 0.25, 2.0])
v4 = tf.constant([1.0, 0.5, 2.0, 0.0])
o4 = tf.constant([0.1, 0.2, -0.3, 0.4])
s4 = tf.constant([1.5, -0.5, 1.0, 2.0])
img = tf.reshape(tf.range(-50.0, 50.0), (1, 5, 5, 4)) / 9.0
vol = tf.reshape(tf.range(-60.0, 60.0), (1, 3, 4, 5, 2)) / 11.0
k = tf.reshape(tf.range(-16.0, 16.0), (2, 2, 4, 2)) / 7.0
";

/// `f2` with an axis of size 1 inserted at 1.
fn tf_expanded(x: &rxt_tf::TensorF32Cpu2D) -> rxt_tf::TensorF32Cpu3D {
    tf!(expand_dims(x, axis = 1)).expect("expand_dims")
}

/// A layer's configuration, read at run time as `self.axis` would be.
struct Config {
    axis: i64,
    axes: [usize; 2],
    perm: [i32; 3],
}

#[test]
fn axes_from_rust_values_match_eager() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (i3, ix1) = (input::<i32, 3>(&i, "i3"), input::<i32, 1>(&i, "ix1"));
        let config = Config {
            axis: -1,
            axes: [0, 2],
            perm: [2, 0, 1],
        };
        let (one, zero, last) = (1_usize, 0_i32, -1_i64);
        same!(py, &names(&i),
            "tf.reduce_sum(f3, axis=1)" => tf!(reduce_sum(f3, axis = one)),
            "tf.reduce_sum(f3, axis=-1)" => tf!(reduce_sum(f3, axis = config.axis)),
            "tf.reduce_mean(f3, axis=[0, 2])" =>
                tf!(reduce_mean(f3, axis = [config.axes[0], config.axes[1]])),
            "tf.reduce_max(f3, axis=[2, 1], keepdims=True)" =>
                tf!(reduce_max(f3, axis = [config.axes[1], one], keepdims = true)),
            "tf.reduce_sum(i3, axis=[-1, 0])" => tf!(reduce_sum(i3, axis = [last, 0])),
            "tf.transpose(f3, perm=[2, 0, 1])" =>
                tf!(transpose(f3, perm = [config.perm[0], config.perm[1], config.perm[2]])),
            "tf.expand_dims(f2, axis=1)" => tf!(expand_dims(f2, axis = one)),
            "tf.concat([f2, f2], axis=0)" => tf!(concat([f2, f2], axis = zero)),
            "tf.gather(f3, ix1, axis=-1)" => tf!(gather(f3, ix1, axis = last)),
            "tf.nn.softmax(f3, axis=1)" => tf!(softmax(f3, axis = one)),
            "tf.nn.softmax(f3, axis=-1)" => tf!(softmax(f3, axis = config.axis)),
            "tf.argmax(f3, axis=0)" => tf!(argmax(f3, axis = zero)),
            "tf.math.cumsum(f3, axis=1)" => tf!(cumsum(f3, axis = one)),
            "tf.sort(f3, axis=0)" => tf!(sort(f3, axis = zero)),
            "tf.argsort(i3, axis=-2, direction='DESCENDING')" =>
                tf!(argsort(i3, axis = last - 1, direction = "DESCENDING")),
            "tf.stack([f2, f2], axis=2)" => tf!(stack([f2, f2], axis = 2 * one)),
            "tf.squeeze(tf.expand_dims(f2, 1), axis=[1])" =>
                tf!(squeeze(tf_expanded(&f2), axis = [one])),
        );
    });
}

/// `result` failed as eager's kernels fail on an axis out of range.
fn assert_invalid_argument<T>(py: Python<'_>, result: rxt_tf::Result<T>, what: &str) -> String {
    let err = result.map(|_| ()).expect_err(what);
    let (class, message) = python_error(py, PyErr::from(err));
    assert_eq!(class, "InvalidArgumentError", "{what}: {message}");
    message
}

#[test]
fn a_runtime_axis_out_of_range_fails_when_the_op_runs() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let f3 = input::<f32, 3>(&i, "f3");
        let (three, minus_four) = (3_i64, -4_i64);
        for axis in [three, minus_four] {
            let summed = tf!(reduce_sum(f3, axis = axis));
            let message = assert_invalid_argument(py, summed, "out of range");
            assert!(message.contains("reduce_sum"), "{message}");
        }
        let (twice, far) = (1_i64, 9_usize);
        let summed = tf!(reduce_sum(f3, axis = [twice, 1]));
        assert_invalid_argument(py, summed, "an axis twice");
        let summed = tf!(reduce_sum(f3, axis = [far, 0]));
        assert_invalid_argument(py, summed, "beyond every rank");
        let (a, b) = (0_i64, 0_i64);
        let moved = tf!(transpose(f3, perm = [a, b, 2]));
        assert_invalid_argument(py, moved, "not a permutation");
        // A composite op's axes, checked by its first step.
        let spread = tf!(moments(f3, axes = [three]));
        let message = assert_invalid_argument(py, spread, "moments out of range");
        assert!(message.contains("moments"), "{message}");
        let spread = tf!(reduce_std(f3, axis = [twice, 1]));
        let message = assert_invalid_argument(py, spread, "reduce_std, an axis twice");
        assert!(message.contains("reduce_std"), "{message}");
    });
}

#[test]
fn runtime_axes_in_a_fused_scope_each_run_with_their_values() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let f3 = input::<f32, 3>(&i, "f3");
        // One trace serves every value of a run-time axis that is an
        // input of the op (`Sum`'s reduction indices, `Transpose`'s perm,
        // the perm of softmax's moved axis): the value is an input of the
        // fused call, not part of its key.
        let traced = |axis: i64, perm: [i64; 3]| {
            let _fused = rxt_tf::fusion::Scope::fused();
            let moved = tf!(transpose(f3, perm = [perm[0], perm[1], perm[2]])).expect("recorded");
            let summed = tf!(reduce_sum(moved, axis = axis)).expect("recorded");
            let soft = tf!(softmax(moved, axis = axis)).expect("recorded");
            (
                summed.into_pyobject(py).expect("py"),
                soft.into_pyobject(py).expect("py"),
            )
        };
        let _ = traced(0, [1, 0, 2]);
        let before = rxt_tf::fusion::stats().builds;
        for (axis, perm) in [(1, [2, 0, 1]), (0, [0, 2, 1]), (1, [1, 0, 2])] {
            let (summed, soft) = traced(axis, perm);
            let perm = format!("[{}, {}, {}]", perm[0], perm[1], perm[2]);
            let moved = format!("tf.transpose(f3, perm={perm})");
            let names = names(&i);
            let eager =
                common::eval_with(py, &format!("tf.reduce_sum({moved}, axis={axis})"), &names);
            common::assert_matches_eager(py, "reduce_sum on a run-time axis", &summed, &eager);
            let eager =
                common::eval_with(py, &format!("tf.nn.softmax({moved}, axis={axis})"), &names);
            common::assert_matches_eager(py, "softmax on a run-time axis", &soft, &eager);
        }
        assert_eq!(
            rxt_tf::fusion::stats().builds,
            before,
            "no new trace for new axis values"
        );
        for axis in [0_i64, 1, 2, -1] {
            let _fused = rxt_tf::fusion::Scope::fused();
            let doubled = tf!(f3 * 2.0).expect("recorded");
            let summed = tf!(reduce_sum(doubled, axis = axis)).expect("recorded");
            let eager = common::eval_with(
                py,
                &format!("tf.reduce_sum(f3 * 2.0, axis={axis})"),
                &names(&i),
            );
            common::assert_matches_eager(
                py,
                "a fused reduce_sum on a run-time axis",
                &summed.into_pyobject(py).expect("py"),
                &eager,
            );
        }
    });
}

/// The four per-channel statistics of `INPUTS` (mean, variance, offset,
/// scale).
fn statistics(i: &[(String, Bound<'_, PyAny>)]) -> [rxt_tf::TensorF32Cpu1D; 4] {
    ["m4", "v4", "o4", "s4"].map(|name| input::<f32, 1>(i, name))
}

/// A normalization layer's configuration, read at run time as Keras's
/// `self.axis` and `self.epsilon` are.
struct Normalization {
    axis: i64,
    epsilon: f64,
    alpha: f32,
}

#[test]
fn composite_axes_and_floats_from_rust_values_match_eager() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let [m4, v4, o4, s4] = statistics(&i);
        let names = names(&i);
        let layer = Normalization {
            axis: -1,
            epsilon: 1e-3,
            alpha: 0.3,
        };
        let one = 1_usize;
        same!(py, &names,
            "tf.math.reduce_std(f3, axis=-1)" => tf!(reduce_std(f3, axis = layer.axis)),
            "tf.math.reduce_variance(f3, axis=[0, 2])" =>
                tf!(reduce_variance(f3, axis = [0, layer.axis + 3])),
            "tf.nn.l2_normalize(f3, axis=1, epsilon=0.5)" =>
                tf!(l2_normalize(f3, axis = one, epsilon = 0.5 * 1.0_f64)),
            "tf.nn.leaky_relu(f2, alpha=0.30000001192092896)" =>
                tf!(leaky_relu(f2, alpha = layer.alpha)),
            "tf.nn.batch_normalization(f3, m4, v4, o4, s4, 1e-3)" =>
                tf!(batch_normalization(f3, m4, v4, o4, s4, variance_epsilon = layer.epsilon)),
        );
        for (axes, keepdims) in [("[-1]", true), ("[0, 2]", false)] {
            let python_keepdims = if keepdims { "True" } else { "False" };
            let what = format!("tf.nn.moments(f3, axes={axes}, keepdims={python_keepdims})");
            let eager = common::eval_with(py, &what, &names);
            let made = match keepdims {
                true => {
                    let (mean, variance) =
                        tf!(moments(f3, axes = [layer.axis], keepdims = true)).expect(&what);
                    (mean.into_pyobject(py), variance.into_pyobject(py))
                }
                false => {
                    let (mean, variance) =
                        tf!(moments(f3, axes = [0, layer.axis + 3])).expect(&what);
                    (mean.into_pyobject(py), variance.into_pyobject(py))
                }
            };
            let (mean, variance) = (made.0.expect("mean"), made.1.expect("variance"));
            common::assert_matches_eager(py, &what, &mean, &eager.get_item(0).expect("mean"));
            common::assert_matches_eager(py, &what, &variance, &eager.get_item(1).expect("var"));
        }
    });
}

#[test]
fn a_run_time_float_in_a_fused_scope_runs_with_its_own_value() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let f3 = input::<f32, 3>(&i, "f3");
        let [m4, v4, o4, s4] = statistics(&i);
        let names = names(&i);
        // Each value its own result: `alpha` (an attribute) is part of the
        // trace's key, the epsilon (a step's constant) an input of the
        // trace; a trace never runs with another call's value.
        for epsilon in [1e-3, 0.5, 1e-3, 3.0] {
            let _fused = rxt_tf::fusion::Scope::fused();
            let doubled = tf!(f3 * 2.0).expect("recorded");
            let normalized = tf!(batch_normalization(
                doubled,
                m4,
                v4,
                o4,
                s4,
                variance_epsilon = epsilon
            ))
            .expect("recorded");
            let alpha = epsilon as f32;
            let leaky = tf!(leaky_relu(normalized, alpha = alpha)).expect("recorded");
            let what = format!(
                "tf.nn.leaky_relu(tf.nn.batch_normalization(f3 * 2.0, m4, v4, o4, s4, {epsilon:?}), \
                 alpha={})",
                f64::from(alpha)
            );
            let eager = common::eval_with(py, &what, &names);
            common::assert_matches_eager(py, &what, &leaky.into_pyobject(py).expect("py"), &eager);
        }
    });
}

/// A convolution layer's configuration, as Keras's `Conv2D` holds it.
struct Convolution {
    strides: [i64; 2],
    padding: &'static str,
    dilation_rate: [i64; 2],
    pool: usize,
}

#[test]
fn image_sizes_and_texts_from_rust_values_match_eager() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let f3 = input::<f32, 3>(&i, "f3");
        let (img, k) = (input::<f32, 4>(&i, "img"), input::<f32, 4>(&i, "k"));
        let names = names(&i);
        let layer = Convolution {
            strides: [2, 1],
            padding: "SAME",
            dilation_rate: [1, 1],
            pool: 2,
        };
        let (s, d) = (layer.strides, layer.dilation_rate);
        let valid = String::from("VALID");
        let descending = "DESCENDING";
        let [m4, v4, o4, s4] = statistics(&i);
        let epsilon = 0.5_f32;
        same!(py, &names,
            "tf.nn.conv2d(img, k, strides=[2, 1], padding='SAME', dilations=[1, 1])" =>
                tf!(conv2d(img, k, strides = [s[0], s[1]], padding = layer.padding,
                    dilations = [d[0], d[1]])),
            "tf.nn.conv2d(img, k, strides=1, padding='VALID', dilations=4)" =>
                tf!(conv2d(img, k, strides = layer.dilation_rate[0], padding = valid,
                    dilations = 2 * layer.pool)),
            "tf.nn.max_pool2d(img, ksize=2, strides=[1, 2], padding='VALID')" =>
                tf!(max_pool2d(img, ksize = layer.pool, strides = [1, layer.pool],
                    padding = &valid)),
            "tf.compat.v1.nn.fused_batch_norm(img, s4, o4, m4, v4, epsilon=0.5, \
             is_training=False)[0]" =>
                tf!(fused_batch_norm(img, s4, o4, m4, v4, epsilon = epsilon)),
            "tf.sort(f3, axis=1, direction='DESCENDING')" =>
                tf!(sort(f3, axis = 1, direction = descending)),
        );
    });
}

#[test]
fn a_size_or_text_it_does_not_take_fails_when_the_op_runs() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let img = input::<f32, 4>(&i, "img");
        let refused = |result: rxt_tf::Result<rxt_tf::TensorF32Cpu4D>, what: &str| {
            let err = result.map(|_| ()).expect_err(what);
            let (class, message) = python_error(py, PyErr::from(err));
            assert_eq!(class, "ValueError", "{what}: {message}");
            message
        };
        let (lower, zero, wide) = ("same", 0_i64, [1_i64, 2, 3]);
        let message = refused(
            tf!(max_pool2d(img, ksize = 2, strides = 1, padding = lower)),
            "lowercase padding",
        );
        assert!(message.contains(r#"`padding = "same"`"#), "{message}");
        assert!(message.contains(r#""SAME""#), "{message}");
        refused(
            tf!(max_pool2d(
                img,
                ksize = zero,
                strides = 1,
                padding = "VALID"
            )),
            "a zero window",
        );
        let message = refused(
            tf!(max_pool2d(
                img,
                ksize = 2,
                strides = [wide[0], wide[1], wide[2]],
                padding = "VALID"
            )),
            "three strides on an image",
        );
        assert!(message.contains("`strides = [1, 2, 3]`"), "{message}");
    });
}

#[test]
fn image_sizes_and_texts_in_a_fused_scope_each_run_with_their_values() {
    serially(|py| {
        let i = named_inputs(py, INPUTS);
        let (img, k) = (input::<f32, 4>(&i, "img"), input::<f32, 4>(&i, "k"));
        let vol = input::<f32, 5>(&i, "vol");
        let names = names(&i);
        let cases: [([i64; 2], &str, [i64; 3]); 4] = [
            ([1, 1], "SAME", [1, 1, 1]),
            ([2, 1], "VALID", [1, 2, 2]),
            ([1, 2], "SAME", [2, 1, 1]),
            ([1, 1], "SAME", [1, 1, 1]),
        ];
        for (strides, padding, volume) in cases {
            let _fused = rxt_tf::fusion::Scope::fused();
            let doubled = tf!(img * 2.0).expect("recorded");
            let made = tf!(conv2d(
                doubled,
                k,
                strides = [strides[0], strides[1]],
                padding = padding
            ))
            .expect("recorded");
            let pooled = tf!(max_pool3d(
                vol,
                ksize = 2,
                strides = [volume[0], volume[1], volume[2]],
                padding = padding
            ))
            .expect("recorded");
            let what =
                format!("tf.nn.conv2d(img * 2.0, k, strides={strides:?}, padding='{padding}')");
            let eager = common::eval_with(py, &what, &names);
            common::assert_matches_eager(py, &what, &made.into_pyobject(py).expect("py"), &eager);
            let what =
                format!("tf.nn.max_pool3d(vol, ksize=2, strides={volume:?}, padding='{padding}')");
            let eager = common::eval_with(py, &what, &names);
            common::assert_matches_eager(py, &what, &pooled.into_pyobject(py).expect("py"), &eager);
        }
    });
}
