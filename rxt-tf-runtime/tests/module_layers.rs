//! The runtime's top-level modules form layers: no module imports one that
//! imports it back, directly or through others. Read from the sources (every
//! `crate::name` path, grouped `use crate::{a, b::c}` included, and doc
//! links, which name a module as much as a `use` does).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the sources") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// `text` without its plain `//` comments (which may name modules freely);
/// doc comments stay, since their links are references.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[at..].starts_with("///") && !line[at..].starts_with("//!") => {
                &line[..at]
            }
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The leading identifier of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The top-level module names `text` uses through `crate::`.
fn used_modules(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::x, b}`: the top-level names at depth one.
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && c == ',' {
                    used.insert(identifier(item.trim()).to_owned());
                    item.clear();
                } else if depth == 1 {
                    item.push(c);
                }
            }
            used.insert(identifier(item.trim()).to_owned());
        } else {
            used.insert(identifier(rest).to_owned());
        }
    }
    used.remove("");
    used
}

/// Every top-level module and the top-level modules it imports.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let module_of = |path: &Path| -> Option<String> {
        let relative = path.strip_prefix(&root).ok()?;
        let first = relative.components().next()?.as_os_str().to_str()?;
        let name = first.trim_end_matches(".rs");
        (name != "lib").then(|| name.to_owned())
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|p| module_of(p)).collect();
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let Some(module) = module_of(path) else {
            continue;
        };
        let text = without_comments(&std::fs::read_to_string(path).expect("read a source"));
        let entry = imports.entry(module.clone()).or_default();
        for used in used_modules(&text) {
            if used != module && modules.contains(&used) {
                entry.insert(used);
            }
        }
    }
    assert!(imports.contains_key("fused") && imports.contains_key("tensor"));
    imports
}

/// The layers as the guide's architecture chapter lists them, lowest
/// first: the first cell of each row of its "The runtime's layers" table
/// (`sys/`, `gil.rs`, …), as module names.
fn documented_layers() -> Vec<String> {
    let chapter = Path::new(env!("CARGO_MANIFEST_DIR")).join("../guide/src/architecture.md");
    let text = std::fs::read_to_string(&chapter).expect("read the architecture chapter");
    let section = text
        .split("## The runtime's layers")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the chapter has a section on the runtime's layers");
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|cell| cell.split('`').next())
        .map(|name| {
            name.trim_end_matches('/')
                .trim_end_matches(".rs")
                .to_owned()
        })
        .collect()
}

/// The modules `lib.rs`'s own documentation names in its "Layers" text,
/// in order.
fn layers_in_lib_doc(modules: &BTreeSet<String>) -> Vec<String> {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).expect("read lib.rs");
    let doc: String = text
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    let layers = doc.split("Layers, lowest first").nth(1).unwrap_or_default();
    layers
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| modules.contains(*name))
        .fold(Vec::new(), |mut named, name| {
            if !named.iter().any(|known| known == name) {
                named.push(name.to_owned());
            }
            named
        })
}

#[test]
fn the_runtime_modules_import_only_the_layers_below_them() {
    let imports = import_graph();
    let modules: BTreeSet<String> = imports.keys().cloned().collect();
    let layers = documented_layers();
    let listed: BTreeSet<String> = layers.iter().cloned().collect();
    assert_eq!(
        listed, modules,
        "the architecture chapter's table lists every top-level module once"
    );
    assert_eq!(
        listed.len(),
        layers.len(),
        "a module listed twice: {layers:?}"
    );
    assert_eq!(
        layers_in_lib_doc(&modules),
        layers,
        "lib.rs's module documentation names the layers in the chapter's order"
    );
    for (position, module) in layers.iter().enumerate() {
        let above: Vec<&String> = imports[module]
            .iter()
            .filter(|used| layers[position + 1..].contains(used))
            .collect();
        assert!(
            above.is_empty(),
            "`{module}` imports {above:?}, listed above it in the architecture chapter"
        );
    }
}

#[test]
fn the_runtime_modules_import_no_circle() {
    let imports = import_graph();
    // Depth-first search for a cycle, reporting the first one found.
    fn visit(
        module: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut cycle = path[start..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in imports.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, imports, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for module in imports.keys() {
        let cycle = visit(module, &imports, &mut Vec::new(), &mut done);
        assert!(
            cycle.is_none(),
            "an import circle: {}",
            cycle.unwrap_or_default().join(" → ")
        );
    }
}

#[test]
fn grouped_and_plain_paths_are_read() {
    let used = used_modules(
        "use crate::{error::Result, tensor::{Promise, Untyped}};\n\
         fn f() { crate::gil::maybe_released(0, || ()); }",
    );
    let expected: BTreeSet<String> = ["error", "tensor", "gil"].map(String::from).into();
    assert_eq!(used, expected);
    // A doc link is a reference; a plain comment is not.
    let documented = used_modules(&without_comments(
        "/// See [`crate::ops`].\nlet x = 1; // crate::fused is elsewhere",
    ));
    let expected: BTreeSet<String> = ["ops"].map(String::from).into();
    assert_eq!(documented, expected);
}
