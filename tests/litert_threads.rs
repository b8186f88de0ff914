//! `RXT_TF_LITERT_THREADS` sets XNNPACK's threads per compiled model; a
//! value that is not a thread count is an error of every litert call that
//! names it. Its own test binary: the variable is read once per process.

mod common;

use common::{eval, with_python};
use pyo3::prelude::*;
use rxt_tf::fusion::Scope;
use rxt_tf::{tf, TensorF32Cpu2D};

#[test]
fn a_thread_count_that_is_not_one_is_named() {
    std::env::set_var("RXT_TF_LITERT_THREADS", "0");
    with_python(|py| {
        let x: TensorF32Cpu2D = eval(py, "tf.ones((2, 3))").extract().expect("x");
        let _litert = Scope::litert();
        let doubled = tf!(x * 2.0).expect("recorded");
        let y = tf!(relu(doubled)).expect("recorded");
        let message = y.to_vec().expect_err("threads").to_string();
        assert_eq!(
            message,
            "rxt-tf: the litert backend is unavailable: RXT_TF_LITERT_THREADS is \"0\", not a \
             thread count from 1 to 64"
        );
    });
}
