//! The server over the protocol, in process, with mistakes planted in a copy
//! of the bundled rules.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Client, find};
use serde_json::{Value, json};

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";

fn messages(diagnostics: &[Value]) -> Vec<String> {
    diagnostics.iter().map(|d| d["message"].as_str().unwrap().to_string()).collect()
}

fn start_of(d: &Value) -> (u64, u64) {
    (d["range"]["start"]["line"].as_u64().unwrap(), d["range"]["start"]["character"].as_u64().unwrap())
}

#[test]
fn the_bundled_rules_are_clean_and_a_misspelt_module_is_flagged_where_it_is() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new());
    let broken = text.replacen("when: abbey\n", "when: abey\n", 1);
    client.change(ABBEY, &broken);
    let found = client.diagnostics_of(ABBEY);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["severity"], 1);
    assert!(found[0]["message"].as_str().unwrap().contains("abey"), "{found:?}");
    assert!(found[0]["message"].as_str().unwrap().contains("abbey"), "the did-you-mean help: {found:?}");
    let (line, col) = find(&broken, "when: abey", 6);
    assert_eq!(start_of(&found[0]), (line as u64, col as u64));
    assert_eq!(found[0]["range"]["end"]["character"].as_u64().unwrap(), col as u64 + 4);
    // Its quick fix puts the suggestion in the diagnostic's range.
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": found[0]["range"], "context": { "diagnostics": [found[0]] } }),
    );
    let edit = &actions[0]["edit"]["changes"][client.uri(ABBEY)][0];
    assert_eq!(edit["newText"], "abbey");
    assert_eq!(edit["range"], found[0]["range"]);
    // Fixed again: the diagnostic goes.
    client.change(ABBEY, &text);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new());
}

#[test]
fn a_half_typed_file_gets_one_diagnostic_and_the_rest_is_analysed_from_its_last_good_version() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    client.diagnostics_of(ABBEY);
    let base = client.text("base.yaml");
    // A mistake elsewhere, that needs the abbey file's items to be found.
    let tower = "expansions/the-tower.yaml";
    let tower_text = client.text(tower);
    client.open(tower, &tower_text.replacen("items:\n", "items:\n  setup:\n    - id: tower-extra\n      when: tower\n      after: abbey-take-tilee\n      text: x\n", 1));
    // Broken YAML in the abbey file.
    client.change(ABBEY, &abbey.replacen("  setup:\n", "  setup:\n  - id: [oops\n", 1));
    let own = client.diagnostics_of(ABBEY);
    assert_eq!(own.len(), 1, "{own:?}");
    assert!(messages(&own)[0].contains("invalid YAML"), "{own:?}");
    let elsewhere = client.diagnostics.get(&client.uri(tower)).cloned().unwrap_or_default();
    assert_eq!(elsewhere.len(), 1, "{elsewhere:?}");
    assert!(messages(&elsewhere)[0].contains("abbey-take-tilee"), "{elsewhere:?}");
    assert!(
        messages(&elsewhere)[0].contains("abbey-take-tile`"),
        "did you mean, from the last good abbey file: {elsewhere:?}"
    );
    assert_eq!(client.diagnostics.get(&client.uri("base.yaml")).cloned().unwrap_or_default(), Vec::<Value>::new());
    let _ = base;
}

#[test]
fn planted_mistakes_are_each_located() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    let cases = [
        ("when: abbey\n", "when: abbey and\n", "when: abbey and"),
        ("before: draw-tile", "before: draw-tilee", "draw-tilee"),
        ("TREE_TRAP when russian_promos", "TREE_TRAP when russian_promo", "russian_promo\""),
        ("foreign: [WE]", "foreign: [XX]", "XX"),
        ("when: barn\n", "when: barn and edition == C9\n", "C9"),
        ("- id: mayor-take-figure", "- id: abbey-take-tile", "abbey-take-tile\n      when: mayor"),
    ];
    for (from, to, located) in cases {
        let broken = text.replacen(from, to, 1);
        client.open(ABBEY, &broken);
        let found = client.diagnostics_of(ABBEY);
        assert!(!found.is_empty(), "{to}: no diagnostic");
        let (line, _) = find(&broken, located, 0);
        assert!(found.iter().any(|d| start_of(d).0 == line as u64), "{to}: not at line {line}: {found:?}");
        assert!(found.iter().all(|d| d["severity"] == 1), "{to}: check errors are errors");
    }
    // A text variant naming an unknown edition.
    let broken = text.replacen(
        "text: Every player adds the barn of their colour to their supply.",
        "text: \"Every player adds the {C1: barn | C9: Barn} to their supply.\"",
        1,
    );
    client.open(ABBEY, &broken);
    let found = client.diagnostics_of(ABBEY);
    let (line, col) = find(&broken, "C9", 0);
    assert!(found.iter().any(|d| start_of(d) == (line as u64, col as u64)), "{found:?}");
}

#[test]
fn a_verify_finding_is_a_warning() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    // Two alternatives that both show with the abbey and the mayor.
    let broken = text
        .replacen(
            "      when: abbey\n      text: Give",
            "      when: abbey\n      one_of: figures\n      text: Give",
            1,
        )
        .replacen("      when: mayor\n      text:", "      when: mayor\n      one_of: figures\n      text:", 1);
    client.open(ABBEY, &broken);
    let found = client.diagnostics_of(ABBEY);
    assert!(!found.is_empty(), "no finding");
    assert!(found.iter().all(|d| d["severity"] == 2), "{found:?}");
}

#[test]
fn positions_are_utf16_unless_the_client_offers_utf8() {
    for utf8 in [false, true] {
        let mut client = Client::start(utf8);
        let text = client.text(ABBEY);
        let broken = text.replacen(
            "text: Every player adds the barn of their colour to their supply.",
            "text: \"Bürgermeister → {C1: mayor | C9: Mayor}\"",
            1,
        );
        client.open(ABBEY, &broken);
        let found = client.diagnostics_of(ABBEY);
        let at = broken.find("C9").unwrap();
        let line_start = broken[..at].rfind('\n').unwrap() + 1;
        let col = if utf8 { at - line_start } else { broken[line_start..at].encode_utf16().count() };
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(start_of(&found[0]).1, col as u64, "utf8: {utf8}");
    }
}

fn labels(answer: &Value) -> Vec<String> {
    answer.as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap().to_string()).collect()
}

#[test]
fn completion_offers_what_the_place_expects() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    let typing = text.replacen("      when: mayor\n", "      when: abbey or \n", 1);
    client.open(ABBEY, &typing);
    let (line, col) = find(&typing, "when: abbey or ", 15);
    let names = labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(names.contains(&"mayor".to_string()) && names.contains(&"tiles_in_supply".to_string()), "{names:?}");
    assert!(!names.contains(&"C1".to_string()));
    let typing = text.replacen("      when: mayor\n", "      when: edition == \n", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "edition == ", 11);
    let editions = labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert_eq!(editions, ["C1", "C2", "WE"]);
    // A section key: the step ids.
    let typing = text.replacen("  1B:\n", "  1B:\n    - id: x\n      when: abbey\n      text: x\n  2\n", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "\n  2\n", 4);
    let steps = labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(steps.contains(&"2B-1".to_string()) && steps.contains(&"setup".to_string()), "{steps:?}");
    // After `after:` only the siblings, each with its text.
    let typing = text.replacen("      when: mayor\n", "      when: mayor\n      after: \n", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "after: \n", 7);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let siblings = labels(&answer);
    assert!(siblings.contains(&"abbey-take-tile".to_string()), "{siblings:?}");
    assert!(!siblings.contains(&"mayor-take-figure".to_string()), "not itself");
    assert!(!siblings.contains(&"abbey-supply-abbey-tile".to_string()), "not another step's");
    assert!(answer[0]["documentation"]["value"].as_str().unwrap().len() > 10);
}

#[test]
fn hover_tells_an_items_text_condition_share_and_placement_and_a_modules_names() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    let (line, col) = find(&text, "id: abbey-take-tile", 6);
    let hover = client.request("textDocument/hover", client.at(ABBEY, line, col));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("when `abbey`"), "{value}");
    assert!(value.contains("Give every player one abbey tile"), "{value}");
    assert!(value.contains("50.0% of selections"), "half the selections have the abbey: {value}");
    assert!(value.contains("placed"), "{value}");
    let (line, col) = find(&text, "when: mayor", 7);
    let hover = client.request("textDocument/hover", client.at(ABBEY, line, col));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("Abbey") && value.contains("C1"), "{value}");
}

#[test]
fn definition_references_and_rename() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    let (line, col) = find(&text, "before: draw-tile", 9);
    let def = client.request("textDocument/definition", client.at(ABBEY, line, col));
    assert_eq!(def["uri"], client.uri("base.yaml"));
    let base = client.text("base.yaml");
    let (def_line, _) = find(&base, "id: draw-tile\n", 0);
    assert_eq!(def["range"]["start"]["line"], def_line as u64);
    let (line, col) = find(&text, "tiles_in_supply or wetlands", 0);
    let def = client.request("textDocument/definition", client.at(ABBEY, line, col));
    assert_eq!(def["uri"], client.uri("modules.yaml"));
    let refs = client.request("textDocument/references", client.at(ABBEY, line, col));
    assert!(refs.as_array().unwrap().len() >= 3, "{refs}");
    // Rename a flag everywhere; refuse a taken or invalid name.
    let edit = client.request("textDocument/rename", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "position": { "line": line, "character": col }, "newName": "supply_tiles" }));
    let changes = edit["changes"].as_object().unwrap();
    assert!(changes.contains_key(&client.uri("modules.yaml")) && changes.contains_key(&client.uri(ABBEY)), "{edit}");
    for bad in ["mandatory_tiles", "Bad Name", "abbey"] {
        let refused = client.try_request("textDocument/rename", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "position": { "line": line, "character": col }, "newName": bad }));
        assert!(refused.is_err(), "{bad} accepted");
    }
}

#[test]
fn the_outline_lists_steps_and_their_items() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    client.diagnostics_of(ABBEY);
    let symbols =
        client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": client.uri(ABBEY) } }));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"1B") && names.contains(&"setup"), "{names:?}");
    let step = symbols.as_array().unwrap().iter().find(|s| s["name"] == "1B").unwrap();
    let supply = step["children"].as_array().unwrap().iter().find(|s| s["name"] == "abbey-play-from-supply").unwrap();
    let (line, _) = find(&text, "id: abbey-play-from-supply", 0);
    assert_eq!(supply["range"]["start"]["line"], line as u64);
    assert!(supply["children"].as_array().unwrap().iter().any(|c| c["name"] == "abbey-supply-abbey-tile"));
}
