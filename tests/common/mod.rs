//! Embeds the project's CPython 3.11 with the venv's `tensorflow==2.21.0`.

#![allow(dead_code)]

use std::process::Command;
use std::sync::Once;

use pyo3::prelude::*;

static SITE: Once = Once::new();

/// Runs `f` with the GIL, after putting the venv's site-packages on
/// `sys.path` (an embedded interpreter does not find them by itself). The
/// venv is the interpreter named by `PYO3_PYTHON`, which the build used too.
pub fn with_python<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    SITE.call_once(|| {
        let python = std::env::var("PYO3_PYTHON")
            .unwrap_or_else(|_| panic!("set PYO3_PYTHON to the venv's python (make test does)"));
        let out = Command::new(&python)
            .args([
                "-c",
                "import site; print('\\n'.join(site.getsitepackages()))",
            ])
            .output()
            .unwrap_or_else(|err| panic!("cannot run {python}: {err}"));
        let dirs = String::from_utf8_lossy(&out.stdout).into_owned();
        Python::attach(|py| {
            let site = py.import("site").expect("import site");
            for dir in dirs.lines().filter(|l| !l.is_empty()) {
                site.call_method1("addsitedir", (dir,)).expect("addsitedir");
            }
        });
    });
    Python::attach(f)
}

/// Evaluates a Python expression with `tf` and `np` in scope.
pub fn eval<'py>(py: Python<'py>, code: &str) -> Bound<'py, PyAny> {
    eval_with(py, code, &[])
}

/// Evaluates a Python expression with `tf`, `np` and the given names in scope.
pub fn eval_with<'py>(
    py: Python<'py>,
    code: &str,
    names: &[(&str, &Bound<'py, PyAny>)],
) -> Bound<'py, PyAny> {
    let globals = pyo3::types::PyDict::new(py);
    globals
        .set_item("tf", py.import("tensorflow").expect("import tensorflow"))
        .expect("tf");
    globals
        .set_item("np", py.import("numpy").expect("import numpy"))
        .expect("np");
    for (name, value) in names {
        globals.set_item(*name, value).expect("set name");
    }
    let code = std::ffi::CString::new(code).expect("no NUL");
    py.eval(&code, Some(&globals), None)
        .unwrap_or_else(|err| panic!("{code:?} raised {err}"))
}
