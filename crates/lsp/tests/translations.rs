//! The server helps translators: a translation file's problems are
//! diagnostics, hover tells what a unit translates (and how its English
//! changed), a quick fix marks a reviewed translation current, and renaming
//! an item renames its translations' keys.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Client, find};
use serde_json::{Value, json};

const BASE: &str = "base.yaml";
const DUTCH_BASE: &str = "translations/nl/base.yaml";
const RUSSIAN_BASE: &str = "translations/ru/base.yaml";

/// The English of `draw-tile`, as `base.yaml` writes it.
const DRAW: &str = "text: Draw a tile at random.";

fn with_code<'d>(diagnostics: &'d [Value], code: &str) -> Vec<&'d Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

#[test]
fn an_edit_to_the_english_outdates_the_translations_and_the_quick_fix_marks_them_reviewed() {
    let mut client = Client::start(false);
    let base = client.text(BASE);
    assert!(base.contains(DRAW), "base.yaml's draw-tile is not what this test edits");
    client.open(BASE, &base);
    assert_eq!(client.diagnostics_of(DUTCH_BASE), Vec::<Value>::new());
    let edited = base.replacen(DRAW, "text: Draw the top tile of a stack.", 1);
    client.change(BASE, &edited);
    let dutch = client.diagnostics_of(DUTCH_BASE);
    let outdated = with_code(&dutch, "outdated-translation");
    assert_eq!(outdated.len(), 1, "{dutch:?}");
    assert_eq!(outdated[0]["severity"], 2, "a warning");
    assert!(outdated[0]["message"].as_str().unwrap().contains("`draw-tile`"), "{dutch:?}");
    assert_eq!(with_code(&client.diagnostics_of(RUSSIAN_BASE), "outdated-translation").len(), 1);
    // Dutch is required: languages.yaml says it is no longer complete.
    let languages = client.diagnostics_of("translations/languages.yaml");
    assert_eq!(with_code(&languages, "missing-translation").len(), 1, "{languages:?}");

    // Hover on the translation tells the English then and now.
    let text = client.text(DUTCH_BASE);
    let (line, col) = find(&text, "  draw-tile:", 4);
    let hover = client.request("textDocument/hover", client.at(DUTCH_BASE, line, col));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("Outdated"), "{shown}");
    assert!(shown.contains("- Draw a tile at random.\n+ Draw the top tile of a stack."), "{shown}");

    // The quick fix sets `from:` to the English as it is now; the warning goes.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": client.uri(DUTCH_BASE) },
            "range": outdated[0]["range"],
            "context": { "diagnostics": [outdated[0]] },
        }),
    );
    let action = &actions[0];
    assert!(action["title"].as_str().unwrap().starts_with("Mark the translation reviewed"), "{actions}");
    let edits = action["edit"]["changes"][client.uri(DUTCH_BASE)].as_array().unwrap();
    let fixed = apply(&text, edits);
    client.open(DUTCH_BASE, &fixed);
    client.change(DUTCH_BASE, &fixed);
    let dutch = client.diagnostics_of(DUTCH_BASE);
    assert!(with_code(&dutch, "outdated-translation").is_empty(), "{dutch:?}");
    let (line, col) = find(&fixed, "  draw-tile:", 4);
    let hover = client.request("textDocument/hover", client.at(DUTCH_BASE, line, col));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("English: Draw the top tile") && !shown.contains("Outdated"), "{shown}");
}

#[test]
fn renaming_an_item_renames_its_translations_and_by_hand_orphans_them() {
    let mut client = Client::start(false);
    let base = client.text(BASE);
    client.open(BASE, &base);
    let (line, col) = find(&base, "id: draw-tile\n", 4);
    let mut params = client.at(BASE, line, col);
    params["newName"] = "draw-a-tile".into();
    let edit = client.request("textDocument/rename", params);
    let changes = edit["changes"].as_object().unwrap();
    for translation in [DUTCH_BASE, RUSSIAN_BASE] {
        let edits = changes[&client.uri(translation)].as_array().unwrap_or_else(|| panic!("{translation}: {edit}"));
        let renamed = apply(&client.text(translation), edits);
        assert!(renamed.contains("\n  draw-a-tile:\n") && !renamed.contains("\n  draw-tile:\n"), "{translation}");
    }
    // Applied everywhere, the translations stay current.
    let mut renamed_base = String::new();
    for (file, edits) in changes {
        let rel = file.rsplit_once("/rules/").map(|(_, rel)| rel.to_string()).unwrap();
        let renamed = apply(&client.text(&rel), edits.as_array().unwrap());
        client.open(&rel, &renamed);
        if rel == BASE {
            renamed_base = renamed;
        }
    }
    for translation in [DUTCH_BASE, RUSSIAN_BASE] {
        assert_eq!(client.diagnostics_of(translation), Vec::<Value>::new(), "{translation}");
    }
    // By hand, in base.yaml alone, the translations are orphaned, with the new id suggested.
    let by_hand = renamed_base.replacen("id: ask-advice\n", "id: ask-for-advice\n", 1);
    client.change(BASE, &by_hand);
    for translation in [DUTCH_BASE, RUSSIAN_BASE] {
        let found = client.diagnostics_of(translation);
        let orphaned = with_code(&found, "orphaned-translation");
        assert_eq!(orphaned.len(), 1, "{translation}: {found:?}");
        let message = orphaned[0]["message"].as_str().unwrap();
        assert!(message.contains("`ask-advice`") && message.contains("did you mean `ask-for-advice`?"), "{message}");
        let text = client.text(translation);
        let (line, col) = find(&text, "  ask-advice:", 2);
        assert_eq!(orphaned[0]["range"]["start"], json!({ "line": line, "character": col }));
    }
}

/// `text` with LSP `edits` applied (their ranges in the text before any).
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let (line, character) = (p["line"].as_u64().unwrap() as usize, p["character"].as_u64().unwrap() as usize);
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + text[start..].chars().take(character).map(char::len_utf8).sum::<usize>()
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap()))
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, new);
    }
    out
}

const ABBEY_RULES: &str = "expansions/abbey-and-mayor.yaml";
const DUTCH_ABBEY: &str = "translations/nl/expansions/abbey-and-mayor.yaml";
/// The Dutch unit the tests below leave out, as its file writes it.
const MAYOR: &str = "  mayor-take-figure:\n    from: \"Every player adds the mayor of their colour to their supply.\"\n    text: \"Elke speler voegt de burgemeester in zijn of haar kleur toe aan de eigen voorraad.\"\n";

/// A client on the rules with the Dutch `mayor-take-figure` left out.
fn without_mayor() -> Client {
    Client::start_after(false, json!({}), |rules| {
        let path = rules.join(DUTCH_ABBEY);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(MAYOR), "the Dutch abbey file is not what these tests edit");
        std::fs::write(&path, text.replacen(MAYOR, "", 1)).unwrap();
    })
}

#[test]
fn a_missing_unit_gets_its_skeleton_where_the_file_orders_it_and_stays_missing_until_translated() {
    let mut client = without_mayor();
    let languages = "translations/languages.yaml";
    let found = client.diagnostics_of(languages);
    let missing = with_code(&found, "missing-translation");
    assert_eq!(missing.len(), 1, "{found:?}");
    assert!(missing[0]["message"].as_str().unwrap().contains("1 of its"), "{missing:?}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(languages) }, "range": missing[0]["range"],
                "context": { "diagnostics": [missing[0]] } }),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "one unit missing: {actions:?}");
    assert_eq!(
        actions[0]["title"],
        format!("Add `mayor-take-figure` to {DUTCH_ABBEY}, its text to translate (empty until then)")
    );
    let before = client.text(DUTCH_ABBEY);
    let edits = actions[0]["edit"]["changes"][client.uri(DUTCH_ABBEY)].as_array().unwrap();
    let after = apply(&before, edits);
    // Between the units the rules have before and after it, the English as
    // `from:` and as a comment above the empty text.
    let english = "Every player adds the mayor of their colour to their supply.";
    let skeleton = format!("  mayor-take-figure:\n    from: \"{english}\"\n    # {english}\n    text: \"\"\n");
    let take_tile = after.find("  abbey-take-tile:").unwrap();
    let wagon = after.find("  wagon-take-figure:").unwrap();
    let at = after.find(&skeleton).unwrap_or_else(|| panic!("{after}"));
    assert!(take_tile < at && at < wagon, "{after}");
    assert_eq!(after.replacen(&skeleton, "", 1), before, "nothing else changed");

    // The server and `check` agree: the file is clean, and the one problem
    // left is the text to write (an empty text is no translation).
    client.open(DUTCH_ABBEY, &after);
    assert_eq!(client.diagnostics_of(DUTCH_ABBEY), Vec::<Value>::new());
    let found = client.diagnostics_of(languages);
    assert_eq!(with_code(&found, "missing-translation").len(), 1, "{found:?}");
    let rules = client.dir.path().join("rules");
    std::fs::write(rules.join(DUTCH_ABBEY), &after).unwrap();
    let checked = carcassonne_rules_compiler::compile_dir(&rules);
    assert!(checked.result.is_ok(), "the rules check");
    let codes: Vec<&str> = checked.translation_problems.iter().map(|p| p.code().id()).collect();
    assert_eq!(codes, ["missing-translation"], "only the text to write");
    assert!(checked.translation_problems[0].message().contains("`mayor-take-figure`"));
    // No second skeleton for a unit the file has, though its text is empty.
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(languages) }, "range": found[0]["range"],
                "context": { "diagnostics": [found[0]] } }),
    );
    assert_eq!(actions, json!([]), "the skeleton is there");
    // Translated, the language is complete.
    let translated = after.replacen("    text: \"\"\n", "    text: \"Elke speler neemt de burgemeester.\"\n", 1);
    std::fs::write(rules.join(DUTCH_ABBEY), &translated).unwrap();
    let checked = carcassonne_rules_compiler::compile_dir(&rules);
    assert!(checked.result.is_ok() && checked.translation_problems.is_empty(), "{:?}", checked.translation_problems);
    client.change(DUTCH_ABBEY, &translated);
    assert!(with_code(&client.diagnostics_of(languages), "missing-translation").is_empty());
}

#[test]
fn a_translation_file_completes_the_units_it_lacks_with_their_english() {
    let mut client = without_mayor();
    let text = client.text(DUTCH_ABBEY);
    // A new key typed below the units, at their indentation.
    let typing = text.replacen("  wagon-take-figure:\n", "  may\n  wagon-take-figure:\n", 1);
    client.open(DUTCH_ABBEY, &typing);
    let (line, col) = find(&typing, "  may\n", 5);
    let answer = client.request("textDocument/completion", client.at(DUTCH_ABBEY, line, col));
    let offered = answer.as_array().unwrap();
    assert_eq!(offered.len(), 1, "{answer}");
    assert_eq!(offered[0]["label"], "mayor-take-figure");
    assert_eq!(offered[0]["detail"], "missing in nl");
    let doc = offered[0]["documentation"]["value"].as_str().unwrap();
    assert!(doc.contains("Every player adds the mayor of their colour to their supply."), "{doc}");
    let range = json!({ "start": { "line": line, "character": 2 }, "end": { "line": line, "character": col } });
    assert_eq!(offered[0]["textEdit"], json!({ "range": range, "newText": "mayor-take-figure" }));
    // Nothing typed yet: the same unit; none of the units written, none of
    // another file's.
    let typing = text.replacen("  wagon-take-figure:\n", "  \n  wagon-take-figure:\n", 1);
    client.change(DUTCH_ABBEY, &typing);
    let (line, col) = find(&typing, "  \n  wagon", 2);
    let answer = client.request("textDocument/completion", client.at(DUTCH_ABBEY, line, col));
    assert_eq!(
        answer.as_array().unwrap().iter().map(|c| c["label"].clone()).collect::<Vec<_>>(),
        ["mayor-take-figure"]
    );
    // Not at a unit's `from:`/`text:` level, nor on a written key.
    let typing = text.replacen("  wagon-take-figure:\n", "    ma\n  wagon-take-figure:\n", 1);
    client.change(DUTCH_ABBEY, &typing);
    let (line, col) = find(&typing, "    ma\n", 6);
    let answer = client.request("textDocument/completion", client.at(DUTCH_ABBEY, line, col));
    assert_eq!(answer, json!([]), "inside a unit");
    let (line, col) = find(&text, "  wagon-take-figure:", 7);
    client.change(DUTCH_ABBEY, &text);
    let answer = client.request("textDocument/completion", client.at(DUTCH_ABBEY, line, col));
    assert_eq!(answer, json!([]), "on a key written");
    // Russian is not required and has no file for the abbey yet: a new one
    // offers the abbey's items, each with its English.
    let russian = "translations/ru/expansions/abbey-and-mayor.yaml";
    client.open(russian, "items:\n  \n");
    let answer = client.request("textDocument/completion", client.at(russian, 1, 2));
    let labels: Vec<&str> = answer.as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap()).collect();
    let abbey = client.text(ABBEY_RULES);
    assert!(labels.len() > 10 && labels.contains(&"abbey-take-tile"), "{labels:?}");
    assert!(labels.iter().all(|l| abbey.contains(&format!("- id: {l}\n"))), "the abbey's own: {labels:?}");
    assert!(
        answer
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["documentation"]["value"].as_str().unwrap().starts_with("English: "))
    );
}

#[test]
fn a_new_item_gets_its_dutch_skeleton_from_the_problem_shown_where_it_was_written() {
    let mut client = Client::start(false);
    let text = client.text(ABBEY_RULES);
    let new = "    - id: mayor-polish\n      when: mayor\n      text: Polish the mayor.\n";
    let edited = text.replacen("    - id: wagon-take-figure\n", &format!("{new}    - id: wagon-take-figure\n"), 1);
    client.open(ABBEY_RULES, &text);
    client.change(ABBEY_RULES, &edited);
    let found = client.diagnostics_of(ABBEY_RULES);
    let shown = with_code(&found, "missing-translation");
    assert_eq!(shown.len(), 1, "shown at the edit: {found:?}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": client.uri(ABBEY_RULES) }, "range": shown[0]["range"],
                "context": { "diagnostics": [shown[0]] } }),
    );
    assert_eq!(actions.as_array().unwrap().len(), 1, "{actions}");
    let dutch = client.text(DUTCH_ABBEY);
    let edits = actions[0]["edit"]["changes"][client.uri(DUTCH_ABBEY)].as_array().unwrap();
    let after = apply(&dutch, edits);
    let skeleton = "  mayor-polish:\n    from: \"Polish the mayor.\"\n    # Polish the mayor.\n    text: \"\"\n  wagon-take-figure:\n";
    assert!(
        after.contains(&format!("{MAYOR}{skeleton}")),
        "after mayor-take-figure, before wagon-take-figure: {after}"
    );
    // Translated, nothing is left anywhere.
    client.open(DUTCH_ABBEY, &after.replacen("text: \"\"", "text: \"Poets de burgemeester.\"", 1));
    assert!(with_code(&client.diagnostics_of("translations/languages.yaml"), "missing-translation").is_empty());
    assert!(with_code(&client.diagnostics_of(ABBEY_RULES), "missing-translation").is_empty());
}
