//! The language server edits `crates/wiki/errata.yaml` in a rename, reading
//! it as a syntax tree: it cannot depend on the wiki crate, so it restates
//! which keys of the errata hold item ids and conditions. Here, where both
//! crates are visible, that list is held against the wiki crate's records
//! (by the schema derived from them) and against what they read.

// Helpers outside `#[test]` functions panic on a broken setup, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::{Rules, Sources, compile_dir};
use carcassonne_rules_lsp::errata;
use carcassonne_rules_lsp::features::Kind;
use carcassonne_rules_wiki::Errata;
use serde_json::Value;

fn rules() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    compile_dir(&root.join("rules"))
        .result
        .unwrap_or_else(|problems| panic!("the bundled rules do not check:\n{}", render(&problems, false)))
}

#[test]
fn the_servers_errata_keys_are_the_records_item_id_and_condition_keys() {
    let file = carcassonne_rules_wiki::errata::schema::schema(&rules());
    let schema: Value = serde_json::from_str(&file.contents).expect("the errata schema is JSON");
    let (mut items, mut conditions) = (Vec::new(), Vec::new());
    for (list, node) in schema["properties"].as_object().expect("the schema's properties") {
        let record = node["items"]["$ref"].as_str().and_then(|r| r.strip_prefix("#/definitions/"));
        let properties = record.and_then(|r| schema["definitions"][r]["properties"].as_object());
        for (key, property) in properties.into_iter().flatten() {
            // The descriptions the records' offers (`x-offer`) are filled in with.
            let described = |node: &Value, what: &str| node["description"].as_str().is_some_and(|d| d.contains(what));
            if described(&property["items"], "A top-level item id.") {
                items.push((list.as_str(), key.as_str()));
            }
            if described(property, "A condition (checked by the compiler)") {
                conditions.push((list.as_str(), key.as_str()));
            }
        }
    }
    assert_eq!(items, errata::ITEM_IDS);
    conditions.sort();
    assert_eq!(conditions, errata::CONDITIONS);
}

#[test]
fn the_server_finds_the_item_ids_the_wiki_crate_reads_in_the_bundled_errata() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = errata::path(&root.join("rules")).expect("the rules folder has a parent");
    assert_eq!(path, root.join("crates/wiki/errata.yaml"));
    let read = Errata::load(&path, &rules(), &mut Sources::default())
        .unwrap_or_else(|problems| panic!("errata.yaml does not check:\n{}", render(&problems, false)));
    let expected: Vec<String> = read.differences.iter().flat_map(|d| d.items.clone()).collect();
    let text = std::fs::read_to_string(&path).expect("errata.yaml");
    let found: Vec<String> =
        errata::names(&text).into_iter().filter(|n| n.kind == Kind::Item).map(|n| n.name).collect();
    assert!(!expected.is_empty());
    assert_eq!(found, expected);
}
