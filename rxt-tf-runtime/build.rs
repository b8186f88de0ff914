//! Selects the platform profile for the target being built, from the same
//! table the library uses, or turns the build into a `compile_error!` that
//! names the target and the supported profiles.

use std::{env, fs, path::PathBuf};

#[allow(dead_code)]
mod table {
    include!("src/platform/table.rs");
}

fn main() {
    println!("cargo::rerun-if-changed=src/platform/table.rs");
    let cfg = |key: &str| env::var(key).unwrap_or_default();
    let target = cfg("TARGET");
    let selected = table::profile_index(
        &cfg("CARGO_CFG_TARGET_ARCH"),
        &cfg("CARGO_CFG_TARGET_OS"),
        &cfg("CARGO_CFG_TARGET_ENV"),
    );
    let code = match selected {
        Some(index) => format!("const ACTIVE_PROFILE_INDEX: usize = {index};\n"),
        // Index 0 keeps the rest of the crate compiling, so the build shows
        // this one error instead of a cascade.
        None => format!(
            "::core::compile_error!({:?});\nconst ACTIVE_PROFILE_INDEX: usize = 0;\n",
            table::unsupported_target_message(&target)
        ),
    };
    let out = PathBuf::from(cfg("OUT_DIR")).join("active_profile.rs");
    if let Err(err) = fs::write(&out, code) {
        eprintln!("rxt-tf-runtime: cannot write {}: {err}", out.display());
        std::process::exit(1);
    }
}
