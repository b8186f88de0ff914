//! `rxt-tf`: run a small TensorFlow 2.21.0 inference slice natively from
//! Rust, inside the Python process that already loaded the `tensorflow`
//! wheel, taking and returning real `tf.Tensor` objects with no copy.
//!
//! This crate only re-exports: the runtime ([`rxt_tf_runtime`]) and the
//! macros `#[inference]` and [`tf!`].

pub use rxt_tf_macros::inference;
pub use rxt_tf_runtime::{
    checks, ops, platform, sys, AddRanks, BoundContext, Error, FloatTensor, Result, TensorF32Cpu1D,
    TensorF32Cpu2D, Wheel, RELEASE_WORK,
};

/// Runs one op of rxt-tf's table on tensors, checked at compile time:
/// `tf!(matmul(x, w))`, `tf!(relu(h))`, `tf!(sigmoid(h))`, `tf!(add(a, b))`,
/// `tf!(a + b)`, `tf!(reduce_mean(h, axis = 1))` (optionally
/// `keepdims = false`). Operands are any expressions, borrowed, not moved.
/// Evaluates to an [`rxt_tf::Result`](Result) of the output tensor.
#[macro_export]
macro_rules! tf {
    ($($input:tt)+) => {
        $crate::__private::tf_impl!($crate; $($input)+)
    };
}

/// Support for generated code. Not public API: outside semver.
#[doc(hidden)]
pub mod __private {
    pub use rxt_tf_macros::tf_impl;
    pub use rxt_tf_runtime::macro_support::*;
}

/// The README's Rust examples, compiled as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
