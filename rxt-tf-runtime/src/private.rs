//! What `tf!`, `#[inference]` and the tests reach through
//! `rxt_tf::__private`. Not public API: outside semver.

pub use rxt_tf_spec::{DType, Value};

pub use crate::binding::checks;
pub use crate::binding::context::BoundContext;
pub use crate::binding::platform;
pub use crate::binding::wheel::Wheel;
pub use crate::ops::dispatch::{
    execute, AsOperand, Flag, Int, OpRow, OperandOf, Scalar, Signature, Slot,
};
pub use crate::ops::op;
pub use crate::python::gil::RELEASE_WORK;
pub use crate::sys;
pub use crate::tensor::TensorType;

use crate::error::{Error, Result};

/// Asserts at compile time that a `#[inference]` parameter type is an rxt-tf tensor.
pub fn assert_tensor<T: TensorType>() {}

/// Stands in for an invalid `tf!` invocation after its `compile_error!`, so
/// the surrounding code type-checks; never reached (the build has failed).
pub fn unreachable_result<T>() -> Result<T> {
    Err(Error::Python {
        step: "an invalid tf! invocation",
        detail: String::from("this code did not compile"),
    })
}
