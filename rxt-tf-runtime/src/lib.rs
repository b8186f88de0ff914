//! Runtime of rxt-tf: binds the `tensorflow==2.21.0` wheel that the Python
//! process has already loaded and runs the op table of `rxt-tf-spec` through
//! its TFE C API, on Python's own eager context, taking and returning real
//! EagerTensors with no copy.
//!
//! Layers, lowest first; no module imports one above it (the guide's
//! architecture chapter lists them; a test checks both against the
//! imports): `error` (the error type), `sys` (C types and
//! the function table resolved from the wheel's images), `gil` (releasing
//! the GIL), `safe` (owned statuses, handles, ops, graphs, constants),
//! `binding` (the wheel, its platform profile, Python's context),
//! `call_gate` (calls through TensorFlow's call wrappers against their
//! removal), the typed [`tensor`] types, `python` (the EagerTensor
//! boundary, and the Python rxt-tf runs), `eager` (one op
//! call as one TensorFlow node: planned, its inputs found, cast and
//! checked, built into a sink; one emitter runs nodes as eager ops or adds
//! them to a graph, and an op outside a fusing scope runs at once),
//! `litert` (LiteRT's C API, loaded from
//! Python's environment: converted models compiled and run on tensors' own
//! buffers), `fused` (a fused scope's recording, run as one TensorFlow
//! function (see [`fusion`]) or through LiteRT), `function` (calling TensorFlow
//! functions: [`Function`]), the [`ops`] (the typed surface, its rules,
//! composite rows, the entry points and the record-or-run step), and `private` (what the macros and
//! the Python package reach as `__private`). Use it through the `rxt-tf`
//! crate.

mod binding;
mod call_gate;
mod eager;
mod error;
mod function;
mod fused;
mod gil;
#[doc(hidden)]
pub mod litert;
pub mod ops;
mod private;
mod python;
mod safe;
#[doc(hidden)]
pub mod sys;
pub mod tensor;

pub use error::{Error, PassThrough, Result};
pub use function::{Argument, Arguments, Function, Returns};

/// Fused execution: the ops of a call run as one TensorFlow function (see
/// [`fusion::Scope`]). `#[rxt_tf::inference]` bodies are fused scopes.
pub mod fusion {
    pub use crate::fused::{enabled, stats, Scope, Stats, TRACE_CAPACITY};
    pub use crate::litert::{
        forget_litert_fallback_reasons, litert_fallback_reasons, litert_fallback_warning,
    };
}
/// The half-precision element types, `half`'s: `bf16` (`bfloat16`) and
/// `f16` (`float16`), of the `TensorBf16Cpu*D` / `TensorF16Cpu*D` aliases.
pub use half::{bf16, f16};
pub use ops::{Float, Numeric};
/// TensorFlow's element types, the type of [`Element::DTYPE`]: generic code
/// branches on `T::DTYPE == DType::F16` as Python code on
/// `x.dtype == tf.float16`.
pub use rxt_tf_spec::DType;
pub use tensor::aliases::*;
pub use tensor::{Element, Tensor};

/// Support for `rxt-tf`'s macros and tests. Not public API: outside semver.
#[doc(hidden)]
pub mod __private {
    pub use crate::private::*;
}
