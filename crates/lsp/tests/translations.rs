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
