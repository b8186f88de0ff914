//! The runtime's top-level modules form layers, and no folder of the runtime
//! or the spec holds an import circle among its children: no module imports one that
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

/// The module path of a source file: `ops/typed/forms.rs` is
/// `["ops", "typed", "forms"]`, a folder's `mod.rs` the folder's path.
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).expect("a file under src");
    let mut path: Vec<String> = relative
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .map(|c| c.trim_end_matches(".rs").to_owned())
        .collect();
    if path
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        path.pop();
    }
    path
}

/// Every path `text` names from `crate::`, `super::` or `self::`, resolved
/// against `module` and expanded through groups (`a::{b, c::d}`), as the
/// module components it starts with.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    fn expand(rest: &str, prefix: Vec<String>, found: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        let mut rest = rest;
        loop {
            let name = identifier(rest);
            if name.is_empty() {
                if let Some(group) = rest.strip_prefix('{') {
                    // Split the group's items at depth one.
                    let mut depth = 1;
                    let mut item_start = 0;
                    for (at, c) in group.char_indices() {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            ',' if depth == 1 => {
                                expand(group[item_start..at].trim_start(), path.clone(), found);
                                item_start = at + 1;
                            }
                            _ => {}
                        }
                        if depth == 0 {
                            expand(group[item_start..at].trim_start(), path.clone(), found);
                            break;
                        }
                    }
                    return;
                }
                break;
            }
            path.push(name.to_owned());
            rest = &rest[name.len()..];
            match rest.strip_prefix("::") {
                Some(next) => rest = next,
                None => break,
            }
        }
        found.push(path);
    }
    let mut found = Vec::new();
    for (anchor, base) in [("crate::", 0usize), ("super::", 1), ("self::", 2)] {
        let mut rest = text;
        while let Some(at) = rest.find(anchor) {
            let preceded = rest[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
            rest = &rest[at + anchor.len()..];
            if preceded {
                continue;
            }
            let mut start: Vec<String> = match base {
                0 => Vec::new(),
                1 => module[..module.len().saturating_sub(1)].to_vec(),
                _ => module.to_vec(),
            };
            let mut tail = rest;
            if base == 1 {
                while let Some(next) = tail.strip_prefix("super::") {
                    start.pop();
                    tail = next;
                }
            }
            expand(tail, start, &mut found);
        }
    }
    found
}

/// Per folder of a crate's `src` (`ops`, `ops/rules`, …), the imports
/// between its children: a file under child `a` naming a path under child
/// `b`.
fn folder_graphs(root: &Path) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let root = root.to_path_buf();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let path = module_path(&root, file);
        for depth in 1..path.len() {
            children
                .entry(path[..depth].to_vec())
                .or_default()
                .insert(path[depth].clone());
        }
    }
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let module = module_path(&root, file);
        let text = without_comments(&std::fs::read_to_string(file).expect("read a source"));
        for named in named_paths(&text, &module) {
            let common = module
                .iter()
                .zip(&named)
                .take_while(|(a, b)| a == b)
                .count();
            // The nearest folder holding both: an edge between two of its
            // children (a folder's own `mod.rs` is no child of it).
            if common == 0 || common >= module.len() || common >= named.len() {
                continue;
            }
            let folder = module[..common].to_vec();
            let (from, to) = (&module[common], &named[common]);
            if children
                .get(&folder)
                .is_some_and(|known| known.contains(to))
                && from != to
            {
                graphs
                    .entry(folder)
                    .or_default()
                    .entry(from.clone())
                    .or_default()
                    .insert(to.clone());
            }
        }
    }
    graphs
}

#[test]
fn no_folder_of_the_runtime_or_the_spec_holds_an_import_circle() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = folder_graphs(&manifest.join("src"));
    let spec = folder_graphs(&manifest.join("../rxt-tf-spec/src"));
    for (graphs, folder) in [(&runtime, "ops"), (&runtime, "eager"), (&spec, "model")] {
        assert!(
            graphs.contains_key(&vec![folder.to_owned()]),
            "the imports inside {folder}/ are read: {:?}",
            graphs.keys().collect::<Vec<_>>()
        );
    }
    for (folder, imports) in runtime.iter().chain(&spec) {
        for start in imports.keys() {
            // Breadth-first from `start`: reaching `start` again is a circle.
            let mut seen = BTreeSet::new();
            let mut queue: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
            while let Some((module, path)) = queue.pop() {
                for next in imports.get(&module).into_iter().flatten() {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    assert!(
                        next != start,
                        "an import circle in {}/: {}",
                        folder.join("/"),
                        longer.join(" → ")
                    );
                    if seen.insert(next.clone()) {
                        queue.push((next.clone(), longer));
                    }
                }
            }
        }
    }
}

#[test]
fn paths_are_resolved_against_the_module() {
    let module = ["ops", "typed", "forms"].map(String::from);
    let named = named_paths(
        "use crate::ops::{record_or_run::Operand, typed::outputs::Outputs};\n\
         use super::operands::Scalar; /// [`x`](super::super::rules)",
        &module,
    );
    let expect = |path: &[&str]| path.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(
        named.contains(&expect(&["ops", "record_or_run", "Operand"])),
        "{named:?}"
    );
    assert!(
        named.contains(&expect(&["ops", "typed", "outputs", "Outputs"])),
        "{named:?}"
    );
    assert!(
        named.contains(&expect(&["ops", "typed", "operands", "Scalar"])),
        "{named:?}"
    );
    assert!(named.contains(&expect(&["ops", "rules"])), "{named:?}");
}
