//! Reading the wiki page's markup: which top-level items a selection shows,
//! which module brings each, and how the comparison with the rules goes. The
//! pages are inline; the rules are the compiler's test fixture.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::{Rules, Sources, compile_dir};
use carcassonne_rules_core::Config;
use carcassonne_rules_wiki::page::{self, Page, PageItem, Tally, nested};
use carcassonne_rules_wiki::{Errata, Verdict};

// The compiler's test helpers (copying a rules folder), shared as a file.
#[path = "../../../crates/compiler/tests/common/mod.rs"]
mod common;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/compiler/tests/fixtures/minimal")
}

fn compile(dir: &Path) -> Rules {
    match compile_dir(dir).result {
        Ok(rules) => rules,
        Err(problems) => panic!("{}", carcassonne_rules_compiler::diagnostics::render(&problems, false)),
    }
}

fn fixture() -> Rules {
    compile(&fixture_dir())
}

fn config(rules: &Rules, edition: &str, with: &str) -> Config {
    rules.catalog.config(edition, None, with).expect("valid selection")
}

/// Origins and lines of the page's top-level items per section.
fn shown(page: &Page, rules: &Rules, edition: &str, with: &str) -> Vec<(String, Vec<PageItem>)> {
    page.sections(rules, &config(rules, edition, with))
}

fn item(origin: &str, line: usize) -> PageItem {
    PageItem { origin: origin.to_string(), line }
}

fn origins(items: &[PageItem]) -> Vec<&str> {
    items.iter().map(|i| i.origin.as_str()).collect()
}

/// An errata file with these contents, checked against `rules`.
fn errata(rules: &Rules, yaml: &str) -> Errata {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("errata.yaml");
    std::fs::write(&path, yaml).expect("write errata");
    match Errata::load(&path, rules, &mut Sources::default()) {
        Ok(errata) => errata,
        Err(problems) => panic!("{}", carcassonne_rules_compiler::diagnostics::render(&problems, false)),
    }
}

const PAGE: &str = r#"'''Inleiding'''
<ul>
<li class="showAll">You.</li>
</ul>
{{RulesPlacingTile|rules='''Stap 1B: Draw'''
<ol>
<li class="showTilesInSupply markWE">Supply.
<ul><li class="showAbbey">Abbey tile</li></ul>
</li>
<li class="showDragonAndNotPrincess_ForC1">Dragon without princess, first edition.</li>
<li>Draw a tile.
<li class="showPeasantRevolts">Revolt<span class="showBuilder"> with builder</span
<span class="showPrincess">swallowed by the unclosed end tag</span></li>
</ol>
<div class="showBuilder">
}}
'''Stap 1C: Place'''
<ul data-dynamic-selector="['OR','showDragon','showPrincess']">
<li>Dragon or princess.</li>
</ul>
"#;

#[test]
fn visibility_follows_classes_composites_and_selectors() {
    let rules = fixture();
    let page = Page::parse(PAGE, &rules, &Errata::default());
    assert!(page.unreadable.is_empty(), "{:?}", page.unreadable);

    let base = shown(&page, &rules, "C2", "");
    assert_eq!(base[0], ("notes".to_string(), vec![item("base", 3)]));
    // `<li>` without a closing tag is closed by the next item.
    assert_eq!(base[1], ("1B".to_string(), vec![item("base", 11)]));
    assert_eq!(base[2], ("1C".to_string(), vec![]));

    // `showTilesInSupply` is a derived flag: it counts as the abbey it names.
    let c1 = shown(&page, &rules, "C1", "dragon,abbey,peasant_revolts");
    assert_eq!(origins(&c1[1].1), ["abbey", "dragon", "base", "peasant_revolts"]);
    assert_eq!(c1[2].1, [item("dragon", 19)]);

    // Not in C2, and not with the princess.
    let c2 = shown(&page, &rules, "C2", "dragon");
    assert_eq!(c2[1].1.len(), 1);
    let princess = shown(&page, &rules, "C1", "dragon,princess");
    assert_eq!(princess[1].1.len(), 1);
}

#[test]
fn an_unclosed_box_ends_with_its_template() {
    let rules = fixture();
    let page = Page::parse(PAGE, &rules, &Errata::default());
    // The `<div class="showBuilder">` left open inside the 1B box does not
    // hide step 1C, which follows the box.
    let sections = shown(&page, &rules, "C2", "princess");
    assert_eq!(sections[2].0, "1C");
    assert_eq!(sections[2].1.len(), 1);
}

/// A block written twice: the first copy's list is never closed, so the
/// second copy's `<div>` and `<ol>` open inside it and the end tags close
/// only those; step 1C stays inside the first `<div class="showBuilder">`.
const DUPLICATED_BLOCK_PAGE: &str = r#"'''Stap 1B: Draw'''
<div class="showBuilder">
<ol>
<li class="showBuilder">First copy.</li><div class="showBuilder">
<ol>
<li class="showBuilder">Second copy.</li>
</ol>
</div>
'''Stap 1C: Place'''
<ol>
<li>Place the tile.</li>
</ol>
"#;

#[test]
fn an_erratum_can_skip_the_start_tags_of_a_duplicated_block() {
    let rules = fixture();
    let as_written = Page::parse(DUPLICATED_BLOCK_PAGE, &rules, &Errata::default());
    assert!(as_written.repairs.is_empty(), "{:?}", as_written.repairs);
    // Without the builder the page, as written, hides all of step 1C.
    let sections = shown(&as_written, &rules, "C2", "");
    assert!(sections.iter().all(|(section, _)| section != "1C"), "{sections:?}");

    let skip = errata(
        &rules,
        "differences:\n  - id: block-written-twice\n    page: p\n    rules: r\n    why: w\n    \
         ignored_start_tags: [{ line: 4, tag: div }, { line: 5, tag: ol }]\n",
    );
    let repaired = Page::parse(DUPLICATED_BLOCK_PAGE, &rules, &skip);
    assert_eq!(repaired.repairs.iter().map(|r| r.line).collect::<Vec<_>>(), [4, 5]);
    assert_eq!(shown(&repaired, &rules, "C2", "")[1], ("1C".to_string(), vec![item("base", 11)]));
    // With the builder both copies show, as two items of one list.
    assert_eq!(shown(&repaired, &rules, "C2", "builder")[0].1, [item("builder", 4), item("builder", 6)]);
}

const ORIGINS_PAGE: &str = r#"'''Stap 1B: Draw'''
<ol>
<li class="showDragonOrPrincessOrAbbey">First selected of three.</li>
<li class="showNotDragonAndBuilder">Builder without the dragon.</li>
<li class="showNotPrincess">The base game's.</li>
</ol>
<div class="showDragonOrBuilder">
<ol>
<li class="showNotPrincess">Not the princess's: the block's.</li>
<li class="showPeasantRevolts">Its own module first.</li>
</ol>
</div>
"#;

#[test]
fn an_origin_is_the_first_selected_module_named_outside_a_not() {
    let rules = fixture();
    let page = Page::parse(ORIGINS_PAGE, &rules, &Errata::default());
    assert!(page.unreadable.is_empty(), "{:?}", page.unreadable);

    // Not the first module the class names, but the first that is selected.
    assert_eq!(origins(&shown(&page, &rules, "C2", "princess")[0].1), ["princess"]);
    assert_eq!(origins(&shown(&page, &rules, "C2", "abbey,princess")[0].1), ["princess"]);
    // A module under `not` never brings an item: nothing else named, the base game.
    assert_eq!(origins(&shown(&page, &rules, "C2", "abbey")[0].1), ["abbey", "base"]);
    // Else the block around it does (innermost element first).
    assert_eq!(origins(&shown(&page, &rules, "C2", "builder")[0].1), ["builder", "base", "builder"]);
    let revolts = shown(&page, &rules, "C2", "builder,peasant_revolts");
    assert_eq!(origins(&revolts[0].1), ["builder", "base", "builder", "peasant_revolts"]);
    assert_eq!(origins(&shown(&page, &rules, "C2", "dragon,abbey")[0].1), ["dragon", "base", "dragon"]);
}

#[test]
fn class_readings_of_the_errata_read_irregular_names() {
    let rules = fixture();
    let page_source = "'''Stap 1B: Draw'''\n<ol>\n<li class=\"showPeasantRefolts\">Revolt.</li>\n</ol>\n";
    let page = Page::parse(page_source, &rules, &Errata::default());
    assert_eq!(page.unreadable, ["showPeasantRefolts"]);
    assert!(shown(&page, &rules, "C2", "peasant_revolts")[0].1.is_empty(), "unreadable classes never show");

    let errata = errata(
        &rules,
        "classes:\n  - class: showPeasantRefolts\n    means: peasant_revolts\n    why: A typo of showPeasantRevolts.\n",
    );
    let page = Page::parse(page_source, &rules, &errata);
    assert!(page.unreadable.is_empty());
    assert_eq!(shown(&page, &rules, "C2", "peasant_revolts")[0].1, [item("peasant_revolts", 3)]);
}

/// The fixture's order of play as a wiki page would write it.
const FIXTURE_PAGE: &str = r#"{{RulesPlacingTile|rules='''Stap 1B: Draw'''
<ol>
<li class="showTilesInSupply">Play your abbey.</li>
<li>Draw a tile.</li>
<li>Show the tile.</li>
</ol>
'''Stap 1C: Place'''
<ol>
<li>Place the tile.</li>
<li class="showPrincess">Remove a knight.</li>
</ol>
}}
'''Stap 2B-1: Deploy'''
<ol>
<li>Deploy a meeple.
<ul><li class="showBuilder">A builder.</li></ul>
</li>
</ol>
<div class="showDragon">
'''Stap 2D: Dragon'''
<ol><li>Move the dragon.</li></ol>
</div>
'''Stap 3B: Score'''
<ol><li>Score the feature.</li></ol>
'''Stap 4B: End'''
<ol><li class="showBuilder">Double turn.</li></ol>
"#;

fn tally(page: &Page, rules: &Rules, errata: &Errata) -> Tally {
    let mut tally = Tally::default();
    for selection in page::selections(&rules.catalog, 40, 7) {
        tally.add(&selection.label, &page::compare_selection(page, rules, errata, &selection.config));
    }
    tally
}

#[test]
fn a_page_that_says_what_the_rules_say_agrees_everywhere() {
    let rules = fixture();
    let page = Page::parse(FIXTURE_PAGE, &rules, &Errata::default());
    assert!(page.unreadable.is_empty(), "{:?}", page.unreadable);
    let tally = tally(&page, &rules, &Errata::default());
    // 3 editions × (base + 5 modules alone) + 40 random selections.
    assert!(tally.compared >= 58 * 8, "{}", tally.summary());
    let first: Vec<String> =
        tally.unexplained.iter().take(5).map(|(s, c)| format!("{s} {}", page::describe(c))).collect();
    assert!(tally.unexplained.is_empty(), "{}", first.join("\n"));
    assert_eq!(tally.agreeing, tally.compared);
}

#[test]
fn differences_are_explained_by_errata_or_reported() {
    let rules = fixture();
    // The page forgets the princess and adds an item to 3B.
    let source = FIXTURE_PAGE
        .replace("<li class=\"showPrincess\">Remove a knight.</li>\n", "")
        .replace("<li>Score the feature.</li>", "<li>Score the feature.</li>\n<li>Count.</li>");
    let page = Page::parse(&source, &rules, &Errata::default());
    let cfg = config(&rules, "C2", "princess");
    let comparisons = page::compare_selection(&page, &rules, &Errata::default(), &cfg);
    let verdict = |section: &str| comparisons.iter().find(|c| c.section == section).map(|c| c.verdict.clone());
    assert_eq!(verdict("1C"), Some(Verdict::Differs));
    assert_eq!(verdict("3B"), Some(Verdict::Differs));
    assert_eq!(verdict("1B"), Some(Verdict::Agrees));

    let count_line = source.lines().position(|l| l.contains("Count.")).map(|l| l + 1).expect("line");
    let errata = errata(
        &rules,
        &format!(
            "differences:
  - id: princess-missing
    page: The page has no princess item.
    rules: The princess removes a knight.
    why: For the test.
    items: [princess-remove-knight]
  - id: count-step
    page: The page counts.
    rules: The rules do not.
    why: For the test.
    page_lines: [{count_line}]
"
        ),
    );
    let comparisons = page::compare_selection(&page, &rules, &errata, &cfg);
    let verdict = |section: &str| comparisons.iter().find(|c| c.section == section).map(|c| c.verdict.clone());
    assert_eq!(verdict("1C"), Some(Verdict::Explained(vec!["princess-missing".to_string()])));
    assert_eq!(verdict("3B"), Some(Verdict::Explained(vec!["count-step".to_string()])));
    assert!(page::stale_page_lines(&page, &errata).is_empty());
    let moved = Page::parse(&source.replace("<li>Count.</li>", "\n<li>Count.</li>"), &rules, &errata);
    assert_eq!(page::stale_page_lines(&moved, &errata), [("count-step".to_string(), count_line)]);
    let tally = tally(&page, &rules, &errata);
    assert!(tally.unexplained.is_empty(), "{}", tally.summary());
    assert!(tally.explained["princess-missing"] > 0 && tally.explained["count-step"] > 0);
}

/// Copies the fixture to a temporary folder and adds the module `mage` (in an
/// expansion of its own, `wiki: <on_page>`) with an item in step 1B.
/// A copy of the fixture's rules folder, to edit.
fn copy_of_fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(&fixture_dir(), dir.path());
    dir
}

fn fixture_with_mage(on_page: bool) -> (tempfile::TempDir, Rules) {
    let dir = copy_of_fixture();
    let modules = std::fs::read_to_string(dir.path().join("modules.yaml")).expect("modules.yaml");
    let mage = format!(
        "  - id: mage_and_witch\n    name: Mage & Witch\n    editions: [C1, C2]\n    modules:\n      - {{ id: mage, name: Mage, wiki: {on_page} }}\n"
    );
    let modules = modules.replacen("expansions:\n", &format!("expansions:\n{mage}"), 1);
    std::fs::write(dir.path().join("modules.yaml"), modules).expect("write modules.yaml");
    std::fs::write(
        dir.path().join("expansions/mage-and-witch.yaml"),
        "expansion: mage_and_witch\nitems:\n  1B:\n    - id: mage-move\n      when: mage\n      after: show-tile\n      text: Move the mage.\n",
    )
    .expect("write the mage's rules");
    let rules = compile(dir.path());
    (dir, rules)
}

#[test]
fn modules_without_a_selector_on_the_page_are_left_out() {
    let (_dir, rules) = fixture_with_mage(false);
    let mage = rules.catalog.module("mage").expect("the mage is a module");
    assert!(!mage.on_wiki_page);
    let page = Page::parse(FIXTURE_PAGE, &rules, &Errata::default());

    // The selections never pick the mage …
    let selections = page::selections(&rules.catalog, 200, 2026);
    assert!(selections.iter().all(|s| !s.config.has(mage.bit)));
    // … so the page agrees with the rules without any erratum.
    let tally = tally(&page, &rules, &Errata::default());
    assert!(tally.unexplained.is_empty(), "{}", tally.summary());
    assert_eq!(tally.agreeing, tally.compared);

    // Chosen by hand, the mage's items are left out of the comparison.
    let cfg = config(&rules, "C2", "mage,abbey");
    let order = carcassonne_rules_tools::interpret::turn_order(&rules, &cfg);
    let ids: Vec<&str> = order.steps().flat_map(|s| &s.items).map(|i| i.id()).collect();
    assert!(ids.contains(&"mage-move"));
    let comparisons = page::compare(&page, &rules, &Errata::default(), &cfg, &order);
    assert!(comparisons.iter().all(|c| c.agrees()), "{comparisons:#?}");
}

#[test]
fn a_module_with_a_selector_must_be_on_the_page() {
    // The same rules without `wiki: false`: the mage is selected, and the page,
    // which does not show its item, differs.
    let (_dir, rules) = fixture_with_mage(true);
    let page = Page::parse(FIXTURE_PAGE, &rules, &Errata::default());
    let tally = tally(&page, &rules, &Errata::default());
    assert!(!tally.unexplained.is_empty());
    assert!(tally.unexplained.iter().all(|(label, c)| label.contains("mage") && c.section == "1B"));
}

/// The fixture with two sub-items of `deploy-meeple`, in the order `first`,
/// then the other: `abbey` ("or onto an abbey") and `revolts` (protection).
fn fixture_with_deploy_asides(first: &str) -> (tempfile::TempDir, Rules) {
    let dir = copy_of_fixture();
    let abbey =
        "    - id: deploy-onto-abbey\n      when: abbey\n      under: deploy-meeple\n      text: or onto an abbey\n";
    let revolts = "    - id: deploy-protected\n      when: peasant_revolts\n      under: deploy-meeple\n      text: It may be protected.\n";
    let (a, b) = if first == "abbey" { (abbey, revolts) } else { (revolts, abbey) };
    let file = dir.path().join("expansions/abbey-and-mayor.yaml");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("{text}  2B-1:\n{a}{b}")).expect("write");
    let rules = compile(dir.path());
    (dir, rules)
}

/// The abbey as words of the item's sentence, the protection as a sub-item.
const ASIDE_PAGE: &str = r#"'''Stap 2B-1: Deploy'''
<ol>
<li>Deploy a meeple<span class="showAbbey"> or onto an abbey</span>.
<ul>
<li class="showPeasantRevolts">It may be protected.</li>
</ul></li>
</ol>
"#;

#[test]
fn nested_asides_and_sub_items_must_keep_the_rules_order() {
    let differences = |first: &str| {
        let (_dir, rules) = fixture_with_deploy_asides(first);
        let page = Page::parse(ASIDE_PAGE, &rules, &Errata::default());
        let tally = carcassonne_rules_wiki::compare_nested(&page, &rules, &Errata::default());
        let found: Vec<(usize, String)> =
            tally.findings.iter().filter_map(|f| f.difference.clone().map(|d| (f.line, d))).collect();
        (tally.findings.len(), found)
    };
    // The page's order: the aside in the sentence, then the sub-list (and
    // the foreign marks of the two items paired).
    let (compared, found) = differences("abbey");
    assert_eq!((compared, found), (4, vec![]));
    // The rules' sub-items the other way round.
    let (_, found) = differences("revolts");
    assert_eq!(found, [(5, "`deploy-meeple` has it as `deploy-protected`, in another order".to_string())]);
}

#[test]
fn nested_foreign_marks_follow_the_rule_items() {
    let (_dir, rules) = fixture_with_deploy_asides("abbey");
    let marks = |page: &str| {
        let page = Page::parse(page, &rules, &Errata::default());
        let tally = carcassonne_rules_wiki::compare_nested(&page, &rules, &Errata::default());
        tally
            .findings
            .into_iter()
            .filter(|f| f.kind == nested::Kind::Mark)
            .map(|f| (f.line, f.what, f.difference))
            .collect::<Vec<_>>()
    };
    // The paired item is compared; the page and the rules mark nothing.
    let unmarked = [
        (3, "li  = `deploy-meeple`".to_string(), None),
        (5, "li showPeasantRevolts = `deploy-protected`".to_string(), None),
    ];
    assert_eq!(marks(ASIDE_PAGE), unmarked);
    // A mark on the aside is the mark of the sub-item it stands for.
    let marked = ASIDE_PAGE.replace("<span class=\"showAbbey\">", "<span class=\"showAbbey markC1\">");
    let found = marks(&marked);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[1].0, 3);
    assert!(found[1].1.ends_with("= `deploy-onto-abbey`"), "{found:?}");
    assert_eq!(found[1].2.as_deref(), Some("the page marks it foreign in C1, the rules do not"));
    // A mark on a part of the aside's words is the sub-item's mark too.
    let part = ASIDE_PAGE.replace(" or onto an abbey</span>", " or onto an <span class=\"markC2\">abbey</span></span>");
    let found = marks(&part);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[1].1, "span markC2 \"abbey\" = `deploy-onto-abbey`");
    assert_eq!(found[1].2.as_deref(), Some("the page marks it foreign in C2, the rules do not"));
    // A mark on the item holds for what is in it, its sub-items too.
    let whole = ASIDE_PAGE.replace("<li>Deploy", "<li class=\"markWE\">Deploy");
    let found = marks(&whole);
    assert!(
        found.iter().all(|f| f.2.as_deref() == Some("the page marks it foreign in WE, the rules do not")),
        "{found:?}"
    );
}
