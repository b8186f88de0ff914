//! Rank 5 against eager TensorFlow and Keras, bit for bit: the 3-D
//! convolution and pools (NDHWC, both paddings, strides one per axis or
//! one for all), and two real layers that need a fifth axis: Keras's
//! `GroupNormalization` on NHWC images (the groups become an axis) and a
//! `Conv3D` + `MaxPooling3D` + `AveragePooling3D` block. `make test` runs
//! it per op and again with every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use common::{input, named_inputs, names, with_python};
use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu4D, TensorF32Cpu5D};

/// The inputs and the Keras layers, as Python code: `name = expression`.
const INPUTS: &str = "
import keras
vol = tf.reshape(tf.sin(tf.range(0.0, 2 * 5 * 6 * 4 * 3)), (2, 5, 6, 4, 3))
dvol = tf.cast(vol, tf.float64)
k3 = tf.reshape(tf.cos(tf.range(0.0, 2 * 3 * 2 * 3 * 4)), (2, 3, 2, 3, 4)) / 3.0
dk3 = tf.cast(k3, tf.float64)
wide = tf.ones((1, 2, 3, 3, 4))
img = tf.reshape(tf.sin(tf.range(0.0, 2 * 4 * 5 * 8) * 0.7) * 3.0 + 1.0, (2, 4, 5, 8))
gn = keras.layers.GroupNormalization(groups=4, epsilon=1e-3)
gn.build(img.shape)
gn.gamma.assign(tf.cos(tf.range(8.0)) + 1.5)
gn.beta.assign(tf.sin(tf.range(8.0)))
gamma = tf.convert_to_tensor(gn.gamma)
beta = tf.convert_to_tensor(gn.beta)
vid = tf.reshape(tf.sin(tf.range(0.0, 2 * 6 * 8 * 8 * 3) * 0.3), (2, 6, 8, 8, 3))
block = keras.Sequential([keras.Input((6, 8, 8, 3)), keras.layers.Conv3D(4, 3, padding='same', activation='relu'), keras.layers.MaxPooling3D(2), keras.layers.AveragePooling3D((1, 2, 2), strides=1, padding='same')])
block.layers[0].kernel.assign(tf.reshape(tf.cos(tf.range(0.0, 3 * 3 * 3 * 3 * 4)), (3, 3, 3, 3, 4)) / 4.0)
block.layers[0].bias.assign([0.1, -0.2, 0.0, 0.3])
kernel = tf.convert_to_tensor(block.layers[0].kernel)
bias = tf.convert_to_tensor(block.layers[0].bias)
";

#[test]
fn volumes_match_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (vol, dvol) = (input::<f32, 5>(&i, "vol"), input::<f64, 5>(&i, "dvol"));
        let (k3, dk3) = (input::<f32, 5>(&i, "k3"), input::<f64, 5>(&i, "dk3"));
        same!(py, &names(&i),
            "tf.nn.conv3d(vol, k3, [1, 1, 1, 1, 1], 'SAME')" =>
                tf!(conv3d(vol, k3, padding = "SAME")),
            "tf.nn.conv3d(vol, k3, [1, 2, 1, 2, 1], 'VALID')" =>
                tf!(conv3d(vol, k3, strides = [2, 1, 2], padding = "VALID")),
            "tf.nn.convolution(dvol, dk3, 2, 'SAME')" =>
                tf!(conv3d(dvol, dk3, strides = 2, padding = "SAME")),
            "tf.nn.max_pool3d(vol, 2, 2, 'VALID')" =>
                tf!(max_pool3d(vol, ksize = 2, strides = 2, padding = "VALID")),
            "tf.nn.max_pool3d(vol, [3, 2, 1], 1, 'SAME')" =>
                tf!(max_pool3d(vol, ksize = [3, 2, 1], strides = 1, padding = "SAME")),
            "tf.nn.avg_pool3d(vol, [1, 2, 2], [1, 2, 1], 'SAME')" =>
                tf!(avg_pool3d(vol, ksize = [1, 2, 2], strides = [1, 2, 1], padding = "SAME")),
            "tf.nn.avg_pool3d(vol, [5, 6, 4], 1, 'VALID')" =>
                tf!(avg_pool3d(vol, ksize = [5, 6, 4], strides = 1, padding = "VALID")),
            "tf.nn.conv3d(vol, k3, [1, 1, 2, 2, 1], 'SAME')" =>
                rxt_tf::ops::conv3d(&vol, &k3, &[1, 2, 2], "SAME"),
        );
        // Filters whose input depth is not the volume's: eager's class.
        let wide = input::<f32, 5>(&i, "wide");
        let failed = tf!(conv3d(wide, k3, padding = "SAME")).and_then(|t| t.to_vec());
        let (class, message) = common::python_error(py, PyErr::from(failed.expect_err("depth")));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(message.starts_with("rxt-tf: conv3d failed: "), "{message}");
    });
}

/// Keras's `GroupNormalization(groups, epsilon=1e-3)` on an NHWC image, as
/// its `call` and `_apply_normalization` compute it (keras 3.15,
/// `keras/src/layers/normalization/group_normalization.py`): the channels
/// split into `groups` along a fifth axis, `moments` over all but the
/// batch and the groups, then `x · inv + (−mean · inv + beta)`.
fn group_normalization(
    x: &TensorF32Cpu4D,
    gamma: &TensorF32Cpu1D,
    beta: &TensorF32Cpu1D,
    groups: i64,
) -> rxt_tf::Result<TensorF32Cpu4D> {
    let shape = x.shape()?;
    let (height, width, channels) = (shape[1], shape[2], shape[3]);
    let per_group = channels / groups;
    let grouped = tf!(reshape(x, [-1, height, width, groups, per_group]))?;
    let (mean, variance) = tf!(moments(grouped, axes = [1, 2, 4], keepdims = true))?;
    let gamma = tf!(reshape(gamma, [1, 1, 1, groups, per_group]))?;
    let beta = tf!(reshape(beta, [1, 1, 1, groups, per_group]))?;
    let inv = tf!(rsqrt(tf!(variance + 1e-3)?))?;
    let inv = tf!(inv * gamma)?;
    let res = tf!(tf!(tf!(-mean)? * inv)? + beta)?;
    let normalized = tf!(tf!(grouped * inv)? + res)?;
    tf!(reshape(normalized, [-1, height, width, channels]))
}

/// The block `keras.Sequential([Conv3D(4, 3, padding='same',
/// activation='relu'), MaxPooling3D(2), AveragePooling3D((1, 2, 2),
/// strides=1, padding='same')])` computes: Keras's convolution adds its
/// bias after `tf.nn.convolution`, then the activation.
fn conv3d_block(
    x: &TensorF32Cpu5D,
    kernel: &TensorF32Cpu5D,
    bias: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu5D> {
    let y = tf!(conv3d(x, kernel, padding = "SAME"))?;
    let y = tf!(relu(tf!(y + bias)?))?;
    let y = tf!(max_pool3d(y, ksize = 2, strides = 2, padding = "VALID"))?;
    tf!(avg_pool3d(
        y,
        ksize = [1, 2, 2],
        strides = 1,
        padding = "SAME"
    ))
}

#[test]
fn real_rank5_layers_match_keras() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let img = input::<f32, 4>(&i, "img");
        let (gamma, beta) = (input::<f32, 1>(&i, "gamma"), input::<f32, 1>(&i, "beta"));
        let vid = input::<f32, 5>(&i, "vid");
        let (kernel, bias) = (input::<f32, 5>(&i, "kernel"), input::<f32, 1>(&i, "bias"));
        same!(py, &names(&i),
            "gn(img)" => group_normalization(&img, &gamma, &beta, 4),
            "block(vid)" => conv3d_block(&vid, &kernel, &bias),
        );
    });
}
