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
