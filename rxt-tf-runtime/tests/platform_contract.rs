//! The platform table against `ci/platform-contract.json`: every cell of
//! {Linux, macOS} × {x86_64, i686, ARMv7, AArch64}, Windows and Linux musl.

use rxt_tf_runtime::__private::platform::{
    self, profile_index, unsupported_target_message, PROFILES,
};
use serde_json::Value;

fn cells() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ci/platform-contract.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let contract: Value = serde_json::from_str(&text).expect("valid JSON");
    contract["cells"].as_array().expect("cells").clone()
}

fn field<'a>(cell: &'a Value, key: &str) -> &'a str {
    cell[key]
        .as_str()
        .unwrap_or_else(|| panic!("{cell}: missing {key}"))
}

#[test]
fn every_cell_has_the_outcome_the_table_gives() {
    let cells = cells();
    for os in ["Linux", "macOS"] {
        for arch in ["x86_64", "i686", "ARMv7", "AArch64"] {
            let name = format!("{os} {arch}");
            assert!(
                cells.iter().any(|c| field(c, "cell") == name),
                "{name} missing"
            );
        }
    }
    assert!(cells
        .iter()
        .any(|c| field(c, "cell").starts_with("Windows")));
    assert!(cells.iter().any(|c| field(c, "env") == "musl"));

    for cell in &cells {
        let cfg = platform::target_cfg(field(cell, "target"));
        assert_eq!(
            (cfg.0.as_str(), cfg.1.as_str(), cfg.2.as_str()),
            (field(cell, "arch"), field(cell, "os"), field(cell, "env")),
            "cfg of {cell}"
        );
        let found = profile_index(field(cell, "arch"), field(cell, "os"), field(cell, "env"));
        match field(cell, "expected") {
            "compile-error" => {
                assert_eq!(found, None, "{cell} should not build");
                let message = unsupported_target_message(field(cell, "target"));
                assert!(message.starts_with(&format!(
                    "rxt-tf: unsupported target `{}`",
                    field(cell, "target")
                )));
                for profile in PROFILES {
                    assert!(
                        message.contains(profile.id) && message.contains(profile.target_triple)
                    );
                }
            }
            support => {
                let profile = &PROFILES[found.unwrap_or_else(|| panic!("{cell} should build"))];
                assert_eq!(profile.id, field(cell, "profile"));
                assert_eq!(profile.target_triple, field(cell, "target"));
                assert_eq!(profile.support.as_str(), support);
            }
        }
    }
}

#[test]
fn every_profile_is_in_the_contract() {
    let cells = cells();
    for profile in PROFILES {
        assert!(
            cells
                .iter()
                .any(|c| c.get("profile").and_then(Value::as_str) == Some(profile.id)),
            "{} is not in the contract",
            profile.id
        );
    }
}

#[test]
fn this_build_selected_the_profile_for_its_own_target() {
    let index = profile_index(
        std::env::consts::ARCH,
        std::env::consts::OS,
        if cfg!(target_env = "gnu") { "gnu" } else { "" },
    );
    assert_eq!(index.map(|i| PROFILES[i].id), Some(platform::ACTIVE.id));
    assert_eq!(platform::ACTIVE.id, "linux-x86_64");
}

/// This crate's compiled build scripts, newest first.
fn build_scripts() -> Vec<std::path::PathBuf> {
    let exe = std::env::current_exe().expect("test exe");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let mut scripts: Vec<_> = std::fs::read_dir(profile_dir.join("build"))
        .expect("build dir")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("rxt-tf-runtime-")
        })
        .map(|e| e.path().join("build-script-build"))
        .filter(|p| p.exists())
        .collect();
    let modified = |p: &std::path::PathBuf| p.metadata().and_then(|m| m.modified()).ok();
    scripts.sort_by_key(|p| std::cmp::Reverse(modified(p)));
    scripts
}

/// Runs the real build script as cargo would for `cell`'s target and
/// returns the Rust it generates.
fn generate(script: &std::path::Path, cell: &Value, out: &std::path::Path) -> String {
    let status = std::process::Command::new(script)
        .env("TARGET", field(cell, "target"))
        .env("CARGO_CFG_TARGET_ARCH", field(cell, "arch"))
        .env("CARGO_CFG_TARGET_OS", field(cell, "os"))
        .env("CARGO_CFG_TARGET_ENV", field(cell, "env"))
        .env("OUT_DIR", out)
        .status()
        .expect("run build script");
    assert!(status.success());
    std::fs::read_to_string(out.join("active_profile.rs")).expect("generated file")
}

#[test]
fn the_build_script_turns_unsupported_targets_into_compile_error() {
    let scripts = build_scripts();
    assert!(!scripts.is_empty(), "no compiled build script found");
    let out = std::env::temp_dir().join(format!("rxt-tf-platform-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("out dir");
    for cell in cells() {
        let generated = generate(&scripts[0], &cell, &out);
        let found = profile_index(
            field(&cell, "arch"),
            field(&cell, "os"),
            field(&cell, "env"),
        );
        match found {
            Some(index) => {
                assert_eq!(
                    generated,
                    format!("const ACTIVE_PROFILE_INDEX: usize = {index};\n")
                )
            }
            None => {
                // Compile the generated code: it must fail with our message.
                let source = out.join("check.rs");
                std::fs::write(&source, &generated).expect("write");
                let rustc = std::env::var("RUSTC").unwrap_or_else(|_| String::from("rustc"));
                let result = std::process::Command::new(rustc)
                    .args([
                        "--crate-type",
                        "lib",
                        "--edition",
                        "2021",
                        "--emit",
                        "metadata",
                        "-o",
                    ])
                    .arg(out.join("check.rmeta"))
                    .arg(&source)
                    .output()
                    .expect("run rustc");
                let stderr = String::from_utf8_lossy(&result.stderr);
                assert!(!result.status.success(), "{cell} compiled");
                let expected = unsupported_target_message(field(&cell, "target"));
                assert!(stderr.contains(&format!("error: {expected}")), "{stderr}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}
