//! One workspace: the rules folder found from a translation file's folder,
//! files changed on disk read again (watched by the client, or at a save),
//! editors' backups shown at themselves, and diagnostics published as a
//! delta, with the problems an edit causes elsewhere shown where it was made.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Client;
use serde_json::{Value, json};

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";
const DUTCH_ABBEY: &str = "translations/nl/expansions/abbey-and-mayor.yaml";

/// A client that watches files for the server.
fn watching() -> Client {
    let capabilities = json!({
        "textDocument": {},
        "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } },
    });
    Client::start_declaring(false, capabilities, |_| {})
}

fn changed(client: &Client, rel: &str, kind: u8) {
    client.notify("workspace/didChangeWatchedFiles", json!({ "changes": [{ "uri": client.uri(rel), "type": kind }] }));
}

#[test]
fn a_translation_folder_is_no_rules_folder_the_rules_above_it_are() {
    // An editor started at a Dutch file: the server serves rules/, and the
    // Dutch file is a translation file there, clean.
    let mut client = Client::start_in("rules/translations/nl/expansions", true);
    let dutch = client.text(DUTCH_ABBEY);
    client.open(DUTCH_ABBEY, &dutch);
    assert_eq!(client.diagnostics_of(DUTCH_ABBEY), Vec::<Value>::new());
    assert!(client.messages.is_empty(), "{:?}", client.messages);
    // An orphaned unit is shown at its key, with its near match.
    client.change(DUTCH_ABBEY, &dutch.replacen("  abbey-take-tile:\n", "  abbey-take-tyle:\n", 1));
    let found = client.diagnostics_of(DUTCH_ABBEY);
    let own: Vec<&Value> = found.iter().filter(|d| d["data"]["reportedIn"].is_null()).collect();
    assert_eq!(own.len(), 1, "{found:?}");
    assert_eq!(own[0]["code"], "orphaned-translation");
    assert!(own[0]["message"].as_str().unwrap().contains("did you mean `abbey-take-tile`"), "{found:?}");
    // The unit it left untranslated, reported in languages.yaml, is shown
    // at the edit too.
    let line = &own[0]["range"]["start"]["line"];
    assert!(
        found.iter().any(|d| d["code"] == "missing-translation" && &d["range"]["start"]["line"] == line),
        "{found:?}"
    );
}

#[test]
fn a_file_changed_on_disk_is_read_again_when_the_client_says_so() {
    let mut client = watching();
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new());
    // Another program renames the Dutch key, unopened: orphaned, and the
    // item's translation missing; then back, and nothing stale is left.
    let path = client.dir.path().join("rules").join(DUTCH_ABBEY);
    let dutch = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, dutch.replacen("  abbey-take-tile:\n", "  abbey-take-tyle:\n", 1)).unwrap();
    changed(&client, DUTCH_ABBEY, 2);
    let found = client.diagnostics_of(DUTCH_ABBEY);
    assert_eq!(found.len(), 1, "{found:?}");
    std::fs::write(&path, &dutch).unwrap();
    changed(&client, DUTCH_ABBEY, 2);
    assert_eq!(client.diagnostics_of(DUTCH_ABBEY), Vec::<Value>::new());
    assert!(client.diagnostics.values().all(Vec::is_empty), "{:?}", client.diagnostics);
}

#[test]
fn an_editors_backup_gets_one_message_at_itself_and_check_is_not_failed() {
    let mut client = watching();
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    for backup in ["expansions/abbey-and-mayor.yaml~", "expansions/#abbey-and-mayor.yaml#"] {
        std::fs::write(client.dir.path().join("rules").join(backup), &abbey).unwrap();
        changed(&client, backup, 1);
        let at = client.diagnostics_of(backup);
        assert_eq!(at.len(), 1, "{at:?}");
        assert_eq!(at[0]["code"], "not-a-rules-file");
        assert_eq!(at[0]["severity"], 2, "a warning: the rules still check");
        assert_eq!(at[0]["range"]["start"], json!({ "line": 0, "character": 0 }));
        assert!(at[0]["message"].as_str().unwrap().contains("backup"), "{at:?}");
        let elsewhere: Vec<_> =
            client.diagnostics.iter().filter(|(uri, d)| **uri != client.uri(backup) && !d.is_empty()).collect();
        assert!(elsewhere.is_empty(), "{elsewhere:?}");
        std::fs::remove_file(client.dir.path().join("rules").join(backup)).unwrap();
        changed(&client, backup, 3);
        assert_eq!(client.diagnostics_of(backup), Vec::<Value>::new());
    }
}

#[test]
fn without_a_watcher_a_save_reads_the_folder_again() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    let path = client.dir.path().join("rules").join(DUTCH_ABBEY);
    let dutch = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, dutch.replacen("  abbey-take-tile:\n", "  abbey-take-tyle:\n", 1)).unwrap();
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": client.uri(ABBEY) } }));
    assert_eq!(client.diagnostics_of(DUTCH_ABBEY).len(), 1);
}

#[test]
fn an_edit_publishes_only_the_files_whose_diagnostics_changed() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    client.diagnostics_of(ABBEY);
    // The bundled rules are clean: nothing was published at all.
    assert_eq!(client.published, 0);
    // A misspelt module: that file only; mended: that file only, emptied.
    client.change(ABBEY, &abbey.replacen("when: abbey\n", "when: abey\n", 1));
    assert_eq!(client.diagnostics_of(ABBEY).len(), 1);
    assert_eq!(client.published, 1);
    client.change(ABBEY, &abbey);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new());
    assert_eq!(client.published, 2);
    // An edit that changes no diagnostic publishes nothing.
    client.change(ABBEY, &abbey.replacen("# ", "#  ", 1));
    client.diagnostics_of(ABBEY);
    assert_eq!(client.published, 2);
    eprintln!("messages published per edit: 1, 1, 0 (every file's, 125, before)");
}

#[test]
fn a_new_items_missing_translation_is_shown_in_the_file_it_was_added_to() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    client.diagnostics_of(ABBEY);
    let added = abbey.replacen("  1B:\n", "  1B:\n    - id: abbey-new-item\n      when: abbey\n      text: New.\n", 1);
    client.change(ABBEY, &added);
    let here = client.diagnostics_of(ABBEY);
    let languages = client.uri("translations/languages.yaml");
    let missing = here.iter().find(|d| d["code"] == "missing-translation").expect("shown in the edited file");
    assert_eq!(missing["data"]["reportedIn"], languages.as_str());
    assert_eq!(missing["relatedInformation"][0]["location"]["uri"], languages.as_str());
    let line = added.lines().position(|l| l == "    - id: abbey-new-item").unwrap();
    assert_eq!(missing["range"]["start"]["line"], line, "{missing}");
    assert!(client.diagnostics[&languages].iter().any(|d| d["code"] == "missing-translation"));
    // Removed again: gone from both.
    client.change(ABBEY, &abbey);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new());
    assert_eq!(client.diagnostics[&languages], Vec::<Value>::new());
}

#[test]
fn an_editors_backup_opened_gets_its_message_without_a_watcher() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY);
    let backup = "expansions/abbey-and-mayor.yaml~";
    std::fs::write(client.dir.path().join("rules").join(backup), &abbey).unwrap();
    client.open(backup, &abbey);
    let at = client.diagnostics_of(backup);
    assert_eq!(at.len(), 1, "{at:?}");
    assert!(at[0]["message"].as_str().unwrap().contains("backup"), "{at:?}");
}

#[test]
fn workspace_symbols_find_every_kind_of_name_at_its_definition() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    client.diagnostics_of(ABBEY);
    let found = |client: &mut Client, query: &str| -> Vec<(String, u64, String)> {
        let answer = client.request("workspace/symbol", json!({ "query": query }));
        answer
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let uri = s["location"]["uri"].as_str().unwrap();
                let file = uri.rsplit("/rules/").next().unwrap().to_string();
                (s["name"].as_str().unwrap().to_string(), s["kind"].as_u64().unwrap(), file)
            })
            .collect()
    };
    let all = found(&mut client, "");
    let has = |name: &str, kind: u64, file: &str| all.iter().any(|s| s == &(name.to_string(), kind, file.to_string()));
    assert!(has("abbey-take-tile", 24, ABBEY), "an item");
    assert!(has("1B", 3, "base.yaml"), "a step");
    assert!(has("mayor", 2, "modules.yaml"), "a module");
    assert!(has("abbey_and_mayor", 4, "modules.yaml"), "an expansion");
    assert!(has("tiles_in_supply", 13, "modules.yaml"), "a derived flag");
    assert!(has("C2", 22, "editions.yaml"), "an edition");
    assert!(has("ROBBERS", 14, "base.yaml"), "a marker");
    let some = found(&mut client, "MAYOR-TAKE");
    assert_eq!(some.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), ["mayor-take-figure"], "{some:?}");
}

#[test]
fn a_marker_has_its_definition_references_and_hover_and_so_do_variants_and_expansions() {
    let mut client = Client::start(false);
    let file = "expansions/20th-anniversary.yaml";
    let text = client.text(file);
    client.open(file, &text);
    client.diagnostics_of(file);
    let (line, col) = common::find(&text, "ROBBERS when robbers", 2);
    let at = client.at(file, line, col);
    let definition = client.request("textDocument/definition", at.clone());
    assert!(definition["uri"].as_str().unwrap().ends_with("/rules/base.yaml"), "{definition}");
    let mut references = at.clone();
    references["context"] = json!({ "includeDeclaration": true });
    let found = client.request("textDocument/references", references);
    let found = found.as_array().unwrap();
    let files: Vec<&str> = found.iter().map(|l| l["uri"].as_str().unwrap().rsplit("/rules/").next().unwrap()).collect();
    assert!(
        files.contains(&"base.yaml") && files.contains(&file) && files.contains(&"expansions/hills-and-sheep.yaml"),
        "{files:?}"
    );
    // Each use is the marker's name alone, not the condition after it.
    assert!(
        found.iter().all(|l| l["range"]["end"]["character"].as_u64().unwrap()
            - l["range"]["start"]["character"].as_u64().unwrap()
            == 7),
        "{found:?}"
    );
    let hover = client.request("textDocument/hover", at);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("marker") && shown.contains("robber steals points"), "{shown}");
    // A variant and an expansion hover too, in editions.yaml and modules.yaml.
    let editions = client.text("editions.yaml");
    client.open("editions.yaml", &editions);
    let (line, col) = common::find(&editions, "variant: hig", 9);
    let hover = client.request("textDocument/hover", client.at("editions.yaml", line, col));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("rule variant"), "{hover}");
    let modules = client.text("modules.yaml");
    client.open("modules.yaml", &modules);
    let (line, col) = common::find(&modules, "abbey_and_mayor", 0);
    let hover = client.request("textDocument/hover", client.at("modules.yaml", line, col));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("expansion") && shown.contains("`mayor`"), "{shown}");
}

/// The places `textDocument/references` gives at `needle` (plus `skip`) of
/// `file`, each as its file and the text it covers.
fn references_at(client: &mut Client, file: &str, needle: &str, skip: usize) -> Vec<(String, String)> {
    let text = client.text(file);
    client.open(file, &text);
    client.diagnostics_of(file);
    let (line, col) = common::find(&text, needle, skip);
    let mut at = client.at(file, line, col);
    at["context"] = json!({ "includeDeclaration": true });
    let found = client.request("textDocument/references", at);
    let mut out = Vec::new();
    for l in found.as_array().unwrap_or_else(|| panic!("no references at {needle}: {found}")) {
        let rel = l["uri"].as_str().unwrap().rsplit("/rules/").next().unwrap().to_string();
        let text = client.text(&rel);
        let line = text.lines().nth(l["range"]["start"]["line"].as_u64().unwrap() as usize).unwrap();
        let (from, to) =
            (l["range"]["start"]["character"].as_u64().unwrap(), l["range"]["end"]["character"].as_u64().unwrap());
        let covered: String = line.chars().skip(from as usize).take((to - from) as usize).collect();
        out.push((rel, covered));
    }
    out
}

#[test]
fn editions_variants_and_steps_have_their_references_wherever_they_are_named() {
    let mut client = Client::start(false);
    let has = |found: &[(String, String)], file: &str, name: &str| found.iter().any(|(f, n)| f == file && n == name);
    // A step: its id, the double turn's `from:`, a step key of an expansion,
    // an effect's `skip`, the Dutch translation's key.
    let found = references_at(&mut client, "base.yaml", "from: 1B", 6);
    assert!(found.iter().all(|(_, n)| n == "1B"), "{found:?}");
    for file in ["base.yaml", ABBEY, "translations/nl/base.yaml"] {
        assert!(has(&found, file, "1B"), "{file}: {found:?}");
    }
    assert!(found.iter().filter(|(f, _)| f == "base.yaml").count() >= 2, "the id and `from:`: {found:?}");
    let skipped = references_at(&mut client, "expansions/princess-and-dragon.yaml", "skip 2B-1", 5);
    assert!(
        has(&skipped, "base.yaml", "2B-1") && has(&skipped, "expansions/princess-and-dragon.yaml", "2B-1"),
        "{skipped:?}"
    );
    // The same from the translation's key.
    let from_key = references_at(&mut client, "translations/nl/base.yaml", "\"1B\":", 1);
    assert_eq!(from_key.len(), found.len(), "{from_key:?}");
    // An edition: its `id:`, a condition's `edition ==`, `editions:` in
    // modules.yaml, an item's `foreign:`, the translation's key.
    let found = references_at(&mut client, "base.yaml", "edition == C1", 11);
    assert!(found.iter().all(|(_, n)| n == "C1"), "{found:?}");
    for file in [
        "base.yaml",
        "editions.yaml",
        "modules.yaml",
        "expansions/20th-anniversary.yaml",
        "translations/nl/editions.yaml",
    ] {
        assert!(has(&found, file, "C1"), "{file}: {found:?}");
    }
    // A rule variant: its `id:`, a condition's `variant ==`, an edition's
    // `variant:`, the translation's key.
    let found = references_at(&mut client, "editions.yaml", "id: hig", 4);
    assert!(found.iter().filter(|(f, n)| f == "editions.yaml" && n == "hig").count() >= 4, "{found:?}");
    assert!(has(&found, "translations/nl/editions.yaml", "hig"), "{found:?}");
    let found = references_at(&mut client, "base.yaml", "variant == rgg", 11);
    assert!(has(&found, "editions.yaml", "rgg") && has(&found, "base.yaml", "rgg"), "{found:?}");
    // Definition and hover there too.
    let text = client.text("base.yaml");
    let (line, col) = common::find(&text, "variant == rgg", 11);
    let at = client.at("base.yaml", line, col);
    let definition = client.request("textDocument/definition", at.clone());
    assert!(definition["uri"].as_str().unwrap().ends_with("/rules/editions.yaml"), "{definition}");
    let hover = client.request("textDocument/hover", at);
    assert!(hover["contents"]["value"].as_str().unwrap().contains("rule variant"), "{hover}");
    let dutch = "translations/nl/base.yaml";
    let text = client.text(dutch);
    let (line, col) = common::find(&text, "\"1B\":", 1);
    let definition = client.request("textDocument/definition", client.at(dutch, line, col));
    assert!(definition["uri"].as_str().unwrap().ends_with("/rules/base.yaml"), "{definition}");
}
