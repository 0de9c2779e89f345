//! The rules against the wiki page itself (`../shared/seeds/`): for the base
//! game and every module alone in every edition, and for 500 random selections
//! from a fixed seed, each step must show as many top-level items as the page,
//! from the same modules, in the same order — or differ where an entry of
//! `rules/errata.yaml` says so. Prints the agreement figure.

use std::path::Path;

use carcassonne_rules::catalog::Catalog;
use carcassonne_rules::{compiler, wiki};

const PAGE: &str = "../shared/seeds/order-of-play.nl.wikitext";
const RANDOM_SELECTIONS: usize = 500;
const SEED: u64 = 2026;

#[test]
fn rules_agree_with_the_wiki_page() {
    let rules = compiler::compile_dir(Path::new("rules")).result.expect("the bundled rules check");
    let source = std::fs::read_to_string(PAGE).unwrap_or_else(|e| panic!("{PAGE}: {e} (the seeds live in ../shared)"));
    let page = wiki::Page::parse(&source, &rules);
    assert!(page.unreadable.is_empty(), "page classes the errata do not explain: {:?}", page.unreadable);

    let catalog = Catalog::from_rules(&rules);
    let selections = wiki::selections(&catalog, RANDOM_SELECTIONS, SEED);
    let mut tally = wiki::Tally::default();
    for (selection, comparisons) in
        wiki::compare_selections(&page, &rules, &selections, None).expect("valid selections")
    {
        tally.add(&selection, &comparisons);
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
