//! What the calls of every `rxt_tf.function` and `Predictor` did, counted
//! since the process started (or the last `reset_stats()`).

use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Why a call went through TensorFlow's own function instead of rxt-tf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fallback {
    /// A gradient tape or forward accumulator records on this thread.
    Tape,
    /// Not Python's default eager context: a graph is being built (inside
    /// a `tf.function`, say), or a device scope is open.
    NotEager,
    /// `tf.config.run_functions_eagerly(True)`.
    FunctionsRunEagerly,
    /// An argument rxt-tf does not key: not an EagerTensor, a Python
    /// number, string, bool, `None`, or a tuple, list or dict of them.
    Argument,
    /// The arguments do not bind to the function's parameters: TensorFlow
    /// raises its own error.
    Binding,
    /// A signature whose inputs or outputs rxt-tf does not pass (composite
    /// tensors, variables, an input order it cannot reproduce).
    Signature,
    /// A tensor argument on another device than `CPU:0`.
    Device,
}

impl Fallback {
    const ALL: [Fallback; 7] = [
        Fallback::Tape,
        Fallback::NotEager,
        Fallback::FunctionsRunEagerly,
        Fallback::Argument,
        Fallback::Binding,
        Fallback::Signature,
        Fallback::Device,
    ];

    /// Its key in `stats()["fallbacks"]`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Fallback::Tape => "tape",
            Fallback::NotEager => "not_eager",
            Fallback::FunctionsRunEagerly => "functions_run_eagerly",
            Fallback::Argument => "argument",
            Fallback::Binding => "binding",
            Fallback::Signature => "signature",
            Fallback::Device => "device",
        }
    }
}

static NATIVE: AtomicU64 = AtomicU64::new(0);
static TRACES: AtomicU64 = AtomicU64::new(0);
static FALLBACKS: [AtomicU64; Fallback::ALL.len()] =
    [const { AtomicU64::new(0) }; Fallback::ALL.len()];

/// Counts a call run natively.
pub(crate) fn native() {
    NATIVE.fetch_add(1, Ordering::Relaxed);
}

/// Counts a cache miss: a concrete function asked of TensorFlow.
pub(crate) fn trace() {
    TRACES.fetch_add(1, Ordering::Relaxed);
}

/// Counts a call that went through TensorFlow's own function.
pub(crate) fn fallback(why: Fallback) {
    FALLBACKS[why as usize].fetch_add(1, Ordering::Relaxed);
}

/// The runtime's counters `rxt_tf.stats()` gives: `(group, name)`.
const RUNTIME_COUNTS: [(&str, &str); 6] = [
    ("litert", "calls"),
    ("litert", "fallbacks"),
    ("litert", "compiles"),
    ("litert", "conversions"),
    ("exact", "inlined"),
    ("exact", "by_name"),
];

/// The runtime's counters when the counts were last reset.
static RUNTIME_BASE: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];

/// The runtime's counters now, in [`RUNTIME_COUNTS`]' order.
fn runtime_now() -> [u64; 6] {
    let now = rxt_tf::fusion::stats();
    [
        now.litert_calls,
        now.litert_fallbacks,
        now.litert_compiles,
        now.litert_conversions,
        now.exact_inlined,
        now.exact_by_name,
    ]
}

/// `rxt_tf.stats()`: `{"native": n, "traces": n, "fallbacks": {reason: n},
/// "litert": {"calls": n, "fallbacks": n, "compiles": n, "conversions": n,
/// "reasons": {function: first fallback reason}},
/// "exact": {"inlined": n, "by_name": n}}` (the litert and exact counts are
/// the process's, also of calls made from Rust): how exact calls ran, as
/// one `StatefulPartitionedCall` proven to run the `tf.function`'s graph,
/// or by name.
#[pyfunction]
pub(crate) fn stats(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let fallbacks = PyDict::new(py);
    for why in Fallback::ALL {
        fallbacks.set_item(why.name(), FALLBACKS[why as usize].load(Ordering::Relaxed))?;
    }
    let stats = PyDict::new(py);
    stats.set_item("native", NATIVE.load(Ordering::Relaxed))?;
    stats.set_item("traces", TRACES.load(Ordering::Relaxed))?;
    stats.set_item("fallbacks", fallbacks)?;
    for ((group, name), (now, base)) in RUNTIME_COUNTS
        .into_iter()
        .zip(runtime_now().into_iter().zip(&RUNTIME_BASE))
    {
        let counts = match stats.get_item(group)? {
            Some(counts) => counts.cast_into::<PyDict>()?,
            None => {
                let counts = PyDict::new(py);
                stats.set_item(group, &counts)?;
                counts
            }
        };
        counts.set_item(name, now.saturating_sub(base.load(Ordering::Relaxed)))?;
    }
    let reasons = PyDict::new(py);
    for (function, reason) in rxt_tf::fusion::litert_fallback_reasons() {
        reasons.set_item(function, reason)?;
    }
    if let Some(litert) = stats.get_item("litert")? {
        litert.set_item("reasons", reasons)?;
    }
    Ok(stats)
}

/// `rxt_tf.reset_stats()`: every count back to zero, every fallback reason
/// forgotten (a function warns again on its next fallback).
#[pyfunction]
pub(crate) fn reset_stats() {
    NATIVE.store(0, Ordering::Relaxed);
    TRACES.store(0, Ordering::Relaxed);
    for count in &FALLBACKS {
        count.store(0, Ordering::Relaxed);
    }
    for (base, now) in RUNTIME_BASE.iter().zip(runtime_now()) {
        base.store(now, Ordering::Relaxed);
    }
    rxt_tf::fusion::forget_litert_fallback_reasons();
}
