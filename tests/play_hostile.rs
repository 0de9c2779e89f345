//! `play` on rules given with `--rules` whose words, or whose translations'
//! words, try to break its output: characters that end a JSON string, open
//! HTML or Markdown, or quote, reach the terminal as written and the JSON
//! intact; control characters and bidirectional overrides, which `check`
//! refuses, never reach stdout or stderr raw.

// Helpers outside `#[test]` functions panic when the binary misbehaves, as tests do.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use carcassonne_rules_runtime::core::escape::terminal;
use serde_json::Value;

/// Characters that end or break a JSON string, HTML, Markdown and a shell
/// quote; all allowed in a rule's text.
const BREAKING: &str = "Draw <b>a</b> \"tile\" & 'more' \\ </script> {{x}} *em* `code` # ]]> \u{2014}\u{ad} end";

/// A copy of the bundled rules in `dir` with `from` replaced by `to` in `base.yaml`.
fn rules_with(dir: &Path, from: &str, to: &str) {
    rules_edited(dir, &[("base.yaml", from, to)]);
}

/// A copy of the bundled rules in `dir` with each `(file, from, to)` made.
fn rules_edited(dir: &Path, edits: &[(&str, &str, &str)]) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    copy(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), dir);
    for (file, from, to) in edits {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
}

fn play(rules: &Path, format: &str) -> Output {
    play_in(rules, format, "en")
}

fn play_in(rules: &Path, format: &str, lang: &str) -> Output {
    let answers = rules.parent().unwrap().join("answers.jsonl");
    // One answer: the first item of 1B (drawing the tile) is done.
    std::fs::write(&answers, "{\"do\": true}\n").unwrap();
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .arg("--rules")
        .arg(rules)
        .args(["play", "--edition", "C2", "--lang", lang, "--format", format, "--answers"])
        .arg(&answers)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The control characters (but line feeds) and bidirectional controls in `bytes`.
fn raw_controls(bytes: &[u8]) -> Vec<char> {
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    let bidi =
        |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{61c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    text.chars().filter(|&c| (c.is_control() && c != '\n') || bidi(c)).collect()
}

#[test]
fn breaking_characters_in_a_step_title_are_shown_as_written_and_keep_the_json_whole() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    let quoted = serde_json::to_string(BREAKING).unwrap();
    rules_with(&rules, "title: Draw a tile }", &format!("title: {quoted} }}"));

    let text = play(&rules, "text");
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    assert_eq!(raw_controls(&text.stdout), [] as [char; 0]);
    let stdout = String::from_utf8(text.stdout).unwrap();
    // The pending prompt is in 1B, after the answer: its heading is the title
    // as written, but for the soft hyphen, which the terminal escaper shows.
    let shown = BREAKING.replace('\u{ad}', "\\u{ad}");
    assert_eq!(shown, terminal::line(BREAKING), "the project's terminal escaper");
    assert!(stdout.contains(&format!("step 1B: {shown})")), "{stdout}");

    let json = play(&rules, "json");
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    assert_eq!(raw_controls(&json.stdout), [] as [char; 0]);
    let out: Value = serde_json::from_slice(&json.stdout).expect("the output is JSON");
    let pending = out["prompts"].as_array().unwrap().last().unwrap();
    assert_eq!(pending["step"], "1B");
    let items: Vec<&Value> = out["trace"].as_array().unwrap().iter().filter(|e| e["event"] == "item").collect();
    assert_eq!(items.len(), 1, "{out}");
    assert_eq!((items[0]["step"].as_str(), items[0]["done"].as_bool()), (Some("1B"), Some(true)));
}

#[test]
fn control_characters_and_bidi_overrides_are_refused_and_never_printed_raw() {
    for hostile in ["Draw\u{1b}[31m a tile\u{7}", "Draw a \u{202e}elit", "Draw\r\na tile", "Draw\u{9b}2J"] {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join("rules");
        let quoted = serde_json::to_string(hostile).unwrap();
        rules_with(&rules, "title: Draw a tile }", &format!("title: {quoted} }}"));
        for format in ["text", "json"] {
            let out = play(&rules, format);
            assert!(!out.status.success(), "{hostile:?} was accepted");
            assert_eq!(out.stdout, b"", "nothing is played from rules that do not check");
            assert_eq!(raw_controls(&out.stderr), [] as [char; 0], "{hostile:?} reached stderr raw");
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert!(stderr.contains("base.yaml"), "the diagnostic names the file: {stderr}");
        }
    }
}

/// The Dutch step title of 1B and the Dutch word around a prompt's place,
/// both as `text` (the word's placeholders kept).
fn dutch_with(dir: &Path, title: &str, heading: &str) {
    let (title, heading) = (serde_json::to_string(title).unwrap(), serde_json::to_string(heading).unwrap());
    rules_edited(
        dir,
        &[
            ("translations/nl/base.yaml", "text: \"Een tegel trekken\"", &format!("text: {title}")),
            ("translations/nl/program.yaml", "text: \"deel {part}, stap {step}\"", &format!("text: {heading}")),
        ],
    );
}

#[test]
fn breaking_characters_in_a_translation_are_shown_as_written_and_keep_the_json_whole() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    // A word's braces are its placeholders: the word breaks out otherwise.
    let word = BREAKING.replace("{{x}} ", "");
    dutch_with(&rules, BREAKING, &format!("{word} {{part}} {{step}}"));

    let text = play_in(&rules, "text", "nl");
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    assert_eq!(raw_controls(&text.stdout), [] as [char; 0]);
    let stdout = String::from_utf8(text.stdout).unwrap();
    // The pending prompt's place: the Dutch word with its part and step,
    // then the Dutch title, each as the terminal escaper shows it.
    let (word, title) = (terminal::line(&word), terminal::line(BREAKING));
    assert!(stdout.contains(&format!("({word} 1 1B: {title})")), "{stdout}");

    let json = play_in(&rules, "json", "nl");
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let out: Value = serde_json::from_slice(&json.stdout).expect("the output is JSON");
    let pending = out["prompts"].as_array().unwrap().last().unwrap();
    assert_eq!(pending["step"], "1B");
}

#[test]
fn a_translation_with_control_characters_is_refused_and_english_shown_instead() {
    for hostile in ["Trek\u{1b}[31m een tegel\u{7}", "Trek een \u{202e}legět", "Trek\u{9b}2J"] {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join("rules");
        dutch_with(&rules, hostile, &format!("{hostile} {{part}} {{step}}"));
        for format in ["text", "json"] {
            let out = play_in(&rules, format, "nl");
            // The rules check; the refused units fall back to English.
            assert!(out.status.success(), "{hostile:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(raw_controls(&out.stdout), [] as [char; 0], "{hostile:?} reached stdout raw");
            assert_eq!(raw_controls(&out.stderr), [] as [char; 0], "{hostile:?} reached stderr raw");
            if format == "text" {
                let stdout = String::from_utf8(out.stdout).unwrap();
                assert!(stdout.contains("(part 1, step 1B: Draw a tile)"), "{hostile:?}: {stdout}");
            }
        }
        // `check` names the translation and the character, escaped.
        let check = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
            .arg("--rules")
            .arg(&rules)
            .arg("check")
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(!check.status.success(), "{hostile:?} was accepted by check");
        assert_eq!(raw_controls(&check.stderr), [] as [char; 0], "{hostile:?} reached check's stderr raw");
        assert!(String::from_utf8_lossy(&check.stderr).contains("translations/nl/base.yaml"));
    }
}
