//! The UI snapshots (`ui-tests/*.stderr`) say one thing each, in the
//! user's words: exactly one error, no warning, no E0271 cascade about
//! internal traits, no path into the implementation crates, and no pointer
//! to a page that moved. Reads the files only: no compiler, no TensorFlow.

use std::fs;
use std::path::Path;

/// What a snapshot must not hold, and why.
const FORBIDDEN: [(&str, &str); 4] = [
    (
        "E0271",
        "an E0271 cascade (a type mismatch about an internal trait)",
    ),
    ("rxt_tf_runtime::", "a path into rxt-tf-runtime"),
    ("rxt_tf_spec::", "a path into rxt-tf-spec"),
    (
        "README's op table",
        "a pointer to the README's op table, which moved to the guide's op reference",
    ),
];

/// The problems of one snapshot's text, empty when it is clean.
fn problems(stderr: &str) -> Vec<String> {
    let mut found = Vec::new();
    let errors = stderr
        .lines()
        .filter(|line| line.starts_with("error"))
        .count();
    if errors != 1 {
        found.push(format!("{errors} errors (one mistake, one error)"));
    }
    if stderr.lines().any(|line| line.starts_with("warning")) {
        found.push("a warning".to_owned());
    }
    for (text, what) in FORBIDDEN {
        if stderr.contains(text) {
            found.push(what.to_owned());
        }
    }
    found
}

#[test]
fn every_snapshot_is_one_error_in_user_facing_names() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui-tests");
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in fs::read_dir(&dir).expect("ui-tests/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|ext| ext != "stderr") {
            continue;
        }
        checked += 1;
        let stderr = fs::read_to_string(&path).expect("a snapshot is text");
        for problem in problems(&stderr) {
            failures.push(format!("{}: {problem}", path.display()));
        }
    }
    assert!(checked > 0, "no snapshots found in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_check_sees_each_problem() {
    let clean = "error[E0277]: rxt-tf: `MatmulOp` does not take a tensor of `Rank<1>`\n";
    assert!(problems(clean).is_empty());
    assert_eq!(problems(&clean.repeat(2)).len(), 1);
    assert_eq!(problems("warning: unused import\n").len(), 2);
    let cascade = format!("{clean}note: `rxt_tf_runtime::tensor::typed::Rank<1>` E0271\n");
    assert_eq!(problems(&cascade).len(), 2);
    let stale = format!("{clean}  = note: the README's op table lists each op's ranks\n");
    assert_eq!(problems(&stale).len(), 1);
}
