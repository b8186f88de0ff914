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
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use super::Callee;
use crate::binding::context::BoundContext;
use crate::error::{Error, Result};

/// The checker's answers (`same_graph.py`'s constants).
const SAME: i64 = 1;
const OPTIMIZED: i64 = 2;
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

/// How an exact call runs the graph its call by name runs.
#[derive(Clone, Debug)]
pub(crate) enum Route {
    /// By name, as TensorFlow's eager call of the function does.
    ByName,
    /// As one `StatefulPartitionedCall` of the definition with the
    /// configuration: proven to run the by-name graph.
    Inlined,
    /// As one `StatefulPartitionedCall` of this definition, made from the
    /// by-name graph as TensorFlow's passes left it, without a
    /// configuration (no Grappler pass): proven to run that graph.
    Optimized(Arc<OptimizedDefinition>),
}

/// A definition `same_graph.py` made of a by-name graph and added to the
/// context: removed from it when the last route to it is dropped.
#[derive(Debug)]
pub(crate) struct OptimizedDefinition {
    name: CString,
    /// Its context (not kept alive by it).
    context: Weak<BoundContext>,
}

impl OptimizedDefinition {
    /// Its name in the context.
    pub(crate) fn name(&self) -> &std::ffi::CStr {
        &self.name
    }
}

impl Drop for OptimizedDefinition {
    fn drop(&mut self) {
        // A context that is gone took its functions with it; its error
        // (none expected) cannot be reported from a drop.
        if let Some(context) = self.context.upgrade() {
            context.remove_function(&self.name);
        }
    }
}

/// The name of the check in errors.
const CHECK: &str = "checking a function's inlined graph";

/// What is known of a key.
#[derive(Clone)]
enum Known {
    /// By name for good.
    ByName,
    /// The definition's own inlined call is proven.
    Inlined,
    /// An optimized definition is proven: while some callee holds it (when
    /// it is gone, the key is checked again).
    Optimized(Weak<OptimizedDefinition>),
    /// Checks that could not tell, so far.
    Unsure(u8),
}

impl Known {
    /// The route it proves, if it still can.
    fn route(&self) -> Option<Route> {
        match self {
            Known::ByName => Some(Route::ByName),
            Known::Inlined => Some(Route::Inlined),
            Known::Optimized(weak) => weak.upgrade().map(Route::Optimized),
            Known::Unsure(_) => None,
        }
    }

    fn of(route: &Route) -> Known {
        match route {
            Route::ByName => Known::ByName,
            Route::Inlined => Known::Inlined,
            Route::Optimized(definition) => Known::Optimized(Arc::downgrade(definition)),
        }
    }
}

/// The process's answers: a definition's kernels are cached per context,
/// so every object calling it shares them.
static ANSWERS: LazyLock<Mutex<HashMap<Key, Known>>> = LazyLock::new(Mutex::default);

fn answers() -> std::sync::MutexGuard<'static, HashMap<Key, Known>> {
    ANSWERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The route of an exact call of `callee` under `config`, checked on the
/// first call under `config` (`arguments` are that call's tensors).
/// Counts the call. A check that cannot tell answers by name (always the
/// `tf.function`'s graph); only an interrupt (a Python `BaseException`
/// that is not an `Exception`) is an error.
pub(crate) fn route(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
) -> Result<Route> {
    if let Some(route) = callee.last_answer.known(config) {
        count(&route);
        return Ok(route);
    }
    let key: Key = (
        Arc::as_ptr(&callee.context) as usize,
        callee.node.name.clone(),
        config.into(),
    );
    let known = answers().get(&key).and_then(Known::route);
    let (route, definite) = match known {
        Some(route) => (route, true),
        None => checked(py, callee, arguments, config, key)?,
    };
    if definite {
        callee.last_answer.keep(config, route.clone());
    }
    count(&route);
    Ok(route)
}

/// One check at a time in the process: a check that finds the kernels
/// another check made cached can prove nothing, so it must not answer
/// before that other check's answer is known.
static CHECKING: Mutex<()> = Mutex::new(());

thread_local! {
    /// Whether this thread is checking (an op callback of the check that
    /// calls a function exactly goes by name, not into a second check).
    static IN_CHECK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The route of `key` after checking it, unless another thread's check
/// answered meanwhile: `(route, whether it is kept)`.
fn checked(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
    key: Key,
) -> Result<(Route, bool)> {
    if IN_CHECK.get() {
        return Ok((Route::ByName, false));
    }
    // Waited for with the GIL given up: the check holding it runs Python.
    let _turn = crate::gil::acquire(|| CHECKING.try_lock(), || CHECKING.lock());
    if let Some(route) = answers().get(&key).and_then(Known::route) {
        return Ok((route, true));
    }
    let (answer, optimized) = {
        let _checking = Checking::start();
        check(py, callee, arguments, config)?
    };
    let optimized = optimized.map(|name| {
        Arc::new(OptimizedDefinition {
            name,
            context: Arc::downgrade(&callee.context),
        })
    });
    Ok(record(key, answer, optimized))
}

/// This thread's check, for as long as it lives.
struct Checking;

impl Checking {
    fn start() -> Checking {
        IN_CHECK.set(true);
        Checking
    }
}

impl Drop for Checking {
    fn drop(&mut self) {
        IN_CHECK.set(false);
    }
}

/// Keeps what a check answered for `key`: `(route, whether it is kept)`.
fn record(key: Key, answer: i64, optimized: Option<Arc<OptimizedDefinition>>) -> (Route, bool) {
    let mut answers = answers();
    if answers.len() >= KEPT {
        answers.clear();
    }
    let proven = match (answer, optimized) {
        (SAME, _) => Route::Inlined,
        (OPTIMIZED, Some(definition)) => Route::Optimized(definition),
        (DIFFERENT, _) => Route::ByName,
        (WAIT, _) => return (Route::ByName, false),
        _ => {
            let tries = match answers.get(&key) {
                Some(Known::Unsure(tries)) => tries.saturating_add(1),
                _ => 1,
            };
            if tries < ATTEMPTS {
                answers.insert(key, Known::Unsure(tries));
                return (Route::ByName, false);
            }
            // By name for good.
            Route::ByName
        }
    };
    answers.insert(key, Known::of(&proven));
    (proven, true)
}

/// Counts a call of the route it takes.
fn count(route: &Route) {
    let counter = if matches!(route, Route::ByName) {
        &crate::fused::EXACT_BY_NAME
    } else {
        &crate::fused::EXACT_INLINED
    };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// A callee's last definite answer and the configuration it is for: what
/// its calls under an unchanged configuration read, without building the
/// process-wide key.
#[derive(Default)]
pub(crate) struct LastAnswer(Mutex<Option<(Box<[u8]>, Route)>>);

impl LastAnswer {
    fn known(&self, config: &[u8]) -> Option<Route> {
        let last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        last.as_ref()
            .filter(|(checked, _)| **checked == *config)
            .map(|(_, route)| route.clone())
    }

    fn keep(&self, config: &[u8], route: Route) {
        let mut last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *last = Some((config.into(), route));
    }
}

/// The checker's answer and the optimized definition's name it made; an
/// `Exception` it raises is "could not tell".
fn check(
    py: Python<'_>,
    callee: &Callee,
    arguments: &[Bound<'_, PyAny>],
    config: &[u8],
) -> Result<(i64, Option<CString>)> {
    let node = &callee.node;
    // The check's `StatefulPartitionedCall`s go through TensorFlow's
    // wrapper of the node's arity, as the node's own calls do: under the
    // gate, and noted if any was made, so that letting the node go frees
    // the kernels they cache.
    // Python runs under it, which may call rxt-tf on other threads.
    let mut open = crate::call_gate::open(true);
    let wrapper_calls = || -> Option<u64> {
        let module = crate::python::module::Private::SameGraph.module(py).ok()?;
        module.getattr("wrapper_calls").ok()?.extract().ok()
    };
    let calls_before = wrapper_calls();
    let answer = (|| -> PyResult<(i64, Option<String>)> {
        let module = crate::python::module::Private::SameGraph.module(py)?;
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
    if calls_before.is_none() || wrapper_calls() != calls_before {
        node.note_wrapper_used(&mut open, &callee.context);
    }
    match answer {
        Ok((answer, optimized)) => {
            // A name with a NUL byte cannot be called: not proven.
            let optimized = optimized.map(CString::new).transpose();
            Ok(optimized.map_or((RETRY, None), |optimized| (answer, optimized)))
        }
        Err(err) if err.is_instance_of::<pyo3::exceptions::PyException>(py) => Ok((RETRY, None)),
        Err(err) => Err(Error::python(py, CHECK, &err)),
    }
}
