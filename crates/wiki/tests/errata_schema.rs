//! The errata's JSON Schema (written by `carcassonne-rules gen` into
//! `generated/schemas/`): `errata.yaml` names it and is valid under it
//! (checked with the `boon` crate, draft-07), and planted mistakes are not. (That
//! the schema names the keys the loader reads is a unit test beside it.)

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use std::sync::LazyLock;

use carcassonne_rules_backends::schema::SCHEMA_DIR;
use carcassonne_rules_compiler::compile_dir;
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
    let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
    compiler.set_default_draft(boon::Draft::V7);
    compiler.add_resource("file:///errata.json", SCHEMA.clone()).expect("a new resource");
    let index = compiler.compile("file:///errata.json", &mut schemas).expect("a valid draft-07 schema");
    let instance: Value = serde_saphyr::from_str(yaml).expect("YAML");
    match schemas.validate(&instance, index) {
        Ok(()) => Vec::new(),
        // One line a failed keyword, after a line naming the schema.
        Err(e) => e.to_string().lines().skip(1).map(|line| line.trim().to_string()).collect(),
    }
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
