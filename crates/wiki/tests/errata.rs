//! Checking `errata.yaml` against the rules: every mistake is a diagnostic at
//! its YAML line and column, with a suggestion where one is close.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use carcassonne_rules_compiler::model::Cond;
use carcassonne_rules_compiler::{Diagnostic, Rules, Sources, compile_dir};
use carcassonne_rules_wiki::Errata;

fn compile(dir: &Path) -> Rules {
    match compile_dir(dir).result {
        Ok(rules) => rules,
        Err(problems) => panic!("{}", carcassonne_rules_compiler::diagnostics::render(&problems, false)),
    }
}

fn fixture() -> Rules {
    compile(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/compiler/tests/fixtures/minimal"))
}

fn load(rules: &Rules, yaml: &str) -> Result<Errata, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("errata.yaml");
    std::fs::write(&path, yaml).expect("write errata");
    Errata::load(&path, rules, &mut Sources::default())
}

/// `(message, line:col, help)` of each diagnostic.
fn found(problems: &[Diagnostic]) -> Vec<(String, String, String)> {
    problems
        .iter()
        .map(|d| {
            let location = d.location().unwrap_or_default();
            let line_col =
                location.rsplitn(3, ':').take(2).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join(":");
            (d.message().to_string(), line_col, d.help_text().unwrap_or_default().to_string())
        })
        .collect()
}

const GOOD: &str = "\
classes:
  - class: showPeasantRefolts
    means: peasant_revolts
    why: A typo.
  - class: showC2
    means: edition != C1
    why: The Winter edition reads like the new one.
differences:
  - id: dragon-step
    page: The page moves the dragon twice.
    rules: Once.
    why: Publishers.
    steps: [2D, any_time]
    when: dragon and edition == C1
  - id: princess-missing
    page: No princess.
    rules: A princess.
    why: Forgotten.
    items: [princess-remove-knight]
    page_lines: [12, 14]
";

#[test]
fn a_good_file_is_read_into_resolved_conditions() {
    let rules = fixture();
    let errata =
        load(&rules, GOOD).unwrap_or_else(|p| panic!("{}", carcassonne_rules_compiler::diagnostics::render(&p, false)));
    assert_eq!(errata.classes.len(), 2);
    let revolts = rules.catalog.module("peasant_revolts").expect("module").bit;
    assert_eq!(errata.class("showPeasantRefolts"), Some(&Cond::Module(revolts)));
    assert_eq!(errata.differences[0].steps, ["2D", "any_time"]);
    assert!(matches!(errata.differences[0].when, Cond::All(_)));
    assert_eq!(errata.differences[1].when, Cond::True);
    assert_eq!(errata.differences[1].page_lines, [12, 14]);
    assert_eq!(errata.differences[1].items, ["princess-remove-knight"]);

    let c1 = rules.catalog.config("C1", None, "dragon").expect("valid");
    let c2 = rules.catalog.config("C2", None, "dragon").expect("valid");
    let applying = |cfg| errata.applying(&rules, cfg).map(|d| d.id.as_str()).collect::<Vec<_>>();
    assert_eq!(applying(&c1), ["dragon-step", "princess-missing"]);
    assert_eq!(applying(&c2), ["princess-missing"]);
}

#[test]
fn unknown_names_steps_and_items_are_located_with_suggestions() {
    let rules = fixture();
    let yaml = "\
classes:
  - class: showPeasantRefolts
    means: peasant_revolt
    why: A typo.
  - class: markC1
    means: \"true\"
    why: Not a show class.
differences:
  - id: one
    page: p
    rules: r
    why: w
    steps: [2B1, notes, anytime, 9Z]
    items: [draw-tiles, builder-deploy, zzzzzz]
    when: dragon and not princes
  - id: one
    page: p
    rules: r
    why: w
";
    let problems = load(&rules, yaml).expect_err("the file has mistakes");
    let found = found(&problems);
    let expected = [
        ("unknown module or flag `peasant_revolt`", "3:12", "did you mean `peasant_revolts`?"),
        (
            "`markC1` is not a show class",
            "5:12",
            "the page reads `hide…` classes as never shown, and other classes as no condition",
        ),
        ("unknown step `2B1`", "13:13", "did you mean `2B-1`?"),
        ("unknown step `anytime`", "13:25", "did you mean `any_time`?"),
        (
            "unknown step `9Z`",
            "13:34",
            "the sections compared are notes, any_time, 1A, 1B, 1C, 2B-1, 2B-2, 2D, 3A, 3B, 4A, 4B",
        ),
        ("unknown item `draw-tiles`", "14:13", "did you mean `draw-tile`?"),
        (
            "item `builder-deploy` is not a top-level item of notes, any_time or a step",
            "14:25",
            "name the top-level item that holds it",
        ),
        ("unknown item `zzzzzz`", "14:41", ""),
        ("unknown module or flag `princes`", "15:26", "did you mean `princess`?"),
        ("duplicate erratum `one`", "16:9", ""),
    ];
    for (message, at, help) in expected {
        assert!(
            found.iter().any(|(m, l, h)| m == message && l == at && h.starts_with(help)),
            "no `{message}` at {at} with help `{help}` among\n{found:#?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    let rendered = carcassonne_rules_compiler::diagnostics::render(&problems, false);
    assert!(rendered.contains("first defined here"), "{rendered}");
}

#[test]
fn invalid_yaml_is_located() {
    let rules = fixture();
    let problems =
        load(&rules, "differences:\n  - id: one\n    page: p\n    rule: r\n    why: w\n").expect_err("bad key");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].message().starts_with("invalid YAML in errata.yaml"), "{}", problems[0].message());
    assert!(problems[0].location().is_some_and(|l| l.ends_with(":4:5")), "{:?}", problems[0].location());
}

#[test]
fn the_crates_errata_hold_for_the_bundled_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let rules = compile(&root.join("rules"));
    let errata =
        Errata::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("errata.yaml"), &rules, &mut Sources::default())
            .unwrap_or_else(|p| panic!("{}", carcassonne_rules_compiler::diagnostics::render(&p, false)));
    assert!(!errata.classes.is_empty() && !errata.differences.is_empty());
}
