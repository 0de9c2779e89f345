//! Reading the wiki page's markup: which top-level items a selection shows.

use std::path::Path;

use carcassonne_rules::catalog::Catalog;
use carcassonne_rules::compiler::{self, Rules};
use carcassonne_rules::wiki::Page;

fn fixture() -> Rules {
    compiler::compile_dir(Path::new("tests/fixtures/minimal")).result.expect("fixture rules check")
}

/// Origins and lines of the page's top-level items per section.
fn shown(page: &Page, rules: &Rules, edition: &str, with: &str) -> Vec<(String, Vec<(String, usize)>)> {
    let config = Catalog::from_rules(rules).config(edition, None, with).expect("valid selection");
    page.sections(rules, &config)
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
    let page = Page::parse(PAGE, &rules);
    assert!(page.unreadable.is_empty(), "{:?}", page.unreadable);

    let base = shown(&page, &rules, "C2", "");
    assert_eq!(base[0], ("notes".to_string(), vec![("base".to_string(), 3)]));
    // `<li>` without a closing tag is closed by the next item.
    assert_eq!(base[1], ("1B".to_string(), vec![("base".to_string(), 11)]));
    assert_eq!(base[2], ("1C".to_string(), vec![]));

    let c1 = shown(&page, &rules, "C1", "dragon,abbey,peasant_revolts");
    let origins: Vec<&str> = c1[1].1.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(origins, ["abbey", "dragon", "base", "peasant_revolts"]);
    assert_eq!(c1[2].1, [("dragon".to_string(), 19)]);

    // Not in C2, and not with the princess.
    let c2 = shown(&page, &rules, "C2", "dragon");
    assert_eq!(c2[1].1.len(), 1);
    let princess = shown(&page, &rules, "C1", "dragon,princess");
    assert_eq!(princess[1].1.len(), 1);
}

#[test]
fn an_unclosed_box_ends_with_its_template() {
    let rules = fixture();
    let page = Page::parse(PAGE, &rules);
    // The `<div class="showBuilder">` left open inside the 1B box does not
    // hide step 1C, which follows the box.
    let sections = shown(&page, &rules, "C2", "princess");
    assert_eq!(sections[2].0, "1C");
    assert_eq!(sections[2].1.len(), 1);
}
