//! `rxt-tf`: run a small TensorFlow 2.21.0 inference slice natively from
//! Rust, inside the Python process that already loaded the `tensorflow`
//! wheel, taking and returning real `tf.Tensor` objects with no copy.
//!
//! This crate only re-exports; see [`rxt_tf_runtime`] for the details.

pub use rxt_tf_runtime::{
    checks, ops, platform, sys, AddRanks, BoundContext, Error, FloatTensor, Result, TensorF32Cpu1D,
    TensorF32Cpu2D, Wheel,
};

/// Support for generated code. Not public API: outside semver.
#[doc(hidden)]
pub mod __private {
    pub use rxt_tf_runtime::ops;
}

/// The README's Rust examples, compiled as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
