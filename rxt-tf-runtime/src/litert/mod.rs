//! The litert backend's foundation: LiteRT (`libLiteRt.so` of the
//! `ai-edge-litert` 2.3.0 package) found in Python's environment, version
//! checked and loaded once; its C API resolved from that image; models
//! converted from TensorFlow functions by TensorFlow's TFLite converter,
//! compiled for the CPU (XNNPACK) per input shape, and run on TensorFlow
//! tensors' own buffers. Not public API yet: reached through
//! `__private::litert` by the tests while the backend's scopes are built.

mod cache;
mod convert;
mod fallback;
mod frozen;
mod library;
mod model;
mod sys;
mod tensors;

pub(crate) use cache::{ModelCache, Outcome};
pub use cache::{COMPILED_CAPACITY, SPECIALIZATIONS, SPECIALIZED_CAPACITY};
pub use convert::convert;
pub(crate) use convert::{convert_at, convert_function_def, FrozenValue};
pub(crate) use fallback::fall_back;
pub use fallback::{
    forget_litert_fallback_reasons, litert_fallback_reasons, litert_fallback_warning,
};
pub(crate) use frozen::{Frozen, FrozenModels};
pub use frozen::{FREEZINGS, FROZEN_CAPACITY};
pub use library::{locate, LITERT_VERSION};
pub use model::{Compiled, HostTensor, Model};
pub use sys::LitertApi;
pub use tensors::run;
pub(crate) use tensors::{host_bytes, run_handles, shapes_of, HandleInput};

/// The litert backend's counters (read by `fusion::stats()`).
pub(crate) struct Counters {
    pub(crate) calls: std::sync::atomic::AtomicU64,
    pub(crate) fallbacks: std::sync::atomic::AtomicU64,
    pub(crate) compiles: std::sync::atomic::AtomicU64,
    pub(crate) conversions: std::sync::atomic::AtomicU64,
}

/// The process's counters.
pub(crate) static COUNTERS: Counters = Counters {
    calls: std::sync::atomic::AtomicU64::new(0),
    fallbacks: std::sync::atomic::AtomicU64::new(0),
    compiles: std::sync::atomic::AtomicU64::new(0),
    conversions: std::sync::atomic::AtomicU64::new(0),
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

/// Whether the backend runs tensors of `dtype` (the converter keeps
/// float32 and the integer and boolean types; float64 and the half types
/// run on TensorFlow).
pub(crate) fn runs(dtype: rxt_tf_spec::DType) -> bool {
    use rxt_tf_spec::DType;
    matches!(dtype, DType::F32 | DType::I32 | DType::I64 | DType::Bool)
}

/// The most XNNPACK threads a compiled model may use.
pub const MAX_THREADS: u16 = 64;

/// XNNPACK's threads per compiled model: `RXT_TF_LITERT_THREADS` (1 to
/// [`MAX_THREADS`]), 1 when unset (read once). Any other value is an
/// error of every litert call, which names it.
pub(crate) fn threads() -> crate::error::Result<u16> {
    static THREADS: std::sync::OnceLock<std::result::Result<u16, String>> =
        std::sync::OnceLock::new();
    THREADS
        .get_or_init(|| {
            let Ok(value) = std::env::var("RXT_TF_LITERT_THREADS") else {
                return Ok(1);
            };
            value
                .trim()
                .parse::<u16>()
                .ok()
                .filter(|threads| (1..=MAX_THREADS).contains(threads))
                .ok_or_else(|| {
                    format!(
                        "RXT_TF_LITERT_THREADS is {value:?}, not a thread count from 1 to \
                         {MAX_THREADS}"
                    )
                })
        })
        .clone()
        .map_err(|reason| crate::error::Error::LitertUnavailable { reason })
}

/// Loads LiteRT now (it loads on first use otherwise): an error names the
/// package to install when it is missing or of another version.
pub fn ensure_loaded() -> crate::error::Result<()> {
    library::library().map(|_| ())
}
