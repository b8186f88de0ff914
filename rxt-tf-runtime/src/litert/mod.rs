//! The litert backend's foundation: LiteRT (`libLiteRt.so` of the
//! `ai-edge-litert` 2.3.0 package) found in Python's environment, version
//! checked and loaded once; its C API resolved from that image; models
//! converted from TensorFlow functions by TensorFlow's TFLite converter,
//! compiled for the CPU (XNNPACK) per input shape, and run on TensorFlow
//! tensors' own buffers. Not public API yet: reached through
//! `__private::litert` by the tests while the backend's scopes are built.

mod convert;
mod library;
mod model;
mod sys;
mod tensors;

pub use convert::convert;
pub use library::{locate, LITERT_VERSION};
pub use model::{Compiled, HostTensor, Model};
pub use sys::LitertApi;
pub use tensors::run;
pub(crate) use tensors::run_untyped;

/// The litert backend's counters (read by `fusion::stats()`).
pub(crate) struct Counters {
    pub(crate) calls: std::sync::atomic::AtomicU64,
    pub(crate) fallbacks: std::sync::atomic::AtomicU64,
    pub(crate) compiles: std::sync::atomic::AtomicU64,
}

/// The process's counters.
pub(crate) static COUNTERS: Counters = Counters {
    calls: std::sync::atomic::AtomicU64::new(0),
    fallbacks: std::sync::atomic::AtomicU64::new(0),
    compiles: std::sync::atomic::AtomicU64::new(0),
};

/// Whether a failed conversion or compilation is an error instead of a
/// fallback to TensorFlow: `RXT_TF_LITERT_STRICT` is `1`, `true`, `on` or
/// `yes` (read at each fallback, which is rare: a failed conversion is
/// kept, so later calls fall back without converting again).
pub(crate) fn strict() -> bool {
    std::env::var("RXT_TF_LITERT_STRICT").is_ok_and(|value| {
        matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "on" | "yes"
        )
    })
}

/// Loads LiteRT now (it loads on first use otherwise): an error names the
/// package to install when it is missing or of another version.
pub fn ensure_loaded() -> crate::error::Result<()> {
    library::library().map(|_| ())
}
