//! Runtime of rxt-tf: binds the `tensorflow==2.21.0` wheel that the Python
//! process has already loaded and runs a small inference slice through its
//! TFE C API, on Python's own eager context, taking and returning real
//! EagerTensors with no copy.
//!
//! Three layers: [`sys`] (the C types and the function-pointer table resolved
//! from the wheel's images), a result layer turning `TF_Status` into
//! [`Error`], and safe RAII tensors ([`TensorF32Cpu2D`], [`TensorF32Cpu1D`])
//! with the typed [`ops`].

mod boundary;
pub mod checks;
mod context;
mod error;
mod gil;
mod handle;
#[doc(hidden)]
pub mod macro_support;
pub mod ops;
pub mod platform;
mod status;
pub mod sys;
mod tensor;
mod wheel;

pub use context::BoundContext;
pub use error::{Error, Result};
pub use gil::RELEASE_WORK;
pub use ops::AddRanks;
pub use tensor::{FloatTensor, TensorF32Cpu1D, TensorF32Cpu2D};
pub use wheel::Wheel;
