//! `docs/architecture.md` lists the dependencies between the workspace's
//! crates; this test holds that list against `cargo metadata`, so the
//! architecture page cannot drift from the manifests.

// Helpers outside `#[test]` functions panic when the manifests are unreadable, as tests do.
#![allow(clippy::expect_used)]

use std::collections::BTreeSet;
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
