//! The errata's JSON Schema (written by `carcassonne-rules gen` from the
//! compiler's knowledge) in step with what this crate reads: for each record
//! of `errata.yaml`, the keys the loader expects are the schema's.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::schema::{self, ERRATA};
use carcassonne_rules_compiler::{Sources, compile_dir};
use carcassonne_rules_conformance::Errata;
use serde_json::Value;

/// The keys the errata loader reads where `yaml` plants `zzz_probe`.
fn keys_read(yaml: &str) -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = compile_dir(&manifest.join("../../crates/compiler/tests/fixtures/minimal")).result.expect("fixture");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("errata.yaml");
    std::fs::write(&path, yaml).expect("write");
    let problems = match Errata::load(&path, &rules, &mut Sources::default()) {
        Ok(_) => panic!("the planted key was accepted"),
        Err(problems) => render(&problems, false),
    };
    let at = problems.find("unknown field `zzz_probe`, expected ").unwrap_or_else(|| panic!("{problems}"));
    let line = problems[at..].lines().next().expect("a line");
    let list = &line[line.find("expected ").expect("expected") + 9..];
    let mut keys: Vec<String> = list
        .trim_start_matches("one of ")
        .split([',', ' '])
        .filter(|k| !k.is_empty() && *k != "or")
        .map(|k| k.trim_matches('`').to_string())
        .collect();
    keys.sort();
    keys
}

fn keys_offered(pointer: &str) -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = compile_dir(&manifest.join("../../rules")).result.expect("the bundled rules");
    let file = schema::schemas(&rules).into_iter().find(|s| s.name == ERRATA).expect("errata schema");
    let schema: Value = serde_json::from_str(&file.contents).expect("JSON");
    let properties = schema.pointer(&format!("{pointer}/properties")).expect("properties");
    let mut keys: Vec<String> = properties.as_object().expect("an object").keys().cloned().collect();
    keys.sort();
    keys
}

#[test]
fn the_errata_schema_knows_every_key_the_loader_reads() {
    assert_eq!(keys_read("zzz_probe: 1\n"), keys_offered(""));
    assert_eq!(
        keys_read("classes:\n  - { class: showX, means: abbey, why: W, zzz_probe: 1 }\n"),
        keys_offered("/definitions/class_reading")
    );
    assert_eq!(
        keys_read("differences:\n  - { id: d, page: P, rules: R, why: W, zzz_probe: 1 }\n"),
        keys_offered("/definitions/difference")
    );
}
