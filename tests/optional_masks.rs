//! A real layer with optional tensors against Keras, bit for bit: Keras's
//! dot-product `Attention` layer called with `mask=[query_mask,
//! value_mask]`, each mask given or `None` (all four presence patterns),
//! ported with `Option<&Tensor>` and ordinary Rust matches. `make test`
//! runs it per op and again with every op fused (`RXT_TF_TEST_FUSED=1`),
//! where each presence pattern is its own trace.

#[macro_use]
mod common;

use common::{input, named_inputs, names, with_python};
use rxt_tf::{tf, TensorBoolCpu2D, TensorF32Cpu3D};

/// The inputs and the layer, as Python code: `name = expression`.
const INPUTS: &str = "
import keras
query = tf.reshape(tf.sin(tf.range(0.0, 2 * 4 * 6)), (2, 4, 6))
value = tf.reshape(tf.cos(tf.range(0.0, 2 * 5 * 6) * 0.7), (2, 5, 6))
query_mask = tf.constant([[True, True, False, True], [False, True, True, True]])
value_mask = tf.constant([[True, False, True, True, False], [True, True, True, False, True]])
attention = keras.layers.Attention()
";

/// Keras's `Attention()` (dot scores, no scale, no causal mask) in
/// inference, as its `call`, `_calculate_scores` and `_apply_scores`
/// compute it (keras 3.15, `keras/src/layers/attention/attention.py`):
/// `query · keyᵀ` (the key is the value), masked-out values' scores less
/// 1e9, softmax, `weights · value`, masked-out queries' rows zero.
fn keras_attention(
    query: &TensorF32Cpu3D,
    value: &TensorF32Cpu3D,
    query_mask: Option<&TensorBoolCpu2D>,
    value_mask: Option<&TensorBoolCpu2D>,
) -> rxt_tf::Result<TensorF32Cpu3D> {
    let key = tf!(transpose(value, perm = [0, 2, 1]))?;
    let mut scores = tf!(matmul(query, key))?;
    if let Some(value_mask) = value_mask {
        let padding = tf!(expand_dims(tf!(logical_not(value_mask))?, axis = -2))?;
        scores = tf!(where(padding, tf!(scores - 1e9)?, scores))?;
    }
    let weights = tf!(softmax(scores, axis = -1))?;
    let output = tf!(matmul(weights, value))?;
    match query_mask {
        Some(query_mask) => {
            let keep = tf!(expand_dims(query_mask, axis = -1))?;
            tf!(where(keep, output, tf!(zeros_like(output))?))
        }
        None => Ok(output),
    }
}

#[test]
fn keras_attention_matches_with_each_mask_given_or_not() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let (query, value) = (input::<f32, 3>(&i, "query"), input::<f32, 3>(&i, "value"));
        let query_mask = input::<bool, 2>(&i, "query_mask");
        let value_mask = input::<bool, 2>(&i, "value_mask");
        let (q, v) = (Some(&query_mask), Some(&value_mask));
        same!(py, &names(&i),
            "attention([query, value])" => keras_attention(&query, &value, None, None),
            "attention([query, value], mask=[query_mask, None])" =>
                keras_attention(&query, &value, q, None),
            "attention([query, value], mask=[None, value_mask])" =>
                keras_attention(&query, &value, None, v),
            "attention([query, value], mask=[query_mask, value_mask])" =>
                keras_attention(&query, &value, q, v),
        );
    });
}
