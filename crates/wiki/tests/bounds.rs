//! The export's BDD work is bounded: rules whose conditions each pass
//! `check` but whose combination grows exponentially (a step's "no actions"
//! line is where none of its items shows) are refused at a condition, with
//! help, instead of being worked on for minutes and gigabytes.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

#[path = "../../../crates/compiler/tests/common/mod.rs"]
mod common;
#[path = "../../../crates/compiler/tests/cpu_time/mod.rs"]
mod cpu_time;

use std::fmt::Write as _;
use std::path::Path;

use carcassonne_rules_compiler::compile_dir;
use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_wiki::export;

/// The compiler's hostile fixture (24 modules `a…`, 24 `b…`, and derived
/// flags that name every `a` before any `b`), with each pair `a_i and b_i`
/// the condition of an item of its own in step 1A: every condition is a
/// few nodes, where none of them holds 2^pairs.
fn pairs_apart(dir: &Path, pairs: usize) {
    common::copy_dir(Path::new("../compiler/tests/fixtures/hostile-pairs"), dir);
    let mut items = String::from("expansion: pairs\nitems:\n  1A:\n");
    for i in 0..pairs {
        writeln!(items, "    - id: pair-{i:02}\n      when: a{i:02} and b{i:02}\n      text: t").expect("write");
    }
    std::fs::write(dir.join("expansions/pairs.yaml"), items).expect("write");
}

#[test]
fn conditions_that_fit_alone_but_combine_past_the_budget_are_refused_at_their_step() {
    if !cpu_time::alone() {
        return;
    }
    let temp = tempfile::tempdir().expect("temp dir");
    for (pairs, refused) in [(12, false), (24, true)] {
        let dir = temp.path().join(format!("rules-{pairs}"));
        pairs_apart(&dir, pairs);
        let compiled = compile_dir(&dir);
        let rules = compiled.result.expect("check accepts every pair");
        let started = cpu_time::process();
        let exported = export::export(&rules, &compiled.sources);
        let took = cpu_time::process() - started;
        eprintln!("{pairs} pairs: the export took {took:?} of CPU time");
        if !refused {
            let page = exported.expect("exported");
            assert!(page.contains("id=\"pair-11\""), "{page}");
            continue;
        }
        let problems = exported.expect_err("refused");
        let text = render(&problems, false);
        assert_eq!(problems.len(), 1, "{text}");
        // At step 1A, whose "no actions" line combines the pairs.
        let location = problems[0].location().expect("located");
        assert!(location.ends_with("base.yaml:6:15"), "at step 1A: {location}");
        assert!(text.contains("where none of this step's items shows is too complex to write"), "{text}");
        assert!(text.contains("help: the export decides how to write each condition within a budget"), "{text}");
        // Without the budget: more than 30 s and 770 MB in the debug build.
        // The bound is that of `check`'s (crates/compiler/tests/bounds.rs).
        assert!(took < std::time::Duration::from_secs(12), "took {took:?} of CPU time");
    }
}
