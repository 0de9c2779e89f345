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

/// The file's own diagnostics, without those of problems an edit of it
/// caused in other files (each says where it is reported).
fn own(diagnostics: Vec<Value>) -> Vec<Value> {
    diagnostics.into_iter().filter(|d| d["data"]["reportedIn"].is_null()).collect()
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
    assert_eq!(found[0]["code"], "unknown-module", "{found:?}");
    let href = found[0]["codeDescription"]["href"].as_str().unwrap_or_default();
    assert!(href.ends_with("/docs/errors.md#unknown-module"), "{found:?}");
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
    // The fix is the compiler's, not read out of the message: a diagnostic
    // the server did not publish, whatever it says, gets none.
    let mut forged = found[0].clone();
    forged["message"] = json!("unknown module `x`\nhelp: did you mean `abbey`?");
    let none = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": forged["range"], "context": { "diagnostics": [forged] } }),
    );
    assert_eq!(none, json!([]), "{none}");
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
    assert!(found.iter().all(|d| d["code"] == "property-fails"), "{found:?}");
}

#[test]
fn a_place_in_another_file_is_related_information_not_text_in_the_message() {
    let mut client = Client::start(false);
    let tower = "expansions/the-tower.yaml";
    let text = client.text(tower);
    // An id base.yaml already defines.
    let broken = text.replacen("    - id: tower-ransom\n", "    - id: active-player-note\n", 1);
    client.open(tower, &broken);
    let found = client.diagnostics_of(tower);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "duplicate-id", "{found:?}");
    let related = found[0]["relatedInformation"].as_array().cloned().unwrap_or_default();
    assert_eq!(related.len(), 1, "{found:?}");
    assert_eq!(related[0]["message"], "first defined here");
    assert_eq!(related[0]["location"]["uri"], json!(client.uri("base.yaml")));
    let base = client.text("base.yaml");
    let (line, col) = find(&base, "active-player-note", 0);
    assert_eq!(start_of(&related[0]["location"]), (line as u64, col as u64), "{found:?}");
    // The command line names the place in a note after the help; the editor has the place.
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(!message.contains("base.yaml:"), "{message}");
}

/// Positions go both ways in the encoding the client and server agreed on
/// (UTF-16 unless the client offers UTF-8): a place the server reports past
/// `ü` and `→` is written in it, a position the client sends is read in it.
#[test]
fn positions_both_ways_are_utf16_unless_the_client_offers_utf8() {
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
        let line = broken[..broken.find("C9").unwrap()].matches('\n').count();
        let line_start = broken[..broken.find("C9").unwrap()].rfind('\n').unwrap() + 1;
        let column = |needle: &str| {
            let at = broken.find(needle).unwrap();
            if utf8 { at - line_start } else { broken[line_start..at].encode_utf16().count() }
        };
        // Out: the unknown edition is reported at its column.
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(start_of(&found[0]), (line as u64, column("C9") as u64), "utf8: {utf8}");
        // In: the edition under the cursor is found only if the column is read
        // in the agreed encoding (UTF-16 counts `ü` and `→` as one unit each,
        // UTF-8 as two and three bytes).
        let def = client.request("textDocument/definition", client.at(ABBEY, line, column("C1:")));
        assert_eq!(def["uri"], client.uri("editions.yaml"), "utf8: {utf8}: {def}");
        let (def_line, def_col) = find(&client.text("editions.yaml"), "{ id: C1", 6);
        assert_eq!(def["range"]["start"], json!({ "line": def_line, "character": def_col }), "utf8: {utf8}");
    }
}

/// A half-typed file, broken for YAML (the file ends inside a quoted text of
/// an item still being written), gets completion and hover from what parses:
/// at every one-word `when:`, `under:` and `after:` before the break, hover
/// answers as on the whole file and completion offers the name, and the item
/// being written is offered names in its open condition and its `after:`.
#[test]
fn a_half_typed_file_gets_completion_and_hover_at_every_name_before_the_break() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    let kept: String = text.lines().take(129).map(|l| format!("{l}\n")).collect();
    let places: Vec<(usize, usize, &str)> = kept
        .lines()
        .enumerate()
        .filter_map(|(line, content)| {
            let (key, name) = content.trim().split_once(": ")?;
            let one_name = ["when", "under", "after"].contains(&key) && !name.contains(' ');
            one_name.then(|| (line, content.find(name).unwrap(), name))
        })
        .collect();
    assert!(places.len() >= 20, "{} places", places.len());
    client.open(ABBEY, &text);
    let hover_at = |client: &mut Client, (line, start, _): (usize, usize, &str)| {
        client.request("textDocument/hover", client.at(ABBEY, line, start + 1))
    };
    let whole: Vec<Value> = places.iter().map(|&place| hover_at(&mut client, place)).collect();
    let half = format!(
        "{kept}    - id: half-typed\n      under: determine-majority\n      after: \n      when: (abbey and \n      text: \"Half wri"
    );
    client.change(ABBEY, &half);
    let found = client.diagnostics_of(ABBEY);
    assert_eq!(found.len(), 1, "the one YAML error: {found:?}");
    for (&place, whole) in places.iter().zip(&whole) {
        let (line, start, name) = place;
        assert!(whole["contents"]["value"].is_string(), "hover on `{name}` at line {line} of the whole file: {whole}");
        assert_eq!(&hover_at(&mut client, place), whole, "hover on `{name}` at line {line}");
        let offered = labels(&client.request("textDocument/completion", client.at(ABBEY, line, start + name.len())));
        assert!(offered.iter().any(|l| l == name), "completion at the end of `{name}` at line {line}: {offered:?}");
    }
    let (line, col) = find(&half, "when: (abbey and ", 17);
    let offered = labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(offered.iter().any(|l| l == "mayor"), "in the open condition: {offered:?}");
    let (line, col) = find(&half, "after: \n      when: (", 7);
    let offered = labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(offered.iter().any(|l| l == "majority-normal-meeple"), "in the item's `after:`: {offered:?}");
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
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let steps = labels(&answer);
    assert!(steps.contains(&"2B-1".to_string()) && steps.iter().all(|s| s.starts_with('2')), "{steps:?}");
    // Each replaces the word typed (`2`), from its start to the cursor.
    let range = json!({ "start": { "line": line, "character": col - 1 }, "end": { "line": line, "character": col } });
    assert!(
        answer
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["textEdit"]["range"] == range && c["textEdit"]["newText"] == c["label"]),
        "{answer}"
    );
    let (line, col) = find(
        &typing, "
  2
", 3,
    );
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
    // An item still being written (no text, so the file does not check): the
    // items of the step it is under.
    let typing = text.replacen("  1B:\n", "  1B:\n    - id: brand-new\n      after: \n", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "id: brand-new\n      after: ", 27);
    let offered = labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(offered.contains(&"abbey-play-from-supply".to_string()), "{offered:?}");
    assert!(!offered.contains(&"abbey-take-tile".to_string()), "not another step's: {offered:?}");
}

/// The labels of a completion answer in the order an editor shows them
/// (by `sortText`), with their kinds.
fn ranked(answer: &Value) -> Vec<(String, u64)> {
    let mut items: Vec<&Value> = answer.as_array().unwrap().iter().collect();
    items.sort_by_key(|c| c["sortText"].as_str().unwrap().to_string());
    items.iter().map(|c| (c["label"].as_str().unwrap().to_string(), c["kind"].as_u64().unwrap())).collect()
}

/// In a condition the file's own modules come first, then the derived flags,
/// the other modules and the keywords, each with its kind; at every entry of
/// a marker list the markers come first.
#[test]
fn completion_is_ranked_and_has_kinds() {
    const MODULE: u64 = 9;
    const VARIABLE: u64 = 6;
    const KEYWORD: u64 = 14;
    const CONSTANT: u64 = 21;
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    let typing = text.replacen("      when: mayor\n", "      when: abbey or \n", 1);
    client.open(ABBEY, &typing);
    let (line, col) = find(&typing, "when: abbey or ", 15);
    let names = ranked(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    // Abbey and Mayor's modules (modules.yaml), in label order.
    let own: Vec<(String, u64)> = ["abbey", "barn", "mayor", "wagon"].map(|m| (m.to_string(), MODULE)).into();
    assert_eq!(names[..4], own, "{names:?}");
    let first_flag = names.iter().position(|(_, kind)| *kind == VARIABLE).unwrap();
    let last_flag = names.iter().rposition(|(_, kind)| *kind == VARIABLE).unwrap();
    let first_keyword = names.iter().position(|(_, kind)| *kind == KEYWORD).unwrap();
    assert_eq!(first_flag, 4, "{names:?}");
    assert!(names[first_flag..=last_flag].iter().all(|(_, kind)| *kind == VARIABLE), "{names:?}");
    assert!(names[last_flag + 1..first_keyword].iter().all(|(_, kind)| *kind == MODULE), "{names:?}");
    assert_eq!(names.len() - first_keyword, 5, "the keywords last: {names:?}");

    let marker = r#"markers: ["TREE_TRAP when russian_promos", "LAKE_TRAP when russian_promos"]"#;
    let typing = text.replacen(marker, r##"markers: ["TREE_TRAP when russian_promos", ""##, 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, r##"russian_promos", ""##, 18);
    let names = ranked(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(names.iter().any(|(label, _)| label == "LAKE_TRAP"), "{names:?}");
    // A marker entry starts with a marker: nothing else is offered there.
    assert!(names.len() > 5 && names.iter().all(|(_, kind)| *kind == CONSTANT), "{names:?}");
    // An unquoted list, its second entry: `markers: [ROBBERS, |]`.
    let typing = text.replacen(marker, "markers: [ROBBERS, ]", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "markers: [ROBBERS, ]", 19);
    let names = ranked(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert_eq!(names.len(), 7, "the rules' seven markers: {names:?}");
    assert!(names.iter().all(|(_, kind)| *kind == CONSTANT), "{names:?}");
    // After its `when`, a condition's names.
    let typing = text.replacen(marker, "markers: [ROBBERS when ]", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "markers: [ROBBERS when ]", 23);
    let names = ranked(&client.request("textDocument/completion", client.at(ABBEY, line, col)));
    assert!(names.iter().any(|(label, _)| label == "mayor") && names.iter().all(|(_, kind)| *kind != CONSTANT));
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
    let too_long = "a".repeat(65);
    for bad in ["mandatory_tiles", "Bad Name", "abbey", "not", too_long.as_str()] {
        let refused = client.try_request("textDocument/rename", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "position": { "line": line, "character": col }, "newName": bad }));
        assert!(refused.is_err(), "{bad} accepted");
    }
}

/// Modules, editions and variants are defined in flow mappings
/// (`- { id: mayor, name: Mayor }`): definition finds the `id:` that `check`
/// read, at the name itself.
#[test]
fn definition_of_a_module_an_edition_and_a_variant() {
    const DRAGON: &str = "expansions/princess-and-dragon.yaml";
    let mut client = Client::start(false);
    let text = client.text(DRAGON);
    client.open(DRAGON, &text);
    for (file, needle, skip, defined_in, definition) in [
        (DRAGON, "dragon and edition == C1 and variant == rgg", 0, "modules.yaml", "{ id: dragon"),
        (DRAGON, "dragon and edition == C1 and variant == rgg", 22, "editions.yaml", "{ id: C1"),
        (DRAGON, "dragon and edition == C1 and variant == rgg", 40, "editions.yaml", "{ id: rgg"),
    ] {
        let (line, col) = find(&text, needle, skip);
        let def = client.request("textDocument/definition", client.at(file, line, col));
        assert_eq!(def["uri"], client.uri(defined_in), "{needle} at {skip}: {def}");
        let (def_line, def_col) = find(&client.text(defined_in), definition, 6);
        assert_eq!(def["range"]["start"], json!({ "line": def_line, "character": def_col }), "{needle} at {skip}");
    }
}

/// Started in `rules/expansions/` the server finds the rules above it;
/// started where there are none it says so, rather than staying silent.
#[test]
fn the_rules_are_found_upwards_and_their_absence_is_said() {
    let mut nested = Client::start_in("rules/expansions", true);
    let text = nested.text(ABBEY).replace("when: mayor", "when: mayr");
    nested.open(ABBEY, &text);
    let diagnostics = nested.diagnostics_of(ABBEY);
    assert!(diagnostics.iter().any(|d| d["message"].as_str().unwrap().contains("mayr")), "{diagnostics:?}");
    assert!(nested.messages.is_empty(), "{:?}", nested.messages);

    let mut empty = Client::start_in("somewhere/else", false);
    empty.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///x.yaml" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(empty.messages.len(), 1, "{:?}", empty.messages);
    let message = empty.messages[0]["message"].as_str().unwrap();
    assert!(message.contains("no rules found") && message.contains("somewhere/else"), "{message}");
    assert_eq!(empty.messages[0]["type"], 2);

    // The folder's name is shown, never sent: an escape in it stays visible.
    let mut hostile = Client::start_in("red\u{1b}[31mfolder", false);
    hostile.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///x.yaml" }, "position": { "line": 0, "character": 0 } }),
    );
    let message = hostile.messages[0]["message"].as_str().unwrap();
    assert!(message.contains("red\\u{1b}[31mfolder") && !message.contains('\u{1b}'), "{message:?}");
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
    // The whole item, its children included; its id as the selection.
    let (last, _) = find(&text, "id: abbey-supply-wetlands-tile", 0);
    assert!(supply["range"]["end"]["line"].as_u64().unwrap() >= last as u64 + 3, "{supply}");
    assert_eq!(supply["selectionRange"]["start"], json!({ "line": line, "character": 10 }), "{supply}");
    // A step's range is its key and its items; everything in file order.
    let (key, _) = find(&text, "  1B:", 0);
    assert_eq!(step["range"]["start"]["line"], key as u64, "{step}");
    let starts = |list: &Value| -> Vec<u64> {
        list.as_array().unwrap().iter().map(|s| s["range"]["start"]["line"].as_u64().unwrap()).collect()
    };
    let tops = starts(&symbols);
    assert!(tops.windows(2).all(|w| w[0] <= w[1]), "{tops:?}");
    for step in symbols.as_array().unwrap() {
        let lines = starts(&step["children"]);
        assert!(lines.windows(2).all(|w| w[0] < w[1]), "{}: {lines:?}", step["name"]);
    }
}

/// `text` with each LSP `(position, new text)` edit applied (positions in
/// UTF-16, as a client without `utf-8` sends them).
fn apply(text: &str, edits: &[(Value, String)]) -> String {
    use carcassonne_rules_compiler::positions::{Columns, offset};
    let at = |p: &Value| {
        offset(text, p["line"].as_u64().unwrap() as usize, p["character"].as_u64().unwrap() as usize, Columns::Utf16)
    };
    let mut by_offset: Vec<(usize, &str)> = edits.iter().map(|(p, t)| (at(p), t.as_str())).collect();
    // From the end, so that earlier offsets stay where they were.
    by_offset.sort_by_key(|&(at, _)| std::cmp::Reverse(at));
    let mut out = text.to_string();
    for (at, new) in by_offset {
        out.insert_str(at, new);
    }
    out
}

/// The byte offset of an LSP position in `text` (a UTF-8 client's).
fn offset_of(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + position["character"].as_u64().unwrap() as usize
}

/// `text` with `edits` (LSP text edits of a UTF-8 client) applied.
fn apply_edits(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (offset_of(text, &e["range"]["start"]), offset_of(text, &e["range"]["end"]), e["newText"].as_str().unwrap())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

/// A snippet's text with its tab stops filled: `${n:default}` keeps its
/// default, `$n` gets `fills[n]` (nothing if none).
fn expand(snippet: &str, fills: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut rest = snippet;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap();
            out.push_str(inner[..end].split_once(':').unwrap().1);
            rest = &inner[end + 1..];
        } else {
            let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            out.push_str(fills.iter().find(|(n, _)| *n == &rest[..end]).map_or("", |(_, f)| f));
            rest = &rest[end..];
        }
    }
    out + rest
}

/// The item `id`'s text in each edition, as `check` reads `files` in place of the bundled ones.
fn texts_of(client: &Client, file: &str, text: &str, id: &str) -> Vec<String> {
    let dir = client.dir.path().join("rules");
    let mut files = std::collections::BTreeMap::new();
    files.insert(file.to_string(), text.to_string());
    for name in ["editions.yaml", "modules.yaml", "base.yaml"] {
        files.insert(name.to_string(), client.text(name));
    }
    for entry in std::fs::read_dir(dir.join("expansions")).unwrap() {
        let name = format!("expansions/{}", entry.unwrap().file_name().to_string_lossy());
        files.entry(name.clone()).or_insert_with(|| client.text(&name));
    }
    let rules = match carcassonne_rules_compiler::compile_files(&dir, &files).result {
        Ok(rules) => rules,
        Err(problems) => panic!("check refuses the completed text:\n{}\n{text}", problems[0].message()),
    };
    let item = rules.items().into_iter().find(|i| i.id == id).unwrap().clone();
    (0..3).map(|e| item.text.render(carcassonne_rules_core::EditionId(e))).collect()
}

#[test]
fn a_text_variant_completes_as_a_snippet_that_check_accepts_and_as_plain_text_otherwise() {
    let capabilities = json!({ "completion": { "completionItem": { "snippetSupport": true } } });
    let mut client = Client::start_with(false, capabilities);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    // Inside a plain (unquoted) text, before "mayor".
    let (line, col) = find(&text, "adds the mayor", 9);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let variants: Vec<&Value> = answer.as_array().unwrap().iter().filter(|c| c["kind"] == 15).collect();
    let shown: Vec<&str> = variants.iter().map(|c| c["label"].as_str().unwrap()).collect();
    assert_eq!(shown, ["{C1: … | C2, WE: …}", "{C1: … | C2: … | WE: …}"]);
    let usual = variants[0];
    assert_eq!(usual["insertTextFormat"], 2, "a snippet");
    assert_eq!(usual["textEdit"]["newText"], "{${1:C1}: $2 | ${3:C2, WE}: $4}$0");
    let here = json!({ "line": line, "character": col });
    assert_eq!(usual["textEdit"]["range"], json!({ "start": here, "end": here }), "inserted at the cursor");
    // Applied, with the editions as offered and each text filled in; the
    // plain value gets quotes (a variant's `: ` would make it a mapping).
    let inserted = expand(usual["textEdit"]["newText"].as_str().unwrap(), &[("2", "red"), ("4", "coloured")]);
    let mut edits = vec![(json!({ "line": line, "character": col }), format!("{inserted} "))];
    for quote in usual["additionalTextEdits"].as_array().unwrap() {
        edits.push((quote["range"]["start"].clone(), quote["newText"].as_str().unwrap().to_string()));
    }
    let completed = apply(&text, &edits);
    assert!(completed.contains("text: \"Every player adds the {C1: red | C2, WE: coloured} mayor"), "{completed}");
    let rendered = texts_of(&client, ABBEY, &completed, "mayor-take-figure");
    assert!(rendered[0].contains("adds the red mayor") && rendered[2].contains("adds the coloured mayor"));
    // The server agrees: no diagnostic of its own; the Dutch translation
    // of the text it changed is outdated, which the edit shows where it was
    // made, pointing to where it is reported.
    client.change(ABBEY, &completed);
    let found = client.diagnostics_of(ABBEY);
    assert_eq!(own(found.clone()), Vec::<Value>::new());
    let dutch = client.uri("translations/nl/expansions/abbey-and-mayor.yaml");
    let outdated = found.iter().find(|d| d["code"] == "outdated-translation").expect("the outdated translation shown");
    assert_eq!(outdated["data"]["reportedIn"], dutch.as_str(), "{outdated}");
    assert_eq!(outdated["relatedInformation"][0]["location"]["uri"], dutch.as_str(), "{outdated}");
    assert_eq!(start_of(outdated).0, line as u64, "on the line edited: {outdated}");
    // One alternative per edition, its placeholders kept, in a quoted text.
    let (line, col) = find(&completed, "Wagon onto a feature", 0);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let each = answer.as_array().unwrap().iter().find(|c| c["label"] == "{C1: … | C2: … | WE: …}").unwrap();
    assert!(each["additionalTextEdits"].is_null(), "a quoted text needs no quotes");
    let inserted = expand(each["textEdit"]["newText"].as_str().unwrap(), &[("2", "A"), ("4", "B"), ("6", "C")]);
    let completed = apply(&completed, &[(json!({ "line": line, "character": col }), inserted)]);
    assert_eq!(
        texts_of(&client, ABBEY, &completed, "wagon-deploy")[1].split(" (").next(),
        Some("BWagon onto a feature")
    );
    // Not inside a variant being written, nor outside a text.
    let (line, col) = find(&text, "{C1: farm", 4);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    assert!(answer.as_array().unwrap().iter().all(|c| c["kind"] != 15), "{answer}");

    // A client without snippets gets plain text that check accepts as it is.
    let mut plain = Client::start(false);
    plain.open(ABBEY, &text);
    let (line, col) = find(&text, "adds the mayor", 9);
    let answer = plain.request("textDocument/completion", plain.at(ABBEY, line, col));
    let usual = answer.as_array().unwrap().iter().find(|c| c["kind"] == 15).unwrap();
    assert_eq!(usual["insertTextFormat"], 1);
    assert_eq!(usual["textEdit"]["newText"], "{C1:|C2, WE:}");
    // No `: ` in it: the plain value needs no quotes, so a client that
    // applies no additional edits (Neovim 0.7's omnifunc) keeps it valid.
    assert!(usual["additionalTextEdits"].is_null(), "{usual}");
    let edits =
        vec![(json!({ "line": line, "character": col }), usual["textEdit"]["newText"].as_str().unwrap().into())];
    let completed = apply(&text, &edits);
    assert!(completed.contains("      text: Every player adds the {C1:|C2, WE:}mayor"), "{completed}");
    assert_eq!(
        texts_of(&plain, ABBEY, &completed, "mayor-take-figure")[0],
        "Every player adds the mayor of their colour to their supply."
    );
}

/// The completion `name` of `answer`.
fn item<'a>(answer: &'a Value, name: &str) -> &'a Value {
    answer.as_array().unwrap().iter().find(|c| c["label"] == name).unwrap_or_else(|| panic!("no {name}: {answer}"))
}

#[test]
fn the_text_variant_comes_on_a_brace_and_after_a_space_quoted_where_it_must_be() {
    let capabilities = json!({ "completion": { "completionItem": { "snippetSupport": true } } });
    let mut client = Client::start_with(false, capabilities);
    let mut plain = Client::start(false);
    let text = client.text(ABBEY);
    let line_of = |text: &str, what: &str| text.lines().position(|l| l.contains(what)).unwrap();
    // `{` typed inside a plain text (a trigger character): the variant takes
    // the brace's place, and the value gets its quotes.
    let braced = text.replacen("adds the mayor of", "adds the {mayor of", 1);
    client.open(ABBEY, &braced);
    plain.open(ABBEY, &braced);
    let (line, col) = find(&braced, "adds the {", 10);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let usual = item(&answer, "{C1: … | C2, WE: …}");
    let range = json!({ "start": { "line": line, "character": col - 1 }, "end": { "line": line, "character": col } });
    assert_eq!(usual["textEdit"]["range"], range, "the brace replaced");
    assert_eq!(usual["insertTextFormat"], 2);
    let filled = expand(usual["textEdit"]["newText"].as_str().unwrap(), &[("2", "red"), ("4", "coloured")]);
    let mut edits = vec![json!({ "range": range, "newText": filled })];
    edits.extend(usual["additionalTextEdits"].as_array().unwrap().iter().cloned());
    let completed = apply_edits(&braced, &edits);
    assert_eq!(
        completed.lines().nth(line_of(&completed, "adds the")).unwrap(),
        "      text: \"Every player adds the {C1: red | C2, WE: coloured}mayor of their colour to their supply.\""
    );
    let rendered = texts_of(&client, ABBEY, &completed, "mayor-take-figure");
    assert!(
        rendered[0].contains("adds the redmayor") && rendered[1].contains("adds the colouredmayor"),
        "{rendered:?}"
    );
    // The same for a client without snippets: plain text, no quotes needed.
    let answer = plain.request("textDocument/completion", plain.at(ABBEY, line, col));
    let usual = item(&answer, "{C1: … | C2, WE: …}");
    assert_eq!((&usual["insertTextFormat"], &usual["textEdit"]["newText"]), (&json!(1), &json!("{C1:|C2, WE:}")));
    assert_eq!(usual["textEdit"]["range"], range);
    let completed = apply_edits(&braced, &[usual["textEdit"].clone()]);
    assert_eq!(
        texts_of(&plain, ABBEY, &completed, "mayor-take-figure")[0],
        "Every player adds the mayor of their colour to their supply."
    );

    // After a space at the end of a plain text: the closing quote comes with
    // the variant (an additional edit at the cursor would have no order).
    let spaced = text.replacen("to their supply.\n", "to their supply. \n", 1);
    client.change(ABBEY, &spaced);
    plain.change(ABBEY, &spaced);
    let (line, col) = find(&spaced, "to their supply. \n", 17);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let usual = item(&answer, "{C1: … | C2, WE: …}");
    let here = json!({ "line": line, "character": col });
    assert_eq!(usual["textEdit"]["range"], json!({ "start": here, "end": here }));
    assert_eq!(usual["textEdit"]["newText"], "{${1:C1}: $2 | ${3:C2, WE}: $4}$0\"");
    let filled = expand(usual["textEdit"]["newText"].as_str().unwrap(), &[("2", "Hi"), ("4", "Ho")]);
    let mut edits = vec![json!({ "range": usual["textEdit"]["range"], "newText": filled })];
    edits.extend(usual["additionalTextEdits"].as_array().unwrap().iter().cloned());
    assert_eq!(edits.len(), 2, "the opening quote: {edits:?}");
    let completed = apply_edits(&spaced, &edits);
    let rendered = texts_of(&client, ABBEY, &completed, "mayor-take-figure");
    assert!(rendered[0].ends_with("to their supply. Hi") && rendered[2].ends_with("supply. Ho"), "{rendered:?}");
    let answer = plain.request("textDocument/completion", plain.at(ABBEY, line, col));
    let usual = item(&answer, "{C1: … | C2, WE: …}");
    assert!(usual["additionalTextEdits"].is_null(), "{usual}");
    let completed = apply_edits(&spaced, &[usual["textEdit"].clone()]);
    assert!(completed.contains("to their supply. {C1:|C2, WE:}\n"), "{completed}");
    assert_eq!(
        texts_of(&plain, ABBEY, &completed, "mayor-take-figure")[0].trim_end(),
        "Every player adds the mayor of their colour to their supply."
    );
    // A `{` typed as the value's first character (YAML reads a mapping
    // there): the variant in its place, quoted, with the `}` an editor
    // paired it with.
    let line_text = "      text: Every player adds the mayor of their colour to their supply.\n";
    for (typed, rest) in [("      text: {", ""), ("      text: {", "}")] {
        let opened = text.replacen(line_text, &format!("{typed}{rest}\n"), 1);
        let (line, col) = find(&opened, typed, typed.len());
        let range = json!({ "start": { "line": line, "character": col - 1 },
                            "end": { "line": line, "character": col + rest.len() } });
        client.change(ABBEY, &opened);
        let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
        let usual = item(&answer, "{C1: … | C2, WE: …}");
        assert_eq!(usual["textEdit"]["range"], range, "{typed}{rest}");
        assert_eq!(usual["textEdit"]["newText"], "\"{${1:C1}: $2 | ${3:C2, WE}: $4}$0\"");
        let filled = expand(usual["textEdit"]["newText"].as_str().unwrap(), &[("2", "A"), ("4", "B")]);
        let completed = apply_edits(&opened, &[json!({ "range": range, "newText": filled })]);
        assert_eq!(texts_of(&client, ABBEY, &completed, "mayor-take-figure"), ["A", "B", "B"]);
        plain.change(ABBEY, &opened);
        let answer = plain.request("textDocument/completion", plain.at(ABBEY, line, col));
        let usual = item(&answer, "{C1: … | C2, WE: …}");
        assert_eq!(usual["textEdit"], json!({ "range": range, "newText": "\"{C1:|C2, WE:}\"" }));
    }
    // Not after a quoted text's closing quote: nothing may follow it.
    let quoted = text.replacen("field})\"\n", "field})\" \n", 1);
    assert_ne!(quoted, text);
    client.change(ABBEY, &quoted);
    let (line, col) = find(&quoted, "field})\" \n", 9);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    assert!(answer.as_array().unwrap().iter().all(|c| c["kind"] != 15), "{answer}");
}

#[test]
fn completion_replaces_the_word_typed_and_offers_only_what_starts_with_it() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    // A hyphenated id half typed: the range is the whole word, `-` included.
    let typing = text.replacen("      when: mayor\n", "      when: mayor\n      after: abbey-t\n", 1);
    client.open(ABBEY, &typing);
    let (line, col) = find(&typing, "after: abbey-t\n", 14);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    assert_eq!(labels(&answer), ["abbey-take-tile"], "only what starts with the word typed");
    let range = json!({ "start": { "line": line, "character": col - 7 }, "end": { "line": line, "character": col } });
    assert_eq!(answer[0]["textEdit"], json!({ "range": range, "newText": "abbey-take-tile" }));
    assert!(answer[0]["filterText"].is_null(), "Neovim 0.7 takes the word's start only from items without one");
    let completed = apply_edits(&typing, &[answer[0]["textEdit"].clone()]);
    assert!(completed.contains("      after: abbey-take-tile\n"), "{completed}");
    // A marker typed in lower case still finds its upper-case name.
    let typing = text.replacen("      when: mayor\n", "      when: mayor\n      markers: [rob\n", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "markers: [rob\n", 13);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    assert!(labels(&answer).contains(&"ROBBERS".to_string()), "{answer}");
    assert!(labels(&answer).iter().all(|l| l.starts_with("ROB")), "{answer}");
    // Nothing typed: everything, each inserted at the cursor.
    let typing = text.replacen("      when: mayor\n", "      when: abbey or \n", 1);
    client.change(ABBEY, &typing);
    let (line, col) = find(&typing, "when: abbey or ", 15);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let here = json!({ "line": line, "character": col });
    assert!(answer.as_array().unwrap().len() > 50);
    assert!(answer.as_array().unwrap().iter().all(|c| c["textEdit"]["range"] == json!({ "start": here, "end": here })));
}

/// The tokens of `data` as (text, type) pairs, read off `text` by UTF-16 columns.
fn decoded(text: &str, data: &Value) -> Vec<(String, u64)> {
    let data: Vec<u64> = data.as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    let lines: Vec<Vec<u16>> = text.lines().map(|l| l.encode_utf16().collect()).collect();
    let (mut line, mut start) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                start = 0;
            }
            line += t[0] as usize;
            start += t[1] as usize;
            let word = String::from_utf16(&lines[line][start..start + t[2] as usize]).unwrap();
            (word, t[3])
        })
        .collect()
}

#[test]
fn semantic_tokens_mark_the_dsl_inside_strings() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY).replacen(
        "text: Every player adds the mayor of their colour to their supply.",
        "text: \"Bürgermeister → {C1: mayor | C2, WE: Mayor}\"\n      markers: ['MESSAGES \"#1\" when not abbey']",
        1,
    );
    client.open(ABBEY, &text);
    assert_eq!(own(client.diagnostics_of(ABBEY)), Vec::<Value>::new(), "{text}");
    let answer =
        client.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": client.uri(ABBEY) } }));
    let tokens = decoded(&text, &answer["data"]);
    let find_all = |word: &str| tokens.iter().filter(|(w, _)| w == word).map(|(_, k)| *k).collect::<Vec<u64>>();
    // keyword 0, operator 1, module 2, flag 3, edition 4, marker 5
    assert!(tokens.starts_with(&[("abbey".into(), 2), ("or".into(), 0), ("mayor".into(), 2)]), "{tokens:?}");
    assert_eq!(find_all("tiles_in_supply"), [3], "a derived flag");
    assert_eq!(find_all("MESSAGES"), [5]);
    assert!(find_all("not").contains(&0));
    let variant: Vec<(String, u64)> = tokens.iter().skip_while(|(w, _)| w != "{").take(7).cloned().collect();
    let expected: Vec<(String, u64)> = [("{", 1), ("C1", 4), (":", 1), ("|", 1), ("C2", 4), ("WE", 4), (":", 1)]
        .into_iter()
        .map(|(w, k)| (w.to_string(), k))
        .collect();
    assert_eq!(variant, expected, "the words of the variant are the author's");
    // The decoding above read UTF-16 columns past `ü` and `→`; with utf-8 the
    // same token starts further right, by their extra bytes.
    let mut utf8 = Client::start(true);
    utf8.open(ABBEY, &text);
    let answer8 =
        utf8.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": utf8.uri(ABBEY) } }));
    let starts =
        |data: &Value| -> Vec<u64> { data.as_array().unwrap().chunks(5).map(|t| t[1].as_u64().unwrap()).collect() };
    let (at16, at8) = (starts(&answer["data"]), starts(&answer8["data"]));
    let brace = tokens.iter().position(|(w, _)| w == "{").unwrap();
    let line_start = text.find("text: \"Bürgermeister").unwrap();
    assert_eq!(
        at16[brace] as usize,
        text[line_start - 6..].find('{').unwrap() - 3,
        "ü and → are 2 and 3 bytes, 1 unit each"
    );
    assert_eq!(at8[brace], at16[brace] + 3);
}

#[test]
fn inlay_hints_tell_in_what_share_of_games_a_condition_holds() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    let whole = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 10_000, "character": 0 } });
    let hints = client
        .request("textDocument/inlayHint", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": whole }));
    let hints = hints.as_array().unwrap();
    let whens = text.lines().filter(|l| l.trim_start().starts_with("when:")).count();
    assert_eq!(hints.len(), whens, "one per `when:`");
    // `abbey-take-tile`'s `when: abbey`: half the selections, every edition.
    let (line, col) = find(&text, "      when: abbey\n", 17);
    let abbey = hints.iter().find(|h| h["position"] == json!({ "line": line, "character": col })).unwrap();
    assert_eq!(abbey["label"], "in 50% of games");
    assert!(abbey["tooltip"].as_str().unwrap().contains("C2: 50.0%"));
    // A child's share includes its parent's condition: `abbey` under
    // `tiles_in_supply or wetlands` (the abbey is one of the supply's tiles).
    let (line, _) = find(&text, "id: abbey-supply-abbey-tile", 0);
    let child = hints.iter().find(|h| h["position"]["line"] == line + 1).unwrap();
    assert_eq!(child["label"], "in 50% of games");
    // Only the requested range.
    let (line, _) = find(&text, "id: abbey-take-tile", 0);
    let range = json!({ "start": { "line": line, "character": 0 }, "end": { "line": line + 2, "character": 0 } });
    let some = client
        .request("textDocument/inlayHint", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "range": range }));
    assert_eq!(some.as_array().unwrap().len(), 1, "{some}");
    // A condition on the edition: the shares differ and are grouped.
    let base = client.text("base.yaml");
    client.open("base.yaml", &base);
    let (line, _) = find(&base, "id: 2D,", 0);
    let range = json!({ "start": { "line": line, "character": 0 }, "end": { "line": line + 1, "character": 0 } });
    let step = client.request(
        "textDocument/inlayHint",
        json!({ "textDocument": { "uri": client.uri("base.yaml") }, "range": range }),
    );
    let label = step[0]["label"].as_str().unwrap();
    assert!(label.starts_with("C1 ") && label.contains("C2/WE 50%"), "{label}");
}

#[test]
fn rename_and_references_leave_an_id_in_a_text_or_a_comment_alone() {
    const BRIDGES: &str = "expansions/bridges-castles-and-bazaars.yaml";
    let mut client = Client::start(true);
    let id = "abbey-play-from-supply";
    // The id in a comment and in another item's text: prose, not a reference.
    let abbey = client
        .text(ABBEY)
        .replacen("  1B:\n", &format!("  1B:\n    # {id} comes before the draw\n"), 1)
        .replacen("text: An abbey tile\n", &format!("text: >-\n            An abbey tile (see {id})\n"), 1);
    client.open(ABBEY, &abbey);
    assert_eq!(own(client.diagnostics_of(ABBEY)), Vec::<Value>::new(), "the planted prose is valid");
    let bridges = client.text(BRIDGES);
    let written: usize = [&abbey, &bridges]
        .iter()
        .map(|t| {
            t.lines()
                .filter(|l| {
                    let l = l.trim_start().trim_start_matches("- ");
                    [format!("id: {id}"), format!("after: {id}"), format!("before: {id}")].iter().any(|k| l == k)
                        || l.starts_with("none_of: [") && l.contains(&format!(" {id}]"))
                })
                .count()
        })
        .sum();
    assert_eq!(written, 4, "its id, a `before:`, an `after:` and a `none_of:`");

    let (line, col) = find(&abbey, &format!("id: {id}"), 4);
    let refs = client.request("textDocument/references", client.at(ABBEY, line, col));
    let refs = refs.as_array().unwrap();
    // Besides, the Dutch translation's key: the id names its unit.
    assert_eq!(refs.len(), written + 1, "{refs:?}");
    assert!(
        refs.iter().any(|r| r["uri"].as_str().unwrap().ends_with("/translations/nl/expansions/abbey-and-mayor.yaml")),
        "{refs:?}"
    );
    let (comment_line, _) = find(&abbey, &format!("# {id}"), 0);
    let (text_line, text_col) = find(&abbey, &format!("(see {id})"), 5);
    assert!(
        refs.iter().all(|r| r["uri"] != client.uri(ABBEY) || r["range"]["start"]["line"] == line as u64),
        "{refs:?}"
    );
    // On the prose mention itself there is nothing to list or rename.
    let on_prose = client.request("textDocument/references", client.at(ABBEY, text_line, text_col));
    assert!(on_prose.is_null() || on_prose.as_array().unwrap().is_empty(), "{on_prose}");
    let refused = client.try_request("textDocument/rename", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "position": { "line": text_line, "character": text_col }, "newName": "x" }));
    assert!(refused.is_err(), "{refused:?}");

    let new = "abbey-supply-play";
    let edit = client.request("textDocument/rename", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "position": { "line": line, "character": col }, "newName": new }));
    let renamed_abbey = apply_edits(&abbey, edit["changes"][client.uri(ABBEY)].as_array().unwrap());
    let renamed_bridges = apply_edits(&bridges, edit["changes"][client.uri(BRIDGES)].as_array().unwrap());
    // The two rules files, and the Dutch translation keyed by the id.
    assert_eq!(edit["changes"].as_object().unwrap().len(), 3, "{edit}");
    let dutch = "translations/nl/expansions/abbey-and-mayor.yaml";
    let renamed_dutch = apply_edits(&client.text(dutch), edit["changes"][client.uri(dutch)].as_array().unwrap());
    assert!(renamed_dutch.contains(&format!("\n  {new}:\n")) && !renamed_dutch.contains(id), "{renamed_dutch}");
    let lines: Vec<&str> = renamed_abbey.lines().collect();
    assert_eq!(lines[comment_line], format!("    # {id} comes before the draw"));
    assert_eq!(lines[text_line], format!("            An abbey tile (see {id})"));
    assert!(renamed_abbey.contains(&format!("- id: {new}\n")) && !renamed_bridges.contains(id), "{renamed_bridges}");
    // The renamed rules check as before.
    client.change(ABBEY, &renamed_abbey);
    client.open(BRIDGES, &renamed_bridges);
    assert_eq!(own(client.diagnostics_of(ABBEY)), Vec::<Value>::new());
    assert_eq!(own(client.diagnostics_of(BRIDGES)), Vec::<Value>::new());
}

#[test]
fn a_flag_is_renamed_in_every_condition_and_its_definition_but_not_in_prose() {
    let mut client = Client::start(true);
    let flag = "tiles_in_supply";
    let modules =
        client.text("modules.yaml").replacen("derived:\n", &format!("derived:\n  # {flag}: the tiles kept\n"), 1);
    let abbey = client.text(ABBEY).replacen(
        "text: An abbey tile\n",
        &format!("text: >-\n            An abbey tile, one of the\n            {flag}\n"),
        1,
    );
    client.open("modules.yaml", &modules);
    client.open(ABBEY, &abbey);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new());
    assert_eq!(client.diagnostics_of("modules.yaml"), Vec::<Value>::new());
    let (line, col) = find(&abbey, &format!("when: {flag}"), 6);
    let edit = client.request("textDocument/rename", json!({ "textDocument": { "uri": client.uri(ABBEY) }, "position": { "line": line, "character": col }, "newName": "supply_tiles" }));
    let changes = edit["changes"].as_object().unwrap();
    let renamed = apply_edits(&modules, changes[&client.uri("modules.yaml")].as_array().unwrap());
    // Its definition's name and the derived flag that names it; the comments
    // of modules.yaml that name it stay as written.
    assert!(
        renamed.contains("\n  supply_tiles: abbey or") && renamed.contains("or supply_tiles or wetlands"),
        "{renamed}"
    );
    let comments =
        |t: &str| t.lines().filter(|l| l.trim_start().starts_with('#')).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(comments(&renamed), comments(&modules));
    assert!(renamed.contains(&format!("# {flag}: the tiles kept")));
    let renamed_abbey = apply_edits(&abbey, changes[&client.uri(ABBEY)].as_array().unwrap());
    assert!(renamed_abbey.contains(&format!("one of the\n            {flag}\n")), "{renamed_abbey}");
    assert!(renamed_abbey.contains("when: supply_tiles or wetlands"));
    let fortune = "expansions/the-fortune-teller.yaml";
    let in_fortune = changes[&client.uri(fortune)].as_array().unwrap().len();
    assert_eq!(in_fortune, client.text(fortune).matches(&format!("when: {flag}\n")).count());
}

/// Puts the wiki crate's errata beside a copy of the rules, as the repository
/// lays them out (`<rules>/../crates/wiki/errata.yaml`).
fn with_errata(rules: &std::path::Path) {
    let wiki = rules.parent().unwrap().join("crates/wiki");
    std::fs::create_dir_all(&wiki).unwrap();
    std::fs::copy(common::bundled_rules().join("../crates/wiki/errata.yaml"), wiki.join("errata.yaml")).unwrap();
}

fn errata_path(client: &Client) -> std::path::PathBuf {
    client.dir.path().join("crates/wiki/errata.yaml")
}

fn errata_uri(client: &Client) -> String {
    carcassonne_rules_lsp::uri::from_path(&errata_path(client))
}

/// The rename of the name at `skip` characters into `needle` in `rel` to `new`.
fn rename(client: &mut Client, rel: &str, needle: &str, skip: usize, new: &str) -> Value {
    let (line, col) = find(&client.text(rel), needle, skip);
    let mut params = client.at(rel, line, col);
    params["newName"] = new.into();
    client.request("textDocument/rename", params)
}

/// The files that name `any-time-only-once`: its definition, four `under:`,
/// and the two translations of its text, keyed by its id.
const UNDER_ANY_TIME_ONLY_ONCE: [&str; 7] = [
    "base.yaml",
    "expansions/traders-and-builders.yaml",
    "expansions/the-plague.yaml",
    "expansions/the-tunnel.yaml",
    "expansions/the-tower.yaml",
    "translations/nl/base.yaml",
    "translations/ru/base.yaml",
];

#[test]
fn a_rename_edits_the_errata_beside_the_rules_where_they_name_the_item_or_flag() {
    // The errata name no derived flag since 06631f4: one is planted in a
    // condition of the copy.
    let mut client = Client::start_declaring(true, json!({}), |rules| {
        with_errata(rules);
        let path = rules.parent().unwrap().join("crates/wiki/errata.yaml");
        let errata = std::fs::read_to_string(&path).unwrap();
        let planted = errata.replacen(
            "    means: traders\n",
            "    means: messages_for_entries_step5_mark_c1_and_mark_we and traders\n",
            1,
        );
        assert_ne!(planted, errata, "the errata's `means: traders` is where the flag is planted");
        std::fs::write(&path, planted).unwrap();
    });
    let errata = std::fs::read_to_string(errata_path(&client)).unwrap();
    let edit = rename(&mut client, "base.yaml", "- id: any-time-only-once", 6, "any-time-once-only");
    // Without change annotations: plain edits, the errata's beside the rules files'.
    assert!(edit.get("documentChanges").is_none(), "{edit}");
    let changes = edit["changes"].as_object().unwrap();
    let mut files: Vec<String> = UNDER_ANY_TIME_ONLY_ONCE.iter().map(|rel| client.uri(rel)).collect();
    files.push(errata_uri(&client));
    files.sort();
    assert_eq!(changes.keys().cloned().collect::<Vec<_>>(), files);
    let in_errata = changes[&errata_uri(&client)].as_array().unwrap();
    let (line, col) = find(&errata, "items: [any-time-only-once]", 8);
    let range = json!({ "start": { "line": line, "character": col }, "end": { "line": line, "character": col + 18 } });
    assert_eq!(in_errata, &[json!({ "range": range, "newText": "any-time-once-only" })]);
    let base = client.text("base.yaml");
    let renamed_base = apply_edits(&base, changes[&client.uri("base.yaml")].as_array().unwrap());
    assert_eq!(renamed_base, base.replacen("- id: any-time-only-once\n", "- id: any-time-once-only\n", 1));

    // A derived flag, named in a condition of the errata.
    let flag = "messages_for_entries_step5_mark_c1_and_mark_we";
    let edit = rename(&mut client, "modules.yaml", &format!("  {flag}: "), 2, "messages_step5_marks");
    let in_errata = edit["changes"][errata_uri(&client)].as_array().unwrap();
    assert_eq!(
        apply_edits(&errata, in_errata),
        errata.replacen(&format!("means: {flag} and"), "means: messages_step5_marks and", 1)
    );
}

#[test]
fn with_change_annotations_the_errata_edits_ask_for_confirmation_in_the_open_buffer() {
    let annotations = json!({ "workspace": { "workspaceEdit": { "documentChanges": true, "changeAnnotationSupport": { "groupsOnLabel": true } } } });
    let mut client = Client::start_declaring(true, annotations, with_errata);
    // An unsaved buffer of the errata names the item once more (and once in a
    // comment, left alone): the buffer is what is edited, not the file.
    let on_disk = std::fs::read_to_string(errata_path(&client)).unwrap();
    let written = |id: &str| {
        on_disk.clone()
            + &format!(
                "  - id: planted\n    # any-time-only-once\n    page: p\n    rules: r\n    why: w\n    items: [draw-tile, \"{id}\"]\n"
            )
    };
    let buffer = written("any-time-only-once");
    let uri = errata_uri(&client);
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": buffer } }),
    );
    let edit = rename(&mut client, "base.yaml", "- id: any-time-only-once", 6, "any-time-once-only");
    assert!(edit.get("changes").is_none(), "{edit}");
    let documents = edit["documentChanges"].as_array().unwrap();
    assert_eq!(documents.len(), UNDER_ANY_TIME_ONLY_ONCE.len() + 1, "{edit}");
    let (errata, rules): (Vec<&Value>, Vec<&Value>) = documents.iter().partition(|d| d["textDocument"]["uri"] == uri);
    let edits = errata[0]["edits"].as_array().unwrap();
    let expected =
        written("any-time-once-only").replacen("items: [any-time-only-once]", "items: [any-time-once-only]", 1);
    assert_eq!(apply_edits(&buffer, edits), expected);
    assert_eq!(edits.len(), 2);
    for e in edits {
        let annotation = &edit["changeAnnotations"][e["annotationId"].as_str().unwrap()];
        assert_eq!(annotation["needsConfirmation"], true, "{edit}");
        assert!(annotation["label"].as_str().unwrap().contains("Outside the rules folder"), "{annotation}");
    }
    // The rules files' edits are plain and need no confirmation.
    for d in rules {
        assert!(UNDER_ANY_TIME_ONLY_ONCE.iter().any(|rel| d["textDocument"]["uri"] == client.uri(rel)), "{d}");
        assert!(d["edits"].as_array().unwrap().iter().all(|e| e.get("annotationId").is_none()), "{d}");
    }
    // Closed, the buffer no longer counts: the file on disk is edited.
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    let edit = rename(&mut client, "base.yaml", "- id: any-time-only-once", 6, "any-time-once-only");
    let documents = edit["documentChanges"].as_array().unwrap();
    let errata = documents.iter().find(|d| d["textDocument"]["uri"] == uri).unwrap();
    assert_eq!(errata["edits"].as_array().unwrap().len(), 1);
}

#[test]
fn prepare_rename_gives_the_name_and_its_range_or_refuses() {
    // No errata beside these rules: a rename still edits the rules files.
    let mut client = Client::start(true);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    let id = "abbey-play-from-supply";
    let (line, col) = find(&text, &format!("id: {id}"), 4);
    let prepared = client.request("textDocument/prepareRename", client.at(ABBEY, line, col + 3));
    let range =
        json!({ "start": { "line": line, "character": col }, "end": { "line": line, "character": col + id.len() } });
    assert_eq!(prepared, json!({ "range": range, "placeholder": id }));
    let (line, col) = find(&text, "when: mayor", 6);
    let refused = client.try_request("textDocument/prepareRename", client.at(ABBEY, line, col));
    assert_eq!(refused, Err("`mayor` is not an item or a derived flag: only those can be renamed".to_string()));
    let (line, col) = find(&text, "text:", 1);
    let refused = client.try_request("textDocument/prepareRename", client.at(ABBEY, line, col));
    assert_eq!(refused, Err("there is no item or derived flag to rename here".to_string()));
    let edit = rename(&mut client, ABBEY, &format!("id: {id}"), 4, "abbey-supply-play");
    let rules = carcassonne_rules_lsp::uri::from_path(&client.dir.path().join("rules"));
    let files: Vec<&String> = edit["changes"].as_object().unwrap().keys().collect();
    // The two rules files, and the Dutch translation keyed by the id.
    assert!(files.len() == 3 && files.iter().all(|f| f.starts_with(&rules)), "{edit}");
}

#[test]
fn role_effect_and_foreign_complete_what_the_records_accept() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY);
    client.open(ABBEY, &text);
    let mut offered_at = |typing: &str, needle: &str, skip: usize| {
        client.change(ABBEY, typing);
        let (line, col) = find(typing, needle, skip);
        labels(&client.request("textDocument/completion", client.at(ABBEY, line, col)))
    };
    // `foreign:` offers the editions not named yet.
    let typing = text.replacen("foreign: [WE]", "foreign: [WE, ]", 1);
    assert_eq!(offered_at(&typing, "foreign: [WE, ]", 14), ["C1", "C2"]);
    // `role:` its four values.
    let typing = text.replacen("          role: note\n", "          role: \n", 1);
    assert_eq!(offered_at(&typing, "role: \n", 6), ["action", "condition", "group", "note"]);
    // `effect:` what the grammar accepts at each place.
    let effect = |value: &str| text.replacen("      optional: true\n", &format!("      effect: {value}\n"), 1);
    let typing = effect("");
    let words = offered_at(&typing, "effect: \n", 8);
    assert_eq!(words, ["skip", "go back to", "double turn", "next feature", "forbid"]);
    let typing = effect("skip 2B-1, ");
    let steps = offered_at(&typing, "skip 2B-1, ", 11);
    assert!(steps.contains(&"2B-2".to_string()) && !steps.contains(&"2B-1".to_string()), "{steps:?}");
    assert!(!steps.contains(&"skip".to_string()), "{steps:?}");
    let typing = effect("go back to ");
    assert!(offered_at(&typing, "go back to ", 11).contains(&"1B".to_string()));
    let typing = effect("forbid ");
    let items = offered_at(&typing, "forbid ", 7);
    assert!(items.contains(&"abbey-take-tile".to_string()), "{items:?}");
    assert!(!items.contains(&"abbey-play-from-supply".to_string()), "not itself: {items:?}");
    assert!(!items.contains(&"1B".to_string()), "{items:?}");
    let typing = effect("forbid abbey-take-tile ");
    assert_eq!(offered_at(&typing, "forbid abbey-take-tile ", 23), ["for the turn"]);
    let typing = effect("double ");
    assert_eq!(offered_at(&typing, "effect: double ", 15), ["turn"]);
    // A new key of an item: those of the three it does not have yet.
    let typing = text.replacen("      optional: true\n", "      optional: true\n      \n", 1);
    let keys = offered_at(&typing, "optional: true\n      \n", 21);
    assert_eq!(keys, ["role", "effect"], "it has a `foreign:` already");
    let typing = text.replacen("      optional: true\n", "      optional: true\n      ro\n", 1);
    let keys = offered_at(&typing, "optional: true\n      ro\n", 23);
    assert!(keys.contains(&"role".to_string()), "{keys:?}");
    // Inside a key written already: nothing.
    assert_eq!(offered_at(&text, "      optional: true", 8), Vec::<String>::new());
}
