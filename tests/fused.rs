//! Fused execution: whole traces as one TensorFlow call, against the per-op
//! path and eager TensorFlow.

mod common;

use common::{eval, eval_with, with_python};
use pyo3::prelude::*;
use rxt_tf::fusion::{self, Scope};
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn tensor2<'py>(py: Python<'py>, code: &str) -> (Bound<'py, PyAny>, TensorF32Cpu2D) {
    let obj = eval(py, code);
    let tensor = obj
        .extract::<TensorF32Cpu2D>()
        .unwrap_or_else(|err| panic!("{err}"));
    (obj, tensor)
}

fn tensor1<'py>(py: Python<'py>, code: &str) -> (Bound<'py, PyAny>, TensorF32Cpu1D) {
    let obj = eval(py, code);
    let tensor = obj
        .extract::<TensorF32Cpu1D>()
        .unwrap_or_else(|err| panic!("{err}"));
    (obj, tensor)
}

fn seed_chain(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    let h = tf!(matmul(x, w))?;
    let a = tf!(relu(h))?;
    let y = tf!(a + b)?;
    tf!(reduce_mean(y, axis = 1))
}

#[test]
fn seed_chain_fused_equals_eager() {
    with_python(|py| {
        let (x_obj, x) = tensor2(py, "tf.random.normal([3, 8], seed=1)");
        let (w_obj, w) = tensor2(py, "tf.random.normal([8, 4], seed=2)");
        let (b_obj, b) = tensor1(py, "tf.random.normal([4], seed=3)");
        let before = fusion::stats();
        let result = {
            let _scope = Scope::fused();
            seed_chain(&x, &w, &b)
        };
        let native = common::to_python(py, "seed chain", result);
        let eager = eval_with(
            py,
            "tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)",
            &[("x", &x_obj), ("w", &w_obj), ("b", &b_obj)],
        );
        common::assert_matches_eager(py, "seed chain", &native, &eager);
        let after = fusion::stats();
        assert_eq!(after.builds, before.builds + 1);
        assert_eq!(after.replays, before.replays);
    });
}
