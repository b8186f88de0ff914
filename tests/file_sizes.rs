//! No hand-written source file is over [`LIMIT`] lines: every `*.rs` and
//! `*.py` under the workspace root, outside build output, caches and
//! virtual environments, and other than the files `xtask codegen` writes.
//! A file past the limit is split by concern (see `tests/fuzz_ops/`).

use std::path::{Path, PathBuf};

/// The most lines a hand-written source file may have.
const LIMIT: usize = 800;

/// Directories never walked, wherever they are: build output, caches,
/// virtual environments, Rextio's outputs and the machine-specific files
/// its setup writes.
const SKIPPED_DIRS: &[&str] = &[
    "target",
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".rextio",
    ".cargo",
    "node_modules",
    "build",
    "dist",
];

/// Paths under the root never walked: the guide's rendered book.
const SKIPPED_PATHS: &[&str] = &["guide/book"];

/// The sources `cargo run -p xtask -- codegen` writes (`xtask/src/main.rs`);
/// its other outputs are Markdown.
const GENERATED: &[&str] = &[
    "plugin-py/src/rxt_tf_plugin/spec.py",
    "plugin-py/src/rxt_tf_plugin/types.py",
];

/// Every `*.rs` and `*.py` file under `dir` (relative to `root`) not
/// skipped, in `found`.
fn walk(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
        let path = entry.path();
        let relative = path.strip_prefix(root).expect("under the root");
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // Not followed through symbolic links: a link to a directory is
        // neither walked nor counted.
        let kind = entry
            .file_type()
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        if kind.is_dir() {
            let skipped = SKIPPED_DIRS.contains(&name.as_ref())
                || name.ends_with(".egg-info")
                || SKIPPED_PATHS.iter().any(|p| relative == Path::new(p));
            if !skipped {
                walk(root, &path, found);
            }
        } else if kind.is_file()
            && (name.ends_with(".rs") || name.ends_with(".py"))
            && !GENERATED.iter().any(|g| relative == Path::new(g))
        {
            found.push(relative.to_path_buf());
        }
    }
}

#[test]
fn no_hand_written_source_file_is_over_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for generated in GENERATED {
        assert!(
            root.join(generated).is_file(),
            "{generated}, listed as generated, does not exist: update GENERATED from what \
             `xtask codegen` writes"
        );
    }
    let mut files = Vec::new();
    walk(root, root, &mut files);
    // A wrong root or skip list would pass with nothing to check.
    for expected in ["src/lib.rs", "tests/file_sizes.rs", "xtask/src/main.rs"] {
        assert!(
            files.iter().any(|f| f == Path::new(expected)),
            "{expected} was not among the files walked"
        );
    }
    let mut long: Vec<(usize, String)> = files
        .iter()
        .filter_map(|file| {
            let path = root.join(file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            let lines = text.lines().count();
            (lines > LIMIT).then(|| (lines, file.display().to_string()))
        })
        .collect();
    long.sort_by(|a, b| b.cmp(a));
    assert!(
        long.is_empty(),
        "{} of {} hand-written source files are over {LIMIT} lines (split them by \
         concern):\n{}",
        long.len(),
        files.len(),
        long.iter()
            .map(|(lines, file)| format!("  {file}: {lines} lines"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
