//! The Python rxt-tf runs its own source in (`embedded/`: the function
//! resolver, the by-name graph checker, the LiteRT converter, the fallback
//! warning's class), each made once per process from source compiled into
//! the crate. Private modules are kept out of `sys.modules`; the shared
//! one is found there.

use std::ffi::CString;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;

/// A module of rxt-tf's own, private to this copy of the runtime.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Private {
    /// What a Python object calls (`resolve.py`).
    Resolver,
    /// Whether an inlined call runs its by-name graph (`same_graph.py`).
    SameGraph,
    /// TensorFlow's TFLite converter as the litert backend calls it
    /// (`litert_convert.py`).
    LitertConverter,
}

impl Private {
    /// Its source, file name (in tracebacks) and module name.
    fn source(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Private::Resolver => (
                include_str!("embedded/resolve.py"),
                "rxt_tf_resolve.py",
                "rxt_tf_resolve",
            ),
            Private::SameGraph => (
                include_str!("embedded/same_graph.py"),
                "rxt_tf_same_graph.py",
                "rxt_tf_same_graph",
            ),
            Private::LitertConverter => (
                include_str!("embedded/litert_convert.py"),
                "rxt_tf_litert_convert.py",
                "rxt_tf_litert_convert",
            ),
        }
    }

    /// The module, made on first use. Not left in `sys.modules`: another
    /// extension built from another version of rxt-tf would run its own
    /// source in this very module object, replacing these functions with
    /// its own.
    pub(crate) fn module(self, py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
        static MODULES: [PyOnceLock<Py<PyModule>>; 3] =
            [PyOnceLock::new(), PyOnceLock::new(), PyOnceLock::new()];
        let cell = &MODULES[self as usize];
        let module = cell.get_or_try_init(py, || {
            let (source, file, name) = self.source();
            let module = made(py, source, file, name)?;
            py.import("sys")?
                .getattr("modules")?
                .call_method1("pop", (name, py.None()))?;
            Ok::<_, PyErr>(module.unbind())
        })?;
        Ok(module.bind(py))
    }
}

/// A module every copy of the runtime in the process shares, found in
/// `sys.modules` under its name.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shared {
    /// The class of the litert fallback warning (`litert_warnings.py`):
    /// one class per process, whichever extension's runtime made it first.
    LitertWarnings,
}

impl Shared {
    /// The module: the one in `sys.modules`, or made now and put there
    /// (the one a racing thread put there first kept).
    pub(crate) fn module(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        let (source, file, name) = match self {
            Shared::LitertWarnings => (
                include_str!("embedded/litert_warnings.py"),
                "rxt_tf_litert_warnings.py",
                "_rxt_tf_litert_warnings",
            ),
        };
        let modules = py.import("sys")?.getattr("modules")?;
        match modules.call_method1("get", (name,))? {
            found if !found.is_none() => Ok(found),
            // `from_code` registers it; `setdefault` keeps the module a
            // racing thread registered first.
            _ => modules.call_method1("setdefault", (name, made(py, source, file, name)?)),
        }
    }
}

/// A module of `source` (file `file`, name `name`), its source put in
/// `linecache` under its file name: tracebacks show it, and AutoGraph can
/// read (and so convert) functions it defines.
fn made<'py>(
    py: Python<'py>,
    source: &str,
    file: &str,
    name: &str,
) -> PyResult<Bound<'py, PyModule>> {
    let text = |what: &str| {
        CString::new(what)
            .map_err(|err| pyo3::exceptions::PyValueError::new_err(format!("module {name}: {err}")))
    };
    let lines = py
        .import("builtins")?
        .getattr("str")?
        .call_method1("splitlines", (source, true))?;
    let entry = (source.len(), py.None(), lines, file);
    py.import("linecache")?
        .getattr("cache")?
        .set_item(file, entry)?;
    PyModule::from_code(py, &text(source)?, &text(file)?, &text(name)?)
}
