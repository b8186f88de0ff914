//! The platform profiles: the one table that decides which targets rxt-tf
//! builds for. The runtime's build script reads it to pick the profile (or to
//! emit the unsupported-target `compile_error!`), `#[inference]` reads it for
//! the same error, the runtime uses it at run time, and tests check it against
//! `ci/platform-contract.json`.

/// How far a profile has been proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Real end-to-end tests run on this profile.
    Certified,
    /// Wired from the wheel's layout, not run here.
    Experimental,
}

impl Support {
    /// The word used in the platform contract.
    pub const fn as_str(self) -> &'static str {
        match self {
            Support::Certified => "certified",
            Support::Experimental => "experimental",
        }
    }
}

/// The three images of the `tensorflow` wheel, relative to its package folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WheelImages {
    /// Holds `TF_Version` and the `TFE_*` eager C API.
    pub cc: &'static str,
    /// Holds `TF_Status` and `TF_Tensor` functions.
    pub framework: &'static str,
    /// Holds the private EagerTensor bridge.
    pub pywrap: &'static str,
}

/// One supported platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlatformProfile {
    /// Stable id, e.g. `linux-x86_64`.
    pub id: &'static str,
    /// The Rust target triple this profile is for.
    pub target_triple: &'static str,
    /// `cfg(target_arch)`.
    pub target_arch: &'static str,
    /// `cfg(target_os)`.
    pub target_os: &'static str,
    /// `cfg(target_env)`.
    pub target_env: &'static str,
    /// Values of Python's `platform.machine()` accepted at run time.
    pub python_machines: &'static [&'static str],
    /// Image names inside the wheel.
    pub images: WheelImages,
    /// How far this profile is proven.
    pub support: Support,
}

const LINUX_IMAGES: WheelImages = WheelImages {
    cc: "libtensorflow_cc.so.2",
    framework: "libtensorflow_framework.so.2",
    pywrap: "python/lib_pywrap_tensorflow_common.so",
};

/// Every supported profile; any other target fails to build.
pub const PROFILES: &[PlatformProfile] = &[
    PlatformProfile {
        id: "linux-x86_64",
        target_triple: "x86_64-unknown-linux-gnu",
        target_arch: "x86_64",
        target_os: "linux",
        target_env: "gnu",
        python_machines: &["x86_64"],
        images: LINUX_IMAGES,
        support: Support::Certified,
    },
    PlatformProfile {
        id: "linux-aarch64",
        target_triple: "aarch64-unknown-linux-gnu",
        target_arch: "aarch64",
        target_os: "linux",
        target_env: "gnu",
        python_machines: &["aarch64", "arm64"],
        images: LINUX_IMAGES,
        support: Support::Experimental,
    },
    PlatformProfile {
        id: "macos-arm64",
        target_triple: "aarch64-apple-darwin",
        target_arch: "aarch64",
        target_os: "macos",
        target_env: "",
        python_machines: &["arm64"],
        images: WheelImages {
            cc: "libtensorflow_cc.2.dylib",
            framework: "libtensorflow_framework.2.dylib",
            pywrap: "python/lib_pywrap_tensorflow_common.dylib",
        },
        support: Support::Experimental,
    },
];

/// The index in [`PROFILES`] of the profile for these `cfg` values, if any.
pub fn profile_index(target_arch: &str, target_os: &str, target_env: &str) -> Option<usize> {
    PROFILES.iter().position(|p| {
        p.target_arch == target_arch && p.target_os == target_os && p.target_env == target_env
    })
}

/// The message of the `compile_error!` for an unsupported target.
pub fn unsupported_target_message(target: &str) -> String {
    let supported: Vec<String> = PROFILES
        .iter()
        .map(|p| format!("{} ({})", p.id, p.target_triple))
        .collect();
    format!(
        "rxt-tf: unsupported target `{target}`; supported platform profiles: {}",
        supported.join(", ")
    )
}

/// The `cfg(target_arch, target_os, target_env)` values of a target triple,
/// for the triples the platform contract names (and their close relatives).
pub fn target_cfg(triple: &str) -> (String, String, String) {
    let parts: Vec<&str> = triple.split('-').collect();
    let first = parts.first().copied().unwrap_or_default();
    let arch = match first {
        "i386" | "i586" | "i686" => "x86",
        "arm64" => "aarch64",
        a if a.starts_with("armv7") || a == "arm" => "arm",
        a => a,
    };
    let has = |name: &str| parts.iter().any(|p| p.starts_with(name));
    let os = if has("windows") {
        "windows"
    } else if has("darwin") {
        "macos"
    } else if has("linux") {
        "linux"
    } else {
        parts.get(2).copied().unwrap_or_default()
    };
    let env = match (os, parts.last().copied().unwrap_or_default()) {
        ("macos", _) => "",
        (_, last) if last.starts_with("gnu") => "gnu",
        (_, last) if last.starts_with("musl") => "musl",
        (_, "msvc") => "msvc",
        _ => "",
    };
    (arch.to_owned(), os.to_owned(), env.to_owned())
}
