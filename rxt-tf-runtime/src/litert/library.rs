//! Finding, checking and loading LiteRT: `libLiteRt.so` of the
//! `ai-edge-litert` package installed beside the `tensorflow` wheel, at
//! exactly the version rxt-tf was written against, loaded once per process
//! with one CPU-only environment.

use std::path::PathBuf;
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::sync::OnceLockExt;

use super::sys::{self, Handle, LiteRtAny, LiteRtEnvOption, LitertApi};
use crate::error::{Error, Result};
use crate::sys::Image;

/// The `ai-edge-litert` release whose C API [`sys`] declares.
pub const LITERT_VERSION: &str = "2.3.0";

/// The package to install, as messages name it.
const PACKAGE: &str = "ai-edge-litert";

/// LiteRT, loaded: its function table and the process's environment.
pub(crate) struct Library {
    pub(crate) api: LitertApi,
    environment: Handle,
}

// SAFETY: the environment is created once and only read by LiteRT calls
// that take it (compiled-model creation, which LiteRT serialises under its
// own lock; model creation ignores it); the function table is immutable.
unsafe impl Send for Library {}
// SAFETY: as above.
unsafe impl Sync for Library {}

impl Library {
    /// The process's LiteRT environment.
    pub(crate) fn environment(&self) -> Handle {
        self.environment
    }

    /// `status` as a result: an error naming `call` and `context` unless it
    /// is success.
    pub(crate) fn check(
        status: sys::LiteRtStatus,
        call: &'static str,
        context: impl FnOnce() -> String,
    ) -> Result<()> {
        if status == sys::STATUS_OK {
            return Ok(());
        }
        Err(Error::Litert {
            call,
            status,
            context: context(),
        })
    }
}

impl Drop for Library {
    fn drop(&mut self) {
        // SAFETY: the environment was created by this table and is
        // destroyed once, after every model made in it (they hold
        // `&'static Library`, so none outlives it).
        unsafe { (self.api.LiteRtDestroyEnvironment)(self.environment) };
    }
}

/// LiteRT, loaded on first use; the error of a failed load (a missing or
/// mismatched package) is kept and returned again.
pub(crate) fn library() -> Result<&'static Library> {
    static LOADED: OnceLock<std::result::Result<Library, String>> = OnceLock::new();
    // Waiting for another thread's load lets go of the GIL: the load asks
    // Python for the package, which needs it.
    let loaded = match LOADED.get() {
        Some(loaded) => loaded,
        None => Python::attach(|py| {
            LOADED.get_or_init_py_attached(py, || load().map_err(|err| err.to_string()))
        }),
    };
    loaded.as_ref().map_err(|reason| Error::LitertUnavailable {
        reason: reason
            .strip_prefix("rxt-tf: the litert backend is unavailable: ")
            .unwrap_or(reason)
            .to_owned(),
    })
}

/// Finds the package, checks its version, loads the library and makes the
/// environment.
fn load() -> Result<Library> {
    let path = locate(PACKAGE, "ai_edge_litert", LITERT_VERSION)?;
    let api = LitertApi::load(Image::load(&path)?)?;
    // CPU only: LiteRT does not probe for GPU and NPU libraries; errors
    // only in its log.
    let options = [
        LiteRtEnvOption {
            tag: sys::ENV_AUTO_REGISTER_ACCELERATORS,
            value: LiteRtAny {
                kind: sys::ANY_INT,
                int_value: i64::from(sys::ACCELERATOR_CPU),
            },
        },
        LiteRtEnvOption {
            tag: sys::ENV_MIN_LOGGER_SEVERITY,
            value: LiteRtAny {
                kind: sys::ANY_INT,
                int_value: 3,
            },
        },
    ];
    let mut environment: Handle = std::ptr::null_mut();
    // SAFETY: `options` holds two valid options; `environment` is a valid
    // out-pointer.
    let status = unsafe { (api.LiteRtCreateEnvironment)(2, options.as_ptr(), &mut environment) };
    Library::check(status, "LiteRtCreateEnvironment", || {
        String::from("making the environment")
    })?;
    if environment.is_null() {
        return Err(Error::Litert {
            call: "LiteRtCreateEnvironment",
            status: sys::STATUS_OK,
            context: String::from("it returned no environment"),
        });
    }
    Ok(Library { api, environment })
}

/// `libLiteRt.so` of the installed Python package `package` (imported as
/// `module`), once its version is checked to be `wanted`.
pub fn locate(package: &str, module: &str, wanted: &str) -> Result<PathBuf> {
    let unavailable = |reason: String| Error::LitertUnavailable { reason };
    let found: PyResult<(Option<String>, Option<String>)> = Python::attach(|py| {
        let metadata = py.import("importlib.metadata")?;
        let version = metadata
            .call_method1("version", (package,))
            .and_then(|v| v.extract::<String>())
            .ok();
        let spec = py
            .import("importlib.util")?
            .call_method1("find_spec", (module,))?;
        let directory = if spec.is_none() {
            None
        } else {
            spec.getattr("submodule_search_locations")?
                .get_item(0)
                .and_then(|d| d.extract::<String>())
                .ok()
        };
        Ok((version, directory))
    });
    let (version, directory) = found.map_err(|err| {
        unavailable(format!(
            "cannot ask Python for the {package} package: {err}"
        ))
    })?;
    let install = format!("install it with `pip install {package}=={wanted}`");
    let (Some(version), Some(directory)) = (version, directory) else {
        return Err(unavailable(format!(
            "the Python package {package} is not installed; {install}"
        )));
    };
    if version != wanted {
        return Err(unavailable(format!(
            "{package} {version} is installed; rxt-tf needs {wanted} ({install})"
        )));
    }
    let path = PathBuf::from(directory).join("libLiteRt.so");
    if !path.is_file() {
        return Err(unavailable(format!(
            "{} is missing from the {package} package; reinstall it ({install})",
            path.display()
        )));
    }
    Ok(path)
}
