//! Falling back from LiteRT to TensorFlow: counted, the first reason kept
//! per function, and said once, as a Python warning of one class
//! (`LitertFallbackWarning`, a `RuntimeWarning`) that every copy of the
//! runtime in the process shares, so users filter it by class; or refused
//! under `RXT_TF_LITERT_STRICT`.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::error::{Error, Result};

/// The first fallback reason of each function, by its name.
fn reasons() -> &'static Mutex<HashMap<String, String>> {
    static REASONS: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    REASONS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Notes that a call of `function` falls back to TensorFlow because of
/// `reason`: counted, and the function's first fallback warned of (a
/// warnings filter of `"error"` makes that call fail with the warning); or,
/// under `RXT_TF_LITERT_STRICT`, refused.
pub(crate) fn fall_back(function: &str, reason: &str) -> Result<()> {
    let reason = reason.strip_prefix("rxt-tf: litert: ").unwrap_or(reason);
    if super::strict() {
        return Err(Error::LitertRefused {
            what: format!(
                "{function} cannot run through LiteRT ({reason}); RXT_TF_LITERT_STRICT is set, \
                 so it does not fall back to TensorFlow"
            ),
        });
    }
    super::COUNTERS.fallbacks.fetch_add(1, Ordering::Relaxed);
    let first = match reasons().lock() {
        Ok(mut reasons) if !reasons.contains_key(function) => {
            reasons.insert(function.to_owned(), reason.to_owned());
            true
        }
        _ => false,
    };
    if !first {
        return Ok(());
    }
    let message = format!(
        "rxt-tf: {function} runs on TensorFlow, not LiteRT: {reason} (once per function; \
         rxt_tf.stats()[\"litert\"][\"reasons\"] keeps it; RXT_TF_LITERT_STRICT=1 makes it \
         an error)"
    );
    // Warning needs the GIL. A thread without it may hold locks a thread
    // with it waits on (a fused trace runs where its tensor is read), so
    // its warning waits for the next warning given with the GIL held.
    // SAFETY: `PyGILState_Check` only reads this thread's interpreter state.
    let attached = unsafe { pyo3::ffi::PyGILState_Check() } == 1;
    let mut pending = match PENDING.lock() {
        Ok(pending) => pending,
        Err(poisoned) => poisoned.into_inner(),
    };
    pending.push(message);
    if !attached {
        return Ok(());
    }
    let messages = std::mem::take(&mut *pending);
    drop(pending);
    Python::attach(|py| {
        let class = litert_fallback_warning(py)?;
        let warn = py.import("warnings")?.getattr("warn")?;
        for message in messages {
            warn.call1((message, &class, 2))?;
        }
        Ok::<_, PyErr>(())
    })
    .map_err(|err| Error::LitertRefused {
        what: format!("{function} would fall back to TensorFlow ({reason}): {err}"),
    })
}

/// Warnings of fallbacks on threads without the GIL, not given yet.
static PENDING: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The first fallback reason of every function that fell back, by name.
pub fn litert_fallback_reasons() -> Vec<(String, String)> {
    let mut reasons: Vec<(String, String)> = reasons()
        .lock()
        .map(|reasons| {
            reasons
                .iter()
                .map(|(f, r)| (f.clone(), r.clone()))
                .collect()
        })
        .unwrap_or_default();
    reasons.sort();
    reasons
}

/// Forgets the kept reasons, so each function warns again on its next
/// fallback (`rxt_tf.reset_stats()`).
pub fn forget_litert_fallback_reasons() {
    if let Ok(mut reasons) = reasons().lock() {
        reasons.clear();
    }
}

/// The process's `LitertFallbackWarning` class, made on first use.
pub fn litert_fallback_warning(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    Ok(crate::python::module::Shared::LitertWarnings
        .module(py)?
        .getattr("LitertFallbackWarning")?
        .cast_into::<PyType>()?)
}
