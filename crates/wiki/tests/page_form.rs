//! `wiki --lang nl` against the Dutch page's form: the page's `show…` class
//! tokens the export uses, the export's tokens the page has, and the skeleton
//! of boxes, wrappers and steps both have in order. The figures are written
//! in `docs/wiki.md` and held here as floors. The page is not part of this
//! repository: set `CARCASSONNE_WIKI_PAGE` to its wiki source (`.ci/run`
//! does); without it the measure is skipped, and says so. The table of the
//! page's derived keys in `docs/wiki.md` is checked against the code always,
//! and against the page where it is there.

// Helpers outside `#[test]` functions panic on a broken rule set, as tests do.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::compile_dir;
use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_wiki::export::{self, Options};
use carcassonne_rules_wiki::keys::{DERIVED_KEYS, snake_case};
use carcassonne_rules_wiki::measure::{class_tokens, compare_skeletons, percent, skeleton};

const PAGE_VARIABLE: &str = "CARCASSONNE_WIKI_PAGE";

/// The floors: the figures of `docs/wiki.md`, which an export may better but
/// not fall below.
const PAGE_TOKENS_USED: f64 = 84.6;
const EXPORT_TOKENS_ON_PAGE: f64 = 84.6;
const SKELETON_SHARED_OF_PAGE: f64 = 91.1;
const SKELETON_SHARED_OF_EXPORT: f64 = 97.6;

fn page_source() -> Option<String> {
    let Some(path) = std::env::var_os(PAGE_VARIABLE).map(PathBuf::from) else {
        println!("skipped: set {PAGE_VARIABLE}=…/order-of-play.nl.wikitext to measure the export against the page");
        return None;
    };
    let path = if path.is_relative() && !path.exists() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(&path)
    } else {
        path
    };
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{PAGE_VARIABLE}={}: {e}", path.display())))
}

/// The order of play in the page's source: between the selector and the
/// page's footer (its `onlyinclude`).
fn order_of_play(page: &str) -> &str {
    let start = page.find("<onlyinclude>").map_or(0, |at| at + "<onlyinclude>".len());
    let end = page.find("</onlyinclude>").unwrap_or(page.len());
    &page[start..end]
}

fn dutch_export() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    let compiled = compile_dir(&dir);
    let rules = compiled.result.unwrap_or_else(|p| panic!("the rules do not check:\n{}", render(&p, false)));
    let dutch = compiled.translations.locale("nl").expect("the rules have Dutch");
    let options = Options { locale: Some(dutch), ..Options::default() };
    export::export_with(&rules, &compiled.sources, options).unwrap_or_else(|p| panic!("{}", render(&p, false)))
}

#[test]
fn the_dutch_export_has_the_pages_form() {
    let Some(page) = page_source() else { return };
    let page = order_of_play(&page);
    let export = dutch_export();

    let (page_tokens, export_tokens) = (class_tokens(page), class_tokens(&export));
    let shared = page_tokens.intersection(&export_tokens).count();
    let used = percent(shared, page_tokens.len());
    let on_page = percent(shared, export_tokens.len());
    println!(
        "class tokens: the export uses {shared} of the page's {} ({used}%); {shared} of the export's {} are the \
         page's ({on_page}%)",
        page_tokens.len(),
        export_tokens.len()
    );
    let missing: Vec<&String> = page_tokens.difference(&export_tokens).collect();
    let own: Vec<&String> = export_tokens.difference(&page_tokens).collect();
    println!("  the page's, not the export's: {missing:?}");
    println!("  the export's, not the page's: {own:?}");

    let diff = compare_skeletons(&skeleton(page), &skeleton(&export));
    let (of_page, of_export) = (percent(diff.shared, diff.page), percent(diff.shared, diff.export));
    println!(
        "skeleton: {} pieces of the page's {} and of the export's {} in the same order ({of_page}%, {of_export}%)",
        diff.shared, diff.page, diff.export
    );
    println!("  the page's only: {:?}", diff.only_page);
    println!("  the export's only: {:?}", diff.only_export);

    assert!(used >= PAGE_TOKENS_USED, "the export uses {used}% of the page's class tokens, below {PAGE_TOKENS_USED}%");
    assert!(on_page >= EXPORT_TOKENS_ON_PAGE, "{on_page}% of the export's tokens are the page's, below the floor");
    assert!(of_page >= SKELETON_SHARED_OF_PAGE, "the skeleton shares {of_page}% of the page's, below the floor");
    assert!(of_export >= SKELETON_SHARED_OF_EXPORT, "the skeleton shares {of_export}% of the export's");
}

/// The table of `docs/wiki.md` is the code's, each key's snake_case is its
/// flag's id, each flag is the rules'; where the page is there, it has each
/// key among its classes.
#[test]
fn the_derived_keys_table_is_the_codes_and_the_pages() {
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/wiki.md"))
        .expect("docs/wiki.md");
    let table: Vec<(String, String)> = docs
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim().strip_prefix("| `")?.split('|').map(str::trim).collect();
            let flag = cells.first()?.trim_end_matches('`');
            let key = cells.get(1)?.trim_matches('`');
            key.starts_with("show").then(|| (flag.to_string(), key.trim_start_matches("show").to_string()))
        })
        .collect();
    let code: Vec<(String, String)> = DERIVED_KEYS.iter().map(|(f, k)| (f.to_string(), k.to_string())).collect();
    assert_eq!(table, code, "docs/wiki.md's table of derived keys");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    let rules = compile_dir(&dir).result.unwrap_or_else(|p| panic!("{}", render(&p, false)));
    for (flag, key) in DERIVED_KEYS {
        // The reader takes a key whole; its words are still its flag's
        // (`markC1AndmarkWE`: `And` starts no word of its own there).
        let words = snake_case(&key.replace("Andmark", "AndMark"));
        assert_eq!(words, flag, "{key} spells its flag");
        assert!(rules.flags.iter().any(|f| f.id == flag), "{flag} is a derived flag of the rules");
    }
    let Some(page) = page_source() else { return };
    let words: Vec<&str> = page.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
    for (_, key) in DERIVED_KEYS {
        // A key holds `And` at times: found as it is spelled, between the
        // class's start or an operator and its end, `_For…` or an operator.
        let used = words.iter().any(|w| {
            w.strip_prefix("show").and_then(|class| class.split("_For").next()).is_some_and(|c| {
                c.match_indices(key).any(|(at, _)| {
                    let (before, after) = (&c[..at], &c[at + key.len()..]);
                    let before = before.is_empty() || ["And", "Or", "Not"].iter().any(|o| before.ends_with(o));
                    before && (after.is_empty() || after.starts_with("And") || after.starts_with("Or"))
                })
            })
        });
        assert!(used, "the page has no class with the key {key}");
    }
}
