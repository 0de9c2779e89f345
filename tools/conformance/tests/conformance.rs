//! The rules against the wiki page itself. The page is not part of this
//! repository: set `CARCASSONNE_WIKI_PAGE` to its wiki source (for instance
//! `../shared/seeds/order-of-play.nl.wikitext`); without it the test is skipped.
//!
//! For the base game and every module alone in every edition, and for 500
//! random selections from a fixed seed, each step must show as many top-level
//! items as the page, from the same modules, in the same order — or differ
//! where an entry of this crate's `errata.yaml` says so. Prints the tally.

use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::{Sources, compile_dir};
use carcassonne_rules_conformance::Errata;
use carcassonne_rules_conformance::wiki::{self, Page, Tally};

const PAGE_VARIABLE: &str = "CARCASSONNE_WIKI_PAGE";
const RANDOM_SELECTIONS: usize = 500;
const SEED: u64 = 2026;

#[test]
fn rules_agree_with_the_wiki_page() {
    let Some(page_path) = std::env::var_os(PAGE_VARIABLE).map(PathBuf::from) else {
        println!(
            "skipped: set {PAGE_VARIABLE}=…/order-of-play.nl.wikitext (the wiki page's source) to compare the rules with the page"
        );
        return;
    };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = match compile_dir(&manifest.join("../../rules")).result {
        Ok(rules) => rules,
        Err(problems) => panic!("the bundled rules do not check:\n{}", render(&problems, false)),
    };
    let errata = Errata::load(&manifest.join("errata.yaml"), &rules, &mut Sources::default())
        .unwrap_or_else(|problems| panic!("errata.yaml does not check:\n{}", render(&problems, false)));
    // `cargo test` runs this test in the crate's folder: a relative path that
    // is not found there is taken from the repository root, where the binary
    // is run from.
    let page_path = if page_path.is_relative() && !page_path.exists() {
        manifest.join("../..").join(&page_path)
    } else {
        page_path
    };
    let source =
        std::fs::read_to_string(&page_path).unwrap_or_else(|e| panic!("{PAGE_VARIABLE}={}: {e}", page_path.display()));
    let page = Page::parse(&source, &rules, &errata);
    assert!(page.unreadable.is_empty(), "page classes errata.yaml does not explain: {:?}", page.unreadable);
    let stale = wiki::stale_page_lines(&page, &errata);
    assert!(stale.is_empty(), "errata naming page lines that hold no top-level item: {stale:?}");

    let mut tally = Tally::default();
    for selection in wiki::selections(&rules.catalog, RANDOM_SELECTIONS, SEED) {
        tally.add(&selection.label, &wiki::compare_selection(&page, &rules, &errata, &selection.config));
    }
    println!("{}", tally.summary());
    let unexplained: Vec<String> =
        tally.unexplained.iter().take(20).map(|(selection, c)| format!("{selection} {}", wiki::describe(c))).collect();
    assert!(
        tally.unexplained.is_empty(),
        "{} steps differ from the page without an erratum; the first ones:\n{}",
        tally.unexplained.len(),
        unexplained.join("\n")
    );
}
