//! Many diagnostics in one long file are reported in time linear in them:
//! each file's line starts are indexed once (for `file:line:col` and for
//! the snippets miette reads), where every diagnostic used to scan the file
//! from its start (30,000 unknown modules in a 2.2 MB file: 142 s), and
//! "did you mean" is looked for a bounded number of times a run.
//!
//! `cargo test --release -p carcassonne-rules-compiler --test diagnostics_scale -- --nocapture`
//! prints the times.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod common;
mod cpu_time;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use carcassonne_rules_compiler::codes::Code;
use carcassonne_rules_compiler::{compile_dir, diagnostics};

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";

/// The bundled rules with `count` items at the end of an expansion file,
/// each naming a module that does not exist (each its own, so that each is
/// looked up and suggested for on its own).
fn unknown_modules(dir: &Path, count: usize) {
    common::copy_dir(Path::new(BUNDLED), dir);
    let file = dir.join("expansions/the-abbot.yaml");
    let mut text = std::fs::read_to_string(&file).expect("read");
    assert!(!text.contains("\n  setup:"), "the file has no setup list yet");
    text.push_str("\n  setup:\n");
    for n in 0..count {
        let _ = write!(text, "    - id: hostile-item-{n}\n      when: no_such_module_{n}\n      text: Item {n}.\n");
    }
    std::fs::write(&file, text).expect("write");
}

/// Checks and renders the rules of `dir`: the number of unknown modules
/// reported, the bytes rendered and the CPU time both took.
fn report(dir: &Path) -> (usize, usize, Duration) {
    let started = cpu_time::process();
    let problems = compile_dir(dir).result.err().unwrap_or_default();
    let rendered = diagnostics::render(&problems, false);
    let took = cpu_time::process() - started;
    let unknown = problems.iter().filter(|p| p.code() == Code::UnknownModule && p.location().is_some()).count();
    (unknown, rendered.len(), took)
}

#[test]
fn thirty_thousand_unknown_modules_are_reported_in_time_linear_in_them() {
    if !cpu_time::alone() {
        return;
    }
    let (small, large) = (3_000, 30_000);
    let mut times = Vec::new();
    for count in [small, large] {
        let dir = tempfile::tempdir().expect("temp dir");
        unknown_modules(dir.path(), count);
        let size = std::fs::metadata(dir.path().join("expansions/the-abbot.yaml")).expect("file").len();
        let (unknown, rendered, took) = report(dir.path());
        assert_eq!(unknown, count, "one located diagnostic an item");
        eprintln!(
            "{count} unknown modules in a file of {size} bytes: reported in {took:?} of CPU time ({rendered} bytes)"
        );
        times.push(took);
    }
    // Ten times the diagnostics: linear work takes about ten times as long
    // (a scan of the file for each took a hundred times).
    let ratio = times[1].as_secs_f64() / times[0].as_secs_f64().max(1e-3);
    assert!(ratio < 25.0, "ten times the diagnostics took {ratio:.1} times as long: {times:?}");
    // The release build's bound (the debug build is some ten times slower).
    if !cfg!(debug_assertions) {
        assert!(times[1] < Duration::from_secs(5), "{:?}", times[1]);
    }
}
