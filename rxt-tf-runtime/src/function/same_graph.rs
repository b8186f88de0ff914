//! Exact calls at the cost of an inlined one, where that keeps every bit.
//!
//! Python's call of a `tf.function` runs its definition by name on
//! TensorFlow's inter-op thread pool; one `StatefulPartitionedCall` of it
//! runs on the calling thread for about a third of the cost, but through
//! another graph optimization that may give another graph. `same_graph.py`
//! has TensorFlow instantiate both (without running a kernel) and compares
//! the graphs it will run: when they are the same up to node names and
//! annotations, the call runs the same kernels on the same inputs, and the
//! faster route keeps every bit. The answer is kept per definition and
//! configuration for the process: TensorFlow caches a definition's kernels
//! per context, so every object calling it shares them. The proof rests on
//! TensorFlow building the same graph whenever it instantiates the same
//! definition under the same configuration (it instantiates again after
//! its wrapper of an arity is let go of).

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::atomic::Ordering;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use super::Callee;
use crate::error::{Error, Result};

const CHECKER: &str = include_str!("same_graph.py");

/// The checker's answers (`same_graph.py`'s constants).
const SAME: i64 = 1;
const DIFFERENT: i64 = 0;
const RETRY: i64 = -1;
const WAIT: i64 = -2;

/// The answers kept; when full, they are let go of all at once (a
/// definition checked again then finds its kernels cached, and is called
/// by name).
const KEPT: usize = 4096;

/// How often a check that could not tell (another thread instantiated a
/// function meanwhile, TensorFlow raised) is made again before the
/// definition is called by name for good.
const ATTEMPTS: u8 = 3;

/// A definition under a configuration: its context's address, its name,
/// the `config_proto` bytes.
type Key = (usize, CString, Box<[u8]>);

/// What is known of a key.
#[derive(Clone, Copy)]
enum Known {
    /// Whether the inlined graph is the by-name graph.
    Answer(bool),
    /// Checks that could not tell, so far.
    Unsure(u8),
}

/// The process's answers: a definition's kernels are cached per context,
/// so every object calling it shares them.
static ANSWERS: LazyLock<Mutex<HashMap<Key, Known>>> = LazyLock::new(Mutex::default);

fn answers() -> std::sync::MutexGuard<'static, HashMap<Key, Known>> {
    ANSWERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether `callee`'s `StatefulPartitionedCall` with `config` runs the
/// graph its call by name with `config` runs, checked on the first call
/// under `config` (`arguments` are that call's tensors). Counts the
/// answer as the route the call takes. A check that cannot tell answers
/// no (the call by name is always the `tf.function`'s); only an interrupt
/// (a Python `BaseException` that is not an `Exception`) is an error.
pub(crate) fn inlined_is_same(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
) -> Result<bool> {
    if let Some(same) = callee.last_answer.known(config) {
        count(same);
        return Ok(same);
    }
    let key: Key = (
        Arc::as_ptr(&callee.context) as usize,
        callee.node.name.clone(),
        config.into(),
    );
    let known = answers().get(&key).copied();
    let (same, definite) = match known {
        Some(Known::Answer(same)) => (same, true),
        Some(Known::Unsure(_)) | None => {
            let answer = check(py, callee, arguments, config)?;
            let mut answers = answers();
            if answers.len() >= KEPT {
                answers.clear();
            }
            let known = answers.get(&key).copied();
            match (known, answer) {
                // Another thread answered first: its check found the
                // kernels new, this one found them cached.
                (Some(Known::Answer(same)), _) => (same, true),
                (_, SAME | DIFFERENT) => {
                    answers.insert(key, Known::Answer(answer == SAME));
                    (answer == SAME, true)
                }
                (_, WAIT) => (false, false),
                (known, _) => {
                    let tries = match known {
                        Some(Known::Unsure(tries)) => tries,
                        _ => 0,
                    };
                    let tries = tries.saturating_add(1);
                    if tries >= ATTEMPTS {
                        // By name for good.
                        answers.insert(key, Known::Answer(false));
                        (false, true)
                    } else {
                        answers.insert(key, Known::Unsure(tries));
                        (false, false)
                    }
                }
            }
        }
    };
    if definite {
        callee.last_answer.keep(config, same);
    }
    count(same);
    Ok(same)
}

/// Counts a call of the route it takes.
fn count(inlined: bool) {
    let counter = if inlined {
        &crate::fused::EXACT_INLINED
    } else {
        &crate::fused::EXACT_BY_NAME
    };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// A callee's last definite answer and the configuration it is for: what
/// its calls under an unchanged configuration read, without building the
/// process-wide key.
#[derive(Default)]
pub(crate) struct LastAnswer(Mutex<Option<(Box<[u8]>, bool)>>);

impl LastAnswer {
    fn known(&self, config: &[u8]) -> Option<bool> {
        let last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        last.as_ref()
            .filter(|(checked, _)| **checked == *config)
            .map(|(_, same)| *same)
    }

    fn keep(&self, config: &[u8], same: bool) {
        let mut last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *last = Some((config.into(), same));
    }
}

/// The checker's answer; an `Exception` it raises is "could not tell".
fn check(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
) -> Result<i64> {
    let node = &callee.node;
    // Its kernel is cached under TensorFlow's wrapper of its arity from
    // now on: let go of with the node.
    node.ran_eagerly.store(true, Ordering::Relaxed);
    let answer = (|| -> PyResult<i64> {
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
    match answer {
        Ok(answer) => Ok(answer),
        Err(err) if err.is_instance_of::<pyo3::exceptions::PyException>(py) => Ok(RETRY),
        Err(err) => Err(Error::python(
            py,
            "checking a function's inlined graph",
            &err,
        )),
    }
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
