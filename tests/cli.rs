//! The command line's contracts: `order --format json`, `modules --format json`,
//! errors for unknown ids, `gen` and `check` on rules folders, and the compiled-in
//! rules behind `order`.

// Helpers outside `#[test]` functions panic when the binary misbehaves, as tests do.
#![allow(clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use carcassonne_rules_runtime::core::Section;
use carcassonne_rules_runtime::core::words::Word;
use serde_json::Value;

// The compiler's test helpers (copying a rules folder), shared as a file.
#[path = "../crates/compiler/tests/common/mod.rs"]
mod common;
use common::copy_dir;
// CPU time of a child process, for the tests that bound work.
#[cfg(unix)]
#[path = "../crates/compiler/tests/cpu_time/mod.rs"]
mod cpu_time;

/// The rules the compiler's tests use.
const FIXTURE: &str = "crates/compiler/tests/fixtures/minimal";
/// The bundled rules' generated code, relative to the repository root (`gen --out`).
const CODE: &str = "crates/runtime/src/generated/turn_order.rs";

fn cli(args: &[&str]) -> Output {
    cli_in(Path::new("."), args)
}

fn cli_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules")).current_dir(dir).args(args).output().expect("run the binary")
}

/// A copy of the rules folder `from` with `file`'s text passed through `edit`.
fn rules_with(from: &str, file: &str, edit: impl FnOnce(String) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(Path::new(from), dir.path());
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).expect("file to edit");
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the edit of {file} changed nothing");
    std::fs::write(&path, edited).expect("write edited file");
    dir
}

fn json(args: &[&str]) -> Value {
    let out = cli(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// The keys of a JSON object, sorted.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().expect("an object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

fn assert_item_shape(item: &Value) {
    assert_eq!(keys(item), ["children", "effect", "foreign", "id", "markers", "origin", "text"], "{item}");
    assert!(
        item["markers"].as_array().expect("markers").iter().all(|m| m.as_str().is_some_and(|m| m == m.to_uppercase()))
    );
    assert!(item["foreign"].is_boolean());
    item["children"].as_array().expect("children").iter().for_each(assert_item_shape);
}

#[test]
fn order_json_follows_the_contract() {
    let order = json(&["order", "--edition", "C2", "--with", "abbey_and_mayor", "--format", "json"]);
    assert_eq!(
        keys(&order),
        ["any_time", "edition", "final_scoring", "modules", "notes", "phases", "setup", "variant"]
    );
    assert_eq!(order["edition"], "C2");
    assert_eq!(order["variant"], "hig", "Hans im Glück's rules by default");
    assert_eq!(order["modules"], serde_json::json!(["abbey", "barn", "mayor", "wagon"]));

    let phases = order["phases"].as_array().expect("phases");
    assert_eq!(phases.iter().map(|p| p["id"].as_str().expect("id")).collect::<Vec<_>>(), ["1", "2", "3", "4"]);
    let steps: Vec<&Value> = phases.iter().flat_map(|p| p["steps"].as_array().expect("steps")).collect();
    let ids: Vec<&str> = steps.iter().map(|s| s["id"].as_str().expect("id")).collect();
    assert_eq!(
        ids,
        ["1A", "1B", "1C", "2A", "2B-1", "2B-2", "2C", "3A", "3B", "3C", "4A", "4B"],
        "no dragon: no 2D, no 3D"
    );
    for step in &steps {
        assert_eq!(keys(step), ["choose_one", "id", "items", "repeat", "title"]);
        assert_eq!(step["choose_one"], step["id"] == "2B-1" || step["id"] == "2B-2", "{}", step["id"]);
        step["items"].as_array().expect("items, possibly empty").iter().for_each(assert_item_shape);
    }
    assert!(steps.iter().all(|s| s["id"] == "3B" || s["repeat"].is_null()), "no builder: no double turn");
    assert_eq!(steps[8]["repeat"], "per_feature");
    for section in ["notes", "setup", "any_time", "final_scoring"] {
        order[section].as_array().expect(section).iter().for_each(assert_item_shape);
    }
    assert!(!order["setup"].as_array().expect("setup").is_empty(), "Abbey & Mayor brings setup");
    assert!(!order["final_scoring"].as_array().expect("final scoring").is_empty(), "the barn scores at the end");

    // The abbey stands in 1B before the ordinary draw, where the wiki puts it.
    let draw: Vec<(&str, &str)> = steps[1]["items"]
        .as_array()
        .expect("1B items")
        .iter()
        .map(|i| (i["id"].as_str().expect("id"), i["origin"].as_str().expect("origin")))
        .collect();
    let abbey = draw.iter().position(|(_, origin)| *origin == "abbey").expect("an abbey item in 1B");
    let base = draw.iter().position(|(id, _)| id.starts_with("draw-tile")).expect("the ordinary draw");
    assert!(abbey < base, "{draw:?}");
}

#[test]
fn builder_makes_the_double_turn_block() {
    let order = json(&["order", "--edition", "C2", "--with", "builder", "--format", "json"]);
    let steps: Vec<&Value> = order["phases"]
        .as_array()
        .expect("phases")
        .iter()
        .flat_map(|p| p["steps"].as_array().expect("steps"))
        .collect();
    let repeats: Vec<(&str, &Value)> = steps.iter().map(|s| (s["id"].as_str().expect("id"), &s["repeat"])).collect();
    for (id, repeat) in repeats {
        let expected = match id {
            "1A" | "4B" => Value::Null,
            "3B" => "per_feature".into(),
            _ => "double_turn".into(),
        };
        assert_eq!(*repeat, expected, "step {id}");
    }
}

#[test]
fn modules_json_follows_the_contract() {
    let modules = json(&["modules", "--format", "json"]);
    let expansions = modules["expansions"].as_array().expect("expansions");
    let abbey = expansions.iter().find(|x| x["id"] == "abbey_and_mayor").expect("Abbey & Mayor");
    assert_eq!(abbey["name"], "Abbey & Mayor");
    assert!(abbey["editions"].as_array().expect("editions").contains(&"C2".into()));
    let ids: Vec<&str> =
        abbey["modules"].as_array().expect("modules").iter().map(|m| m["id"].as_str().expect("id")).collect();
    assert_eq!(ids, ["abbey", "mayor", "wagon", "barn"]);
    assert!(abbey["modules"][0]["name"].is_string());
}

#[test]
fn unknown_ids_are_errors_with_suggestions() {
    let out = cli(&["order", "--edition", "C2", "--with", "builder,abey"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown module or expansion `abey`"), "{stderr}");
    assert!(stderr.contains("did you mean `abbey`?"), "{stderr}");
    assert!(out.stdout.is_empty());

    let out = cli(&["order", "--edition", "c2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `C2`?"));
}

#[test]
fn each_unknown_id_is_underlined_in_its_own_option() {
    // The errors hold only where each bad id stands; the diagnostics put the
    // option's value back and underline every id in it.
    let out = cli(&["order", "--edition", "c2", "--variant", "rg", "--with", "abey,nope,builder,,zz"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<Vec<char>> = stderr.lines().map(|l| l.chars().collect()).collect();
    for (value, bad) in [("c2", &["c2"][..]), ("rg", &["rg"]), ("abey,nope,builder,,zz", &["abey", "nope", "zz"])] {
        let shown: Vec<char> = format!("│ {value}").chars().collect();
        let at = lines.iter().position(|l| l.ends_with(&shown)).unwrap_or_else(|| panic!("{value} shown: {stderr}"));
        let start = lines[at].len() - value.len();
        let underline = &lines[at + 1];
        for (column, c) in value.char_indices().map(|(i, c)| (start + i, c)) {
            let in_bad = bad
                .iter()
                .any(|id| value.match_indices(id).any(|(i, _)| (i..i + id.len()).contains(&(column - start))));
            let marked = underline.get(column).is_some_and(|&u| u == '─' || u == '┬');
            assert_eq!(marked, in_bad, "column of {c:?} in {value}: {stderr}");
        }
    }
    assert!(stderr.contains("unknown edition `c2`") && stderr.contains("not an edition id"), "{stderr}");
    assert!(stderr.contains("unknown rule variant `rg`") && stderr.contains("not a rule variant id"), "{stderr}");
    assert!(stderr.contains("3 unknown module or expansion ids in --with"), "{stderr}");
}

#[test]
fn command_line_ids_with_control_characters_are_shown_not_sent() {
    // An OSC 52 clipboard write and a screen clear in `--with`, a C1 CSI and a
    // bidi override in `--edition`: the diagnostic quotes them visibly.
    let out = cli(&["order", "--edition", "C2\u{9b}2J\u{202e}", "--with", "builder,x\u{1b}]52;c;eA==\u{7}\u{1b}[2J"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.chars().any(|c| c.is_control() && c != '\n' || ('\u{202a}'..='\u{202e}').contains(&c)),
        "{stderr:?}"
    );
    assert!(stderr.contains("builder,x\\u{1b}]52;c;eA==\\u{7}\\u{1b}[2J"), "{stderr}");
    assert!(stderr.contains("C2\\u{9b}2J\\u{202e}"), "{stderr}");
}

#[test]
fn text_and_markdown_render_every_step() {
    for format in ["text", "markdown"] {
        let out = cli(&["order", "--edition", "C1", "--with", "dragon", "--format", format]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        for step in ["1A", "2D", "4B"] {
            assert!(text.contains(&format!("Step {step}:")), "{format} lacks {step}");
        }
        assert!(text.contains("There are no actions in this step."), "{format}");
    }
}

#[test]
fn publisher_variants_move_the_dragon_in_different_steps() {
    let steps = |variant: &[&str]| {
        let mut args = vec!["order", "--edition", "C1", "--with", "dragon", "--format", "json"];
        args.extend_from_slice(variant);
        let order = json(&args);
        let ids: Vec<String> = order["phases"]
            .as_array()
            .expect("phases")
            .iter()
            .flat_map(|p| p["steps"].as_array().expect("steps"))
            .map(|s| s["id"].as_str().expect("id").to_string())
            .collect();
        (ids.contains(&"2D".to_string()), ids.contains(&"3D".to_string()))
    };
    assert_eq!(steps(&[]), (true, false), "Hans im Glück's rules by default: the dragon moves in 2D");
    assert_eq!(steps(&["--variant", "zmg"]), (true, false));
    assert_eq!(steps(&["--variant", "rgg"]), (false, true), "Rio Grande's: in 3D");

    let out = cli(&["order", "--edition", "C1", "--variant", "rgx"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `rgg`?"));
}

#[test]
fn effects_are_objects_in_json() {
    let order = json(&["order", "--edition", "C2", "--with", "builder,princess", "--format", "json"]);
    let mut effects = Vec::new();
    fn walk(items: &Value, out: &mut Vec<(String, Value)>) {
        for item in items.as_array().expect("items") {
            if !item["effect"].is_null() {
                out.push((item["id"].as_str().expect("id").to_string(), item["effect"].clone()));
            }
            walk(&item["children"], out);
        }
    }
    for step in order["phases"].as_array().expect("phases").iter().flat_map(|p| p["steps"].as_array().expect("steps")) {
        walk(&step["items"], &mut effects);
    }
    let effects: Vec<&Value> = effects.iter().map(|(_, e)| e).collect();
    assert!(effects.contains(&&serde_json::json!({"go_back": "1B"})), "{effects:?}");
    assert!(effects.contains(&&serde_json::json!({"skip": ["2B-1", "2B-2"]})), "{effects:?}");
    assert!(effects.contains(&&serde_json::json!({"double_turn": true})), "{effects:?}");
}

#[test]
fn origins_are_only_ever_selected_modules() {
    for (edition, with) in [("C2", "builder,abbey_and_mayor"), ("C2", "abbey"), ("C1", "russian_promos")] {
        let order = json(&["order", "--edition", edition, "--with", with, "--format", "json"]);
        let selected: Vec<&str> =
            order["modules"].as_array().expect("modules").iter().map(|m| m.as_str().expect("id")).collect();
        fn walk<'a>(items: &'a Value, out: &mut Vec<&'a str>) {
            for item in items.as_array().expect("items") {
                out.push(item["origin"].as_str().expect("origin"));
                walk(&item["children"], out);
            }
        }
        let mut origins = Vec::new();
        for section in ["notes", "setup", "any_time", "final_scoring"] {
            walk(&order[section], &mut origins);
        }
        for step in order["phases"].as_array().expect("phases").iter().flat_map(|p| p["steps"].as_array().expect("s")) {
            walk(&step["items"], &mut origins);
        }
        assert!(origins.iter().all(|o| *o == "base" || selected.contains(o)), "{edition} [{with}]: {origins:?}");
    }
    // In an abbey-only game the ordinary draw comes with the abbey, not with the bazaars.
    let order = json(&["order", "--edition", "C2", "--with", "abbey", "--format", "json"]);
    let draw = &order["phases"][0]["steps"][1]["items"];
    let draw: Vec<(&str, &str)> = draw
        .as_array()
        .expect("1B")
        .iter()
        .map(|i| (i["id"].as_str().expect("id"), i["origin"].as_str().expect("origin")))
        .collect();
    assert!(draw.contains(&("draw-tile-if-nothing-else", "abbey")), "{draw:?}");
}

/// `order` without `--rules` runs the rules compiled into the binary: it works
/// outside the repository, and ignores a rules folder; with `--rules` it
/// interprets that folder.
#[test]
fn order_runs_the_compiled_in_rules_unless_given_a_folder() {
    let original = "Let every player see the tile.";
    let edited = rules_with("rules", "base.yaml", |t| t.replace(original, "Show the tile to nobody at all."));
    let folder = edited.path().to_str().expect("utf-8 path");
    let args = ["order", "--edition", "C2", "--with", "builder,abbey_and_mayor"];

    let compiled = cli_in(edited.path(), &args);
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    let compiled = String::from_utf8_lossy(&compiled.stdout);
    assert!(compiled.contains(original), "outside the repository, from the compiled-in rules");

    let interpreted = cli(&[&["--rules", folder][..], &args[..]].concat());
    assert!(interpreted.status.success(), "{}", String::from_utf8_lossy(&interpreted.stderr));
    let interpreted = String::from_utf8_lossy(&interpreted.stdout);
    assert!(interpreted.contains("Show the tile to nobody at all.") && !interpreted.contains(original));
    assert_eq!(compiled.replace(original, "Show the tile to nobody at all."), interpreted, "only the edit differs");

    let modules = cli_in(edited.path(), &["modules", "--format", "json"]);
    assert!(modules.status.success(), "modules also needs no rules folder");
}

/// The one freshness check of the generated files: `gen --check` on the bundled
/// rules. It never writes.
#[test]
fn checked_in_generated_code_is_current() {
    let out = cli(&["check"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = cli(&["gen", "--check"]);
    assert!(
        out.status.success(),
        "{}a generated file is stale: run `cargo run -- gen`, review the diff and commit it",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- rule authors' commands on a rules folder -----------------------------------

#[test]
fn check_exits_1_with_file_line_col_and_generates_nothing() {
    let dir = rules_with(FIXTURE, "expansions/abbey-and-mayor.yaml", |t| {
        t.replace("ROBBERS when peasant_revolts", "ROBBERS when peasant_refolts")
    });
    let rules = dir.path().to_str().expect("utf-8 path");
    let out = cli(&["--rules", rules, "check"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("abbey-and-mayor.yaml:8:30"), "{stderr}");
    assert!(stderr.contains("did you mean `peasant_revolts`?"), "{stderr}");
    assert!(stderr.contains("ROBBERS when peasant_refolts"), "the source line is shown: {stderr}");

    let generated: PathBuf = dir.path().join("out");
    let out = cli(&["--rules", rules, "gen", "--out", generated.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!generated.exists(), "gen wrote something although the rules have problems");
}

#[test]
fn a_rules_folder_named_with_control_characters_is_shown_not_sent() {
    // A title-setting OSC sequence and a bidi override in the folder's name:
    // the diagnostic's `file:line:col` and header quote them visibly.
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules\u{1b}]0;title\u{7}\u{202e}");
    copy_dir(Path::new(FIXTURE), &dir);
    let file = dir.join("expansions/abbey-and-mayor.yaml");
    let text = std::fs::read_to_string(&file).expect("read the fixture");
    std::fs::write(&file, text.replace("ROBBERS when peasant_revolts", "ROBBERS when peasant_refolts")).expect("edit");
    let out = cli(&["--rules", dir.to_str().expect("utf-8 path"), "check"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.chars().any(|c| c.is_control() && c != '\n' || c == '\u{202e}'), "{stderr:?}");
    let place = "rules\\u{1b}]0;title\\u{7}\\u{202e}/expansions/abbey-and-mayor.yaml:8:30";
    assert!(stderr.contains(place), "{stderr}");
}

#[test]
fn gen_writes_then_check_passes_and_staleness_is_detected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("repository");
    let out = out_dir.to_str().expect("utf-8");
    assert_eq!(
        cli(&["--rules", FIXTURE, "gen", "--check", "--out", out]).status.code(),
        Some(1),
        "missing counts as stale"
    );
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--out", out]).status.code(), Some(0));
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--check", "--out", out]).status.code(), Some(0));
    let listing = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("out dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(listing(&out_dir), [".carcassonne-rules", "crates", "generated"]);
    assert_eq!(listing(&out_dir.join(".carcassonne-rules")), [".gitignore", "lock"], "no temporaries left behind");
    assert_eq!(
        listing(&out_dir.join("crates/runtime/src/generated")),
        ["turn_order.rs", "turn_order_lang_nl.rs"],
        "the code in the runtime, and the fixture's Dutch tables beside it"
    );
    let schemas = ["base", "editions", "errata", "expansion", "modules"].map(|s| format!("{s}.schema.json"));
    assert_eq!(listing(&out_dir.join("generated/schemas")), schemas, "the rules files' JSON Schemas");

    // A stale schema alone makes the generated files stale.
    let schema = out_dir.join("generated/schemas/base.schema.json");
    let text = std::fs::read_to_string(&schema).expect("schema");
    std::fs::write(&schema, text.replace("\"title\"", "\"old title\"")).expect("edit the schema");
    let stale = cli(&["--rules", FIXTURE, "gen", "--check", "--out", out]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&stale.stderr).contains("base.schema.json is stale"));
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--out", out]).status.code(), Some(0));

    let edited = rules_with(FIXTURE, "base.yaml", |t| t.replace("Show the tile.", "Show the tile to everyone."));
    let rules = edited.path().to_str().expect("utf-8");
    let stale = cli(&["--rules", rules, "gen", "--check", "--out", out]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&stale.stderr).contains("stale"));

    // A translation's edit makes its language's tables stale, and only them.
    let translated = rules_with(FIXTURE, "translations/nl/base.yaml", |t| {
        assert!(t.contains("text: Een tegel leggen\n"), "the fixture's Dutch title of phase 1");
        t.replace("text: Een tegel leggen\n", "text: Een landtegel leggen\n")
    });
    let rules = translated.path().to_str().expect("utf-8");
    let stale = cli(&["--rules", rules, "gen", "--check", "--out", out]);
    assert_eq!(stale.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&stale.stderr);
    assert!(stderr.contains("turn_order_lang_nl.rs is stale"), "{stderr}");
    assert_eq!(stderr.matches(" is stale").count(), 1, "only the language's file: {stderr}");
}

// ---- hostile command-line input ---------------------------------------------------

#[cfg(unix)]
#[test]
fn thousands_of_unknown_ids_make_one_short_diagnostic() {
    // The CPU time of the child, not the wall time: a busy machine must not
    // fail the test. 5,000 ids (39 KB) take 0.35 s of CPU (debug build), each
    // compared with each known id: linear in the ids, so ten times as many
    // would take about 3.5 s and fail the 1 s bound, as would work quadratic
    // in them.
    let run = |with: &str| {
        let (out, cpu) = cpu_time::output(Command::new(env!("CARGO_BIN_EXE_carcassonne-rules")).args([
            "order",
            "--edition",
            "C2",
            "--with",
            with,
        ]));
        assert!(cpu < std::time::Duration::from_secs(1), "took {cpu:?} of CPU time");
        out
    };
    let ids: Vec<String> = (0..5000).map(|i| format!("nope{i}")).collect();
    let out = run(&ids.join(","));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("5000 unknown module or expansion ids in --with"), "{stderr}");
    assert!(stderr.contains("4990 more unknown ids are not underlined"), "{stderr}");
    assert!(stderr.len() < 4000, "{} bytes of diagnostics", stderr.len());

    let out = run(&"x".repeat(100_000));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.len() < 2000, "{} bytes of diagnostics", out.stderr.len());
}

#[cfg(unix)]
#[test]
fn non_utf8_arguments_are_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .args(["order", "--edition"])
        .arg(std::ffi::OsStr::from_bytes(b"C\xff"))
        .output()
        .expect("run the binary");
    assert_eq!(out.status.code(), Some(2), "clap's usage error: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid UTF-8"));
}

#[test]
fn rules_naming_a_file_says_so() {
    let out = cli(&["--rules", "Cargo.toml", "check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`Cargo.toml` is not a folder"));
}

#[test]
fn gen_with_broken_rules_leaves_generated_code_as_it_was_and_writes_readable_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("repository");
    let out_arg = out.to_str().expect("utf-8");
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--out", out_arg]).status.code(), Some(0));
    let file = out.join(CODE);
    let before = std::fs::read(&file).expect("generated file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).expect("metadata").permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "generated files are readable by all, like any file cargo writes");
    }
    let broken = rules_with(FIXTURE, "base.yaml", |t| t.replacen("Show the tile.", "Show the {tile.", 1));
    let broken = broken.path().to_str().expect("utf-8");
    assert_eq!(cli(&["--rules", broken, "gen", "--out", out_arg]).status.code(), Some(1));
    assert_eq!(std::fs::read(&file).expect("generated file"), before, "byte-identical");
    // crates/ (the code), generated/ (the schemas) and the hidden folder with
    // the lock, nothing else.
    let entries = std::fs::read_dir(&out).expect("out dir").count();
    assert_eq!(entries, 3, "no temporary file left behind");
    assert_eq!(std::fs::read_dir(out.join(".carcassonne-rules")).expect("hidden folder").count(), 2);
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    use std::process::Stdio;
    for args in [&["order", "--edition", "C2", "--with", "abbey_and_mayor"][..], &["--rules", "no/such", "check"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // Close both pipes before the program writes.
        drop(child.stdout.take());
        drop(child.stderr.take());
        let status = child.wait().expect("wait");
        assert_ne!(status.code(), Some(101), "{args:?} panicked");
    }
}

// ---- untrusted rules and ids ------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_rules_file_linked_to_the_environment_leaks_none_of_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(Path::new(FIXTURE), dir.path());
    std::os::unix::fs::symlink("/proc/self/environ", dir.path().join("expansions/env.yaml")).expect("symlink");
    let rules = dir.path().to_str().expect("utf-8");
    let secret = "s3cr3t-token-0123456789";
    let site = dir.path().join("site");
    let wiki = dir.path().join("order.wikitext");
    let generated = dir.path().join("generated");
    let commands: [&[&str]; 6] = [
        &["check"],
        &["verify"],
        &["gen", "--out", generated.to_str().expect("utf-8")],
        &["site", "--out", site.to_str().expect("utf-8")],
        &["wiki", "--out", wiki.to_str().expect("utf-8")],
        &["order", "--edition", "C2"],
    ];
    for args in commands {
        let out = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
            .args(["--rules", rules])
            .args(args)
            .env("CARCASSONNE_TEST_SECRET", secret)
            .output()
            .expect("run the binary");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(printed.contains("env.yaml` is a symbolic link"), "{args:?}: {printed}");
        // Every value of the environment long enough to be a secret, and not
        // a part of the paths the output names.
        for (name, value) in std::env::vars().chain([("CARCASSONNE_TEST_SECRET".into(), secret.into())]) {
            if value.len() >= 8 && !rules.contains(&value) {
                assert!(!printed.contains(&value), "{args:?} printed ${name}: {printed}");
            }
        }
    }
    assert!(!site.exists() && !wiki.exists() && !generated.exists(), "nothing was written");
}

#[test]
fn command_line_ids_are_quoted_escaped() {
    for (option, value) in
        [("--edition", "C\u{1b}]0;title\u{7}"), ("--variant", "h\u{202e}ig"), ("--with", "abbey,x\u{9b}2J")]
    {
        let mut args = vec!["order", "--edition", "C2"];
        if option == "--edition" {
            args[2] = value;
        } else {
            args.extend([option, value]);
        }
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(1), "{option}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let message = stderr.lines().find(|l| l.contains("unknown")).expect("a message");
        let escaped: String =
            value.chars().filter(|c| !c.is_control() && !('\u{202a}'..='\u{202e}').contains(c)).collect();
        assert!(!message.chars().any(|c| c.is_control() || c == '\u{202e}'), "{option}: {message:?}");
        assert!(message.contains("\\u{"), "{option}: shown as an escape: {message:?} ({escaped})");
    }
}

// ---- writing outputs ------------------------------------------------------------------

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn wiki_and_site_replace_only_their_own_regular_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "not the wiki's").expect("write");
    let link = dir.path().join("link.wikitext");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let fifo = dir.path().join("fifo.wikitext");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let to_null = dir.path().join("null.wikitext");
    std::os::unix::fs::symlink("/dev/null", &to_null).expect("symlink");
    for (out, what) in [(&link, "a symbolic link"), (&fifo, "a FIFO"), (&to_null, "a symbolic link")] {
        let run = cli(&["--rules", FIXTURE, "wiki", "--out", out.to_str().expect("utf-8")]);
        assert_eq!(run.status.code(), Some(1), "{}", out.display());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(&format!("is {what}: refusing to replace it")), "{stderr}");
        assert!(std::fs::symlink_metadata(out).expect("still there").file_type().is_symlink() || out == &fifo);
    }
    assert_eq!(std::fs::read_to_string(&target).expect("target"), "not the wiki's", "not written through the link");
    assert!(Command::new("test").arg("-p").arg(&fifo).status().expect("test").success(), "still a FIFO");
    assert_eq!(
        names_in(dir.path()),
        ["fifo.wikitext", "link.wikitext", "null.wikitext", "target.txt"],
        "no temporaries"
    );
    let wiki = dir.path().join("order.wikitext");
    assert_eq!(cli(&["--rules", FIXTURE, "wiki", "--out", wiki.to_str().expect("utf-8")]).status.code(), Some(0));
    assert_eq!(
        cli(&["--rules", FIXTURE, "wiki", "--out", wiki.to_str().expect("utf-8")]).status.code(),
        Some(0),
        "its own file"
    );

    // site: a new folder, then the same folder again; never one with other files or links.
    let site = dir.path().join("site");
    let site_arg = site.to_str().expect("utf-8");
    assert_eq!(cli(&["--rules", FIXTURE, "site", "--out", site_arg]).status.code(), Some(0));
    assert_eq!(names_in(&site), ["app.js", "index.html", "index.nl.html", "rules.js", "style.css"], "no temporaries");
    assert_eq!(cli(&["--rules", FIXTURE, "site", "--out", site_arg]).status.code(), Some(0));
    std::fs::write(site.join("notes.txt"), "mine").expect("write");
    let run = cli(&["--rules", FIXTURE, "site", "--out", site_arg]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("holds notes.txt, which this command did not write"));
    std::fs::remove_file(site.join("notes.txt")).expect("rm");
    std::fs::remove_file(site.join("app.js")).expect("rm");
    std::os::unix::fs::symlink(&target, site.join("app.js")).expect("symlink");
    let run = cli(&["--rules", FIXTURE, "site", "--out", site_arg]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("app.js is a symbolic link"));
    assert_eq!(std::fs::read_to_string(&target).expect("target"), "not the wiki's");
    let linked = dir.path().join("linked-site");
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), &linked).expect("symlink");
    let run = cli(&["--rules", FIXTURE, "site", "--out", linked.to_str().expect("utf-8")]);
    assert_eq!(run.status.code(), Some(1));
    assert!(!dir.path().join("elsewhere").exists(), "not written through the link");
}

#[cfg(unix)]
#[test]
fn gen_never_writes_through_a_symlink_in_generated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("repository");
    let out_arg = out.to_str().expect("utf-8");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    std::fs::create_dir_all(out.join("generated")).expect("mkdir");
    std::fs::create_dir_all(out.join(CODE).parent().expect("a folder")).expect("mkdir");
    std::os::unix::fs::symlink(&elsewhere, out.join("generated/schemas")).expect("symlink");
    let run = cli(&["--rules", FIXTURE, "gen", "--out", out_arg]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("schemas is a symbolic link: refusing to write through it"));
    assert!(names_in(&elsewhere).is_empty());
    assert!(!out.join(CODE).exists(), "nothing of the set was written");

    std::fs::remove_file(out.join("generated/schemas")).expect("rm");
    std::os::unix::fs::symlink(elsewhere.join("code.rs"), out.join(CODE)).expect("symlink");
    let run = cli(&["--rules", FIXTURE, "gen", "--out", out_arg]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("turn_order.rs is a symbolic link"));
    assert!(names_in(&elsewhere).is_empty());
    let run = cli(&["--rules", FIXTURE, "gen", "--check", "--out", out_arg]);
    assert_eq!(run.status.code(), Some(1), "not read through the link either");
}

/// The generated files in a git repository, committed with contents that
/// every `gen` replaces; `gen --out` is the repository's root.
fn committed_generated() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().to_path_buf();
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--out", out.to_str().expect("utf-8")]).status.code(), Some(0));
    std::fs::remove_dir_all(out.join(".carcassonne-rules")).expect("rm");
    for file in generated_files(&out) {
        std::fs::write(&file, "old\n").expect("write");
    }
    let git = |args: &[&str]| {
        let run = Command::new("git").current_dir(dir.path()).args(args).output().expect("git");
        assert!(run.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&run.stderr));
    };
    // The repository's own rule for gen's hidden folder (which also ignores
    // itself, for any other --out).
    let ignore = "/.carcassonne-rules/";
    let ours = std::fs::read_to_string(".gitignore").expect("the project's .gitignore");
    assert!(ours.lines().any(|l| l == ignore), "{ignore} is in .gitignore");
    std::fs::write(dir.path().join(".gitignore"), format!("{ignore}\n")).expect("write");
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "old"]);
    (dir, out)
}

/// The generated files under `out` (not the hidden folder), sorted: the
/// code and its languages' tables, the schemas.
fn generated_files(out: &Path) -> Vec<PathBuf> {
    let code = out.join(CODE);
    let mut files: Vec<PathBuf> = std::fs::read_dir(code.parent().expect("the code's folder"))
        .expect("the code's folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert_eq!(files.first(), Some(&code), "the code first, its languages' tables after it");
    let mut schemas: Vec<PathBuf> =
        std::fs::read_dir(out.join("generated/schemas")).expect("schemas").map(|e| e.expect("entry").path()).collect();
    schemas.sort();
    files.extend(schemas);
    files
}

#[cfg(unix)]
#[test]
fn gen_killed_midway_leaves_the_set_whole_and_nothing_for_git() {
    let (dir, out) = committed_generated();
    let out_arg = out.to_str().expect("utf-8");
    let hidden = out.join(".carcassonne-rules");
    // How long a whole `gen` takes here and now: the signals land from its
    // start to its end.
    let started = std::time::Instant::now();
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--out", out_arg]).status.code(), Some(0));
    let whole = started.elapsed();
    let mut interrupted = 0;
    let mut killed_hard: Vec<String> = Vec::new();
    for (round, signal) in (0..24u32).zip(["INT", "TERM", "KILL"].into_iter().cycle()) {
        // Back to the old set, then a `gen` stopped after a growing delay.
        for file in generated_files(&out) {
            std::fs::write(&file, "old\n").expect("write");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
            .args(["--rules", FIXTURE, "gen", "--out", out_arg])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(whole * round / 24);
        if signal == "KILL" {
            killed_hard.push(format!("stage-{}", child.id()));
        }
        let killed = Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status().expect("kill");
        let status = child.wait().expect("wait");
        if killed.success() && !status.success() {
            interrupted += 1;
        }
        let old = generated_files(&out).iter().filter(|f| std::fs::read_to_string(f).expect("read") == "old\n").count();
        if signal != "KILL" {
            assert!(
                old == 0 || old == generated_files(&out).len(),
                "SIG{signal} after {round}: {old} files old, the rest new"
            );
            if hidden.exists() {
                // What a `kill -9` left stays until a `gen` gets as far as its lock.
                let left = names_in(&hidden);
                let allowed = |n: &String| n == ".gitignore" || n == "lock" || killed_hard.contains(n);
                assert!(left.iter().all(allowed), "SIG{signal} left {left:?}");
            }
        }
        // Whatever a kill leaves is in the hidden folder, which git ignores.
        let status = Command::new("git")
            .current_dir(dir.path())
            .args(["status", "--porcelain", "--untracked-files=all"])
            .output()
            .expect("git");
        let status = String::from_utf8_lossy(&status.stdout);
        let generated = |l: &str| {
            l.starts_with(" M crates/runtime/src/generated/turn_order") || l.starts_with(" M generated/schemas/")
        };
        assert!(status.lines().all(generated), "SIG{signal}: {status}");
    }
    assert!(interrupted >= 4, "only {interrupted} runs were stopped before they finished (a run takes {whole:?})");
    // The next `gen` removes what a `kill -9` left, and writes the whole set.
    std::fs::create_dir_all(hidden.join("stage-left-by-kill")).expect("mkdir");
    std::fs::write(hidden.join("stage-left-by-kill/0"), "half").expect("write");
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--out", out_arg]).status.code(), Some(0));
    assert_eq!(names_in(&hidden), [".gitignore", "lock"]);
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--check", "--out", out_arg]).status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn a_second_gen_waits_for_the_lock_and_says_so() {
    use std::time::Duration;
    let (_dir, out) = committed_generated();
    let out_arg = out.to_str().expect("utf-8");
    std::fs::create_dir_all(out.join(".carcassonne-rules")).expect("mkdir");
    let lock = std::fs::File::create(out.join(".carcassonne-rules/lock")).expect("lock file");
    lock.lock().expect("lock");
    let child = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .args(["--rules", FIXTURE, "gen", "--out", out_arg])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(std::fs::read_to_string(out.join(CODE)).expect("read"), "old\n", "it waited");
    lock.unlock().expect("unlock");
    let run = child.wait_with_output().expect("wait");
    assert!(run.status.success());
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("waiting for another run"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--check", "--out", out_arg]).status.code(), Some(0));

    // Two at once: both finish, and the set is whole.
    for file in generated_files(&out) {
        std::fs::write(&file, "old\n").expect("write");
    }
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
            .args(["--rules", FIXTURE, "gen", "--out", out_arg])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn")
    };
    let (mut a, mut b) = (spawn(), spawn());
    assert!(a.wait().expect("wait").success() && b.wait().expect("wait").success());
    assert_eq!(cli(&["--rules", FIXTURE, "gen", "--check", "--out", out_arg]).status.code(), Some(0));
    assert_eq!(names_in(&out.join(".carcassonne-rules")), [".gitignore", "lock"]);
}

// ---- verify, explain, diff ----------------------------------------------------------

#[test]
fn verify_passes_on_the_bundled_rules_and_reproduces_a_planted_overlap() {
    let out = cli(&["verify"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("properties hold for every selection"));

    let planted = rules_with("rules", "base.yaml", |t| {
        t.replacen("    - id: draw-tile\n", "    - id: draw-tile\n      one_of: drawing\n", 1).replacen(
            "    - id: show-tile\n",
            "    - id: show-tile\n      one_of: drawing\n",
            1,
        )
    });
    let folder = planted.path().to_str().expect("utf-8 path");
    let out = cli(&["--rules", folder, "verify"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("base.yaml:"), "located: {stderr}");
    let command = stderr.split("for example: ").nth(1).and_then(|rest| rest.lines().next()).expect("an example");
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let order = json(&[&["--rules", folder][..], &args, &["--format", "json"]].concat());
    let text = order.to_string();
    assert!(text.contains("\"draw-tile\"") && text.contains("\"show-tile\""), "the example shows both: {command}");
}

#[test]
fn explain_says_why_and_what_flips_it() {
    let out = cli(&["explain", "draw-tile-if-nothing-else", "--edition", "C2", "--with", "builder,abbey"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("`draw-tile-if-nothing-else` in step 1B: shown"), "{text}");
    assert!(text.contains("tiles_in_supply = abbey or halflings or german_castles → true"), "{text}");
    assert!(text.contains("smallest change that hides it: remove abbey"), "{text}");
    assert!(text.contains("carcassonne-rules order --edition C2 --with builder"), "{text}");

    let out = cli(&["explain", "draw-tile-if-nothing", "--edition", "C2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `draw-tile-if-nothing-else`?"));
}

#[test]
fn diff_shows_what_a_module_adds_by_item_id() {
    let out = cli(&["diff", "--edition", "C2", "--with", "builder", "--against", "builder,abbey"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("+    - [abbey-play-from-supply]"), "{text}");
    assert!(text.contains("-    - [draw-tile] Draw a tile at random."), "{text}");
    assert!(!text.contains("\x1b["), "no colour when not a terminal");
    let same = cli(&["diff", "--edition", "C1", "--against", ""]);
    assert!(same.status.success() && same.stdout.is_empty(), "equal selections: no diff");
}

#[test]
fn review_json_follows_the_contract_and_fails_on_change_when_asked() {
    let head = rules_with("rules", "expansions/abbey-and-mayor.yaml", |t| {
        t.replace(
            "    - id: mayor-deploy\n      when: mayor\n",
            "    - id: mayor-deploy\n      when: mayor and not barn\n",
        )
    });
    let head_dir = head.path().to_str().expect("UTF-8 path");
    let out = cli(&["review", "--base", "rules", "--rules", head_dir, "--format", "json", "--fail-on-change"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "a change is no error: {}", String::from_utf8_lossy(&out.stderr));
    let review: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(keys(&review), ["base", "changes", "head", "summary"]);
    assert_eq!(review["base"], "rules");
    assert_eq!(review["head"], head_dir);
    let change = &review["changes"][0];
    for key in ["kind", "item", "step", "editions", "where", "selections", "example"] {
        assert!(change.get(key).is_some(), "{key} in {change}");
    }
    assert_eq!(change["kind"], "hidden");
    assert_eq!(keys(&change["selections"]), ["C1", "C2", "WE"]);
    assert!(change["selections"]["C1"].is_u64() || change["selections"]["C1"].is_number());
    // The example shows the change: the item is in the base's turn order, not the head's.
    let example = change["example"].as_str().expect("an example");
    let mut args: Vec<&str> = example.split(' ').collect();
    args.extend(["--format", "json"]);
    let with = |dir: &str| {
        let mut a = args.clone();
        a.extend(["--rules", dir]);
        String::from_utf8(cli(&a).stdout).expect("UTF-8")
    };
    assert!(with("rules").contains("\"mayor-deploy\""));
    assert!(!with(head_dir).contains("\"mayor-deploy\""));
    // Without the flag, a change exits 0; no change says so.
    assert!(cli(&["review", "--base", "rules", "--rules", head_dir]).status.success());
    let same = cli(&["review", "--base", "rules", "--fail-on-change"]);
    assert!(same.status.success());
    assert!(String::from_utf8_lossy(&same.stdout).contains("no change in any selection"));
}

/// Runs git in `dir`, as a test author would.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_pull_request_under_review_cannot_make_the_base_a_folder() {
    // A repository whose `main` holds the bundled rules, and a pull request
    // that changes them and adds a folder or a link named as the base, so
    // that the gate would compare the head with itself.
    let repo = tempfile::tempdir().expect("temp dir");
    git(repo.path(), &["init", "-q", "-b", "main"]);
    copy_dir(Path::new("rules"), &repo.path().join("rules"));
    git(repo.path(), &["add", "rules"]);
    git(repo.path(), &["commit", "-q", "-m", "rules"]);
    git(repo.path(), &["branch", "origin/main"]);
    git(repo.path(), &["checkout", "-q", "-b", "pr"]);
    let abbey = repo.path().join("rules/expansions/abbey-and-mayor.yaml");
    let text = std::fs::read_to_string(&abbey).expect("read");
    std::fs::write(&abbey, text.replace("      when: mayor\n", "      when: mayor and not barn\n")).expect("write");
    let gate = |base: &str| cli_in(repo.path(), &["review", "--base", base, "--rules", "rules", "--fail-on-change"]);
    assert_eq!(gate("main").status.code(), Some(1), "the change is seen against the revision");

    #[cfg(unix)]
    std::os::unix::fs::symlink("rules", repo.path().join("main")).expect("symlink");
    copy_dir(&repo.path().join("rules"), &repo.path().join("origin/main"));
    for base in ["main", "origin/main"] {
        if !repo.path().join(base).exists() {
            continue;
        }
        let out = gate(base);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{base}: refused, not passed: {stderr}");
        assert!(out.stdout.is_empty(), "{base}: no review printed");
        assert!(stderr.contains(&format!("`{base}` names both")), "{stderr}");
        assert!(stderr.contains("a revision of the repository"), "{stderr}");
    }
    // A path that is no revision name reads the folder, unambiguously.
    let out = gate("./origin/main");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no change in any selection"));
}

#[test]
fn check_counts_columns_in_characters_as_rustc_does() {
    let line = "      text: \"Bürgermeister → {C1: mayor | C9: Mayor}\"";
    let dir = rules_with("rules", "expansions/abbey-and-mayor.yaml", |text| {
        text.replacen("      text: Every player adds the mayor of their colour to their supply.", line, 1)
    });
    let out = cli(&["--rules", dir.path().to_str().expect("utf-8"), "check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The column of `C9` in characters (ü and → are one each), 1-based.
    let col = line[..line.find("C9").expect("C9")].chars().count() + 1;
    assert_eq!(col, 43);
    assert!(stderr.contains(&format!("abbey-and-mayor.yaml:18:{col}]")), "{stderr}");
}

/// Every item of a turn order's JSON, sub-items included.
fn all_items(order: &Value) -> Vec<&Value> {
    fn walk<'v>(items: &'v Value, out: &mut Vec<&'v Value>) {
        for item in items.as_array().expect("items") {
            out.push(item);
            walk(&item["children"], out);
        }
    }
    let mut out = Vec::new();
    for section in ["notes", "setup", "any_time", "final_scoring"] {
        walk(&order[section], &mut out);
    }
    for phase in order["phases"].as_array().expect("phases") {
        for step in phase["steps"].as_array().expect("steps") {
            walk(&step["items"], &mut out);
        }
    }
    out
}

#[test]
fn order_in_a_language_keeps_the_contract_and_says_each_items_state() {
    let args = ["order", "--edition", "C2", "--with", "builder,abbey_and_mayor", "--format", "json"];
    let english = json(&args);
    assert_eq!(english.get("lang"), None, "English is the rules' own: no lang");
    assert!(all_items(&english).iter().all(|i| i.get("translation").is_none()));
    for lang in ["nl", "ru"] {
        let translated = json(&[&args[..], &["--lang", lang]].concat());
        assert_eq!(translated["lang"], lang);
        let (en, tr) = (all_items(&english), all_items(&translated));
        assert_eq!(en.len(), tr.len(), "a translation changes no item's presence");
        let mut states = BTreeSet::new();
        for (e, t) in en.iter().zip(&tr) {
            // Ids, markers and the rest are the English order's; the text is
            // the translation, or the English where it is missing.
            for key in ["id", "origin", "markers", "foreign", "effect"] {
                assert_eq!(e[key], t[key], "{lang} {}: {key}", e["id"]);
            }
            let state = t["translation"].as_str().expect("a state");
            match state {
                "translated" => assert!(e["text"] == "" || e["text"] != t["text"], "{lang} {}", e["id"]),
                "missing" => assert_eq!(e["text"], t["text"]),
                other => panic!("{lang} {}: {other}", e["id"]),
            }
            states.insert(state);
        }
        let expected: BTreeSet<&str> =
            if lang == "nl" { ["translated"].into() } else { ["translated", "missing"].into() };
        assert_eq!(states, expected, "{lang}");
        assert_ne!(english["phases"][0]["title"], translated["phases"][0]["title"]);
    }
}

#[test]
fn an_unknown_language_is_an_error_with_a_suggestion() {
    let out = cli(&["order", "--edition", "C2", "--lang", "nll"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown language `nll`") && err.contains("did you mean `nl`?"), "{err}");
    assert!(err.contains("en, nl, ru"), "{err}");
}

#[test]
fn translations_json_follows_the_contract() {
    let report = json(&["translations", "--format", "json"]);
    assert_eq!(keys(&report), ["locales", "source"]);
    assert_eq!(report["source"], "en");
    let locales = report["locales"].as_array().expect("locales");
    let langs: Vec<&str> = locales.iter().map(|l| l["lang"].as_str().expect("lang")).collect();
    assert_eq!(langs, ["nl", "ru"]);
    for l in locales {
        assert_eq!(
            keys(l),
            [
                "lang",
                "missing",
                "missing_units",
                "orphaned",
                "outdated",
                "outdated_units",
                "percent",
                "translated",
                "units"
            ]
        );
        let n = |k: &str| l[k].as_u64().expect("a count");
        assert_eq!(n("translated") + n("outdated") + n("missing"), n("units"));
        assert_eq!(n("missing"), l["missing_units"].as_array().expect("ids").len() as u64);
    }
    assert_eq!(locales[0]["percent"], 100.0);
}

#[test]
fn check_refuses_rules_whose_required_language_is_outdated_and_names_the_change() {
    let dir = rules_with(FIXTURE, "base.yaml", |t| t.replace("text: Draw a tile.", "text: Draw the top tile."));
    let out = cli(&["--rules", &dir.path().display().to_string(), "check"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outdated-translation") && err.contains("missing-translation"), "{err}");
    assert!(
        err.contains("the English was: Draw a tile.") && err.contains("the English is now: Draw the top tile."),
        "{err}"
    );
}

/// `text` in a pseudo-language: every ASCII letter replaced by an accented
/// one, the text DSL's edition lists, the program's placeholders and a
/// count's plural categories kept.
fn pseudo(text: &str) -> String {
    if let Some(forms) = carcassonne_rules_runtime::core::words::plural_forms(text) {
        return forms
            .iter()
            .map(|(category, form)| format!("{category}: {}", pseudo(form)))
            .collect::<Vec<_>>()
            .join(" | ");
    }
    const LOWER: &str = "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑ";
    const UPPER: &str = "ȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ";
    let (lower, upper): (Vec<char>, Vec<char>) = (LOWER.chars().collect(), UPPER.chars().collect());
    let mut out = String::new();
    let mut editions = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        // A placeholder is a lower-case word in braces; the text DSL's editions are upper-case.
        let placeholder = rest.strip_prefix('{').and_then(|r| r.find('}').map(|end| &rest[..end + 2]));
        if let Some(placeholder) =
            placeholder.filter(|p| p.len() > 2 && p[1..p.len() - 1].bytes().all(|b| b.is_ascii_lowercase()))
        {
            out.push_str(placeholder);
            rest = &rest[placeholder.len()..];
            continue;
        }
        match c {
            '{' | '|' => editions = true,
            ':' | '}' => editions = false,
            _ => {}
        }
        out.push(match c {
            'a'..='z' if !editions => lower[(c as u8 - b'a') as usize],
            'A'..='Z' if !editions => upper[(c as u8 - b'A') as usize],
            c => c,
        });
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A copy of the bundled rules with a pseudo-language `en-xa` (as Android
/// names its accented pseudo-locale; CLDR counts it as English) beside Dutch:
/// Dutch's files (which hold every unit), each text the pseudo-language of its English.
fn pseudo_rules() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(Path::new("rules"), dir.path());
    let (nl, qps) = (dir.path().join("translations/nl"), dir.path().join("translations/en-xa"));
    copy_dir(&nl, &qps);
    let mut files = vec![qps.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).expect("list").map(|e| e.expect("entry").path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let mut english = String::new();
        let mut out = String::new();
        for line in text.lines() {
            if let Some(from) = line.trim_start().strip_prefix("from: ") {
                english = serde_json::from_str(from).unwrap_or_else(|_| from.to_string());
            }
            match line.split_once("text: ") {
                Some((indent, _)) => out
                    .push_str(&format!("{indent}text: {}\n", serde_json::to_string(&pseudo(&english)).expect("json"))),
                None => out.push_str(&format!("{line}\n")),
            }
        }
        std::fs::write(&path, out).expect("write");
    }
    let languages = dir.path().join("translations/languages.yaml");
    let text = std::fs::read_to_string(&languages).expect("languages");
    std::fs::write(&languages, format!("{text}  - {{ lang: en-xa, name: Pseudo }}\n")).expect("write");
    dir
}

#[test]
fn a_pseudo_language_shows_no_english_word_of_the_program() {
    let dir = pseudo_rules();
    let rules = dir.path().display().to_string();
    let translations = json(&["--rules", &rules, "translations", "--format", "json"]);
    let qps = &translations["locales"][2];
    assert_eq!((qps["lang"].as_str(), qps["percent"].as_f64()), (Some("en-xa"), Some(100.0)), "{qps}");
    let mut english: Vec<String> = Word::ALL.iter().map(|w| w.english().replace("{publishers}", "")).collect();
    english.extend(Section::ALL.iter().map(|s| s.title().to_string()));
    english
        .extend(["Introduction", "Preparation", "Final scoring", "Once, or twice", "the same rules"].map(String::from));
    // The marker labels, rules data like the texts.
    english.extend(
        ["MESSAGES", "ROBBERS", "ROBBER CHOICE", "WONDER", "TREE TRAP", "LAKE TRAP", "HANS STATUE"].map(String::from),
    );
    let selection = ["--edition", "C1", "--with", "builder,princess_and_dragon,abbey_and_mayor,the_messages"];
    let mut outputs = Vec::new();
    for format in ["text", "markdown"] {
        let out = cli(&[&["--rules", &rules, "order", "--lang", "en-xa", "--format", format][..], &selection].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        outputs.push((format!("order --format {format}"), String::from_utf8_lossy(&out.stdout).into_owned()));
    }
    // A turn played to a choice, in the pseudo-language: its trace and what it asks.
    let answers = dir.path().join("answers.jsonl");
    std::fs::write(&answers, "{\"do\": true}\n{\"do\": true}\n{\"do\": true}\n").expect("write");
    let answers = answers.display().to_string();
    let out = cli(&[&["--rules", &rules, "play", "--lang", "en-xa", "--answers", &answers][..], &selection].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    outputs.push(("play".to_string(), String::from_utf8_lossy(&out.stdout).into_owned()));
    let page = dir.path().join("page.wiki");
    let out = cli(&["--rules", &rules, "wiki", "--lang", "en-xa", "--out", &page.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The page's words, not its markup (ids, classes).
    let page = std::fs::read_to_string(&page).expect("page");
    let words: String = page.split('<').map(|part| part.split_once('>').map_or(part, |(_, after)| after)).collect();
    outputs.push(("wiki".to_string(), words));
    let site = dir.path().join("site");
    let out = cli(&["--rules", &rules, "site", "--out", &site.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(site.join("index.en-xa.html")).expect("the pseudo-language's page");
    // Its words, not its markup; the language switch names each language in itself.
    let words: String = page.split('<').map(|part| part.split_once('>').map_or(part, |(_, after)| after)).collect();
    outputs.push(("site".to_string(), words.replace("English", "")));
    // What the page's script writes (the selection's summary, "Play a turn"):
    // the words the page gives it, each word the script asks for among them.
    let script = std::fs::read_to_string(site.join("app.js")).expect("app.js");
    let given = script_words(&page);
    // Its keys are its literals in camel case (`"variantRules"`).
    for key in script.split('"').filter(|l| {
        l.starts_with(|c: char| c.is_ascii_lowercase())
            && l.contains(|c: char| c.is_ascii_uppercase())
            && l.chars().all(|c| c.is_ascii_alphabetic())
    }) {
        let attribute = if key.ends_with("Count") { format!("{key}Other") } else { key.to_string() };
        assert!(given.iter().any(|(k, _)| *k == attribute), "the page does not give app.js {key:?}: {given:?}");
    }
    let placeholder = |word: &str| word.split(['{', '}']).step_by(2).collect::<Vec<_>>().join(" ");
    outputs.push((
        "the page's words for its script".to_string(),
        given.iter().map(|(_, w)| placeholder(w) + "\n").collect(),
    ));
    for (what, output) in &outputs {
        assert!(output.contains('ḗ'), "{what} is not in the pseudo-language:\n{output}");
        for word in &english {
            for fragment in english_fragments(word) {
                assert!(!says(output, fragment), "{what} says {fragment:?} in English:\n{output}");
            }
        }
    }
}

/// The words a page gives its script: the data attributes of its `#words`
/// element, by the script's key (`data-variant-rules` → `variantRules`).
fn script_words(page: &str) -> Vec<(String, String)> {
    let start = page.find("<span id=\"words\"").expect("the page's words");
    let element = &page[start..start + page[start..].find('>').expect("the element's end")];
    element
        .split(" data-")
        .skip(1)
        .map(|attribute| {
            let (name, value) = attribute.split_once("=\"").expect("an attribute with a value");
            let key = name.split('-').enumerate().fold(String::new(), |mut key, (n, part)| {
                key.push_str(&if n == 0 { part.to_string() } else { part[..1].to_uppercase() + &part[1..] });
                key
            });
            let value = value.trim_end_matches('"').replace("&quot;", "\"").replace("&#39;", "'");
            (key, value.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
        })
        .collect()
}

/// The parts of an English word of the program around its placeholders
/// (`step {step} skipped` → `step`, `skipped`) that hold a letter.
fn english_fragments(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (n, part) in word.split(['{', '}']).enumerate() {
        // Odd parts are the placeholders' names.
        let part = part.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if n % 2 == 0 && part.bytes().any(|b| b.is_ascii_alphabetic()) {
            out.push(part);
        }
    }
    out
}

/// Whether `output` holds `fragment` as words of its own, not inside an id
/// (`no` in `draw-tile-if-nothing-else`).
fn says(output: &str, fragment: &str) -> bool {
    let in_id = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    output
        .match_indices(fragment)
        .any(|(at, _)| !in_id(output[..at].chars().next_back()) && !in_id(output[at + fragment.len()..].chars().next()))
}

/// `order --lang` marks in text and Markdown what JSON says in `translation`:
/// a text shown in English (Russian lacks most) and a translation of English
/// that has changed since (a Dutch `from:` edited in a copy of the rules).
#[test]
fn order_in_a_language_marks_english_and_outdated_texts() {
    let selection = ["order", "--edition", "C2", "--with", "abbey"];
    for (format, mark) in [("text", " (не переведено: по-английски)"), ("markdown", " *(не переведено: по-английски)*")]
    {
        let out = cli(&[&selection[..], &["--lang", "ru", "--format", format]].concat());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let line = text.lines().find(|l| l.contains("Give every player one abbey tile")).expect("an English text");
        assert!(line.contains(mark), "{format}: {line}");
        let russian = text.lines().find(|l| l.contains("игрок, который сейчас делает ход")).expect("a Russian text");
        assert!(!russian.contains("по-английски"), "{format}: {russian}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(Path::new("rules"), dir.path());
    let base = dir.path().join("translations/nl/base.yaml");
    let text = std::fs::read_to_string(&base).expect("read");
    let edited = text.replace("from: \"Draw a tile at random.\"", "from: \"Draw a tile.\"");
    assert_ne!(edited, text, "the Dutch base.yaml translates draw-tile");
    std::fs::write(&base, edited).expect("write");
    let rules = dir.path().display().to_string();
    let out = cli(&["--rules", &rules, "order", "--edition", "C2", "--lang", "nl"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains("Trek willekeurig een tegel.")).expect("the outdated text");
    assert!(line.contains(" (vertaling verouderd)"), "{line}");
    assert_eq!(text.matches("vertaling verouderd").count(), 1, "{text}");
}

/// `modules --lang nl` names the expansions and modules in Dutch, its JSON
/// saying the language as `order`'s does; the ids stay.
#[test]
fn modules_speak_the_language_given() {
    let text = String::from_utf8_lossy(&cli(&["modules", "--lang", "nl"]).stdout).into_owned();
    assert!(text.contains("inns_and_cathedrals — Herbergen & Kathedralen"), "{text}");
    let english = json(&["modules", "--format", "json"]);
    let dutch = json(&["modules", "--format", "json", "--lang", "nl"]);
    assert_eq!(english.get("lang"), None);
    assert_eq!(dutch["lang"], "nl");
    let ids =
        |v: &Value| v["expansions"].as_array().expect("expansions").iter().map(|x| x["id"].clone()).collect::<Vec<_>>();
    assert_eq!(ids(&english), ids(&dutch));
    assert_ne!(english["expansions"][0]["name"], dutch["expansions"][0]["name"]);
}

/// `check` and `translations` speak the language given: the summary and the
/// table's headings in Dutch, the figures the same; an unknown language is
/// refused as `order` refuses it.
#[test]
fn check_and_translations_speak_the_language_given() {
    let out = |args: &[&str]| {
        let out = cli(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (english, dutch) = (out(&["check"]), out(&["check", "--lang", "nl"]));
    assert!(english.contains(" editions, ") && english.trim_end().ends_with(": ok"), "{english}");
    assert!(
        dutch.contains(" edities, ") && dutch.contains("; vertaald: nl ") && dutch.trim_end().ends_with(": in orde"),
        "{dutch}"
    );
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    assert_eq!(digits(&english), digits(&dutch));
    let (english, dutch) = (out(&["translations"]), out(&["translations", "--lang", "nl"]));
    assert!(english.starts_with("lang ") && english.contains(" outdated "), "{english}");
    assert!(dutch.starts_with("taal ") && dutch.contains(" verouderd ") && !dutch.contains("outdated"), "{dutch}");
    assert_eq!(digits(&english), digits(&dutch));
    assert!(!cli(&["check", "--lang", "nll"]).status.success());
}
