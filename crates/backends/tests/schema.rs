//! The JSON Schemas `gen` writes for rule authors' editors: every bundled
//! rules file names its schema on its first line and is valid under it,
//! checked with the `boon` crate (draft-07); planted mistakes (an unknown key, an
//! unknown step, an unknown marker or edition) are not. (The errata's schema
//! is the wiki crate's, and tested there.) The schemas are derived from the
//! records serde reads; serde's own field lists prove they name the same keys.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use carcassonne_rules_backends::schema::{self, SCHEMA_DIR, SchemaFile};
use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::{Rules, compile_dir};
use carcassonne_rules_core::escape::markdown::inline;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

static RULES: LazyLock<Rules> = LazyLock::new(|| match compile_dir(&root().join("rules")).result {
    Ok(rules) => rules,
    Err(problems) => panic!("the bundled rules do not check:\n{}", render(&problems, false)),
});

static SCHEMAS: LazyLock<Vec<SchemaFile>> = LazyLock::new(|| schema::schemas(&RULES));

/// The draft-07 schema `name`, compiled.
fn validator(name: &str) -> (boon::Schemas, boon::SchemaIndex) {
    let file = SCHEMAS.iter().find(|s| s.name == name).expect("a schema of that name");
    let schema: Value = serde_json::from_str(&file.contents).expect("the schema is JSON");
    let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
    compiler.set_default_draft(boon::Draft::V7);
    let url = format!("file:///{name}");
    compiler.add_resource(&url, schema).expect("a new resource");
    let index =
        compiler.compile(&url, &mut schemas).unwrap_or_else(|e| panic!("{name} is not a valid draft-07 schema: {e:#}"));
    (schemas, index)
}

/// YAML as the JSON value a language server validates.
fn json(yaml: &str) -> Value {
    serde_saphyr::from_str(yaml).unwrap_or_else(|e| panic!("not YAML: {e}"))
}

/// The validation errors of `yaml` under schema `name`, as text.
fn errors(name: &str, yaml: &str) -> Vec<String> {
    let instance = json(yaml);
    let (schemas, index) = validator(name);
    match schemas.validate(&instance, index) {
        Ok(()) => Vec::new(),
        // One line a failed keyword, after a line naming the schema.
        Err(e) => e.to_string().lines().skip(1).map(|line| line.trim().to_string()).collect(),
    }
}

/// Every bundled file with a schema: its path from the repository root, and
/// the schema's name.
fn bundled() -> Vec<(PathBuf, &'static str)> {
    let mut files: Vec<(PathBuf, &'static str)> = Vec::new();
    for relative in RULES.inputs.iter() {
        let name = schema::schema_for(relative).unwrap_or_else(|| panic!("{relative} has no schema"));
        files.push((Path::new("rules").join(relative), name));
    }
    files
}

#[test]
fn every_bundled_file_names_its_schema_and_is_valid_under_it() {
    let files = bundled();
    assert!(files.len() > 50, "{} files", files.len());
    for (path, name) in &files {
        let text = std::fs::read_to_string(root().join(path)).expect("readable");
        // The first line names the schema, relative to the file.
        let depth = path.components().count() - 1;
        let expected = format!("# yaml-language-server: $schema={}generated/{SCHEMA_DIR}/{name}", "../".repeat(depth));
        assert_eq!(text.lines().next(), Some(expected.as_str()), "{}", path.display());
        let target =
            root().join(path).parent().expect("a folder").join(&expected[expected.find('=').expect("=") + 1..]);
        assert!(target.is_file(), "{} names {}, which does not exist", path.display(), target.display());

        let problems = errors(name, &text);
        assert!(problems.is_empty(), "{} does not follow {name}:\n{}", path.display(), problems.join("\n"));
    }
}

#[test]
fn planted_mistakes_fail_validation() {
    let expansion = "expansion: abbey_and_mayor\nitems:\n  1B:\n    - id: x\n      when: abbey\n      text: X.\n";
    assert!(errors(schema::EXPANSION, expansion).is_empty(), "{:?}", errors(schema::EXPANSION, expansion));

    for (what, yaml) in [
        ("an unknown item key", expansion.replace("text: X.", "text: X.\n      colour: red")),
        ("an unknown step", expansion.replace("1B:", "1E:")),
        ("an unknown top-level key", format!("{expansion}name: Abbey\n")),
        // Any snake_case id is accepted (one just added to modules.yaml is no
        // error before `gen`); `check` refuses an unknown one.
        ("an expansion id that is not snake_case", expansion.replace("abbey_and_mayor", "Abbey-And-Mayor")),
        ("an edition named twice", expansion.replace("text: X.", "text: X.\n      foreign: [WE, WE]")),
        ("an unknown marker", expansion.replace("text: X.", "text: X.\n      markers: [ROBBRES]")),
        ("an unknown edition", expansion.replace("text: X.", "text: X.\n      foreign: [C3]")),
        ("a malformed effect", expansion.replace("text: X.", "text: X.\n      effect: skip 9Z")),
        ("a top-level item without a condition", expansion.replace("      when: abbey\n", "")),
        ("an item without text", expansion.replace("      text: X.\n", "")),
        ("an id that is not kebab-case", expansion.replace("id: x", "id: Not_Kebab")),
    ] {
        assert!(!errors(schema::EXPANSION, &yaml).is_empty(), "{what} passes validation:\n{yaml}");
    }

    let base = "phases:\n  - id: \"1\"\n    title: T\n    steps:\n      - { id: 1A, title: Start }\n";
    assert!(errors(schema::BASE, base).is_empty(), "{:?}", errors(schema::BASE, base));
    assert!(!errors(schema::BASE, &base.replace("id: 1A", "id: 1Z")).is_empty(), "an unknown step id");
    assert!(!errors(schema::BASE, &base.replace("title: Start", "title: Start, repeat: twice")).is_empty());
    assert!(!errors(schema::BASE, &format!("{base}items:\n  2E: []\n")).is_empty(), "an unknown section");

    let modules = "expansions:\n  - { id: a, name: A, editions: [C1], modules: [{ id: m, name: M }] }\n";
    assert!(errors(schema::MODULES, modules).is_empty(), "{:?}", errors(schema::MODULES, modules));
    assert!(!errors(schema::MODULES, &modules.replace("name: M", "nme: M")).is_empty(), "an unknown module key");
    assert!(!errors(schema::MODULES, &modules.replace("[C1]", "[C4]")).is_empty(), "an unknown edition");

    let editions = "editions:\n  - { id: C1, name: First, variant: hig }\n";
    assert!(errors(schema::EDITIONS, editions).is_empty(), "{:?}", errors(schema::EDITIONS, editions));
    assert!(!errors(schema::EDITIONS, &editions.replace("hig", "xyz")).is_empty(), "an unknown variant");
}

#[test]
fn the_schemas_offer_the_rules_ids() {
    let expansion = &SCHEMAS.iter().find(|s| s.name == schema::EXPANSION).expect("expansion schema").contents;
    // Section names and step ids as keys, with the step's title for hover.
    assert!(expansion.contains("\"2B-1\": {") && expansion.contains("Step 2B-1: "), "steps as keys");
    assert!(expansion.contains("\"final_scoring\": {"));
    // Expansion ids for completion; not module, flag or marker names: those
    // stand inside DSL strings, which the language server completes.
    assert!(expansion.contains("\"abbey_and_mayor\""), "expansions are not offered");
    for id in ["wonders_of_humanity", "tiles_in_supply"] {
        assert!(!expansion.contains(&format!("\"{id}\"")), "{id} is offered");
    }
    // Item ids are not: the language server offers the few an item may name.
    assert!(!expansion.contains("\"abbey-play-from-supply\""), "item ids are offered");
    let schema: Value = serde_json::from_str(expansion).expect("JSON");
    // Each expansion with its own name, each module with its expansion's.
    let offered = |pointer: &str| -> Vec<(String, String)> {
        let named = schema.pointer(pointer).unwrap_or_else(|| panic!("no {pointer}"));
        let ids = named["enum"].as_array().expect("an enum");
        let about = named["markdownEnumDescriptions"].as_array().expect("descriptions");
        assert_eq!(ids.len(), about.len(), "{pointer}: one description per value");
        ids.iter().zip(about).map(|(i, a)| (i.as_str().unwrap_or("").into(), a.as_str().unwrap_or("").into())).collect()
    };
    let expansions = offered("/properties/expansion/anyOf/0");
    assert_eq!(expansions.len(), RULES.catalog.expansions.len());
    for (id, about) in &expansions {
        let expansion = RULES.catalog.expansions.iter().find(|x| x.id == *id).expect("a known expansion");
        assert_eq!(*about, format!("**{}**", inline(&expansion.name)), "{id}");
    }
    // A condition is a string with its description, and nothing to choose from.
    let when = schema.pointer("/definitions/item/properties/when").expect("when");
    assert_eq!(when["type"], "string", "{when}");
    assert!(when.get("enum").is_none() && when.get("anyOf").is_none(), "{when}");
    assert!(when["description"].as_str().unwrap_or("").contains("edition == C1"), "{when}");
}

/// What a schema-driven editor shows for one value: the message for a value
/// outside an enum (Red Hat's yaml-language-server lists every allowed one)
/// and the hover (the key's description with the value's own).
fn longest_texts(node: &Value, out: &mut (usize, usize)) {
    match node {
        Value::Object(map) => {
            if let Some(Value::Array(values)) = map.get("enum") {
                let listed: Vec<String> = values.iter().map(Value::to_string).collect();
                out.0 = out.0.max(format!("Value is not accepted. Valid values: {}.", listed.join(", ")).len());
            }
            let described = |m: &serde_json::Map<String, Value>| {
                m.get("markdownEnumDescriptions")
                    .and_then(Value::as_array)
                    .map_or(0, |ds| ds.iter().filter_map(Value::as_str).map(str::len).max().unwrap_or(0))
            };
            let own = map.get("description").and_then(Value::as_str).map_or(0, str::len);
            let value = map.get("anyOf").and_then(Value::as_array).map_or(described(map), |alts| {
                alts.iter().filter_map(Value::as_object).map(described).max().unwrap_or(0)
            });
            out.1 = out.1.max(own + value);
            map.values().for_each(|v| longest_texts(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| longest_texts(v, out)),
        _ => {}
    }
}

/// Every `x-offer` a record's field names is filled in from the rules (an
/// unknown one is left in the schema).
#[test]
fn every_offer_is_filled_in() {
    for file in SCHEMAS.iter() {
        assert!(!file.contents.contains("\"x-offer\""), "{} keeps an x-offer no one fills", file.name);
    }
}

#[test]
fn hovers_and_messages_stay_short() {
    for file in SCHEMAS.iter() {
        let schema: Value = serde_json::from_str(&file.contents).expect("JSON");
        let mut longest = (0, 0);
        longest_texts(&schema, &mut longest);
        // 457 item ids made a 12,737-character message; the module and flag
        // names of a condition now make the longest, about 1,600.
        assert!(longest.0 <= 2_000, "{}: a message of {} characters", file.name, longest.0);
        assert!(longest.1 <= 1_000, "{}: a hover of {} characters", file.name, longest.1);
    }
}

/// The property names of the object at `pointer` in schema `name`.
fn keys_offered(name: &str, pointer: &str) -> Vec<String> {
    let file = SCHEMAS.iter().find(|s| s.name == name).expect("a schema of that name");
    let schema: Value = serde_json::from_str(&file.contents).expect("JSON");
    let properties = schema.pointer(&format!("{pointer}/properties")).unwrap_or_else(|| panic!("{name}{pointer}"));
    let mut keys: Vec<String> = properties.as_object().expect("an object").keys().cloned().collect();
    keys.sort();
    keys
}

/// The keys serde reads for the record `T`, from serde's own field list.
fn keys_read<T: for<'de> serde::Deserialize<'de>>() -> Vec<String> {
    let mut keys: Vec<String> = schema::record_keys::<T>().iter().map(|k| k.to_string()).collect();
    keys.sort();
    keys
}

/// The schemas are derived from the records; this checks that what they
/// offer, key by key, is what serde reads for every kind of record (a
/// `rename` or a `schema_with` could part them).
#[test]
fn the_schemas_know_every_key_the_compiler_reads() {
    use carcassonne_rules_compiler::syntax::*;
    for (read, schema, pointer) in [
        (keys_read::<RawEditionsFile>(), schema::EDITIONS, ""),
        (keys_read::<RawEdition>(), schema::EDITIONS, "/properties/editions/items"),
        (keys_read::<RawVariant>(), schema::EDITIONS, "/properties/variants/items"),
        (keys_read::<RawModulesFile>(), schema::MODULES, ""),
        (keys_read::<RawExpansion>(), schema::MODULES, "/definitions/expansion"),
        (keys_read::<RawModule>(), schema::MODULES, "/definitions/module"),
        (keys_read::<RawBaseFile>(), schema::BASE, ""),
        (keys_read::<RawPhase>(), schema::BASE, "/definitions/phase"),
        (keys_read::<RawStep>(), schema::BASE, "/definitions/step"),
        (keys_read::<RawDoubleTurn>(), schema::BASE, "/definitions/double_turn"),
        (keys_read::<RawItem>(), schema::BASE, "/definitions/item"),
        (keys_read::<RawExpansionFile>(), schema::EXPANSION, ""),
        (keys_read::<RawItem>(), schema::EXPANSION, "/definitions/item"),
    ] {
        assert!(read.len() >= 2, "{schema}{pointer}: serde lists {read:?}");
        assert_eq!(read, keys_offered(schema, pointer), "{schema}{pointer}");
    }
}

/// The key tables of `rules/README.md` (a table whose first column is
/// `key`), by the heading they stand under: each key with its `required`
/// cell. A cell may name several keys (`after` / `before`).
fn readme_key_tables() -> Vec<(String, Vec<(String, String)>)> {
    let text = std::fs::read_to_string(root().join("rules/README.md")).expect("rules/README.md");
    let mut tables: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut heading = String::new();
    let mut in_table = false;
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            heading = title.trim().to_string();
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if !line.starts_with('|') {
            in_table = false;
        } else if cells.first() == Some(&"key") {
            in_table = true;
            tables.push((heading.clone(), Vec::new()));
        } else if in_table && !cells[0].starts_with("---") {
            let table = tables.last_mut().expect("a table");
            for key in cells[0].split('/') {
                let key = key.trim().trim_matches('`');
                table.1.push((key.to_string(), cells.get(1).copied().unwrap_or_default().to_string()));
            }
        }
    }
    tables
}

/// The keys, in order of the schema, that the object at `pointer` of schema
/// `name` requires.
fn keys_required(name: &str, pointer: &str) -> Vec<String> {
    let file = SCHEMAS.iter().find(|s| s.name == name).expect("a schema of that name");
    let schema: Value = serde_json::from_str(&file.contents).expect("JSON");
    let node = schema.pointer(pointer).unwrap_or_else(|| panic!("{name}{pointer}"));
    let mut keys: Vec<String> =
        node["required"].as_array().into_iter().flatten().filter_map(Value::as_str).map(String::from).collect();
    keys.sort();
    keys
}

/// `rules/README.md` documents each record's keys in a table: it lists
/// exactly the keys the schema (so the record) has, and says "yes" in its
/// `required` column for exactly those the schema requires.
#[test]
fn the_readme_key_tables_list_the_schema_keys() {
    let tables = readme_key_tables();
    assert!(!tables.is_empty(), "rules/README.md has no key table");
    for (heading, rows) in &tables {
        let (name, pointer) = match heading.as_str() {
            "Items" => (schema::EXPANSION, "/definitions/item"),
            other => panic!("rules/README.md has a key table under `{other}`, which this test does not know"),
        };
        let mut listed: Vec<String> = rows.iter().map(|(key, _)| key.clone()).collect();
        listed.sort();
        assert_eq!(listed, keys_offered(name, pointer), "rules/README.md, {heading}: the keys");
        let mut required: Vec<String> =
            rows.iter().filter(|(_, required)| required == "yes").map(|(key, _)| key.clone()).collect();
        required.sort();
        assert_eq!(required, keys_required(name, pointer), "rules/README.md, {heading}: the required keys");
    }
    // The items' table says which key the top-level items of an expansion
    // file need besides: the schema's `top_level_item`.
    let items = &tables.iter().find(|(h, _)| h == "Items").expect("the items' table").1;
    let top_level: Vec<String> = items
        .iter()
        .filter(|(_, required)| required.contains("top-level items of expansion files"))
        .map(|(key, _)| key.clone())
        .collect();
    assert_eq!(top_level, keys_required(schema::EXPANSION, "/definitions/top_level_item/allOf/1"));
}
