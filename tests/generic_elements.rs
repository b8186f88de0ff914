//! Code generic over the element type (`T: rxt_tf::Float`,
//! `T: rxt_tf::Numeric`), run at each type of the kind against eager
//! TensorFlow, bit for bit: an RMSNorm written once for float32, float64,
//! bfloat16 and float16 (literals converting to `T`), integer arithmetic over every
//! number type, and `cast` to a type parameter. `make test` runs it per op
//! and again with every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use common::{input, named_inputs, names, with_python};
use rxt_tf::{bf16, f16, tf, Tensor};

/// The inputs, as Python code: `name = expression`, one per line.
const INPUTS: &str = "
x = tf.reshape(tf.sin(tf.range(0.0, 2 * 3 * 8)) * 3.0, (2, 3, 8))
dx = tf.cast(x, tf.float64)
g = tf.cos(tf.range(8.0)) + 1.0
dg = tf.cast(g, tf.float64)
bx = tf.cast(x, tf.bfloat16)
bg = tf.cast(g, tf.bfloat16)
hx = tf.cast(x, tf.float16)
hg = tf.cast(g, tf.float16)
m = tf.reshape(tf.range(-6.0, 6.0), (3, 4))
bm = tf.cast(m, tf.bfloat16)
hm = tf.cast(m, tf.float16)
dm = tf.cast(m, tf.float64)
im = tf.cast(m, tf.int32)
lm = tf.cast(m, tf.int64)
";

/// RMSNorm over the last axis, `x · rsqrt(mean(x²) + ε) · g`, written once
/// for every float type.
fn rms_norm<T: rxt_tf::Float>(x: &Tensor<T, 3>, g: &Tensor<T, 1>) -> rxt_tf::Result<Tensor<T, 3>> {
    let mean_square = tf!(reduce_mean(tf!(square(x))?, axis = -1, keepdims = true))?;
    let inv = tf!(rsqrt(tf!(mean_square + 1e-6)?))?;
    tf!(tf!(x * inv)? * g)
}

/// `relu(2x + 1)` and the largest element per row, for every number type.
fn affine<T: rxt_tf::Numeric>(x: &Tensor<T, 2>) -> rxt_tf::Result<(Tensor<T, 2>, Tensor<T, 1>)> {
    let y = tf!(relu(tf!(tf!(x * 2)? + 1)?))?;
    let top = tf!(reduce_max(y, axis = 1))?;
    Ok((y, top))
}

/// A tensor of any number type as `U`, then its sum: `cast` to a type
/// parameter.
fn total_as<T: rxt_tf::Numeric, U: rxt_tf::Float>(
    x: &Tensor<T, 2>,
) -> rxt_tf::Result<Tensor<U, 0>> {
    let converted: Tensor<U, 2> = tf!(cast(x, U))?;
    tf!(reduce_sum(converted, axis = [0, 1]))
}

#[test]
fn generic_code_matches_eager_at_each_type() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (x, dx) = (input::<f32, 3>(&i, "x"), input::<f64, 3>(&i, "dx"));
        let (g, dg) = (input::<f32, 1>(&i, "g"), input::<f64, 1>(&i, "dg"));
        let (m, dm) = (input::<f32, 2>(&i, "m"), input::<f64, 2>(&i, "dm"));
        let (im, lm) = (input::<i32, 2>(&i, "im"), input::<i64, 2>(&i, "lm"));
        let (bx, hx) = (input::<bf16, 3>(&i, "bx"), input::<f16, 3>(&i, "hx"));
        let (bg, hg) = (input::<bf16, 1>(&i, "bg"), input::<f16, 1>(&i, "hg"));
        let (bm, hm) = (input::<bf16, 2>(&i, "bm"), input::<f16, 2>(&i, "hm"));
        same!(py, &names(&i),
            "x * tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=-1, keepdims=True) + 1e-6) * g" =>
                rms_norm(&x, &g),
            "dx * tf.math.rsqrt(tf.reduce_mean(tf.square(dx), axis=-1, keepdims=True) + 1e-6) * dg" =>
                rms_norm(&dx, &dg),
            "bx * tf.math.rsqrt(tf.reduce_mean(tf.square(bx), axis=-1, keepdims=True) + 1e-6) * bg" =>
                rms_norm(&bx, &bg),
            "hx * tf.math.rsqrt(tf.reduce_mean(tf.square(hx), axis=-1, keepdims=True) + 1e-6) * hg" =>
                rms_norm(&hx, &hg),
            "tf.nn.relu(bm * 2 + 1)" => affine(&bm).map(|(y, _)| y),
            "tf.reduce_max(tf.nn.relu(hm * 2 + 1), axis=1)" => affine(&hm).map(|(_, top)| top),
            "tf.reduce_sum(tf.cast(bm, tf.float16), axis=[0, 1])" => total_as::<bf16, f16>(&bm),
            "tf.reduce_sum(tf.cast(im, tf.bfloat16), axis=[0, 1])" => total_as::<i32, bf16>(&im),
            "tf.nn.relu(m * 2 + 1)" => affine(&m).map(|(y, _)| y),
            "tf.nn.relu(dm * 2 + 1)" => affine(&dm).map(|(y, _)| y),
            "tf.nn.relu(im * 2 + 1)" => affine(&im).map(|(y, _)| y),
            "tf.reduce_max(tf.nn.relu(lm * 2 + 1), axis=1)" => affine(&lm).map(|(_, top)| top),
            "tf.reduce_sum(tf.cast(im, tf.float64), axis=[0, 1])" => total_as::<i32, f64>(&im),
            "tf.reduce_sum(tf.cast(dm, tf.float32), axis=[0, 1])" => total_as::<f64, f32>(&dm),
        );
    });
}
