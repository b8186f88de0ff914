//! The litert backend's switch `RXT_TF_LITERT_STRICT=1`: a `Function`
//! call or a fused trace LiteRT cannot take is an error naming the reason
//! instead of a fallback to TensorFlow. Its own test binary: it sets the variable, which
//! no other test may read meanwhile.

mod common;

use common::{named_inputs, with_python};
use pyo3::prelude::*;

#[test]
fn the_strict_switch_turns_a_fallback_into_an_error() {
    with_python(|py| {
        let d = named_inputs(
            py,
            "
doubled = tf.function(lambda v: v * 2.0).get_concrete_function(tf.TensorSpec([None], tf.float64))
v = tf.constant([0.5, -1.25, 3.0], tf.float64)
",
        );
        let doubled: rxt_tf::Function = d[0].1.extract().expect("doubled");
        let v: rxt_tf::Tensor<f64, 1> = d[1].1.extract().expect("v");
        let _litert = rxt_tf::fusion::Scope::litert();
        let fell: rxt_tf::Tensor<f64, 1> = doubled.call((&v,)).expect("fallback");
        assert_eq!(fell.to_vec().expect("read"), vec![1.0, -2.5, 6.0]);
        std::env::set_var("RXT_TF_LITERT_STRICT", "1");
        let strict = doubled.call::<_, rxt_tf::Tensor<f64, 1>>((&v,)).map(|_| ());
        std::env::remove_var("RXT_TF_LITERT_STRICT");
        let message = strict.expect_err("strict").to_string();
        assert!(
            message.contains("runs no float64 tensors") && message.contains("RXT_TF_LITERT_STRICT"),
            "{message}"
        );
        // A fused trace of float64 ops: every result it gives fails.
        std::env::set_var("RXT_TF_LITERT_STRICT", "1");
        let (doubled, negated) = (rxt_tf::tf!(v * 2.0), rxt_tf::tf!(neg(v)));
        let results = (
            doubled.and_then(|t| t.to_vec()),
            negated.and_then(|t| t.to_vec()),
        );
        std::env::remove_var("RXT_TF_LITERT_STRICT");
        for result in [results.0, results.1] {
            let message = result.expect_err("strict").to_string();
            assert!(
                message.starts_with("rxt-tf: litert: a litert scope cannot run through LiteRT")
                    && message.contains("runs no float64 tensors"),
                "{message}"
            );
        }
    });
}
