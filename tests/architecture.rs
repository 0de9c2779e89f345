//! `docs/architecture.md` lists the dependencies between the workspace's
//! crates; this test holds that list against `cargo metadata`, so the
//! architecture page cannot drift from the manifests. Inside each crate the
//! modules form no circle either, and the modules the page places are where
//! it says: the front end's records know no output, each of `syntax`'s and
//! `site`'s concerns is a file of its own, codegen writes Rust one way, and
//! core's `lang::Unit` is the one vocabulary of translation units.

// Helpers outside `#[test]` functions panic when the manifests are unreadable, as tests do.
#![allow(clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `crate-graph` block of the architecture page, one `a -> b` per line.
fn documented() -> BTreeSet<String> {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md"))
        .expect("read docs/architecture.md");
    let block = page.split("```text crate-graph\n").nth(1).expect("a crate-graph block").split("```").next();
    block.expect("a closed block").lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect()
}

/// Every normal and build dependency between path packages, as the page writes it.
fn actual() -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let mut edges = BTreeSet::new();
    for package in meta["packages"].as_array().expect("packages") {
        let from = package["name"].as_str().expect("a name");
        for dep in package["dependencies"].as_array().expect("dependencies") {
            if dep["path"].is_null() || dep["kind"] == "dev" {
                continue;
            }
            let to = dep["name"].as_str().expect("a name");
            let edge = if dep["kind"] == "build" {
                let features: Vec<&str> = package["features"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(_, enables)| enables.as_array().into_iter().flatten().any(|e| e == &format!("dep:{to}")))
                    .map(|(name, _)| name.as_str())
                    .collect();
                let optional = if dep["optional"] == true {
                    format!(", optional: {}", features.join(", "))
                } else {
                    String::new()
                };
                format!("{from} -> {to} (build{optional})")
            } else {
                format!("{from} -> {to}")
            };
            edges.insert(edge);
        }
    }
    edges
}

#[test]
fn the_architecture_page_lists_the_crate_graph_of_the_manifests() {
    assert_eq!(documented(), actual(), "update the crate-graph block of docs/architecture.md");
}

#[test]
fn no_crate_depends_on_the_command_line_or_the_runtime_from_below() {
    // Layers from the bottom: a crate may depend only on crates of lower layers.
    let layer = |name: &str| match name {
        "carcassonne-rules-core" => 0,
        "carcassonne-rules-compiler" => 1,
        "carcassonne-rules-backends" | "carcassonne-rules-tools" | "carcassonne-rules-review" => 2,
        "carcassonne-rules-build" => 3,
        "carcassonne-rules-runtime" | "carcassonne-rules-wiki" | "carcassonne-rules-lsp" => 4,
        _ => 5,
    };
    for edge in actual() {
        let (from, to) = edge.split_once(" -> ").expect("an edge");
        let to = to.split(' ').next().expect("a name");
        assert!(layer(to) < layer(from), "{edge} runs upward or sideways");
    }
}

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Rust files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A file's code as far as its imports go: its text before its unit tests,
/// without comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read a source file");
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The modules of the crate whose sources are in `src` (its files and
/// folders beside `lib.rs`), each with the other modules its code names
/// (`crate::name`, `crate::{name, …}`).
fn modules(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let top = |path: &Path| -> Option<String> {
        let first = path.strip_prefix(src).ok()?.components().next()?.as_os_str().to_str()?.to_string();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        (name != "lib" && name != "main").then_some(name)
    };
    let files = rust_files(src);
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        files.iter().filter_map(|f| top(f)).map(|m| (m, BTreeSet::new())).collect();
    let is_name = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
    for file in &files {
        let Some(from) = top(file) else { continue };
        let code = code(file);
        let mut named = Vec::new();
        for rest in code.split("crate::").skip(1) {
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or_default();
                named.extend(
                    group.split(',').map(|part| part.trim().split("::").next().unwrap_or_default().to_string()),
                );
            } else {
                named.push(rest.split(|c: char| !is_name(c)).next().unwrap_or_default().to_string());
            }
        }
        for to in named {
            if to != from && graph.contains_key(&to) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// The circles of `graph`: each set of two or more nodes that reach each other.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(node) = todo.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|node| (node, reach(node))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (node, from_node) in &reached {
        let circle: BTreeSet<String> =
            from_node.iter().filter(|other| reached[other].contains(*node)).cloned().collect();
        if circle.len() > 1 && !out.contains(&circle) {
            out.push(circle);
        }
    }
    out
}

#[test]
fn the_modules_of_each_crate_form_no_circle() {
    // Circles that stand, each to be taken apart in its own change: core's
    // ids and effects, the runtime's turn and its trace.
    let known: [(&str, &[&str]); 2] =
        [("crates/core/src", &["catalog", "order", "tables"]), ("crates/runtime/src", &["trace", "turn"])];
    let mut sources = vec![root().join("src")];
    let crates = std::fs::read_dir(root().join("crates")).expect("read crates/");
    sources.extend(crates.map(|entry| entry.expect("an entry").path().join("src")).filter(|src| src.is_dir()));
    sources.sort();
    for src in sources {
        let name = src.strip_prefix(root()).expect("inside the repository").display().to_string();
        for circle in circles(&modules(&src)) {
            let allowed = known
                .iter()
                .any(|(at, modules)| *at == name && circle.iter().map(String::as_str).collect::<Vec<_>>() == *modules);
            assert!(
                allowed,
                "the modules {circle:?} of {name} name each other: move what both need below them, or into one of them"
            );
        }
    }
}

#[test]
fn the_front_ends_records_know_no_output_and_each_file_holds_one_concern() {
    let compiler = modules(&root().join("crates/compiler/src"));
    // `syntax` reads files into records: the checks and the model come after
    // it, and the schemas derived from them are the backends'.
    assert!(!compiler.contains_key("schema"), "the JSON Schemas, an output, are written by the backends");
    for later in ["check", "model", "logic", "translation"] {
        assert!(!compiler["syntax"].contains(later), "syntax names `{later}`, a later stage");
    }
    // `syntax`'s concerns, and the page's, one file each.
    for file in [
        "crates/compiler/src/syntax/records.rs",
        "crates/compiler/src/syntax/load.rs",
        "crates/compiler/src/syntax/safe_read.rs",
        "crates/compiler/src/syntax/diagnose.rs",
        "crates/backends/src/site/rules_js.rs",
    ] {
        assert!(root().join(file).is_file(), "{file} is missing: docs/architecture.md places it there");
    }
    let site = code(&root().join("crates/backends/src/site.rs"));
    assert!(
        !site.contains("fn js(") && !site.contains("struct Conds"),
        "site.rs writes HTML; conditions are rules_js's"
    );
}

#[test]
fn codegen_writes_rust_one_way_and_units_have_one_vocabulary() {
    let manifest = std::fs::read_to_string(root().join("crates/backends/Cargo.toml")).expect("read the manifest");
    assert!(!manifest.lines().any(|l| l.starts_with("codegen ")), "codegen writes Rust with its own Writer only");
    for file in rust_files(&root().join("crates/backends/src/codegen"))
        .into_iter()
        .chain([root().join("crates/backends/src/codegen.rs")])
    {
        let code = code(&file);
        assert!(!code.contains("codegen::{") && !code.contains("Scope"), "{} writes Rust another way", file.display());
    }
    // The kinds of translation unit are core's `lang::Kind`; no crate names them again.
    let lang = code(&root().join("crates/core/src/lang.rs"));
    assert!(lang.contains("pub enum Unit<'a>") && lang.contains("pub enum Kind"));
    for file in rust_files(&root().join("crates")).into_iter().chain(rust_files(&root().join("src"))) {
        assert!(!code(&file).contains("enum UnitKind"), "{} spells the kinds of unit again", file.display());
    }
}
