//! Binding the `tensorflow` wheel the process has loaded: once per process,
//! with the outcome (success or failure) cached.

use std::ffi::CStr;
use std::path::{Path, PathBuf};

use once_cell::sync::OnceCell;
use pyo3::prelude::*;

use crate::binding::checks::{self, VersionSource};
use crate::binding::platform::{self, PlatformProfile};
use crate::error::{Error, Result};
use crate::sys::{Api, Image, Images};

/// The bound wheel: the function table, and the Python objects the runtime
/// needs from TensorFlow's private modules.
pub struct Wheel {
    api: Api,
    profile: &'static PlatformProfile,
    package_dir: PathBuf,
    /// `tensorflow.python.eager.context.context`.
    pub(crate) context: Py<PyAny>,
    /// The globals of the module `tensorflow.python.eager.context`, whose
    /// `_context` is Python's context object (read on every call to spot a
    /// new one; a dictionary lookup, cheaper than the module's getattr).
    pub(crate) context_globals: Py<pyo3::types::PyDict>,
}

static WHEEL: OnceCell<Result<Wheel>> = OnceCell::new();

impl Wheel {
    /// The wheel of this process, bound on first use (importing `tensorflow`
    /// if the caller has not). A permanent mismatch (versions, machine,
    /// images, symbols) is cached and returned again; any other failure (an
    /// interrupt, a failed import) is returned and binding is tried again on
    /// the next call.
    pub fn get(py: Python<'_>) -> Result<&'static Wheel> {
        let outcome = match WHEEL.get() {
            Some(outcome) => outcome,
            // Binding runs Python code with the GIL held, so it must not wait
            // on a lock another GIL-waiting thread holds: two threads may both
            // bind, and the first to finish wins. Binding has no side effects
            // beyond reference counts, so the loser's result is just dropped.
            None => {
                let fresh = Wheel::bind(py);
                if let Err(err) = &fresh {
                    if !err.is_permanent() {
                        return Err(err.clone());
                    }
                }
                match WHEEL.try_insert(fresh) {
                    Ok(stored) => stored,
                    Err((stored, _lost)) => stored,
                }
            }
        };
        outcome.as_ref().map_err(Clone::clone)
    }

    /// The function table.
    pub fn api(&self) -> &Api {
        &self.api
    }

    /// The platform profile in force.
    pub fn profile(&self) -> &'static PlatformProfile {
        self.profile
    }

    /// The `tensorflow` package folder the images were found in.
    pub fn package_dir(&self) -> &Path {
        &self.package_dir
    }

    fn bind(py: Python<'_>) -> Result<Wheel> {
        let python = |step: &'static str| move |err: PyErr| Error::python(py, step, &err);

        let info = py.version_info();
        let implementation: String = py
            .import("sys")
            .and_then(|sys| sys.getattr("implementation")?.getattr("name")?.extract())
            .map_err(python("reading sys.implementation"))?;
        checks::python_version(&implementation, info.major, info.minor)?;

        let profile = platform::ACTIVE;
        let machine: String = py
            .import("platform")
            .and_then(|m| m.call_method0("machine")?.extract())
            .map_err(python("reading platform.machine()"))?;
        checks::machine(profile, &machine)?;

        let tf = py
            .import("tensorflow")
            .map_err(python("import tensorflow"))?;
        let version: String = tf
            .getattr("__version__")
            .and_then(|v| v.extract())
            .map_err(python("reading tensorflow.__version__"))?;
        checks::tensorflow_version(VersionSource::Python, &version)?;

        let init_file: PathBuf = tf
            .getattr("__file__")
            .and_then(|f| f.extract())
            .map_err(python("locating the tensorflow package"))?;
        let package_dir =
            init_file
                .parent()
                .map(Path::to_path_buf)
                .ok_or_else(|| Error::MissingImage {
                    path: init_file.display().to_string(),
                    reason: String::from("tensorflow.__file__ has no parent folder"),
                })?;

        let api = Api::load(Images {
            cc: Image::open_loaded(&package_dir.join(profile.images.cc))?,
            framework: Image::open_loaded(&package_dir.join(profile.images.framework))?,
            pywrap: Image::open_loaded(&package_dir.join(profile.images.pywrap))?,
        })?;
        // SAFETY: `TF_Version` has no preconditions.
        let c_version = unsafe { (api.TF_Version)() };
        // SAFETY: it returns a static NUL-terminated string.
        let c_version = unsafe { CStr::from_ptr(c_version) };
        checks::tensorflow_version(VersionSource::CLibrary, &c_version.to_string_lossy())?;

        let attr = |module: &str, name: &str, step: &'static str| -> Result<Py<PyAny>> {
            py.import(module)
                .and_then(|m| m.getattr(name))
                .map(Bound::unbind)
                .map_err(python(step))
        };
        Ok(Wheel {
            api,
            profile,
            package_dir,
            context: attr(
                "tensorflow.python.eager.context",
                "context",
                "finding tensorflow.python.eager.context.context",
            )?,
            context_globals: py
                .import("tensorflow.python.eager.context")
                .map(|module| module.dict().unbind())
                .map_err(python("import tensorflow.python.eager.context"))?,
        })
    }
}
