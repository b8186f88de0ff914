//! Repository tasks of rxt-tf.
//!
//! `cargo run -p xtask -- codegen` writes the files generated from the op
//! table of `rxt-tf-spec`: the Rextio plugin's table
//! (`plugin-py/src/rxt_tf_plugin/spec.py`) and annotation markers
//! (`plugin-py/src/rxt_tf_plugin/types.py`), the guide's op reference and
//! Rextio rule table (`guide/src/reference/`), and the plugin README's
//! sentences on element types and ranks (the last three between
//! `<!-- codegen:… -->` markers). With `--check` it writes nothing and
//! fails, naming the command, if any of them is stale.

mod blocks;
mod plugin_readme;
mod python;
mod python_checks;
mod tables;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The command that regenerates, for messages.
const COMMAND: &str = "cargo run -p xtask -- codegen";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["codegen"] => false,
        ["codegen", "--check"] => true,
        _ => {
            eprintln!("usage: {COMMAND} [--check]");
            return ExitCode::from(2);
        }
    };
    match codegen(&root(), check) {
        Ok(stale) if stale.is_empty() => ExitCode::SUCCESS,
        Ok(stale) => {
            for path in &stale {
                eprintln!("xtask: {} is stale; run `{COMMAND}`", path.display());
            }
            ExitCode::FAILURE
        }
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (this crate's parent folder).
fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map_or(manifest.clone(), Path::to_path_buf)
}

/// Regenerates every generated file under `root`; with `check`, writes
/// nothing and returns the stale ones.
fn codegen(root: &Path, check: bool) -> Result<Vec<PathBuf>, String> {
    let plugin = root.join("plugin-py/src/rxt_tf_plugin");
    let reference = root.join("guide/src/reference");
    let mut outputs = vec![
        (plugin.join("spec.py"), python::spec_module()),
        (plugin.join("types.py"), python::types_module()),
    ];
    let blocks = [
        (reference.join("ops.md"), "ops", tables::ops_table()),
        (
            reference.join("rextio-rules.md"),
            "rules",
            tables::rules_table(),
        ),
        (
            root.join("plugin-py/README.md"),
            "types",
            plugin_readme::types_section(),
        ),
    ];
    for (path, name, body) in blocks {
        let current = read(&path)?;
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let wanted = blocks::replace(&file, &current, name, &body)?;
        outputs.push((path, wanted));
    }
    let mut stale = Vec::new();
    for (path, wanted) in outputs {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == wanted {
            continue;
        }
        if check {
            stale.push(path);
        } else {
            std::fs::write(&path, wanted)
                .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
            println!("xtask: wrote {}", path.display());
        }
    }
    Ok(stale)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|err| format!("cannot read {}: {err}", path.display()))
}
