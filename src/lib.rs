//! `rxt-tf`: run a small TensorFlow 2.21.0 inference slice natively from
//! Rust, inside the Python process that already loaded the `tensorflow`
//! wheel, taking and returning real `tf.Tensor` objects with no copy.
//!
//! - [`tf!`] runs one op of the table, checked at compile time;
//!   `#[inference]` checks an inference function's signature and target.
//! - [`TensorF32Cpu2D`], [`TensorF32Cpu1D`] and [`TensorI64Cpu1D`] (what
//!   `argmax` returns) are the tensor types: rank and element type are part
//!   of the type, and they cross the Python boundary as EagerTensors.
//! - [`ops`] has every op as a plain function; [`Error`] / [`Result`] are
//!   the errors, converting into the matching Python exceptions.

pub use rxt_tf_macros::inference;
pub use rxt_tf_runtime::tensor::aliases::*;
pub use rxt_tf_runtime::{
    fusion, ops, Arguments, Element, Error, Function, PassThrough, Result, Returns, Tensor,
};

/// Runs one op of rxt-tf's table on tensors, checked at compile time:
/// `tf!(matmul(x, w))`, `tf!(relu(h))`, `tf!(a + b)`,
/// `tf!(reduce_mean(h, axis = 1))`; the README lists every op with its
/// ranks and keywords. Operands are any expressions, borrowed, not moved.
/// Evaluates to an [`rxt_tf::Result`](Result) of the output tensor.
#[macro_export]
macro_rules! tf {
    ($($input:tt)+) => {
        $crate::__private::tf_impl!($crate; $($input)+)
    };
}

/// Support for generated code and tests. Not public API: outside semver.
#[doc(hidden)]
pub mod __private {
    pub use rxt_tf_macros::tf_impl;
    pub use rxt_tf_runtime::__private::*;
}

/// The README's Rust examples, compiled as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
