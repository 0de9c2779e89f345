//! The origins of an item (which selected module it shows for) are found in
//! time linear in its condition: a derived flag is walked once however often
//! it is named (beside the same parts), and each candidate is compared with
//! the others through a set. One flag of 3,000 `(a and b)` pairs named
//! 1,000 times by one item took `check` 6.3 s (issue 36), every reference
//! walking the flag and every leaf compared with each candidate so far.
//!
//! `cargo test --release -p carcassonne-rules-compiler --test origins_scale -- --nocapture`
//! prints the times.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod common;
mod cpu_time;

use std::path::Path;
use std::time::Duration;

use carcassonne_rules_compiler::{compile_dir, diagnostics};

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";

/// How many modules the pairs start with.
const PAIRED: usize = 40;

/// The bundled rules with a derived flag of `pairs` pairs of modules and an
/// item whose condition names it `references` times; how many of the pairs
/// differ.
fn hostile(dir: &Path, pairs: usize, references: usize) -> usize {
    common::copy_dir(Path::new(BUNDLED), dir);
    let modules = dir.join("modules.yaml");
    let mut text = std::fs::read_to_string(&modules).expect("read");
    assert!(text.trim_end().ends_with("abot and gardens") || text.contains("\nderived:\n"), "derived flags last");
    // Distinct pairs of the bundled modules, the first module of each among a few.
    let ids: Vec<String> = text
        .split("{ id: ")
        .skip(1)
        .filter_map(|rest| rest.split(',').next())
        .map(|id| id.trim_matches('"').to_string())
        .collect();
    let (firsts, seconds) = ids.split_at(PAIRED);
    let terms: Vec<String> =
        (0..pairs).map(|n| format!("({} and {})", firsts[n % PAIRED], seconds[n / PAIRED % seconds.len()])).collect();
    let distinct = pairs.min(PAIRED * seconds.len());
    text.push_str(&format!("\n  hostile_pairs: {}\n", terms.join(" or ")));
    std::fs::write(&modules, text).expect("write");
    let file = dir.join("expansions/the-abbot.yaml");
    let mut text = std::fs::read_to_string(&file).expect("read");
    assert!(!text.contains("\n  setup:"), "the file has no setup list yet");
    let when = vec!["hostile_pairs"; references].join(" or ");
    text.push_str(&format!("\n  setup:\n    - id: hostile-references\n      when: {when}\n      text: Hostile.\n"));
    std::fs::write(&file, text).expect("write");
    distinct
}

/// The CPU time `check` takes on the rules of `dir`, which must check, and
/// how many origins the hostile item has.
fn check(dir: &Path) -> (Duration, usize) {
    let started = cpu_time::process();
    let compiled = compile_dir(dir);
    let took = cpu_time::process() - started;
    if let Err(problems) = &compiled.result {
        panic!("{}", diagnostics::render(problems, false));
    }
    let rules = compiled.result.as_ref().expect("checked");
    let item = rules.items().into_iter().find(|i| i.id == "hostile-references").expect("the item");
    (took, item.origins.len())
}

#[test]
fn a_flag_of_thousands_of_pairs_named_a_thousand_times_is_checked_quickly() {
    if !cpu_time::alone() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let bundled = {
        let started = cpu_time::process();
        let _ = compile_dir(Path::new(BUNDLED));
        cpu_time::process() - started
    };
    let distinct = hostile(dir.path(), 3_000, 1_000);
    let (took, origins) = check(dir.path());
    // Each pair's two modules, each guarded by the other: once, however often named.
    assert_eq!(origins, 2 * distinct);
    eprintln!("3,000 pairs named 1,000 times: checked in {took:?} of CPU time (the bundled rules: {bundled:?})");
    // The flag's 6,000 leaves are walked once, not 6,000,000 times, and
    // each is looked up among the candidates in a set, not a list: 48 ms in
    // the release build (3.5 s before), 0.15 s in the debug build (34 s).
    // The bound leaves room for a slow machine: the bundled rules' time
    // scales it.
    let bound = if cfg!(debug_assertions) { Duration::from_secs(5) } else { Duration::from_millis(500) };
    assert!(took < bundled * 4 + bound, "{took:?}");
}
