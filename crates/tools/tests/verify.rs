//! `verify` over every selection: the bundled rules pass, and each planted
//! mistake is reported at its YAML line and column with an example selection
//! that, run through the interpreter, shows what the diagnostic says.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

#[path = "../../compiler/tests/common/mod.rs"]
mod common;

use std::path::Path;

use carcassonne_rules_compiler::model::Rules;
use carcassonne_rules_compiler::{Diagnostic, compile_dir};
use carcassonne_rules_core::{Entry, TurnOrder};
use carcassonne_rules_tools::interpret;
use carcassonne_rules_tools::verify;

const BUNDLED: &str = "../../rules";

#[test]
fn the_bundled_rules_verify() {
    let compiled = compile_dir(Path::new(BUNDLED));
    let rules = compiled.result.expect("the bundled rules check");
    let report = verify::verify(&rules, &compiled.sources);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(report.checks > 1000, "{} properties", report.checks);
}

#[test]
fn rules_without_publishers_variants_verify() {
    // The test fixture declares editions only: every selection has no variant,
    // and an item shown with the abbey is not dead.
    let compiled = compile_dir(Path::new("../compiler/tests/fixtures/minimal"));
    let rules = compiled.result.expect("the fixture checks");
    assert!(rules.catalog.variants.is_empty());
    let report = verify::verify(&rules, &compiled.sources);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(report.checks > 10, "{} properties", report.checks);
}

/// The bundled rules with each `(from, to)` edit made once in `file`: every
/// problem of checking and then verifying them, the rules if they checked, and
/// the edited file's text.
fn planted(file: &str, edits: &[(&str, &str)]) -> (Vec<Diagnostic>, Option<Rules>, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(BUNDLED), dir.path());
    let path = dir.path().join(file);
    let mut text = std::fs::read_to_string(&path).expect("rules file");
    for (from, to) in edits {
        assert!(text.contains(from), "{file} has no {from:?}");
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&path, &text).expect("write");
    let compiled = compile_dir(dir.path());
    match compiled.result {
        Err(problems) => (problems, None, text),
        Ok(rules) => (verify::verify(&rules, &compiled.sources).problems, Some(rules), text),
    }
}

/// The 1-based line of the first `needle` in `text` after `after`.
fn line_of(text: &str, after: &str, needle: &str) -> usize {
    let start = text.find(after).expect("anchor");
    let at = start + text[start..].find(needle).expect("needle");
    text[..at].matches('\n').count() + 1
}

/// The single problem, located in `file` at `line`, and the turn order of its
/// example command (run through the interpreter).
fn only<'r>(problems: &[Diagnostic], rules: &'r Rules, file: &str, line: usize) -> TurnOrder<'r> {
    assert_eq!(problems.len(), 1, "{problems:?}");
    let d = &problems[0];
    let location = d.location().expect("a location");
    assert!(location.contains(&format!("{file}:{line}:")), "{location}: {d:?}");
    let help = d.help_text().expect("an example");
    let command = help.split("for example: ").nth(1).expect("an example command");
    let args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(&args[..2], ["carcassonne-rules", "order"], "{command}");
    let value = |flag: &str| args.iter().position(|a| *a == flag).map(|i| args[i + 1]);
    let cfg = rules
        .catalog
        .config(value("--edition").expect("an edition"), value("--variant"), value("--with").unwrap_or(""))
        .expect("a valid selection");
    interpret::turn_order(rules, &cfg)
}

fn all_items<'a, 'r>(order: &'a TurnOrder<'r>) -> Vec<&'a Entry<'r>> {
    fn walk<'a, 'r>(items: &'a [Entry<'r>], out: &mut Vec<&'a Entry<'r>>) {
        for item in items {
            out.push(item);
            walk(&item.children, out);
        }
    }
    let mut out = Vec::new();
    for (_, list) in order.sections.iter() {
        walk(list, &mut out);
    }
    for step in order.steps() {
        walk(&step.items, &mut out);
    }
    out
}

fn shown<'a, 'r>(order: &'a TurnOrder<'r>, id: &str) -> Option<&'a Entry<'r>> {
    all_items(order).into_iter().find(|e| e.id() == id)
}

#[test]
fn overlapping_alternatives() {
    let group = [
        ("    - id: draw-tile\n", "    - id: draw-tile\n      one_of: drawing\n"),
        ("    - id: show-tile\n", "    - id: show-tile\n      one_of: drawing\n"),
    ];
    let (problems, rules, text) = planted("base.yaml", &group);
    let rules = rules.expect("checks");
    assert!(problems[0].message().contains("alternatives of `drawing`, can show together"), "{problems:?}");
    let order = only(&problems, &rules, "base.yaml", line_of(&text, "id: show-tile", "one_of"));
    assert!(shown(&order, "draw-tile").is_some() && shown(&order, "show-tile").is_some(), "both show");
}

#[test]
fn a_child_that_can_never_show() {
    let edit = (
        "          when: abbey\n          text: An abbey tile",
        "          when: not (tiles_in_supply or wetlands)\n          text: An abbey tile",
    );
    let (problems, rules, text) = planted("expansions/abbey-and-mayor.yaml", &[edit]);
    assert!(rules.is_none(), "the checker already finds it");
    assert!(problems[0].message().contains("can never be shown"), "{problems:?}");
    let bundled = compile_dir(Path::new(BUNDLED)).result.expect("bundled");
    let line = line_of(&text, "id: abbey-supply-abbey-tile", "when:");
    let order = only(&problems, &bundled, "expansions/abbey-and-mayor.yaml", line);
    assert!(shown(&order, "abbey-play-from-supply").is_some(), "the example shows the parent");
}

#[test]
fn a_marker_that_can_never_show() {
    let edit = (
        "      when: mayor\n",
        "      when: mayor\n      markers: [\"WONDER when wonders_of_humanity and not mayor\"]\n",
    );
    let (problems, rules, text) = planted("expansions/abbey-and-mayor.yaml", &[edit]);
    let rules = rules.expect("checks");
    assert!(problems[0].message().contains("marker WONDER on `mayor-take-figure` can never be seen"), "{problems:?}");
    let line = line_of(&text, "id: mayor-take-figure", "markers:");
    let order = only(&problems, &rules, "expansions/abbey-and-mayor.yaml", line);
    let item = shown(&order, "mayor-take-figure").expect("the example shows the item");
    assert!(item.markers.is_empty(), "without the marker");
}

#[test]
fn a_derived_flag_that_is_always_false() {
    let edit = ("\nderived:\n", "\nderived:\n  never_at_all: abbey and not abbey\n");
    let (problems, rules, text) = planted("modules.yaml", &[edit]);
    let rules = rules.expect("checks");
    assert!(problems[0].message().contains("derived flag `never_at_all` is never true"), "{problems:?}");
    only(&problems, &rules, "modules.yaml", line_of(&text, "never_at_all", "abbey"));
}

#[test]
fn a_conditional_step_that_can_show_empty() {
    // 3D without its publisher: the step shows in every 1st-edition game with
    // the dragon, its only item in RGG's variant alone.
    let edit = (
        "id: 3D, title: The dragon moves, when: dragon and edition == C1 and variant == rgg }",
        "id: 3D, title: The dragon moves, when: dragon and edition == C1 }",
    );
    let (problems, rules, text) = planted("base.yaml", &[edit]);
    let rules = rules.expect("checks");
    assert!(problems[0].message().contains("step 3D exists only under its condition"), "{problems:?}");
    let order = only(&problems, &rules, "base.yaml", line_of(&text, "- { id: 3D", "3D"));
    let step = order.steps().find(|s| s.id == "3D").expect("the example shows step 3D");
    assert!(step.items.is_empty(), "with nothing in it: {:?}", step.items);
}
