//! The ops model layers use (the activations `gelu`, `silu`, `hard_sigmoid`, `selu`,
//! `softsign`, `erfc`; the statistics `moments`, `reduce_variance`,
//! `reduce_std`, `reduce_logsumexp`, `l2_normalize`; convolutions and
//! pools, with both paddings, strides and dilations; einsum of one and
//! two operands; tensordot; fused_batch_norm; band_part) against eager
//! TensorFlow, bit for bit, at float32 and float64 and every rank they take,
//! with NaN, ±inf, −0.0 and empty tensors. `make test` runs it per op and
//! again with every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use common::{input, named_inputs, names, with_python};
use pyo3::prelude::*;
use rxt_tf::tf;

/// The inputs, as Python code: `name = expression`, one per line.
const INPUTS: &str = "
f0 = tf.constant(-0.75)
f1 = tf.constant([1.5, -0.0, float('nan'), float('inf'), -3.0, float('-inf'), 1e-30, 30.0])
f2 = tf.reshape(tf.range(-6.0, 6.0), (3, 4)) / 3.0
f3 = tf.reshape(tf.range(-12.0, 12.0), (2, 3, 4)) / 5.0
f4 = tf.reshape(tf.range(-24.0, 24.0), (2, 2, 3, 4)) / 7.0
h2 = tf.constant([[float('inf'), 1.0], [float('-inf'), float('-inf')], [float('nan'), 0.0]])
z3 = tf.zeros((2, 0, 4))
d0 = tf.constant(0.5, tf.float64)
d2 = tf.reshape(tf.range(-6.0, 6.0, dtype=tf.float64), (3, 4)) / 7.0
d3 = tf.reshape(tf.range(-12.0, 12.0, dtype=tf.float64), (2, 3, 4)) / 7.0
d4 = tf.reshape(tf.range(-24.0, 24.0, dtype=tf.float64), (2, 2, 3, 4)) / 9.0
img = tf.reshape(tf.sin(tf.range(0.0, 2 * 7 * 6 * 3)), (2, 7, 6, 3))
dimg = tf.cast(img, tf.float64)
k33 = tf.reshape(tf.cos(tf.range(0.0, 3 * 3 * 3 * 4)), (3, 3, 3, 4)) / 3.0
dk33 = tf.cast(k33, tf.float64)
k21 = tf.reshape(tf.cos(tf.range(0.0, 2 * 1 * 3 * 2)), (2, 1, 3, 2))
dw = tf.reshape(tf.cos(tf.range(0.0, 3 * 3 * 3 * 2)), (3, 3, 3, 2))
seq = tf.reshape(tf.sin(tf.range(0.0, 2 * 9 * 3)), (2, 9, 3))
k1 = tf.reshape(tf.cos(tf.range(0.0, 3 * 3 * 5)), (3, 3, 5))
wide = tf.ones((1, 7, 6, 5))
offset = tf.constant([0.5, -1.0, 0.0, 2.0])
scale = tf.constant([1.0, 2.0, -0.5, 0.25])
dscale = tf.constant([1.0, 2.0, -0.5, 0.25], tf.float64)
g2 = tf.reshape(tf.range(12.0), (4, 3)) / 4.0
sq = tf.reshape(tf.range(9.0), (3, 3)) - 4.0
q4 = tf.reshape(tf.sin(tf.range(0.0, 2 * 3 * 2 * 4)), (2, 3, 2, 4))
k4 = tf.reshape(tf.cos(tf.range(0.0, 2 * 5 * 2 * 4)), (2, 5, 2, 4))
v1 = tf.constant([1.0, -2.0, 0.5])
dg2 = tf.cast(g2, tf.float64)
k43 = tf.reshape(tf.cos(tf.range(0.0, 2 * 4 * 3)), (2, 4, 3))
wa = tf.reshape(tf.sin(tf.range(0.0, 2 * 30)), (2, 30))
wb = tf.reshape(tf.cos(tf.range(0.0, 30 * 30)), (30, 30)) / 5.0
wc = tf.reshape(tf.sin(tf.range(1.0, 30 * 2 + 1)), (30, 2))
i3 = tf.reshape(tf.range(-12, 12), (2, 3, 4))
i2 = tf.reshape(tf.range(-6, 6), (4, 3))
l2 = tf.reshape(tf.range(-6, 6, dtype=tf.int64), (3, 4))
special4 = tf.constant([float('nan'), float('inf'), -0.0, 1e-30])
m2 = tf.constant([[True, False], [False, True]])
i4 = tf.reshape(tf.range(-24, 24), (2, 2, 3, 4))
bn_mean = tf.constant([0.5, -1.0, 0.25])
bn_var = tf.constant([1.0, 0.0, 2.5])
bn_scale = tf.constant([1.5, -2.0, 0.0])
bn_offset = tf.constant([0.0, 0.125, -3.0])
";

#[test]
fn activations_match_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, z3) = (input::<f32, 4>(&i, "f4"), input::<f32, 3>(&i, "z3"));
        let (d0, d2) = (input::<f64, 0>(&i, "d0"), input::<f64, 2>(&i, "d2"));
        let (d3, d4) = (input::<f64, 3>(&i, "d3"), input::<f64, 4>(&i, "d4"));
        same!(py, &names(&i),
            "tf.nn.gelu(f1)" => tf!(gelu(f1)),
            "tf.nn.gelu(f2, approximate=True)" => tf!(gelu(f2, approximate = true)),
            "tf.nn.gelu(f1, True)" => tf!(gelu(f1, true)),
            "tf.nn.gelu(f0)" => tf!(gelu(f0)),
            "tf.nn.gelu(f4, approximate=False)" => tf!(gelu(f4, approximate = false)),
            "tf.nn.gelu(z3)" => tf!(gelu(z3)),
            "tf.nn.gelu(d2)" => tf!(gelu(d2)),
            "tf.nn.gelu(d3, approximate=True)" => tf!(gelu(d3, approximate = true)),
            "tf.nn.gelu(d0, approximate=True)" => rxt_tf::ops::gelu(&d0, true),
            "tf.nn.silu(f1)" => tf!(silu(f1)),
            "tf.nn.silu(f3)" => tf!(silu(f3)),
            "tf.nn.silu(d4)" => tf!(silu(d4)),
            "tf.keras.activations.hard_sigmoid(f1)" => tf!(hard_sigmoid(f1)),
            "tf.keras.activations.hard_sigmoid(f3)" => tf!(hard_sigmoid(f3)),
            "tf.keras.activations.hard_sigmoid(d2)" => tf!(hard_sigmoid(d2)),
            "tf.keras.activations.hard_sigmoid(z3)" => tf!(hard_sigmoid(z3)),
            "tf.keras.activations.hard_sigmoid(f0)" => rxt_tf::ops::hard_sigmoid(&f0),
            "tf.nn.swish(f2)" => tf!(swish(f2)),
            "tf.nn.swish(d0)" => rxt_tf::ops::swish(&d0),
            "tf.nn.selu(f1)" => tf!(selu(f1)),
            "tf.nn.selu(d3)" => tf!(selu(d3)),
            "tf.nn.softsign(f1)" => tf!(softsign(f1)),
            "tf.nn.softsign(d2)" => tf!(softsign(d2)),
            "tf.math.erfc(f1)" => tf!(erfc(f1)),
            "tf.math.erfc(d4)" => tf!(erfc(d4)),
            "tf.math.erfc(z3)" => tf!(erfc(z3)),
        );
    });
}

#[test]
fn statistics_match_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let f1 = input::<f32, 1>(&i, "f1");
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, z3) = (input::<f32, 4>(&i, "f4"), input::<f32, 3>(&i, "z3"));
        let (h2, d2) = (input::<f32, 2>(&i, "h2"), input::<f64, 2>(&i, "d2"));
        let (d3, d4) = (input::<f64, 3>(&i, "d3"), input::<f64, 4>(&i, "d4"));
        same!(py, &names(&i),
            "tf.math.reduce_variance(f2, axis=1)" => tf!(reduce_variance(f2, axis = 1)),
            "tf.math.reduce_variance(f3, axis=[0, 2], keepdims=True)" =>
                tf!(reduce_variance(f3, axis = [0, 2], keepdims = true)),
            "tf.math.reduce_variance(f1, axis=0)" => tf!(reduce_variance(f1, axis = 0)),
            "tf.math.reduce_variance(d4, axis=-1)" => tf!(reduce_variance(d4, axis = -1)),
            "tf.math.reduce_variance(z3, axis=1)" => tf!(reduce_variance(z3, axis = 1)),
            "tf.math.reduce_std(f4, axis=[1, 3])" => tf!(reduce_std(f4, axis = [1, 3])),
            "tf.math.reduce_std(d2, axis=0, keepdims=True)" =>
                tf!(reduce_std(d2, axis = 0, keepdims = true)),
            "tf.math.reduce_logsumexp(f2, axis=1)" => tf!(reduce_logsumexp(f2, axis = 1)),
            "tf.math.reduce_logsumexp(h2, axis=1)" => tf!(reduce_logsumexp(h2, axis = 1)),
            "tf.math.reduce_logsumexp(h2, axis=0, keepdims=True)" =>
                tf!(reduce_logsumexp(h2, axis = 0, keepdims = true)),
            "tf.math.reduce_logsumexp(f1, axis=0)" => tf!(reduce_logsumexp(f1, axis = 0)),
            "tf.math.reduce_logsumexp(d3, axis=[0, 1])" => tf!(reduce_logsumexp(d3, axis = [0, 1])),
            "tf.math.reduce_logsumexp(z3, axis=1)" => tf!(reduce_logsumexp(z3, axis = 1)),
            "tf.math.l2_normalize(f2, axis=1)" => tf!(l2_normalize(f2, axis = 1)),
            "tf.math.l2_normalize(f3, axis=[1, 2], epsilon=0.5)" =>
                tf!(l2_normalize(f3, axis = [1, 2], epsilon = 0.5)),
            "tf.math.l2_normalize(f1, axis=0)" => tf!(l2_normalize(f1, axis = 0)),
            "tf.math.l2_normalize(d4, axis=-1, epsilon=1e-6)" =>
                tf!(l2_normalize(d4, axis = -1, epsilon = 1e-6)),
            "tf.math.l2_normalize(z3, axis=0)" => tf!(l2_normalize(z3, axis = 0)),
            "tf.math.reduce_variance(f3, axis=[1, 2])" =>
                rxt_tf::ops::reduce_variance::<2, false, _>(&f3, [1, 2]),
        );
        let names = names(&i);
        let pair = |what: &str, (mean, variance): (Bound<'_, PyAny>, Bound<'_, PyAny>)| {
            let eager = common::eval_with(py, what, &names);
            let (eager_mean, eager_variance) = (
                eager.get_item(0).expect("mean"),
                eager.get_item(1).expect("variance"),
            );
            common::assert_matches_eager(py, what, &mean, &eager_mean);
            common::assert_matches_eager(py, what, &variance, &eager_variance);
        };
        macro_rules! moments {
            ($what:literal => $result:expr) => {{
                let (mean, variance) = $result.unwrap_or_else(|err| panic!("{}: {err}", $what));
                pair(
                    $what,
                    (
                        mean.into_pyobject(py).expect("mean"),
                        variance.into_pyobject(py).expect("variance"),
                    ),
                );
            }};
        }
        moments!("tf.nn.moments(f2, axes=[1])" => tf!(moments(f2, axes = [1])));
        moments!("tf.nn.moments(f3, axes=[0, 2], keepdims=True)" =>
            tf!(moments(f3, axes = [0, 2], keepdims = true)));
        moments!("tf.nn.moments(f4, axes=[-1])" => tf!(moments(f4, axes = -1)));
        moments!("tf.nn.moments(f1, axes=[0])" => tf!(moments(f1, axes = 0)));
        moments!("tf.nn.moments(h2, axes=[0])" => tf!(moments(h2, axes = 0)));
        moments!("tf.nn.moments(d3, axes=[0, 1, 2])" => tf!(moments(d3, axes = [0, 1, 2])));
        moments!("tf.nn.moments(z3, axes=[1])" => tf!(moments(z3, axes = [1])));
        // batch_normalization with the statistics of moments (kept dims) and
        // a per-channel offset and scale, as a layer norm uses them.
        let (mean, variance) = tf!(moments(f3, axes = [-1], keepdims = true)).expect("moments");
        let offset = input::<f32, 1>(&i, "offset");
        let scale = input::<f32, 1>(&i, "scale");
        let normalized = tf!(batch_normalization(f3, mean, variance, offset, scale, 1e-3));
        common::assert_matches_eager(
            py,
            "batch_normalization",
            &common::to_python(py, "batch_normalization", normalized),
            &common::eval_with(
                py,
                "tf.nn.batch_normalization(f3, *tf.nn.moments(f3, axes=[-1], keepdims=True), \
                 offset, scale, 1e-3)",
                &names,
            ),
        );
        let (mean, variance) = tf!(moments(d4, axes = [0, 1, 2])).expect("moments");
        let (doffset, dscale) = (input::<f64, 0>(&i, "d0"), input::<f64, 1>(&i, "dscale"));
        let normalized = tf!(batch_normalization(
            d4, mean, variance, doffset, dscale, 0.5
        ));
        common::assert_matches_eager(
            py,
            "batch_normalization of float64",
            &common::to_python(py, "batch_normalization", normalized),
            &common::eval_with(
                py,
                "tf.nn.batch_normalization(d4, *tf.nn.moments(d4, axes=[0, 1, 2]), d0, dscale, 0.5)",
                &names,
            ),
        );
        // After pending ops of a fused body.
        let h = tf!(f2 * 2.0).expect("recorded");
        moments!("tf.nn.moments(f2 * 2.0, axes=[0], keepdims=True)" =>
            tf!(moments(h, axes = [0], keepdims = true)));
        // A plain function's axis out of range: a keyword error before running.
        let err = rxt_tf::ops::reduce_std::<1, false, _>(&f2, [2]).expect_err("out of range");
        assert!(err.to_string().contains("does not fit"), "{err}");
    });
}

#[test]
fn convolutions_and_pools_match_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (img, dimg) = (input::<f32, 4>(&i, "img"), input::<f64, 4>(&i, "dimg"));
        let (k33, dk33) = (input::<f32, 4>(&i, "k33"), input::<f64, 4>(&i, "dk33"));
        let (k21, dw) = (input::<f32, 4>(&i, "k21"), input::<f32, 4>(&i, "dw"));
        let (seq, k1) = (input::<f32, 3>(&i, "seq"), input::<f32, 3>(&i, "k1"));
        let wide = input::<f32, 4>(&i, "wide");
        same!(py, &names(&i),
            "tf.nn.conv2d(img, k33, 1, 'SAME')" => tf!(conv2d(img, k33, padding = "SAME")),
            "tf.nn.conv2d(img, k33, 2, 'VALID')" =>
                tf!(conv2d(img, k33, strides = 2, padding = "VALID")),
            "tf.nn.conv2d(img, k33, [2, 1], 'SAME')" =>
                tf!(conv2d(img, k33, strides = [2, 1], padding = "SAME")),
            "tf.nn.conv2d(img, k33, 1, 'SAME', dilations=2)" =>
                tf!(conv2d(img, k33, padding = "SAME", dilations = 2)),
            "tf.nn.conv2d(img, k33, 1, 'VALID', dilations=[2, 1])" =>
                tf!(conv2d(img, k33, padding = "VALID", dilations = [2, 1])),
            "tf.nn.conv2d(img, k21, 3, 'SAME')" =>
                tf!(conv2d(img, k21, strides = 3, padding = "SAME")),
            "tf.nn.conv2d(dimg, dk33, 1, 'SAME')" => tf!(conv2d(dimg, dk33, padding = "SAME")),
            "tf.nn.depthwise_conv2d(img, dw, [1, 1, 1, 1], 'SAME')" =>
                tf!(depthwise_conv2d(img, dw, padding = "SAME")),
            "tf.nn.depthwise_conv2d(img, dw, [1, 2, 2, 1], 'VALID')" =>
                tf!(depthwise_conv2d(img, dw, strides = 2, padding = "VALID")),
            "tf.nn.conv1d(seq, k1, 1, 'SAME')" => tf!(conv1d(seq, k1, padding = "SAME")),
            "tf.nn.conv1d(seq, k1, 2, 'VALID')" =>
                tf!(conv1d(seq, k1, stride = 2, padding = "VALID")),
            "tf.nn.conv1d(seq, k1, 1, 'SAME', dilations=2)" =>
                tf!(conv1d(seq, k1, padding = "SAME", dilations = 2)),
            "tf.nn.max_pool2d(img, 2, 2, 'VALID')" =>
                tf!(max_pool2d(img, ksize = 2, strides = 2, padding = "VALID")),
            "tf.nn.max_pool2d(img, [3, 2], 1, 'SAME')" =>
                tf!(max_pool2d(img, ksize = [3, 2], strides = 1, padding = "SAME")),
            "tf.nn.avg_pool2d(img, 3, 2, 'SAME')" =>
                tf!(avg_pool2d(img, ksize = 3, strides = 2, padding = "SAME")),
            "tf.nn.avg_pool2d(dimg, 2, [1, 2], 'VALID')" =>
                tf!(avg_pool2d(dimg, ksize = 2, strides = [1, 2], padding = "VALID")),
            "tf.nn.max_pool1d(seq, 2, 2, 'VALID')" =>
                tf!(max_pool1d(seq, ksize = 2, strides = 2, padding = "VALID")),
            "tf.nn.avg_pool1d(seq, 3, 1, 'SAME')" =>
                tf!(avg_pool1d(seq, ksize = 3, strides = 1, padding = "SAME")),
            "tf.nn.conv2d(img, k33, [1, 2], 'SAME')" =>
                rxt_tf::ops::conv2d(&img, &k33, &[1, 2], "SAME", &[1]),
            "tf.nn.avg_pool1d(seq, 2, 2, 'SAME')" => rxt_tf::ops::avg_pool1d(&seq, 2, 2, "SAME"),
        );
        // Filters whose input depth is not the image's: eager's class, per
        // op and fused (the 1-D form names its own op).
        let failed = tf!(conv2d(wide, k33, padding = "SAME")).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("depth")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: conv2d failed: "), "{message}");
        // A window larger than a VALID image: eager's class.
        let failed = tf!(max_pool2d(img, ksize = 8, strides = 1, padding = "VALID"))
            .and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("window")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: max_pool2d failed: "),
            "{message}"
        );
    });
}

/// With `padding = "VALID"`, a window of `Conv2D`, `DepthwiseConv2dNative`
/// or `MaxPool` wider than a non-empty spatial axis (TensorFlow 2.21's
/// oneDNN kernels return garbage or abort there) is refused before
/// anything runs, per op and in a fused body, where the
/// input's sizes are known: a call's inputs, and what element-wise ops,
/// bias additions, `expand_dims`, convolutions and pools make of them.
#[test]
fn valid_windows_wider_than_their_input_are_refused() {
    with_python(|py| {
        let i = named_inputs(
            py,
            "
small = tf.ones((1, 2, 2, 3))
k33 = tf.ones((3, 3, 3, 4))
k22 = tf.ones((2, 2, 3, 4))
dw = tf.ones((3, 3, 3, 2))
seq = tf.ones((1, 2, 3))
k1 = tf.ones((3, 3, 4))
four = tf.ones((1, 4, 4, 3))
",
        );
        let (small, k33) = (input::<f32, 4>(&i, "small"), input::<f32, 4>(&i, "k33"));
        let (k22, dw) = (input::<f32, 4>(&i, "k22"), input::<f32, 4>(&i, "dw"));
        let (seq, k1) = (input::<f32, 3>(&i, "seq"), input::<f32, 3>(&i, "k1"));
        let four = input::<f32, 4>(&i, "four");
        let refused = |what: &str, result: rxt_tf::Result<Vec<f32>>, op: &str| {
            let err = result.expect_err(what);
            let (class, message) = common::python_error(py, PyErr::from(err));
            assert_eq!(class, "InvalidArgumentError", "{what}: {message}");
            let prefix = format!("rxt-tf: {op} failed: Computed output size would be");
            assert!(message.starts_with(&prefix), "{what}: {message}");
        };
        refused(
            "conv2d",
            tf!(conv2d(small, k33, padding = "VALID")).and_then(|t| t.to_vec()),
            "conv2d",
        );
        refused(
            "dilated conv2d",
            tf!(conv2d(four, k22, padding = "VALID", dilations = 4)).and_then(|t| t.to_vec()),
            "conv2d",
        );
        refused(
            "depthwise_conv2d",
            tf!(depthwise_conv2d(small, dw, padding = "VALID")).and_then(|t| t.to_vec()),
            "depthwise_conv2d",
        );
        refused(
            "max_pool2d",
            tf!(max_pool2d(small, ksize = 3, strides = 1, padding = "VALID"))
                .and_then(|t| t.to_vec()),
            "max_pool2d",
        );
        refused(
            "max_pool2d after relu",
            tf!(relu(small))
                .and_then(|h| {
                    tf!(max_pool2d(
                        h,
                        ksize = [1, 3],
                        strides = 1,
                        padding = "VALID"
                    ))
                })
                .and_then(|t| t.to_vec()),
            "max_pool2d",
        );
        refused(
            "conv1d",
            tf!(conv1d(seq, k1, padding = "VALID")).and_then(|t| t.to_vec()),
            "conv1d",
        );
        refused(
            "max_pool1d",
            tf!(max_pool1d(seq, ksize = 3, strides = 1, padding = "VALID"))
                .and_then(|t| t.to_vec()),
            "max_pool1d",
        );
        // `AvgPool` computes such a window right (an empty result), as
        // eager does; a window that fits, and SAME padding, run.
        same!(py, &names(&i),
            "tf.nn.avg_pool2d(small, 3, 1, 'VALID')" =>
                tf!(avg_pool2d(small, ksize = 3, strides = 1, padding = "VALID")),
        );
        let fits = tf!(conv2d(four, k33, padding = "VALID")).and_then(|t| t.shape());
        assert_eq!(fits.expect("fits"), vec![1, 2, 2, 4]);
        let same = tf!(max_pool2d(small, ksize = 3, strides = 1, padding = "SAME"));
        assert_eq!(
            same.and_then(|t| t.shape()).expect("same"),
            vec![1, 2, 2, 3]
        );
    });
}

#[test]
fn einsum_matches_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (g2, sq) = (input::<f32, 2>(&i, "g2"), input::<f32, 2>(&i, "sq"));
        let (q4, k4) = (input::<f32, 4>(&i, "q4"), input::<f32, 4>(&i, "k4"));
        let (v1, z3) = (input::<f32, 1>(&i, "v1"), input::<f32, 3>(&i, "z3"));
        let (f4, k43) = (input::<f32, 4>(&i, "f4"), input::<f32, 3>(&i, "k43"));
        let (d2, dg2) = (input::<f64, 2>(&i, "d2"), input::<f64, 2>(&i, "dg2"));
        same!(py, &names(&i),
            "tf.einsum('bqhd,bkhd->bhqk', q4, k4)" => tf!(einsum("bqhd,bkhd->bhqk", q4, k4)),
            "tf.einsum('ij,jk->ik', f2, g2)" => tf!(einsum("ij,jk->ik", f2, g2)),
            "tf.einsum('ij,jk', f2, g2)" => tf!(einsum("ij,jk", f2, g2)),
            "tf.einsum('ij, jk -> ki', d2, dg2)" => tf!(einsum("ij, jk -> ki", d2, dg2)),
            "tf.einsum('ij,ij->i', f2, f2)" => tf!(einsum("ij,ij->i", f2, f2)),
            "tf.einsum('i,j->ij', v1, v1)" => tf!(einsum("i,j->ij", v1, v1)),
            "tf.einsum('bij,jk->bik', f3, g2)" => tf!(einsum("bij,jk->bik", f3, g2)),
            "tf.einsum('ij->ji', f2)" => tf!(einsum("ij->ji", f2)),
            "tf.einsum('ii->i', sq)" => tf!(einsum("ii->i", sq)),
            "tf.einsum('ii', sq)" => tf!(einsum("ii", sq)),
            "tf.einsum('bij->b', f3)" => tf!(einsum("bij->b", f3)),
            "tf.einsum('bij->bji', z3)" => tf!(einsum("bij->bji", z3)),
            // Broadcasting over `...`, in one operand or both.
            "tf.einsum('...ij,jk->...ik', f3, g2)" => tf!(einsum("...ij,jk->...ik", f3, g2)),
            "tf.einsum('...ij,jk', f4, g2)" => tf!(einsum("...ij,jk", f4, g2)),
            "tf.einsum('...ij,...jk->...ik', f3, g2)" =>
                tf!(einsum("...ij,...jk->...ik", f3, g2)),
            "tf.einsum('...ij,...jk->...ik', f2, g2)" =>
                tf!(einsum("...ij,...jk->...ik", f2, g2)),
            "tf.einsum('b...j,...jk->b...k', q4, k43)" =>
                tf!(einsum("b...j,...jk->b...k", q4, k43)),
            "tf.einsum('i...->...i', f3)" => tf!(einsum("i...->...i", f3)),
            "tf.einsum('...ij->...', f4)" => tf!(einsum("...ij->...", f4)),
            "tf.einsum('...ij,jk->...ik', f4, g2)" =>
                rxt_tf::ops::einsum::<4, 4, 2, _, _>(&f4, &g2, "...ij,jk->...ik"),
            "tf.einsum('ij,jk->ik', f2, g2)" =>
                rxt_tf::ops::einsum::<2, 2, 2, _, _>(&f2, &g2, "ij,jk->ik"),
            "tf.einsum('ij->j', f2)" => rxt_tf::ops::einsum_one::<1, 2, _>(&f2, "ij->j"),
        );
        // Three operands, contracted pairwise in the order `tf.einsum`
        // takes for their sizes: the first pair first for `wa, wb, wc`, the
        // last pair first for `wc, wcᵀ, wb`.
        let (wa, wb, wc) = (
            input::<f32, 2>(&i, "wa"),
            input::<f32, 2>(&i, "wb"),
            input::<f32, 2>(&i, "wc"),
        );
        let (d3, offset) = (input::<f64, 3>(&i, "d3"), input::<f32, 1>(&i, "offset"));
        let wct = tf!(transpose(wc)).expect("transposed");
        same!(py, &names(&i),
            "tf.einsum('ij,jk,kl->il', f2, g2, sq)" => tf!(einsum("ij,jk,kl->il", f2, g2, sq)),
            "tf.einsum('ij,jk,kl->il', wa, wb, wc)" => tf!(einsum("ij,jk,kl->il", wa, wb, wc)),
            "tf.einsum('ij,jk,kl->il', wc, tf.transpose(wc), wb)" =>
                tf!(einsum("ij,jk,kl->il", wc, wct, wb)),
            "tf.einsum('ij,jk,kl', f2, g2, sq)" => tf!(einsum("ij,jk,kl", f2, g2, sq)),
            "tf.einsum('bqd,bkd,bkv->bqv', f3, f3, f3)" =>
                tf!(einsum("bqd,bkd,bkv->bqv", f3, f3, f3)),
            "tf.einsum('ij,ij,ij->ij', f2, f2, f2)" => tf!(einsum("ij,ij,ij->ij", f2, f2, f2)),
            "tf.einsum('i,j,ij->', v1, offset, f2)" => tf!(einsum("i,j,ij->", v1, offset, f2)),
            "tf.einsum('...ij,...jk,kl->...il', f3, g2, sq)" =>
                tf!(einsum("...ij,...jk,kl->...il", f3, g2, sq)),
            "tf.einsum('bij,jk,bkl->bil', d3, dg2, d3)" =>
                tf!(einsum("bij,jk,bkl->bil", d3, dg2, d3)),
            "tf.einsum('ij,jk,kl->il', f2, g2, sq)" =>
                rxt_tf::ops::einsum_three::<2, 2, 2, 2, _, _, _>(&f2, &g2, &sq, "ij,jk,kl->il"),
        );
        // A plain function whose ranks do not match its equation.
        let err = rxt_tf::ops::einsum::<3, 2, 2, _, _>(&f2, &g2, "ij,jk->ik")
            .map(|_| ())
            .expect_err("result rank");
        assert!(
            err.to_string().contains("gives a result of rank 2, not"),
            "{err}"
        );
        let err = rxt_tf::ops::einsum_one::<1, 2, _>(&f2, "ijk->k")
            .map(|_| ())
            .expect_err("operand rank");
        assert!(
            err.to_string()
                .contains("does not fit operands of ranks [2]"),
            "{err}"
        );
        // Sizes that differ along a shared subscript: eager's class, per op
        // and fused.
        let failed = tf!(einsum("ij,jk->ik", f2, f2)).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("sizes")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: einsum failed: "), "{message}");
        // The same from a pair of a three-operand einsum.
        let failed = tf!(einsum("ij,jk,kl->il", f2, f2, sq)).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("sizes")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: einsum failed: "), "{message}");
    });
}

#[test]
fn tensordot_matches_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f0, f1) = (input::<f32, 0>(&i, "f0"), input::<f32, 1>(&i, "f1"));
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, g2) = (input::<f32, 4>(&i, "f4"), input::<f32, 2>(&i, "g2"));
        let (z3, k43) = (input::<f32, 3>(&i, "z3"), input::<f32, 3>(&i, "k43"));
        let (d2, dg2) = (input::<f64, 2>(&i, "d2"), input::<f64, 2>(&i, "dg2"));
        let (i3, i2) = (input::<i32, 3>(&i, "i3"), input::<i32, 2>(&i, "i2"));
        let l2 = input::<i64, 2>(&i, "l2");
        same!(py, &names(&i),
            // Dense on a sequence: the last axis with the kernel's first.
            "tf.tensordot(f3, g2, [[2], [0]])" => tf!(tensordot(f3, g2, [[2], [0]])),
            "tf.tensordot(f3, g2, axes=1)" => tf!(tensordot(f3, g2, axes = 1)),
            "tf.tensordot(f3, g2, [-1, 0])" => tf!(tensordot(f3, g2, axes = [-1, 0])),
            // A matrix product needs no reshape; a transposed one a transpose.
            "tf.tensordot(f2, g2, 1)" => tf!(tensordot(f2, g2, 1)),
            "tf.tensordot(g2, f2, [[0], [1]])" => tf!(tensordot(g2, f2, axes = [[0], [1]])),
            // Several axes, in another order than the operand's.
            "tf.tensordot(f3, f3, [[2, 1], [2, 1]])" =>
                tf!(tensordot(f3, f3, axes = [[2, 1], [2, 1]])),
            "tf.tensordot(f4, f3, [[1, 3, 2], [0, 2, 1]])" =>
                tf!(tensordot(f4, f3, axes = [[1, 3, 2], [0, 2, 1]])),
            "tf.tensordot(f4, f2, 2)" => tf!(tensordot(f4, f2, axes = 2)),
            // No axis: the outer product, scalars included.
            "tf.tensordot(f1, f1, 0)" => tf!(tensordot(f1, f1, axes = 0)),
            "tf.tensordot(f0, f2, 0)" => tf!(tensordot(f0, f2, axes = 0)),
            "tf.tensordot(f0, f0, [[], []])" => tf!(tensordot(f0, f0, axes = [[], []])),
            "tf.tensordot(f1, f1, 1)" => tf!(tensordot(f1, f1, axes = 1)),
            "tf.tensordot(z3, k43, [[0, 2], [0, 1]])" =>
                tf!(tensordot(z3, k43, axes = [[0, 2], [0, 1]])),
            "tf.tensordot(d2, dg2, 1)" => tf!(tensordot(d2, dg2, axes = 1)),
            "tf.tensordot(i3, i2, [[1], [1]])" => tf!(tensordot(i3, i2, axes = [[1], [1]])),
            "tf.tensordot(l2, l2, [[0, 1], [0, 1]])" =>
                tf!(tensordot(l2, l2, axes = [[0, 1], [0, 1]])),
            "tf.tensordot(f3, g2, 1)" => rxt_tf::ops::tensordot::<3, _, _>(&f3, &g2, 1),
            // An operand still to compute (pending in a fused scope).
            "tf.tensordot(tf.nn.relu(f3), g2, 1)" => (|| {
                let pending = tf!(relu(f3))?;
                tf!(tensordot(pending, g2, 1))
            })(),
        );
        // The plain function's count and result rank, checked when it runs.
        let err = rxt_tf::ops::tensordot::<2, _, _>(&f3, &g2, 1)
            .map(|_| ())
            .expect_err("rank");
        assert!(
            err.to_string().contains("gives no result of rank [2]"),
            "{err}"
        );
        let err = rxt_tf::ops::tensordot::<0, _, _>(&f2, &g2, 3)
            .map(|_| ())
            .expect_err("axes");
        assert!(err.to_string().contains("does not fit operands"), "{err}");
        // Sizes that differ along the contracted axes: eager's class.
        let failed = tf!(tensordot(f3, f2, axes = 1)).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("sizes")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: tensordot failed: "),
            "{message}"
        );
    });
}

#[test]
fn fused_batch_norm_matches_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (img, wide) = (input::<f32, 4>(&i, "img"), input::<f32, 4>(&i, "wide"));
        let (mean, var) = (
            input::<f32, 1>(&i, "bn_mean"),
            input::<f32, 1>(&i, "bn_var"),
        );
        let (scale, offset) = (
            input::<f32, 1>(&i, "bn_scale"),
            input::<f32, 1>(&i, "bn_offset"),
        );
        let (special, off4) = (
            input::<f32, 1>(&i, "special4"),
            input::<f32, 1>(&i, "offset"),
        );
        let (sc4, z4) = (input::<f32, 1>(&i, "scale"), input::<f32, 4>(&i, "f4"));
        same!(py, &names(&i),
            "tf.compat.v1.nn.fused_batch_norm(img, bn_scale, bn_offset, bn_mean, bn_var, \
             is_training=False)[0]" =>
                tf!(fused_batch_norm(img, scale, offset, mean, var)),
            "tf.compat.v1.nn.fused_batch_norm(img, bn_scale, bn_offset, bn_mean, bn_var, \
             epsilon=1e-5, is_training=False)[0]" =>
                tf!(fused_batch_norm(img, scale, offset, mean, var, epsilon = 1e-5)),
            // NaN, inf and -0.0 among the statistics, four channels.
            "tf.compat.v1.nn.fused_batch_norm(f4, scale, offset, special4, special4, \
             epsilon=0.5, is_training=False)[0]" =>
                tf!(fused_batch_norm(z4, sc4, off4, special, special, epsilon = 0.5)),
            "tf.compat.v1.nn.fused_batch_norm(f4, special4, special4, offset, scale, \
             is_training=False)[0]" =>
                rxt_tf::ops::fused_batch_norm(&z4, &special, &special, &off4, &sc4, 0.001),
            // An image still to compute (pending in a fused scope).
            "tf.compat.v1.nn.fused_batch_norm(tf.nn.relu(img), bn_scale, bn_offset, \
             bn_mean, bn_var, is_training=False)[0]" => (|| {
                let pending = tf!(relu(img))?;
                tf!(fused_batch_norm(pending, scale, offset, mean, var))
            })(),
        );
        // Statistics of another length than the channels: eager's class.
        let failed = tf!(fused_batch_norm(wide, scale, offset, mean, var)).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("sizes")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: fused_batch_norm failed: "),
            "{message}"
        );
    });
}

#[test]
fn band_part_matches_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (f2, f3) = (input::<f32, 2>(&i, "f2"), input::<f32, 3>(&i, "f3"));
        let (f4, d2) = (input::<f32, 4>(&i, "f4"), input::<f64, 2>(&i, "d2"));
        let (m2, i4) = (input::<bool, 2>(&i, "m2"), input::<i32, 4>(&i, "i4"));
        let (l2, z3) = (input::<i64, 2>(&i, "l2"), input::<f32, 3>(&i, "z3"));
        same!(py, &names(&i),
            // The causal mask of self-attention: the lower triangle.
            "tf.linalg.band_part(f2, -1, 0)" => tf!(band_part(f2, -1, 0)),
            "tf.linalg.band_part(f3, 0, -1)" => tf!(band_part(f3, num_lower = 0, num_upper = -1)),
            "tf.linalg.band_part(f4, 1, 2)" => tf!(band_part(f4, 1, 2)),
            "tf.linalg.band_part(d2, 0, 0)" => tf!(band_part(d2, 0, 0)),
            "tf.linalg.band_part(m2, 0, 1)" => tf!(band_part(m2, 0, 1)),
            "tf.linalg.band_part(i4, -1, -1)" => tf!(band_part(i4, -1, -1)),
            "tf.linalg.band_part(l2, 2, 0)" => tf!(band_part(l2, 2, 0)),
            "tf.linalg.band_part(z3, -1, 0)" => tf!(band_part(z3, -1, 0)),
            "tf.linalg.band_part(f2, 1, 0)" => rxt_tf::ops::band_part(&f2, 1, 0),
        );
        // More diagonals than the matrix has: eager's class.
        let failed = tf!(band_part(f2, 7, 0)).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("band")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: band_part failed: "),
            "{message}"
        );
    });
}
