//! The environment checks of binding and of the boundary, as pure functions
//! of the values found, so tests can inject values a real process cannot
//! produce (another CPython, another wheel, an asynchronous context).

use crate::error::{Error, Result};
use rxt_tf_spec::platform::PlatformProfile;
use rxt_tf_spec::DType;

/// The Python name of a `TF_DataType` (for the boundary's messages).
pub use crate::sys::dtype_name;

/// The TensorFlow version rxt-tf binds, for both the Python package and the C library.
pub const TENSORFLOW_VERSION: &str = "2.21.0";
/// The CPython version rxt-tf runs on.
pub const PYTHON_VERSION: (u8, u8) = (3, 11);
/// The one device rxt-tf accepts tensors on and runs ops on.
pub const CPU_DEVICE: &str = "/job:localhost/replica:0/task:0/device:CPU:0";

/// Where a TensorFlow version string was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionSource {
    /// `tensorflow.__version__`.
    Python,
    /// `TF_Version()` of the C library.
    CLibrary,
}

impl VersionSource {
    fn name(self) -> &'static str {
        match self {
            VersionSource::Python => "tensorflow.__version__",
            VersionSource::CLibrary => "TF_Version()",
        }
    }
}

/// The interpreter must be CPython 3.11.
pub fn python_version(implementation: &str, major: u8, minor: u8) -> Result<()> {
    if implementation == "cpython" && (major, minor) == PYTHON_VERSION {
        Ok(())
    } else {
        Err(Error::PythonVersion {
            expected: "CPython 3.11",
            found: format!("{implementation} {major}.{minor}"),
        })
    }
}

/// The wheel must be TensorFlow 2.21.0.
pub fn tensorflow_version(source: VersionSource, found: &str) -> Result<()> {
    if found == TENSORFLOW_VERSION {
        Ok(())
    } else {
        Err(Error::TensorFlowVersion {
            source_name: source.name(),
            expected: TENSORFLOW_VERSION,
            found: found.to_owned(),
        })
    }
}

/// Python's `platform.machine()` must be one the profile accepts.
pub fn machine(profile: &PlatformProfile, found: &str) -> Result<()> {
    if profile.python_machines.contains(&found) {
        Ok(())
    } else {
        Err(Error::Machine {
            profile: profile.id,
            expected: profile.python_machines.join(" or "),
            found: found.to_owned(),
        })
    }
}

/// The eager context must be synchronous.
pub fn execution_mode(is_async: bool) -> Result<()> {
    if is_async {
        Err(Error::AsyncContext)
    } else {
        Ok(())
    }
}

/// A boundary tensor must live on this process's `CPU:0`.
pub fn device(found: &[u8]) -> Result<()> {
    if found == CPU_DEVICE.as_bytes() {
        Ok(())
    } else {
        Err(Error::Device {
            expected: CPU_DEVICE,
            found: String::from_utf8_lossy(found).into_owned(),
        })
    }
}

/// A boundary tensor must have the declared rank.
pub fn rank(expected: usize, found: i64) -> Result<()> {
    if i64::try_from(expected).ok() == Some(found) {
        Ok(())
    } else {
        Err(Error::Rank { expected, found })
    }
}

/// A boundary tensor must have the declared element type.
pub fn dtype(expected: DType, found: i32) -> Result<()> {
    if found == expected.code() {
        Ok(())
    } else {
        Err(Error::Dtype {
            expected: expected.name(),
            found: dtype_name(found),
        })
    }
}
