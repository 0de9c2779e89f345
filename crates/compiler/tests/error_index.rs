//! `docs/errors.md`, the error index, keeps up with the codes: every code has
//! a section, and every example there reports exactly the code it documents.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use carcassonne_rules_compiler::codes::{Cause, Code};
use carcassonne_rules_compiler::{self as compiler};
use carcassonne_rules_tools::verify;

const FIXTURE: &str = "tests/fixtures/minimal";
const INDEX: &str = "../../docs/errors.md";

/// One section of the index: its code and its text.
struct Section {
    code: String,
    text: String,
}

fn sections() -> Vec<Section> {
    let index = std::fs::read_to_string(INDEX).expect("docs/errors.md");
    index
        .split("\n## ")
        .skip(1)
        .map(|part| {
            let (heading, text) = part.split_once('\n').unwrap_or((part, ""));
            Section { code: heading.trim().trim_matches('`').to_string(), text: text.to_string() }
        })
        .collect()
}

/// An example: in `file`, `new` written in place of `old`; and the codes it
/// also reports.
struct Example {
    file: String,
    new: String,
    old: String,
    also: Vec<String>,
}

/// The `yaml` code blocks of `text`, in order.
fn yaml_blocks(text: &str) -> Vec<String> {
    text.split("```yaml\n").skip(1).filter_map(|b| b.split_once("\n```").map(|(code, _)| code.to_string())).collect()
}

fn example(section: &Section) -> Option<Example> {
    let rest = section.text.split_once("**Example.** In `")?.1;
    let (file, rest) = rest.split_once('`')?;
    let blocks = yaml_blocks(rest);
    let [new, old] = blocks.get(..2)? else { return None };
    let also = match rest.split_once("\nalso reports ") {
        Some((_, line)) => line.lines().next()?.split('`').skip(1).step_by(2).map(str::to_string).collect(),
        None => Vec::new(),
    };
    Some(Example { file: file.to_string(), new: new.clone(), old: old.clone(), also })
}

/// The codes `check` (and, for rules it accepts, `verify`) reports on the
/// fixture with the example applied.
fn codes_reported(example: &Example) -> BTreeSet<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(FIXTURE), dir.path());
    let path = dir.path().join(&example.file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", example.file));
    assert!(text.contains(&example.old), "{} does not hold\n{}", example.file, example.old);
    std::fs::write(&path, text.replacen(&example.old, &example.new, 1)).expect("write");
    let compiled = compiler::compile_dir(dir.path());
    let mut problems = match compiled.result {
        Ok(rules) => verify::verify(&rules, &compiled.sources).problems,
        Err(problems) => problems,
    };
    problems.extend(compiled.translation_problems);
    problems.iter().map(|d| d.code().id().to_string()).collect()
}

#[test]
fn every_code_has_one_section_in_order_and_no_section_names_an_unknown_code() {
    let documented: Vec<String> = sections().into_iter().map(|s| s.code).collect();
    let codes: Vec<String> = Code::ALL.iter().map(|c| c.id().to_string()).collect();
    assert_eq!(documented, codes, "docs/errors.md's sections are not the codes of codes.rs, in order");
}

#[test]
fn every_section_opens_with_the_summary_and_gives_a_fix() {
    for (section, code) in sections().iter().zip(Code::ALL) {
        // The index may carry the summary's sentence on with details.
        let lead = section.text.trim_start().split("\n\n").next().unwrap_or_default().replace('\n', " ");
        let summary = code.summary().trim_end_matches('.');
        assert!(lead.starts_with(summary), "{}: opens with {lead:?}, not the summary {summary:?}", section.code);
        assert!(section.text.contains("**Fix.** "), "{}: no fix", section.code);
    }
}

#[test]
fn every_example_reports_exactly_its_code() {
    let mut tested = 0;
    let mut wrong = Vec::new();
    for (section, code) in sections().iter().zip(Code::ALL) {
        let Some(example) = example(section) else {
            // Only problems no small rules file shows may go without an example.
            assert_ne!(code.cause(), Cause::Rules, "{}: no example", section.code);
            assert!(section.text.contains("**Example.** None"), "{}: say why there is no example", section.code);
            continue;
        };
        assert_eq!(code.cause(), Cause::Rules, "{}: an example for a code not caused by rules", section.code);
        let mut expected: BTreeSet<String> = example.also.iter().cloned().collect();
        expected.insert(section.code.clone());
        let reported = codes_reported(&example);
        if reported != expected {
            wrong.push(format!("{}: reports {reported:?}", section.code));
        }
        tested += 1;
    }
    assert!(wrong.is_empty(), "examples that do not report exactly their code:\n{}", wrong.join("\n"));
    let rules_codes = Code::ALL.iter().filter(|c| c.cause() == Cause::Rules).count();
    assert_eq!(tested, rules_codes);
}

#[test]
fn the_fixture_itself_reports_nothing() {
    let compiled = compiler::compile_dir(Path::new(FIXTURE));
    let rules = compiled.result.expect("the fixture checks");
    let problems = verify::verify(&rules, &compiled.sources).problems;
    assert!(problems.is_empty(), "{problems:?}");
}
