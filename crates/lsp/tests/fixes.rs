//! Every problem whose help names the replacement has a quick fix, and
//! applying it leaves the file clean (or only the next real problem, in
//! another file): each planted in a copy of the bundled rules, its fix asked
//! for as an editor asks, applied, and the file analysed again.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Client;
use serde_json::{Value, json};

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";

/// The file's own diagnostics (not those of problems its edits caused in
/// other files, which say where they are reported).
fn own(diagnostics: Vec<Value>) -> Vec<Value> {
    diagnostics.into_iter().filter(|d| d["data"]["reportedIn"].is_null()).collect()
}

/// Applies one text edit of a protocol range (UTF-16, ASCII here) to `text`.
fn apply(text: &str, edit: &Value) -> String {
    let offset = |at: &Value| {
        let (line, character) = (at["line"].as_u64().unwrap() as usize, at["character"].as_u64().unwrap() as usize);
        text.split_inclusive('\n').take(line).map(str::len).sum::<usize>() + character
    };
    let (start, end) = (offset(&edit["range"]["start"]), offset(&edit["range"]["end"]));
    format!("{}{}{}", &text[..start], edit["newText"].as_str().unwrap(), &text[end..])
}

/// Plants `mistake` in the abbey file, expects one diagnostic of `code`,
/// applies its one quick fix and returns the text and its own diagnostics after.
fn fixed(mistake: impl Fn(&str) -> String, code: &str, title: &str) -> (String, Vec<Value>) {
    let mut client = Client::start(false);
    let text = mistake(&client.text(ABBEY));
    client.open(ABBEY, &text);
    let found = own(client.diagnostics_of(ABBEY));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], code, "{found:?}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": found[0]["range"],
                "context": { "diagnostics": [found[0]] } }),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["title"], title);
    let edits = actions[0]["edit"]["changes"][client.uri(ABBEY)].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{edits:?}");
    let after = apply(&text, &edits[0]);
    client.change(ABBEY, &after);
    let left = own(client.diagnostics_of(ABBEY));
    (after, left)
}

#[test]
fn an_item_id_not_in_kebab_case_is_written_as_the_help_says() {
    let (after, left) = fixed(
        |t| t.replacen("- id: abbey-take-tile\n", "- id: Abbey_Take_Tile\n", 1),
        "invalid-id",
        "Write `abbey-take-tile`",
    );
    assert!(after.contains("- id: abbey-take-tile\n"));
    assert_eq!(left, Vec::<Value>::new(), "{after}");
}

#[test]
fn a_module_id_not_in_snake_case_is_written_as_the_help_says() {
    let mut client = Client::start(false);
    let modules = client.text("modules.yaml");
    let planted = modules.replacen("{ id: mayor,", "{ id: Mayor,", 1);
    assert_ne!(planted, modules);
    client.open("modules.yaml", &planted);
    let found = own(client.diagnostics_of("modules.yaml"));
    let invalid = found.iter().find(|d| d["code"] == "invalid-id").expect("the id refused");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri("modules.yaml") }, "range": invalid["range"],
                "context": { "diagnostics": [invalid] } }),
    );
    let edit = &actions[0]["edit"]["changes"][client.uri("modules.yaml")][0];
    assert_eq!(edit["newText"], "mayor", "{actions}");
    let after = apply(&planted, edit);
    assert_eq!(after, modules);
    client.change("modules.yaml", &after);
    assert_eq!(own(client.diagnostics_of("modules.yaml")), Vec::<Value>::new());
}

#[test]
fn a_duplicate_item_id_is_renamed_to_a_free_one() {
    let (after, left) = fixed(
        |t| t.replacen("- id: wagon-take-figure\n", "- id: mayor-take-figure\n", 1),
        "duplicate-id",
        "Rename this one to `mayor-take-figure-2`",
    );
    assert!(after.contains("- id: mayor-take-figure-2\n"), "{after}");
    // The rules check; what is left is the translators' (the new id has no
    // Dutch text yet), reported in the translation files.
    assert_eq!(left, Vec::<Value>::new(), "{after}");
}

#[test]
fn a_tab_in_the_indentation_is_shown_at_the_tab_and_replaced_by_spaces() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    let planted = text.replacen("      when: mayor\n", "\twhen: mayor\n", 1);
    client.open(ABBEY, &planted);
    let found = own(client.diagnostics_of(ABBEY));
    assert_eq!(found.len(), 1, "{found:?}");
    let line = planted.lines().position(|l| l == "\twhen: mayor").unwrap();
    assert_eq!(found[0]["range"]["start"], json!({ "line": line, "character": 0 }), "at the tab: {found:?}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": found[0]["range"],
                "context": { "diagnostics": [found[0]] } }),
    );
    assert_eq!(actions[0]["title"], "Indent with 6 spaces", "{actions}");
    let after = apply(&planted, &actions[0]["edit"]["changes"][client.uri(ABBEY)][0]);
    assert_eq!(after, text);
    client.change(ABBEY, &after);
    assert_eq!(own(client.diagnostics_of(ABBEY)), Vec::<Value>::new());
}

#[test]
fn a_missing_text_is_shown_at_its_item_and_added() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    let gone = "      text: Every player adds the barn of their colour to their supply.\n";
    let planted = text.replacen(gone, "", 1);
    client.open(ABBEY, &planted);
    let found = own(client.diagnostics_of(ABBEY));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "missing-key");
    let line = planted.lines().position(|l| l == "    - id: barn-take-figure").unwrap();
    assert_eq!(found[0]["range"]["start"], json!({ "line": line, "character": 4 }), "at the item: {found:?}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": found[0]["range"],
                "context": { "diagnostics": [found[0]] } }),
    );
    assert_eq!(actions[0]["title"], "Add `text:`", "{actions}");
    let after = apply(&planted, &actions[0]["edit"]["changes"][client.uri(ABBEY)][0]);
    assert!(after.contains("    - id: barn-take-figure\n      text: \"\"\n      when: barn\n"), "{after}");
    client.change(ABBEY, &after);
    // The key is there; what is left is the text to write (if check asks
    // for one), never the missing key.
    let left = own(client.diagnostics_of(ABBEY));
    assert!(left.iter().all(|d| d["code"] != "missing-key") && left.len() <= 1, "{left:?}");
}

#[test]
fn an_orphaned_translation_key_is_renamed_to_its_near_match() {
    let mut client = Client::start(false);
    let dutch = "translations/nl/expansions/abbey-and-mayor.yaml";
    let text = client.text(dutch);
    let planted = text.replacen("  abbey-take-tile:\n", "  abbey-take-tyle:\n", 1);
    client.open(dutch, &planted);
    let found = own(client.diagnostics_of(dutch));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "orphaned-translation");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(dutch) }, "range": found[0]["range"],
                "context": { "diagnostics": [found[0]] } }),
    );
    assert_eq!(actions[0]["title"], "Rename the key to `abbey-take-tile`", "{actions}");
    let after = apply(&planted, &actions[0]["edit"]["changes"][client.uri(dutch)][0]);
    assert_eq!(after, text);
    client.change(dutch, &after);
    assert_eq!(client.diagnostics_of(dutch), Vec::<Value>::new());
    assert!(client.diagnostics.values().all(Vec::is_empty), "nothing left anywhere: {:?}", client.diagnostics);
}
