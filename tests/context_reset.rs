//! A reset of Python's eager context binds a new context; tensors of the
//! old one keep it alive, and are never mixed with the new one.
//! (Its own test binary: resetting the context would disturb other tests.)

mod common;

use common::{eval, with_python};
use pyo3::prelude::*;
use rxt_tf::__private::BoundContext;
use rxt_tf::{ops, Error, TensorF32Cpu2D};

#[test]
fn tensors_keep_their_context_alive_and_are_never_mixed() {
    with_python(|py| {
        let old: TensorF32Cpu2D = eval(py, "tf.ones([2, 2])").extract().expect("old");
        let old_context = BoundContext::current(py).expect("bind");
        eval(
            py,
            "__import__('tensorflow.python.eager.context', fromlist=['x'])._reset_context()",
        );
        eval(py, "__import__('gc').collect()");
        let new: TensorF32Cpu2D = eval(py, "tf.ones([2, 2])").extract().expect("new");
        let new_context = BoundContext::current(py).expect("rebind");
        assert!(!std::sync::Arc::ptr_eq(&old_context, &new_context));
        // The old context is still alive: ops on its tensors still run.
        let relu = ops::relu(&old).expect("old context still usable");
        assert_eq!(relu.shape().expect("shape"), vec![2, 2]);
        let err = ops::matmul(&old, &new, false, false).expect_err("mixed");
        assert_eq!(err, Error::MixedContexts { op: "matmul" });
        assert_eq!(
            err.to_string(),
            "rxt-tf: matmul got tensors from different eager contexts"
        );
    });
}

/// After a reset, fused traces and each thread's spare recording do not
/// keep the old context: once no tensor uses it, it is released (a weak
/// reference to Python's context object dies) and its traces leave the
/// cache. (TensorFlow itself keeps some threads per context it ever made,
/// fused or not, so threads are not counted.)
#[test]
fn a_reset_context_is_released_with_its_traces() {
    use rxt_tf::fusion::{self, Scope};
    use rxt_tf::tf;
    with_python(|py| {
        let run_fused = |py: Python<'_>| {
            let x: TensorF32Cpu2D = eval(py, "tf.ones([2, 2])").extract().expect("x");
            let _scope = Scope::fused();
            let y = tf!(relu(x)).expect("relu");
            let _dropped_unread = tf!(tanh(y)).expect("tanh");
            tf!(y * 2.0).expect("mul")
        };
        let context = "__import__('tensorflow.python.eager.context', fromlist=['x'])";
        let weak_code = format!("__import__('weakref').ref({context}.context())");
        let weak = || eval(py, &weak_code);
        let reset = format!("{context}._reset_context()");
        let mut contexts = vec![weak()];
        let kept = run_fused(py);
        assert_eq!(kept.to_vec().expect("read"), vec![2.0; 4]);
        drop(kept);
        for _ in 0..30 {
            eval(py, &reset);
            eval(py, "__import__('gc').collect()");
            let out = run_fused(py);
            assert_eq!(out.to_vec().expect("read"), vec![2.0; 4]);
            contexts.push(weak());
        }
        eval(py, &reset);
        // Bind the new context (the last one bound is held until then).
        let _new: TensorF32Cpu2D = eval(py, "tf.ones([1, 1])").extract().expect("new");
        eval(py, "__import__('gc').collect()");
        let alive = contexts
            .iter()
            .filter(|weak| !weak.call0().expect("deref").is_none())
            .count();
        assert_eq!(alive, 0, "{alive} of 31 retired contexts are alive");
        let stats = fusion::stats();
        assert!(
            stats.cached <= 1,
            "traces of retired contexts stay: {stats:?}"
        );
    });
}
