//! The errata's JSON Schema (written by `carcassonne-rules gen` into
//! `generated/schemas/`): `errata.yaml` names it and is valid under it
//! (checked with the `jsonschema` crate), planted mistakes are not, and for
//! each record of `errata.yaml` the keys the loader expects are the schema's.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use carcassonne_rules_compiler::diagnostics::render;
use std::sync::LazyLock;

use carcassonne_rules_compiler::schema::SCHEMA_DIR;
use carcassonne_rules_compiler::{Sources, compile_dir};
use carcassonne_rules_wiki::Errata;
use carcassonne_rules_wiki::errata::schema;
use serde_json::Value;

/// The errata's schema for the bundled rules, as JSON.
static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = compile_dir(&manifest.join("../../rules")).result.expect("the bundled rules");
    serde_json::from_str(&schema::schema(&rules).contents).expect("JSON")
});

/// The validation errors of `yaml` under the errata's schema, as text.
fn errors(yaml: &str) -> Vec<String> {
    let validator = jsonschema::draft7::new(&SCHEMA).expect("a valid draft-07 schema");
    let instance: Value = serde_saphyr::from_str(yaml).expect("YAML");
    validator.iter_errors(&instance).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

#[test]
fn the_bundled_errata_name_their_schema_and_are_valid_under_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("errata.yaml");
    let text = std::fs::read_to_string(&path).expect("errata.yaml");
    let expected = format!("# yaml-language-server: $schema=../../generated/{SCHEMA_DIR}/{}", schema::NAME);
    assert_eq!(text.lines().next(), Some(expected.as_str()));
    let target = path.parent().expect("a folder").join(&expected[expected.find('=').expect("=") + 1..]);
    assert!(target.is_file(), "errata.yaml names {}, which does not exist", target.display());
    let problems = errors(&text);
    assert!(problems.is_empty(), "errata.yaml does not follow its schema:\n{}", problems.join("\n"));
}

#[test]
fn planted_mistakes_in_errata_fail_the_schema() {
    let errata = "differences:\n  - { id: d, page: P, rules: R, why: W, steps: [2C] }\n";
    assert!(errors(errata).is_empty(), "{:?}", errors(errata));
    assert!(!errors(&errata.replace("[2C]", "[2E]")).is_empty(), "an unknown step");
    assert!(!errors(&errata.replace("why: W", "why: W, because: B")).is_empty(), "an unknown key");
    assert!(!errors(&errata.replace("id: d", "id: D_1")).is_empty(), "an id that is not kebab-case");
}

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
    let properties = SCHEMA.pointer(&format!("{pointer}/properties")).expect("properties");
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
