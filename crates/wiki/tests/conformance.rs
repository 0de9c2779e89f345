//! The rules against the wiki page itself. The page is not part of this
//! repository: set `CARCASSONNE_WIKI_PAGE` to its wiki source (for instance
//! the seeds folder beside the repository, `shared/seeds/order-of-play.nl.wikitext`); without it the test is skipped.
//!
//! For the base game and every module alone in every edition, and for 500
//! random selections from a fixed seed, each step must show as many top-level
//! items as the page, from the same modules, in the same order — or differ
//! where an entry of this crate's `errata.yaml` says so. Below the top level,
//! every conditional sub-item and inline span of the page must have a rule
//! counterpart with an equivalent condition (BDDs), or an erratum must name
//! its line; every repair of broken markup must be named too. Prints both
//! tallies.

use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::{Sources, compile_dir};
use carcassonne_rules_wiki::keys::selector_key;
use carcassonne_rules_wiki::page::{self, Page, Tally, nested};
use carcassonne_rules_wiki::{Errata, compare_nested};

const PAGE_VARIABLE: &str = "CARCASSONNE_WIKI_PAGE";
const RANDOM_SELECTIONS: usize = 500;
const SEED: u64 = 2026;

/// The page's wiki source from `CARCASSONNE_WIKI_PAGE`, or `None` (the test
/// says it is skipped, and why it would run).
fn page_source(purpose: &str) -> Option<String> {
    let Some(path) = std::env::var_os(PAGE_VARIABLE).map(PathBuf::from) else {
        println!("skipped: set {PAGE_VARIABLE}=…/order-of-play.nl.wikitext (the wiki page's source) {purpose}");
        return None;
    };
    // `cargo test` runs the tests in the crate's folder: a relative path that
    // is not found there is taken from the repository root, where the binary
    // is run from.
    let path = if path.is_relative() && !path.exists() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(&path)
    } else {
        path
    };
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{PAGE_VARIABLE}={}: {e}", path.display())))
}

#[test]
fn rules_agree_with_the_wiki_page() {
    let Some(source) = page_source("to compare the rules with the page") else { return };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = match compile_dir(&manifest.join("../../rules")).result {
        Ok(rules) => rules,
        Err(problems) => panic!("the bundled rules do not check:\n{}", render(&problems, false)),
    };
    let errata = Errata::load(&manifest.join("errata.yaml"), &rules, &mut Sources::default())
        .unwrap_or_else(|problems| panic!("errata.yaml does not check:\n{}", render(&problems, false)));
    let page = Page::parse(&source, &rules, &errata);
    assert!(page.unreadable.is_empty(), "page classes errata.yaml does not explain: {:?}", page.unreadable);
    let stale = page::stale_page_lines(&page, &errata);
    assert!(stale.is_empty(), "errata naming page lines that hold no top-level item: {stale:?}");

    let mut tally = Tally::default();
    for selection in page::selections(&rules.catalog, RANDOM_SELECTIONS, SEED) {
        tally.add(&selection.label, &page::compare_selection(&page, &rules, &errata, &selection.config));
    }
    println!("{}", tally.summary());
    let unexplained: Vec<String> =
        tally.unexplained.iter().take(20).map(|(selection, c)| format!("{selection} {}", page::describe(c))).collect();
    assert!(
        tally.unexplained.is_empty(),
        "{} steps differ from the page without an erratum; the first ones:\n{}",
        tally.unexplained.len(),
        unexplained.join("\n")
    );

    // Below the top level, for every selection at once: each conditional
    // sub-item and inline span, the rules' markers, the steps' placeholders
    // and the reader's repairs.
    let nested = compare_nested(&page, &rules, &errata);
    println!("{}", nested.summary());
    assert!(nested.stale.is_empty(), "errata naming nested or repair lines that explain nothing: {:?}", nested.stale);
    let unexplained: Vec<String> = nested.unexplained().map(nested::describe).collect();
    assert!(
        unexplained.is_empty(),
        "{} nested differences from the page without an erratum:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}

/// The wiki export writes each module as the page's selector key, the
/// CamelCase its id is the snake_case of (`selector_key`): every module the
/// page has a selector for is spelled so in the page's classes.
#[test]
fn selector_keys_are_spelled_as_on_the_page() {
    let Some(source) = page_source("to check the selector keys against the page") else { return };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = match compile_dir(&manifest.join("../../rules")).result {
        Ok(rules) => rules,
        Err(problems) => panic!("the bundled rules do not check:\n{}", render(&problems, false)),
    };
    // The page's class names and selector entries, `show` taken off.
    let classes: Vec<&str> = source
        .split(['"', '\'', ' ', '\n'])
        .filter_map(|word| word.strip_prefix("show"))
        .filter(|word| word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let mut missing = Vec::new();
    for module in rules.catalog.modules.iter().filter(|m| m.on_wiki_page) {
        let key = selector_key(&module.id);
        // The key as a whole word run: what follows it starts a new word.
        let spelled = classes.iter().any(|class| {
            class.match_indices(key.as_str()).any(|(at, _)| {
                class[at + key.len()..].chars().next().is_none_or(|c| c.is_ascii_uppercase() || c == '_')
            })
        });
        if !spelled {
            missing.push(format!("{} ({key})", module.id));
        }
    }
    assert!(missing.is_empty(), "modules whose selector key the page spells otherwise: {missing:?}");
}
