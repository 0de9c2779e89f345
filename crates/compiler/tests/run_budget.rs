//! One budget of work per run (issue 36): `check` spends from it and the
//! passes after it charge the same one. Here `explain`: its lines are cut
//! (a flag of 3,000 pairs is not printed whole), and past the run's budget
//! it refuses at the item's condition with `too-complex`, where it used to
//! search and print on a budget of its own.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod common;

use std::path::Path;

use carcassonne_rules_compiler::codes::Code;
use carcassonne_rules_compiler::logic::BUDGET;
use carcassonne_rules_compiler::{Budget, compile_dir, compile_dir_within};
use carcassonne_rules_core::{Config, EditionId, VariantId};
use carcassonne_rules_tools::explain;

/// The bundled rules with a derived flag of 3,000 pairs of modules, named
/// by one item of step 4A.
fn big_flag(dir: &Path) {
    common::copy_dir(Path::new("../../rules"), dir);
    let modules = dir.join("modules.yaml");
    let mut text = std::fs::read_to_string(&modules).expect("read");
    let ids: Vec<String> = text
        .split("{ id: ")
        .skip(1)
        .filter_map(|rest| rest.split(',').next())
        .map(|id| id.trim_matches('"').to_string())
        .collect();
    let terms: Vec<String> = (0..3_000).map(|n| format!("({} and {})", ids[n % 40], ids[40 + n / 40 % 40])).collect();
    text.push_str(&format!("\n  big_pairs: {}\n", terms.join(" or ")));
    std::fs::write(&modules, text).expect("write");
    let file = dir.join("expansions/the-abbot.yaml");
    let mut text = std::fs::read_to_string(&file).expect("read");
    text.push_str("\n  4A:\n    - id: big-item\n      when: big_pairs or abbot\n      text: Big.\n");
    std::fs::write(&file, text).expect("write");
}

fn checked(compiled: &carcassonne_rules_compiler::Compiled) -> &carcassonne_rules_compiler::Rules {
    match &compiled.result {
        Ok(rules) => rules,
        Err(problems) => panic!("{}", carcassonne_rules_compiler::diagnostics::render(problems, false)),
    }
}

fn c2() -> Config {
    Config { edition: EditionId(1), variant: VariantId(0), modules: Default::default() }
}

#[test]
fn explain_cuts_long_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    big_flag(dir.path());
    let compiled = compile_dir(dir.path());
    let rules = checked(&compiled);
    let answer = explain::explain(rules, &compiled.sources, "big-item", &c2()).expect("explained");
    // The flag's definition (96 KB as written) is one line, cut.
    let longest = answer.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(longest < 1_100, "a line of {longest} characters");
    assert!(answer.contains("more characters"), "{answer}");
    assert!(answer.len() < 100_000, "{} bytes", answer.len());
}

#[test]
fn explain_charges_the_run_s_budget_and_refuses_past_it_at_the_item() {
    let dir = tempfile::tempdir().expect("temp dir");
    big_flag(dir.path());
    // A run whose check left little: what explain does is charged to it.
    let budget = Budget::new(BUDGET);
    let compiled = compile_dir_within(dir.path(), &budget);
    let rules = checked(&compiled);
    assert!(budget.charge(BUDGET - budget.spent() - 1_000).is_ok());
    let refused = explain::explain_within(rules, &compiled.sources, "big-item", &c2(), compiled.budget.clone())
        .expect_err("past the budget");
    assert_eq!(refused.code(), Code::TooComplex);
    let at = refused.location().expect("located");
    assert!(at.contains("the-abbot.yaml:"), "{at}");
    // With the run's budget as check left it, the same is explained.
    let compiled = compile_dir(dir.path());
    let rules = checked(&compiled);
    explain::explain_within(rules, &compiled.sources, "big-item", &c2(), compiled.budget.clone())
        .unwrap_or_else(|_| panic!("explained within the run's budget"));
}
