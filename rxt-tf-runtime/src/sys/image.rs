//! One shared library image: a wheel image already loaded, opened with
//! `RTLD_NOLOAD`, or a library rxt-tf loads itself (LiteRT's); symbol
//! resolution with `dladdr` proof of the owning image.

use std::ffi::{c_void, CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use crate::error::{Error, Result};

/// A wheel image this process has already loaded, held open by one extra
/// reference (dropped with the `Image`).
#[derive(Debug)]
pub struct Image {
    handle: NonNull<c_void>,
    path: PathBuf,
}

// SAFETY: a `dlopen` handle is a process-wide token; `dlsym`, `dladdr` and
// `dlclose` are thread-safe in glibc and on macOS.
unsafe impl Send for Image {}
// SAFETY: as above; `Image` has no interior mutability.
unsafe impl Sync for Image {}

impl Image {
    /// Opens the image at `path` only if this process has already loaded it:
    /// `RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD`. Never loads a second copy.
    pub fn open_loaded(path: &Path) -> Result<Image> {
        let missing = |reason: String| Error::MissingImage {
            path: path.display().to_string(),
            reason,
        };
        let canonical = path
            .canonicalize()
            .map_err(|err| missing(format!("cannot resolve the path: {err}")))?;
        let c_path = CString::new(canonical.as_os_str().as_bytes())
            .map_err(|_| missing(String::from("the path contains a NUL byte")))?;
        let flags = libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_NOLOAD;
        // SAFETY: `c_path` is a valid NUL-terminated string; with RTLD_NOLOAD
        // `dlopen` runs no initialisers, it only finds an image already mapped.
        let handle = unsafe { libc::dlopen(c_path.as_ptr(), flags) };
        match NonNull::new(handle) {
            Some(handle) => Ok(Image {
                handle,
                path: canonical,
            }),
            None => Err(missing(format!(
                "not loaded by this process (rxt-tf never loads a second TensorFlow): {}",
                last_dl_error()
            ))),
        }
    }

    /// Loads the image at `path` (or finds it loaded): `RTLD_NOW |
    /// RTLD_LOCAL | RTLD_NODELETE`, its symbols kept out of the global
    /// namespace and never unmapped (a C++ library that ran code must not
    /// be). For libraries rxt-tf itself brings in (LiteRT's), never
    /// TensorFlow's.
    pub fn load(path: &Path) -> Result<Image> {
        let missing = |reason: String| Error::LitertUnavailable {
            reason: format!("cannot load {}: {reason}", path.display()),
        };
        let canonical = path
            .canonicalize()
            .map_err(|err| missing(format!("cannot resolve the path: {err}")))?;
        let c_path = CString::new(canonical.as_os_str().as_bytes())
            .map_err(|_| missing(String::from("the path contains a NUL byte")))?;
        let flags = libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_NODELETE;
        // SAFETY: `c_path` is a valid NUL-terminated string; loading runs the
        // library's initialisers, which is what using it requires.
        let handle = unsafe { libc::dlopen(c_path.as_ptr(), flags) };
        match NonNull::new(handle) {
            Some(handle) => Ok(Image {
                handle,
                path: canonical,
            }),
            None => Err(missing(last_dl_error())),
        }
    }

    /// The canonical path of this image.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Resolves `symbol` from this image and proves with `dladdr` that its
    /// definition lives in this image, not in one of its dependencies.
    pub fn resolve(&self, symbol: &CStr) -> Result<NonNull<c_void>> {
        let name = || symbol.to_string_lossy().into_owned();
        // SAFETY: the handle is open for as long as `self` lives and `symbol`
        // is NUL-terminated.
        let address = unsafe { libc::dlsym(self.handle.as_ptr(), symbol.as_ptr()) };
        let address = NonNull::new(address).ok_or_else(|| Error::MissingSymbol {
            symbol: name(),
            image: self.path.display().to_string(),
        })?;
        let owner = owning_image(address);
        if owner.as_deref() == Some(self.path.as_path()) {
            Ok(address)
        } else {
            Err(Error::ForeignSymbol {
                symbol: name(),
                expected: self.path.display().to_string(),
                found: owner
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| String::from("an unknown image")),
            })
        }
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: the handle came from a successful `dlopen` and is closed
        // once; the image stays mapped: the process loaded it first (a wheel
        // image) or it was loaded with `RTLD_NODELETE` (`Image::load`).
        unsafe { libc::dlclose(self.handle.as_ptr()) };
    }
}

/// The canonical path of the image whose mapping contains `address`.
fn owning_image(address: NonNull<c_void>) -> Option<PathBuf> {
    // SAFETY: `Dl_info` is plain old data; all-zero is a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a valid out-pointer; `dladdr` only reads the address.
    let found = unsafe { libc::dladdr(address.as_ptr(), &mut info) };
    if found == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: `dli_fname` is a NUL-terminated string owned by the loader,
    // valid while the image is mapped (it is: we hold it open).
    let file = unsafe { CStr::from_ptr(info.dli_fname) };
    let path = Path::new(std::ffi::OsStr::from_bytes(file.to_bytes()));
    // `dladdr` may report paths such as `.../python/platform/../../lib...`.
    path.canonicalize().ok()
}

/// The loader's last error message.
fn last_dl_error() -> String {
    // SAFETY: `dlerror` returns NULL or a NUL-terminated thread-local string.
    let message = unsafe { libc::dlerror() };
    if message.is_null() {
        String::from("no loader message")
    } else {
        // SAFETY: non-null, NUL-terminated, valid until the next dl* call on
        // this thread; copied out at once.
        unsafe { CStr::from_ptr(message) }
            .to_string_lossy()
            .into_owned()
    }
}
