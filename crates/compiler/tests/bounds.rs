//! The logic's bounds: real rules spend a small part of the budget of BDD
//! work, at the bundled size and at a hundred times it, and a condition
//! whose BDD grows exponentially is refused at the condition, with help,
//! instead of being worked on for minutes.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod common;
mod cpu_time;

use std::fmt::Write as _;
use std::path::Path;

use carcassonne_rules_compiler::logic::BUDGET;
use carcassonne_rules_compiler::{Budget, compile_dir, compile_dir_within, diagnostics};
use carcassonne_rules_core::{Config, EditionId, ModuleId, VariantId};
use carcassonne_rules_tools::explain;
use carcassonne_rules_tools::verify;

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";

/// Checks `dir` within `steps`, returning the rendered problems (empty if it
/// checks) and the steps spent.
fn check(dir: &Path, steps: usize) -> (String, usize) {
    let budget = Budget::new(steps);
    let compiled = compile_dir_within(dir, &budget);
    let problems = compiled.result.err().unwrap_or_default();
    (diagnostics::render(&problems, false), budget.spent())
}

/// The bundled rules with a hundred copies of every condition they write,
/// each on an item of its own: their conditions' work a hundred times over.
fn scaled(dir: &Path, times: usize) {
    let mut conditions = Vec::new();
    for entry in
        std::fs::read_dir(dir.join("expansions")).expect("expansions").chain(std::fs::read_dir(dir).expect("rules"))
    {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        for line in text.lines() {
            let line = line.trim_start().trim_start_matches("- ");
            if let Some(cond) = line.strip_prefix("when: ") {
                conditions.push(cond.to_string());
            }
        }
    }
    assert!(conditions.len() > 100, "{} conditions found", conditions.len());
    // A file holds at most about 35,000 items: the copies go, ten at a
    // time, into a `setup` list at the end of expansion files that have
    // none.
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir.join("expansions")).expect("expansions") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let last_key_is_items = text.lines().rfind(|l| !l.starts_with([' ', '#'])) == Some("items:");
        if last_key_is_items && !text.contains("\n  setup:") {
            files.push((path, text));
        }
    }
    files.sort();
    assert!(files.len() * 10 >= times, "{} files to hold the copies", files.len());
    for (chunk, (path, mut text)) in files.into_iter().take(times.div_ceil(10)).enumerate() {
        text.push_str("  setup:\n");
        for copy in (chunk * 10..times).take(10) {
            for (i, cond) in conditions.iter().enumerate() {
                writeln!(text, "    - id: scale-{copy}-{i}\n      when: {cond}\n      text: t").expect("write");
            }
        }
        std::fs::write(path, text).expect("write");
    }
}

#[test]
fn real_rules_spend_little_of_the_budget() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    common::copy_dir(Path::new(BUNDLED), &dir);
    let (problems, bundled) = check(&dir, BUDGET);
    assert_eq!(problems, "");
    // Checks with a hundredth of the budget too.
    assert_eq!(check(&dir, BUDGET / 100).0, "");
    scaled(&dir, 100);
    let (problems, hundred) = check(&dir, BUDGET);
    assert_eq!(problems, "");
    eprintln!("steps spent: bundled {bundled}, ×100 {hundred}, of {BUDGET}");
    // A hundred times the real rules stay well within it (54 % today); the
    // real ones use about 1 %. (The budget is small enough that hostile rules
    // are refused within 2 s even by a build script's unoptimised compiler.)
    assert!(hundred < BUDGET * 3 / 4, "the ×100 rules spent {hundred} steps of {BUDGET}");
    assert!(bundled < BUDGET / 50, "the bundled rules spent {bundled} steps of {BUDGET}");
}

/// The small rules of the tests with an expansion of `2 × pairs` modules
/// `a00`, `a01`, …, `b00`, `b01`, … and one item shown when
/// `(a00 and b00) or (a01 and b01) or …`: a BDD of a few nodes a pair when
/// each `a` lies next to its `b`, of 2^pairs when every `a` comes first
/// (as sorting the ids places them). `spoiler`: two flags name every `a`,
/// then every `b`, before that condition, so that the order of first
/// mention is that worst one too.
fn pairs(dir: &Path, pairs: usize, spoiler: bool) {
    common::copy_dir(Path::new("tests/fixtures/minimal"), dir);
    let [a, b] = ["a", "b"].map(|x| (0..pairs).map(|i| format!("{x}{i:02}")).collect::<Vec<_>>());
    let mut modules = std::fs::read_to_string(dir.join("modules.yaml")).expect("modules");
    let mut expansion = String::from("  - id: pairs\n    name: Pairs\n    editions: [C1, C2]\n    modules:\n");
    for m in a.iter().chain(&b) {
        writeln!(expansion, "      - {{ id: {m}, name: {m} }}").expect("write");
    }
    modules = modules.replace("derived:\n", &format!("{expansion}derived:\n"));
    if spoiler {
        writeln!(modules, "  every_a: {}\n  every_b: {}", a.join(" or "), b.join(" or ")).expect("write");
    }
    std::fs::write(dir.join("modules.yaml"), modules).expect("write");
    let cond: Vec<String> = a.iter().zip(&b).map(|(a, b)| format!("({a} and {b})")).collect();
    let item = format!(
        "expansion: pairs\nitems:\n  1A:\n    - id: pairs-item\n      when: {}\n      text: t\n",
        cond.join(" or ")
    );
    std::fs::write(dir.join("expansions/pairs.yaml"), item).expect("write");
}

#[test]
fn twenty_four_pairs_are_decided_in_the_order_the_condition_names_them() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    pairs(&dir, 24, false);
    let (problems, spent) = check(&dir, BUDGET);
    assert_eq!(problems, "");
    assert!(spent < 10_000, "spent {spent} steps");
}

#[test]
fn a_condition_whose_cases_multiply_is_refused_at_it_within_the_budget() {
    if !cpu_time::alone() {
        return;
    }
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    pairs(&dir, 24, true);
    let started = cpu_time::process();
    let budget = Budget::new(BUDGET);
    let problems = compile_dir_within(&dir, &budget).result.err().unwrap_or_default();
    let took = cpu_time::process() - started;
    let text = diagnostics::render(&problems, false);
    assert_eq!(problems.len(), 1, "{text}");
    let location = problems[0].location().expect("located");
    assert!(location.ends_with("expansions/pairs.yaml:5:13"), "{location}");
    assert!(text.contains("this condition is too complex to decide"), "{text}");
    assert!(text.contains("help: conditions are decided within a budget"), "{text}");
    // A debug build (about 5 s on a 2-core machine); the release build
    // takes about 1.3 s and 240 MB (docs/performance.md). Without the
    // budget it takes 80 s and 3 GB in release.
    assert!(took < std::time::Duration::from_secs(12), "took {took:?} of CPU time");
}

#[test]
fn one_edited_line_of_the_bundled_rules_pairing_far_modules_is_decided_or_refused_quickly() {
    if !cpu_time::alone() {
        return;
    }
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    common::copy_dir(Path::new(BUNDLED), &dir);
    let text = std::fs::read_to_string(dir.join("modules.yaml")).expect("modules");
    let mut ids: Vec<&str> =
        text.split("{ id: ").skip(1).filter_map(|rest| rest.split(',').next()).map(|id| id.trim_matches('"')).collect();
    ids.sort_unstable();
    assert!(ids.len() >= 46, "{} modules", ids.len());
    let cond: Vec<String> = (0..24).map(|i| format!("({} and {})", ids[i], ids[i + 22])).collect();
    let path = dir.join("expansions/abbey-and-mayor.yaml");
    let file = std::fs::read_to_string(&path).expect("read");
    let edited = file.replacen("      when: mayor\n", &format!("      when: mayor or {}\n", cond.join(" or ")), 1);
    assert_ne!(edited, file);
    std::fs::write(&path, edited).expect("write");
    let started = cpu_time::process();
    let (problems, spent) = check(&dir, BUDGET);
    let took = cpu_time::process() - started;
    assert!(problems.is_empty() || problems.contains("this condition is too complex to decide"), "{problems}");
    eprintln!("{spent} steps, {took:?}: {}", if problems.is_empty() { "decided" } else { "refused" });
    assert!(took < std::time::Duration::from_secs(3), "took {took:?} of CPU time");
}

#[test]
fn the_hostile_fixture_is_the_twenty_four_pairs_with_their_spoiler() {
    // The build script's and the language server's tests read it.
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    pairs(&dir, 24, true);
    let fixture = Path::new("tests/fixtures/hostile-pairs");
    for file in ["modules.yaml", "expansions/pairs.yaml"] {
        let made = std::fs::read_to_string(dir.join(file)).expect("made");
        assert_eq!(std::fs::read_to_string(fixture.join(file)).expect("fixture"), made, "{file}");
    }
}

/// As [`pairs`] with its spoiler, but each pair the whole condition of an
/// item of its own: every condition is a few nodes and `check` accepts them,
/// but the selections where some item of the step shows, which `verify`
/// builds, are 2^pairs nodes.
fn pairs_apart(dir: &Path, pairs: usize) {
    self::pairs(dir, pairs, true);
    let mut items = String::from("expansion: pairs\nitems:\n  1A:\n");
    for i in 0..pairs {
        writeln!(items, "    - id: pair-{i:02}\n      when: a{i:02} and b{i:02}\n      text: t").expect("write");
    }
    std::fs::write(dir.join("expansions/pairs.yaml"), items).expect("write");
}

#[test]
fn verify_of_conditions_that_fit_alone_but_combine_past_the_budget_is_refused_where_it_ran_out() {
    if !cpu_time::alone() {
        return;
    }
    let temp = tempfile::tempdir().expect("temp dir");
    for (pairs, refused) in [(16, false), (24, true)] {
        let dir = temp.path().join(format!("rules-{pairs}"));
        pairs_apart(&dir, pairs);
        let compiled = compile_dir(&dir);
        let rules = compiled.result.expect("check accepts every pair");
        let started = cpu_time::process();
        let report = verify::verify(&rules, &compiled.sources);
        let took = cpu_time::process() - started;
        let text = diagnostics::render(&report.problems, false);
        eprintln!("{pairs} pairs: verify took {took:?} of CPU time");
        if !refused {
            assert!(!text.contains("too complex"), "{text}");
            continue;
        }
        // Without the budget: 2.4 s and 270 MB at 20 pairs, a minute and
        // gigabytes at 24 (docs/performance.md).
        assert_eq!(report.problems.len(), 1, "{text}");
        let location = report.problems[0].location().expect("located");
        assert!(location.contains("expansions/pairs.yaml:"), "at one of the pairs: {location}");
        assert!(text.contains("this is too complex to verify"), "{text}");
        assert!(text.contains("help: verify works within a budget"), "{text}");
        assert!(took < std::time::Duration::from_secs(12), "took {took:?} of CPU time");
    }
}

#[test]
fn explain_of_an_item_whose_step_combines_past_the_budget_answers_within_its_own() {
    if !cpu_time::alone() {
        return;
    }
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    pairs_apart(&dir, 24);
    let compiled = compile_dir(&dir);
    let rules = compiled.result.expect("check accepts every pair");
    let cfg = Config { edition: EditionId(0), variant: VariantId(0), modules: [ModuleId(0)].into_iter().collect() };
    let started = cpu_time::process();
    let answer = explain::explain(&rules, &compiled.sources, "pair-23", &cfg).expect("explained");
    let took = cpu_time::process() - started;
    assert!(answer.contains("`pair-23` in step 1A: not shown"), "{answer}");
    assert!(answer.contains("smallest change that shows it: add a23, add b23"), "{answer}");
    assert!(took < std::time::Duration::from_secs(2), "took {took:?} of CPU time");
}

#[test]
fn explain_of_flags_nested_in_flags_opens_each_once_and_bounds_its_output() {
    if !cpu_time::alone() {
        return;
    }
    // f00 = a00 or b00, and each next flag names the one before twice: opened
    // at every reference, ten levels are thousands of lines (check refuses a
    // flag of more than 10,000 terms, a few levels more).
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    pairs(&dir, 2, false);
    let mut modules = std::fs::read_to_string(dir.join("modules.yaml")).expect("modules");
    writeln!(modules, "  f00: a00 or b00").expect("write");
    for k in 1..10 {
        writeln!(modules, "  f{k:02}: f{:02} and a01 or f{:02} and b01", k - 1, k - 1).expect("write");
    }
    std::fs::write(dir.join("modules.yaml"), modules).expect("write");
    std::fs::write(
        dir.join("expansions/pairs.yaml"),
        "expansion: pairs\nitems:\n  1A:\n    - id: nested\n      when: f09\n      text: t\n",
    )
    .expect("write");
    let compiled = compile_dir(&dir);
    let rules = compiled.result.expect("check accepts the flags");
    let cfg = Config { edition: EditionId(0), variant: VariantId(0), modules: [ModuleId(0)].into_iter().collect() };
    let started = cpu_time::process();
    let answer = explain::explain(&rules, &compiled.sources, "nested", &cfg).expect("explained");
    let took = cpu_time::process() - started;
    assert!(answer.contains("f00 = a00 or b00"), "{answer}");
    assert!(answer.contains("f00 (opened above)"), "{answer}");
    assert!(answer.lines().count() < 200, "{} lines", answer.lines().count());
    assert!(took < std::time::Duration::from_secs(2), "took {took:?} of CPU time");
}

#[test]
fn explain_writes_at_most_a_thousand_lines_of_conditions() {
    // One condition of 3,000 terms: the first thousand lines, then a count.
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    pairs(&dir, 3, false);
    let terms: Vec<String> = (0..3_000).map(|i| format!("(a{:02} and not b{:02})", i % 3, (i / 3) % 3)).collect();
    let item =
        format!("expansion: pairs\nitems:\n  1A:\n    - id: wide\n      when: {}\n      text: t\n", terms.join(" or "));
    std::fs::write(dir.join("expansions/pairs.yaml"), item).expect("write");
    let compiled = compile_dir(&dir);
    let Ok(rules) = compiled.result else { return };
    let cfg = Config { edition: EditionId(0), variant: VariantId(0), modules: [ModuleId(0)].into_iter().collect() };
    let answer = explain::explain(&rules, &compiled.sources, "wide", &cfg).expect("explained");
    assert!(answer.contains("more lines of its conditions"), "{}", &answer[..answer.len().min(2000)]);
    assert!(answer.lines().count() < 1_100, "{} lines", answer.lines().count());
}
