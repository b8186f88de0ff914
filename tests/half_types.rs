//! The half types, `bf16` (`bfloat16`) and `f16` (`float16`), against eager
//! TensorFlow and Keras, bit for bit: tensors made and read in Rust and
//! crossing to Python, literals converted as TensorFlow converts a Python
//! float (through a float32; bfloat16 flushing subnormals), casts both
//! ways, the boundary's error for a tensor of another type, and two real
//! Keras layers under the `mixed_bfloat16` policy. `make test` runs it per
//! op and again with every op fused (`RXT_TF_TEST_FUSED=1`).

#[macro_use]
mod common;

use common::{eval_with, input, named_inputs, names, with_python};
use pyo3::prelude::*;
use rxt_tf::ops::Scalar;
use rxt_tf::{bf16, f16, tf, Tensor, TensorBf16Cpu2D, TensorF16Cpu1D, TensorF32Cpu1D};

/// The inputs and the Keras layers, as Python code: `name = expression`.
const INPUTS: &str = "
import keras
x = tf.reshape(tf.sin(tf.range(0.0, 4 * 6 * 8) * 0.37) * 4.0 + 0.5, (4, 6, 8))
bx = tf.cast(x, tf.bfloat16)
hx = tf.cast(x, tf.float16)
x5 = x[..., :5] * 3.0
m = tf.reshape(tf.range(-6.0, 6.0) * 1.3, (3, 4))
bm = tf.cast(m, tf.bfloat16)
hm = tf.cast(m, tf.float16)
flags = tf.constant([[True, False, True, True], [False, False, True, False], [True, True, True, False]])
ln = keras.layers.LayerNormalization(epsilon=1e-3, dtype='mixed_bfloat16')
ln.build((4, 6, 5))
ln.gamma.assign(tf.cos(tf.range(5.0)) + 1.5)
ln.beta.assign(tf.sin(tf.range(5.0)) * 0.5)
gamma = tf.convert_to_tensor(ln.gamma)
beta = tf.convert_to_tensor(ln.beta)
dense = keras.layers.Dense(5, activation='gelu', dtype='mixed_bfloat16')
dense.build(x.shape)
dense.kernel.assign(tf.reshape(tf.cos(tf.range(0.0, 8 * 5) * 0.9), (8, 5)) / 2.0)
dense.bias.assign([0.25, -0.5, 0.0, 0.125, 1.0])
kernel = tf.convert_to_tensor(dense.kernel)
bias = tf.convert_to_tensor(dense.bias)
";

#[test]
fn half_tensors_round_trip_through_rust_and_python() {
    with_python(|py| {
        let data: Vec<bf16> = [1.5_f32, -2.0, 0.0, -0.0, f32::NAN, f32::INFINITY]
            .iter()
            .map(|v| bf16::from_f32(*v))
            .collect();
        let t = TensorBf16Cpu2D::from_slice(py, &data, [2, 3]).expect("from_slice");
        let back = t.to_vec().expect("to_vec");
        let bits = |v: &[bf16]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&data));
        let obj = t.into_pyobject(py).expect("py");
        let ok: bool = eval_with(
            py,
            "o.dtype == tf.bfloat16 and o.shape == (2, 3) and \
             tf.bitcast(o, tf.uint16).numpy().tolist() == [[16320, 49152, 0], [32768, 32704, 32640]]",
            &[("o", &obj)],
        )
        .extract()
        .expect("bool");
        assert!(ok, "{obj}");
        // The smallest subnormal and the largest finite float16, both ways.
        let edges = [f16::from_bits(1), f16::MAX, f16::NEG_INFINITY];
        let h = TensorF16Cpu1D::from_slice(py, &edges, [3]).expect("f16");
        let doubled = tf!(h + h).expect("add").to_vec().expect("read");
        assert_eq!(
            doubled.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            [2, f16::INFINITY.to_bits(), f16::NEG_INFINITY.to_bits()]
        );
        // A tensor of another type at the boundary: the error names both.
        let wrong = eval_with(py, "tf.constant([1.0, 2.0])", &[]);
        let err = wrong.extract::<TensorF16Cpu1D>().expect_err("float32");
        let message = err.to_string();
        assert!(
            message.contains("float16") && message.contains("float32"),
            "{message}"
        );
        let wrong = eval_with(py, "tf.constant([1.0], tf.bfloat16)", &[]);
        assert!(wrong.extract::<TensorF32Cpu1D>().is_err());
    });
}

#[test]
fn literals_and_casts_match_eager() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (bm, hm) = (input::<bf16, 2>(&i, "bm"), input::<f16, 2>(&i, "hm"));
        let (m, flags) = (input::<f32, 2>(&i, "m"), input::<bool, 2>(&i, "flags"));
        let half = Scalar(bf16::from_f32(0.5));
        same!(py, &names(&i),
            // 1 + 2**-8 + 2**-40: a tie in float32, rounded up from the
            // double directly; eager rounds through the float32.
            "bm * 1.0039062500000009" => tf!(bm * 1.0039062500000009),
            "hm + 0.00048828125000000095" => tf!(hm + 0.00048828125000000095),
            // A float32 subnormal: eager's bfloat16 flushes it to zero.
            "tf.maximum(bm, 3e-39)" => tf!(maximum(bm, 3e-39)),
            "tf.minimum(bm, -3e-39)" => tf!(minimum(bm, -3e-39)),
            "tf.maximum(bm, 1.1754942106924411e-38)" => tf!(maximum(bm, 1.1754942106924411e-38)),
            "tf.maximum(hm, 6e-08)" => tf!(maximum(hm, 6e-08)),
            // Past float16: infinity, as eager (no error).
            "hm * 70000.0" => tf!(hm * 70000.0),
            "hm * 16777217" => tf!(hm * 16777217),
            "bm - 1099511627777" => tf!(bm - 1099511627777),
            "bm * tf.bfloat16.as_numpy_dtype(0.5)" => tf!(bm * half),
            // A half value keeps its bits, a subnormal too (unlike a literal).
            "tf.where(flags, bm, tf.bfloat16.as_numpy_dtype(-9.183549615799121e-41))" =>
                tf!(where(flags, bm, Scalar(bf16::from_bits(0x8001)))),
            // A run-time float converted as a literal is.
            "tf.maximum(bm, 3e-39)" => tf!(maximum(bm, Scalar::<bf16>::from_f64(3e-39))),
            "hm * 1.0004882812500002" => tf!(hm * Scalar::<f16>::from_f64(1.0004882812500002)),
            "tf.cast(m, tf.bfloat16)" => tf!(cast(m, bf16)),
            "tf.cast(m, tf.float16)" => tf!(cast(m, dtype = f16)),
            "tf.cast(bm, tf.float16)" => tf!(cast(bm, f16)),
            "tf.cast(hm, tf.float32)" => tf!(cast(hm, f32)),
            "tf.cast(bm, tf.int32)" => tf!(cast(bm, i32)),
            "tf.cast(flags, tf.bfloat16)" => tf!(cast(flags, bf16)),
            "tf.zeros((2, 3), tf.bfloat16)" => tf!(zeros([2, 3], bf16)),
            "tf.ones((3,), tf.float16)" => tf!(ones([3], dtype = f16)),
            "tf.eye(3, dtype=tf.bfloat16)" => tf!(eye(3, dtype = bf16)),
            "tf.argmax(hm, axis=1)" => tf!(argmax(hm, axis = 1)),
        );
    });
}

/// Keras's `LayerNormalization(epsilon=1e-3)` under the `mixed_bfloat16`
/// policy, as its `call` and `ops.layer_normalization` compute it (keras
/// 3.15, `keras/src/layers/normalization/layer_normalization.py`,
/// `keras/src/ops/nn.py` `_layer_normalization`): the layer sets
/// `autocast = False`, so its float32 variables stay float32; the input
/// (float32, or a bfloat16 activation the caller widens with `cast`, as
/// `result_type(bfloat16, float32)` does) is normalized in float32, `x ·
/// inv + (−mean · inv + beta)`, and the result cast to bfloat16.
fn layer_normalization(
    x: &Tensor<f32, 3>,
    gamma: &TensorF32Cpu1D,
    beta: &TensorF32Cpu1D,
) -> rxt_tf::Result<Tensor<bf16, 3>> {
    let (mean, variance) = tf!(moments(x, axes = [2], keepdims = true))?;
    let inv = tf!(rsqrt(tf!(variance + 1e-3)?))?;
    let inv = tf!(inv * gamma)?;
    let res = tf!(tf!(tf!(-mean)? * inv)? + beta)?;
    let outputs = tf!(tf!(x * inv)? + res)?;
    tf!(cast(outputs, bf16))
}

/// Keras's `Dense(5, activation='gelu')` under `mixed_bfloat16` (keras
/// 3.15, `keras/src/layers/core/dense.py`): input and variables as
/// bfloat16, `gelu(matmul(x, kernel) + bias)` computed in bfloat16 (the
/// exact GELU, `tf.nn.gelu(x, approximate=False)`).
fn dense(
    x: &Tensor<f32, 3>,
    kernel: &Tensor<f32, 2>,
    bias: &TensorF32Cpu1D,
) -> rxt_tf::Result<Tensor<bf16, 3>> {
    let (x, kernel, bias) = (
        tf!(cast(x, bf16))?,
        tf!(cast(kernel, bf16))?,
        tf!(cast(bias, bf16))?,
    );
    let y = tf!(tf!(matmul(x, kernel))? + bias)?;
    tf!(gelu(y, approximate = false))
}

/// An RMSNorm written once for every float type; here its half legs, fed
/// and compared as bfloat16 and float16.
fn rms_norm<T: rxt_tf::Float>(x: &Tensor<T, 3>) -> rxt_tf::Result<Tensor<T, 3>> {
    let mean_square = tf!(reduce_mean(tf!(square(x))?, axis = -1, keepdims = true))?;
    tf!(x * tf!(rsqrt(tf!(mean_square + 1e-6)?))?)
}

#[test]
fn mixed_bfloat16_layers_match_keras() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (x, x5) = (input::<f32, 3>(&i, "x"), input::<f32, 3>(&i, "x5"));
        let (bx, hx) = (input::<bf16, 3>(&i, "bx"), input::<f16, 3>(&i, "hx"));
        let (gamma, beta) = (input::<f32, 1>(&i, "gamma"), input::<f32, 1>(&i, "beta"));
        let (kernel, bias) = (input::<f32, 2>(&i, "kernel"), input::<f32, 1>(&i, "bias"));
        same!(py, &names(&i),
            "ln(x5)" => layer_normalization(&x5, &gamma, &beta),
            "dense(x)" => dense(&x, &kernel, &bias),
            "ln(dense(x))" => dense(&x, &kernel, &bias)
                .and_then(|y| tf!(cast(y, f32)))
                .and_then(|y| layer_normalization(&y, &gamma, &beta)),
            "bx * tf.math.rsqrt(tf.reduce_mean(tf.square(bx), axis=-1, keepdims=True) + 1e-6)" =>
                rms_norm(&bx),
            "hx * tf.math.rsqrt(tf.reduce_mean(tf.square(hx), axis=-1, keepdims=True) + 1e-6)" =>
                rms_norm(&hx),
        );
    });
}
