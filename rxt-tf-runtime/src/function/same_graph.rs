//! Exact calls at the cost of an inlined one, where that keeps every bit.
//!
//! Python's call of a `tf.function` runs its definition by name on
//! TensorFlow's inter-op thread pool; one `StatefulPartitionedCall` of it
//! runs on the calling thread for about a third of the cost, but through
//! another graph optimization that may give another graph. `same_graph.py`
//! has TensorFlow instantiate both (without running a kernel) and compares
//! the graphs it will run: when they are the same up to node names and
//! annotations, the call runs the same kernels on the same inputs, and the
//! faster route keeps every bit. The answer is kept per callee and
//! configuration.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use super::Callee;

const CHECKER: &str = include_str!("same_graph.py");

/// The configurations whose answers a callee keeps (the oldest is let go
/// first): a process runs under one or two.
const KEPT: usize = 4;

/// Exact calls run as one proven `StatefulPartitionedCall`.
pub(crate) static INLINED: AtomicU64 = AtomicU64::new(0);
/// Exact calls run by name (not proven the same, or not checked yet).
pub(crate) static BY_NAME: AtomicU64 = AtomicU64::new(0);

/// Whether a callee's inlined call runs its by-name graph, per
/// configuration (`config_proto` bytes) it was checked under.
#[derive(Default)]
pub(crate) struct Proofs(Mutex<Vec<(Box<[u8]>, bool)>>);

impl Proofs {
    fn known(&self, config: &[u8]) -> Option<bool> {
        let proofs = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        proofs
            .iter()
            .find(|(checked, _)| **checked == *config)
            .map(|(_, same)| *same)
    }

    fn record(&self, config: &[u8], same: bool) {
        let mut proofs = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if proofs.iter().any(|(checked, _)| **checked == *config) {
            return;
        }
        if proofs.len() == KEPT {
            proofs.remove(0);
        }
        proofs.push((config.into(), same));
    }
}

/// Whether `callee`'s `StatefulPartitionedCall` with `config` runs the
/// graph its call by name with `config` runs, checked on the first call
/// under `config` (`arguments` are that call's tensors). Counts the
/// answer as the route the call takes. A check that fails for any reason
/// answers no: the call by name is always the `tf.function`'s.
pub(crate) fn inlined_is_same(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
) -> bool {
    let same = match callee.same_graph.known(config) {
        Some(same) => same,
        None => match check(py, callee, arguments, config) {
            Some(same) => {
                callee.same_graph.record(config, same);
                same
            }
            None => false,
        },
    };
    let counter = if same { &INLINED } else { &BY_NAME };
    counter.fetch_add(1, Ordering::Relaxed);
    same
}

/// The checker's answer: `None` when it must wait (graphs are being
/// traced for `tf.summary`); a failed check is `Some(false)`.
fn check(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
) -> Option<bool> {
    let node = &callee.node;
    let answer = (|| -> PyResult<Option<bool>> {
        let module = checker(py)?;
        let name = node.name.to_str().map_err(|err| {
            pyo3::exceptions::PyValueError::new_err(format!("the function's name: {err}"))
        })?;
        module
            .call_method1(
                "inlined_is_same",
                (
                    name,
                    PyList::new(py, arguments)?,
                    node._keep.bind(py),
                    node.output_types.clone(),
                    PyBytes::new(py, config),
                ),
            )?
            .extract()
    })();
    answer.unwrap_or(Some(false))
}

/// The checker module, made once.
fn checker(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static MODULE: pyo3::sync::PyOnceLock<Py<PyModule>> = pyo3::sync::PyOnceLock::new();
    crate::python::module::private_module(
        py,
        &MODULE,
        CHECKER,
        c"rxt_tf_same_graph.py",
        "rxt_tf_same_graph",
    )
}
