//! `rxt-tf`: run TensorFlow 2.21.0 ops natively from Rust, inside the
//! Python process that already loaded the `tensorflow` wheel, taking and
//! returning real `tf.Tensor` objects with no copy.
//!
//! - [`tf!`] runs one op of the table (over a hundred: element-wise math,
//!   reductions, shapes and indexing, convolutions, einsum, …), checked at
//!   compile time; `#[inference]` checks an inference function's signature
//!   and target and runs its body as one TensorFlow call ([`fusion`]).
//! - [`Tensor<T, R>`](Tensor) is the tensor type: element type `T` (`f32`,
//!   `f64`, [`bf16`], [`f16`], `i32`, `i64`, `bool`) and rank `R` (0 to 5)
//!   are part of the type,
//!   with aliases such as [`TensorF32Cpu2D`] and [`TensorI64Cpu1D`]; tensors
//!   cross the Python boundary as EagerTensors.
//! - [`Function`] calls a TensorFlow function (a Keras model, a
//!   `tf.function`, a SavedModel signature) from Rust.
//! - [`ops`] has every op as a plain function; [`Error`] / [`Result`] are
//!   the errors, converting into the matching Python exceptions.
//!
//! The guide (`guide/` in the repository) covers all of it.

pub use rxt_tf_macros::inference;
pub use rxt_tf_runtime::tensor::aliases::*;
/// A rank as a type: here so that compile errors name it `Rank<2>`.
#[doc(hidden)]
pub use rxt_tf_runtime::tensor::Rank;
pub use rxt_tf_runtime::{
    bf16, f16, fusion, ops, Argument, Arguments, DType, Element, Error, Float, Function, Numeric,
    PassThrough, Result, Returns, Tensor,
};

/// Runs one op of rxt-tf's table on tensors, checked at compile time:
/// `tf!(matmul(x, w))`, `tf!(relu(h))`, `tf!(a + b)`,
/// `tf!(reduce_mean(h, axis = 1))`; the guide's op reference lists every op
/// with its ranks and keywords. Operands are any expressions, borrowed, not
/// moved.
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
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

// The guide's chapters that hold Rust, compiled as doctests: a snippet that
// needs a Python process is `no_run`, one shown failing is `compile_fail`.
// The error gallery (guide/src/error-gallery.md) is not among them: its
// cases are `ui-tests/`, which trybuild compiles against their snapshots.

/// `guide/src/getting-started.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/getting-started.md")]
pub struct GuideGettingStarted;

/// `guide/src/tf-syntax.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/tf-syntax.md")]
pub struct GuideTfSyntax;

/// `guide/src/types-and-errors.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/types-and-errors.md")]
pub struct GuideTypesAndErrors;

/// `guide/src/fused.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/fused.md")]
pub struct GuideFused;

/// `guide/src/tensors.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/tensors.md")]
pub struct GuideTensors;

/// `guide/src/functions.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/functions.md")]
pub struct GuideFunctions;

/// `guide/src/litert.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../guide/src/litert.md")]
pub struct GuideLitert;
