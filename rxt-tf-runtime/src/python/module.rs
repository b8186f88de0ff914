//! Python modules rxt-tf runs its own Python source in (the function
//! resolver, the LiteRT converter): made once per process from source
//! compiled into the crate, kept out of `sys.modules`.

use std::ffi::{CStr, CString};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;

/// The module of `source` (file `file`, name `name`) kept in `cell`, made
/// on first use. Not left in `sys.modules`: another extension built from
/// another version of rxt-tf would run its own source in this very module
/// object, replacing these functions with its own.
pub(crate) fn private_module<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyModule>>,
    source: &str,
    file: &CStr,
    name: &str,
) -> PyResult<&'py Bound<'py, PyModule>> {
    let module = cell.get_or_try_init(py, || {
        let text = |what: &str| {
            CString::new(what).map_err(|err| {
                pyo3::exceptions::PyValueError::new_err(format!("module {name}: {err}"))
            })
        };
        // Its source in `linecache` under its file name: tracebacks show it,
        // and AutoGraph can read (and so convert) functions it defines.
        let lines = py
            .import("builtins")?
            .getattr("str")?
            .call_method1("splitlines", (source, true))?;
        let entry = (
            source.len(),
            py.None(),
            lines,
            file.to_str().unwrap_or(name),
        );
        py.import("linecache")?
            .getattr("cache")?
            .set_item(file.to_str().unwrap_or(name), entry)?;
        let module = PyModule::from_code(py, &text(source)?, file, &text(name)?)?;
        py.import("sys")?
            .getattr("modules")?
            .call_method1("pop", (name, py.None()))?;
        Ok::<_, PyErr>(module.unbind())
    })?;
    Ok(module.bind(py))
}
