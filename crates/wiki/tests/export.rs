//! The wiki export read back: the page reader, reading the page source that
//! `carcassonne-rules wiki` writes (with no errata), gives exactly the turn
//! order the runtime gives — sections, steps with their titles, repeats and
//! choices, every item with its children, origin, text, markers and foreign
//! mark — for the base game and every module alone in every edition, and for
//! 500 random selections, each under every publisher's rules, and every pair of
//! modules in every edition. Effects are left
//! out: the page has no markup for them. The export's markup is checked too:
//! every tag closed, every class one the page knows.

// Helpers outside `#[test]` functions panic on a broken rule set, as tests do.
#![allow(clippy::expect_used)]

#[path = "../../../crates/compiler/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::sync::LazyLock;

use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::translation::Locale;
use carcassonne_rules_compiler::{Rules, Sources, compile_dir};
use carcassonne_rules_core::{Config, EditionId, Entry, Flow, ItemRepeat, Section, TurnOrder, VariantId};
use carcassonne_rules_wiki::Errata;
use carcassonne_rules_wiki::export::{self, LAYOUT_CLASSES, Options};
use carcassonne_rules_wiki::keys::{DERIVED_KEYS, selector_key};
use carcassonne_rules_wiki::page::{self, Page};

const RANDOM_SELECTIONS: usize = 500;
const SEED: u64 = 2026;

static COMPILED: LazyLock<(Rules, Sources)> = LazyLock::new(|| {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    let compiled = compile_dir(&dir);
    match compiled.result {
        Ok(rules) => (rules, compiled.sources),
        Err(problems) => panic!("the bundled rules do not check:\n{}", render(&problems, false)),
    }
});

static RULES: LazyLock<&Rules> = LazyLock::new(|| &COMPILED.0);

/// The export with every section, so that every item is read back.
static EXPORT: LazyLock<String> = LazyLock::new(|| {
    match export::export_with(&COMPILED.0, &COMPILED.1, Options { all_sections: true, ..Options::default() }) {
        Ok(text) => text,
        Err(problems) => panic!("the export fails:\n{}", render(&problems, false)),
    }
});

/// The items as the page says them: without effects and flow, which the
/// page writes only in words — but for a repetition until done, its box.
fn without_effects(items: &mut [Entry]) {
    for item in items {
        item.effect = None;
        item.flow = Flow { repeat: item.flow.repeat.filter(|r| *r == ItemRepeat::UntilDone), ..Flow::ACTION };
        without_effects(&mut item.children);
    }
}

fn count(items: &[Entry]) -> usize {
    items.iter().map(|i| 1 + count(&i.children)).sum()
}

fn all_items(order: &TurnOrder) -> usize {
    count(order.section(Section::Notes))
        + count(order.section(Section::Setup))
        + count(order.section(Section::AnyTime))
        + order.steps().map(|s| count(&s.items)).sum::<usize>()
        + count(order.section(Section::FinalScoring))
}

static PAGE: LazyLock<Page> = LazyLock::new(|| Page::parse(&EXPORT, &RULES, &Errata::default()));

/// The bundled rules' Dutch.
static DUTCH: LazyLock<Locale> = LazyLock::new(|| {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    compile_dir(&dir).translations.locale("nl").cloned().expect("the rules have Dutch")
});

/// The export in Dutch, as the Dutch page is written, read back.
static DUTCH_PAGE: LazyLock<Page> = LazyLock::new(|| {
    let options = Options { locale: Some(&DUTCH), translate: false, all_sections: true };
    match export::export_with(&COMPILED.0, &COMPILED.1, options) {
        Ok(text) => Page::parse(&text, &RULES, &Errata::default()),
        Err(problems) => panic!("the Dutch export fails:\n{}", render(&problems, false)),
    }
});

/// The export as Translate's English source page.
static TRANSLATE_SOURCE: LazyLock<String> = LazyLock::new(|| {
    let options = Options { locale: None, translate: true, all_sections: true };
    export::export_with(&COMPILED.0, &COMPILED.1, options).expect("the export for Translate")
});

/// The runtime's turn order of `cfg` and the page's reading of it, without
/// effects; `Err` with both as JSON if they differ, else the items compared.
fn read_back(cfg: &Config) -> Result<usize, String> {
    read_back_from(&PAGE, None, cfg)
}

/// Without the translation states, which a page does not say.
fn untranslated(items: &mut [Entry]) {
    for item in items {
        item.translation = None;
        untranslated(&mut item.children);
    }
}

/// [`read_back`] from `page`, the runtime's order in `locale`'s language.
fn read_back_from(page: &Page, locale: Option<&Locale>, cfg: &Config) -> Result<usize, String> {
    let mut expected = carcassonne_rules_runtime::turn_order(cfg);
    if let Some(locale) = locale {
        locale.translate(&mut expected, &RULES.catalog);
        expected.lang = None;
        expected.words = None;
        for section in Section::ALL {
            untranslated(&mut expected.sections[section]);
        }
        expected.phases.iter_mut().flat_map(|p| &mut p.steps).for_each(|s| untranslated(&mut s.items));
    }
    without_effects(&mut expected.sections[Section::Notes]);
    without_effects(&mut expected.sections[Section::Setup]);
    without_effects(&mut expected.sections[Section::AnyTime]);
    for phase in &mut expected.phases {
        for step in &mut phase.steps {
            without_effects(&mut step.items);
            step.may_pass = false;
        }
    }
    without_effects(&mut expected.sections[Section::FinalScoring]);
    // The block shows on the page as its steps' repeats, which are compared.
    expected.double_turn = None;
    let read = page.turn_order(&RULES, cfg);
    if read == expected {
        Ok(all_items(&expected))
    } else {
        let json = |order: &TurnOrder| serde_json::to_string(order).unwrap_or_default();
        Err(format!("runtime: {}\n  page:    {}", json(&expected), json(&read)))
    }
}

/// The contract of the export: the base game and every module alone in
/// every edition, and 500 random selections, each under every publisher's rules.
#[test]
fn the_export_reads_back_as_the_runtime_turn_order() {
    let rules = &*RULES;
    assert!(PAGE.unreadable.is_empty(), "classes the page reader cannot read: {:?}", PAGE.unreadable);
    let (mut selections, mut items, mut differing) = (0, 0, Vec::new());
    for selection in page::selections(&rules.catalog, RANDOM_SELECTIONS, SEED) {
        for variant in 0..rules.catalog.variants.len() {
            let cfg = Config { variant: VariantId(variant as u8), ..selection.config };
            selections += 1;
            match read_back(&cfg) {
                Ok(n) => items += n,
                Err(diff) => {
                    differing.push(format!("{} ({}):\n  {diff}", selection.label, rules.catalog.variants[variant].id))
                }
            }
        }
    }
    println!("wiki export round trip: {selections} selections, {items} items compared");
    assert!(
        differing.is_empty(),
        "{} selections read back differently; the first:\n{}",
        differing.len(),
        differing[..differing.len().min(3)].join("\n")
    );
}

/// Modules together: every pair of modules the page has a selector for, in
/// every edition, under each edition's default publisher.
#[test]
fn every_pair_of_modules_reads_back_the_same() {
    let catalog = &RULES.catalog;
    let modules: Vec<_> = catalog.modules.iter().filter(|m| m.on_wiki_page).map(|m| m.bit).collect();
    let (mut selections, mut items, mut differing) = (0, 0, Vec::new());
    for (e, edition) in catalog.editions.iter().enumerate() {
        for (i, &a) in modules.iter().enumerate() {
            for &b in &modules[i + 1..] {
                let cfg = Config {
                    edition: EditionId(e as u8),
                    variant: edition.default_variant,
                    modules: [a, b].into_iter().collect(),
                };
                selections += 1;
                match read_back(&cfg) {
                    Ok(n) => items += n,
                    Err(diff) => {
                        differing.push(format!("{} {:?}:\n  {diff}", edition.id, catalog.module_ids(cfg.modules)))
                    }
                }
            }
        }
    }
    println!("wiki export round trip, pairs: {selections} selections, {items} items compared");
    assert!(
        differing.is_empty(),
        "{} selections read back differently; the first:\n{}",
        differing.len(),
        differing[..differing.len().min(3)].join("\n")
    );
}

/// The export's tags, in order: (closing, name, attributes).
fn tags(source: &str) -> Vec<(bool, String, String)> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if rest.starts_with("!--") {
            let end = rest.find("-->").expect("comment closed");
            rest = &rest[end..];
            continue;
        }
        let end = rest.find('>').expect("tag closed with >");
        let tag = &rest[..end];
        let (closing, tag) = match tag.strip_prefix('/') {
            Some(t) => (true, t),
            None => (false, tag),
        };
        let name: String = tag.chars().take_while(char::is_ascii_alphanumeric).collect();
        out.push((closing, name.clone(), tag[name.len()..].to_string()));
        rest = &rest[end..];
    }
    out
}

#[test]
fn the_export_is_well_formed_and_uses_only_known_classes() {
    let rules = &*RULES;
    let mut open: Vec<String> = Vec::new();
    let mut classes: Vec<String> = Vec::new();
    for (closing, name, attributes) in tags(&EXPORT) {
        assert!(["div", "span", "ul", "ol", "li"].contains(&name.as_str()), "unexpected tag <{name}>");
        assert!(!attributes.ends_with('/'), "self-closing <{name}/>");
        if closing {
            assert_eq!(open.pop().as_deref(), Some(name.as_str()), "</{name}> closes another tag");
            continue;
        }
        open.push(name);
        if let Some(start) = attributes.find("class=\"") {
            let value = &attributes[start + 7..];
            classes.extend(value[..value.find('"').expect("quoted")].split_whitespace().map(String::from));
        }
        if let Some(start) = attributes.find("data-dynamic-selector=\"[") {
            let value = &attributes[start + 24..];
            let list = &value[..value.find(']').expect("closed list")];
            let mut parts = list.split(',').map(|p| p.trim_matches('\''));
            assert!(matches!(parts.next(), Some("AND" | "OR")), "selector operator in {list}");
            classes.extend(parts.map(String::from));
        }
    }
    assert!(open.is_empty(), "tags left open: {open:?}");
    // Rules boxes: every `{{` closed by `}}`.
    let (opened, closed) = (EXPORT.matches("{{").count(), EXPORT.matches("}}").count());
    assert_eq!(opened, closed, "templates opened and closed");

    let marks: Vec<String> = rules.catalog.editions.iter().map(|e| format!("mark{}", e.id)).collect();
    let keyed: Vec<&str> = DERIVED_KEYS.iter().map(|(id, _)| *id).collect();
    let flags: Vec<String> =
        rules.flags.iter().filter(|f| !keyed.contains(&f.id.as_str())).map(|f| selector_key(&f.id)).collect();
    for class in &classes {
        if LAYOUT_CLASSES.contains(&class.as_str()) || marks.contains(class) || class == "showAll" {
            continue;
        }
        assert!(class.starts_with("show"), "unknown class {class}");
        // Read alone, it is a condition (not unreadable, not ignored)…
        let probe = format!("'''Step 1A: x'''\n<ul>\n<li class=\"{class}\">x</li>\n</ul>\n");
        let page = Page::parse(&probe, rules, &Errata::default());
        assert!(page.unreadable.is_empty(), "the page reader cannot read {class}");
        // …made of modules, editions and the derived flags the page has keys
        // for, never of the rules' other derived flags.
        if let Some(flag) = flags.iter().find(|f| class.contains(f.as_str())) {
            panic!("{class} names the derived flag {flag}, which the page has no key for");
        }
    }
}

#[test]
fn both_dragon_steps_show_each_labelled_with_its_publishers() {
    let export = &*EXPORT;
    let two_d = export.find("'''Step 2D:").expect("2D");
    let three_d = export.find("'''Step 3D:").expect("3D");
    assert!(export[two_d..].lines().next().expect("line").contains("data-publishers=\"hig zmg\""));
    assert!(export[three_d..].lines().next().expect("line").contains("data-publishers=\"rgg\""));
}

#[test]
fn what_the_page_cannot_say_is_reported_where_it_is_written() {
    // A marker that depends on the publisher: the page cannot select one.
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    common::copy_dir(&rules, dir.path());
    let path = dir.path().join("expansions/the-tower.yaml");
    let text = std::fs::read_to_string(&path).expect("the tower's rules");
    let marker = "\"LAKE_TRAP when russian_promos\"";
    assert!(text.contains(marker), "the tower's rules changed");
    std::fs::write(&path, text.replacen(marker, "\"LAKE_TRAP when variant == zmg\"", 1)).expect("write");
    let compiled = compile_dir(dir.path());
    let rules = compiled.result.unwrap_or_else(|p| panic!("{}", render(&p, false)));
    let problems = export::export(&rules, &compiled.sources).expect_err("the page cannot show it");
    assert_eq!(problems.len(), 1, "{}", render(&problems, false));
    assert!(problems[0].message().contains("depends on the publisher's rules"), "{}", problems[0].message());
    let location = problems[0].location().expect("located");
    assert!(location.ends_with("expansions/the-tower.yaml:33:17"), "{location}");
}

/// Ids that `check` would refuse, written into a compiled model by hand (issue
/// 13's defence in depth): each is reported, none is written.
#[test]
fn the_wiki_export_refuses_ids_it_cannot_write_as_words() {
    let compiled = compile_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules"));
    let Ok(mut rules) = compiled.result else { panic!("the bundled rules compile") };
    assert!(export::export(&rules, &compiled.sources).is_ok());
    rules.catalog.editions[1].id = "C2\" onclick=\"alert(1)".to_string();
    rules.catalog.variants[0].id = "__NOTOC__".to_string();
    let Err(problems) = export::export(&rules, &compiled.sources) else { panic!("exported unwritable ids") };
    let messages: Vec<&str> = problems.iter().map(|p| p.message()).collect();
    assert_eq!(
        messages,
        [
            "edition id `C2\" onclick=\"alert(1)` cannot be written into the page's classes",
            "variant id `__NOTOC__` cannot be written into the page's classes"
        ]
    );
}

/// `wiki --lang nl` writes the page as the Dutch page is written, and the
/// page reader reads it back as the runtime's turn order in Dutch: the base
/// game and every module alone in every edition, and 100 random selections.
#[test]
fn the_dutch_export_reads_back_as_the_dutch_turn_order() {
    assert!(DUTCH_PAGE.unreadable.is_empty(), "{:?}", DUTCH_PAGE.unreadable);
    let (mut selections, mut differing) = (0, Vec::new());
    for selection in page::selections(&RULES.catalog, 100, SEED) {
        selections += 1;
        if let Err(diff) = read_back_from(&DUTCH_PAGE, Some(&DUTCH), &selection.config) {
            differing.push(format!("{}:\n  {diff}", selection.label));
        }
    }
    assert!(selections > 200, "{selections}");
    assert!(
        differing.is_empty(),
        "{} differ; the first:\n{}",
        differing.len(),
        differing[..differing.len().min(2)].join("\n")
    );
    // Its headings and leads are the Dutch page's, not the English ones.
    let options = Options { locale: Some(&DUTCH), translate: false, all_sections: true };
    let text = export::export_with(&COMPILED.0, &COMPILED.1, options).expect("export");
    assert!(text.contains("'''Stap 1B: Een tegel trekken'''") && text.contains("'''Inleiding'''"));
    assert!(!text.contains("'''Step ") && !text.contains("There are no actions"));
}

/// Each Translate unit of `source`: its name and text, in page order.
fn units(source: &str) -> Vec<(String, String)> {
    let unit = regex::Regex::new(r"<translate><!--T:([^>]*)--> (.*?)</translate>").expect("regex");
    unit.captures_iter(source).map(|c| (c[1].to_string(), c[2].to_string())).collect()
}

/// `wiki --translate` has one unit per item and title, each named by its
/// id and each name once; and it reads back as the English export does.
#[test]
fn the_translate_source_has_one_unit_per_item_each_named_once() {
    let units = units(&TRANSLATE_SOURCE);
    let mut names: Vec<&str> = units.iter().map(|(n, _)| n.as_str()).collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "a unit name is used twice");
    for item in RULES.items().iter().filter(|i| !i.text.render(EditionId(0)).is_empty() || !i.text.is_uniform()) {
        assert!(names.binary_search(&item.id.as_str()).is_ok(), "no unit for {}", item.id);
    }
    for step in RULES.steps() {
        assert!(names.binary_search(&format!("step.{}", step.id).as_str()).is_ok(), "no unit for step {}", step.id);
    }
    assert_eq!(TRANSLATE_SOURCE.matches("<translate>").count(), count, "markup outside the units");
    let page = Page::parse(&TRANSLATE_SOURCE, &RULES, &Errata::default());
    for selection in page::selections(&RULES.catalog, 20, SEED).iter().step_by(7) {
        read_back_from(&page, None, &selection.config).unwrap_or_else(|diff| panic!("{}: {diff}", selection.label));
    }
}

/// Two items that swap places keep their units: the same names with the
/// same texts, in the other order.
#[test]
fn translate_units_stay_with_their_items_when_items_swap() {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules"), dir.path());
    let path = dir.path().join("expansions/abbey-and-mayor.yaml");
    let text = std::fs::read_to_string(&path).expect("read");
    let (wagon, barn) = (
        "    - id: wagon-take-figure\n      when: wagon\n      text: Every player adds the wagon of their colour to their supply.\n",
        "    - id: barn-take-figure\n      when: barn\n      text: Every player adds the barn of their colour to their supply.\n",
    );
    assert!(text.contains(&format!("{wagon}{barn}")), "the two items follow each other");
    std::fs::write(&path, text.replacen(&format!("{wagon}{barn}"), &format!("{barn}{wagon}"), 1)).expect("write");
    let compiled = compile_dir(dir.path());
    let rules = compiled.result.expect("the swapped rules check");
    let options = Options { locale: None, translate: true, all_sections: true };
    let swapped = units(&export::export_with(&rules, &compiled.sources, options).expect("export"));
    let before = units(&TRANSLATE_SOURCE);
    let position = |units: &[(String, String)], name: &str| units.iter().position(|(n, _)| n == name).expect(name);
    assert!(position(&before, "wagon-take-figure") < position(&before, "barn-take-figure"));
    assert!(position(&swapped, "wagon-take-figure") > position(&swapped, "barn-take-figure"));
    let sorted = |mut units: Vec<(String, String)>| {
        units.sort();
        units
    };
    assert_eq!(sorted(before), sorted(swapped));
}

/// The line of the export that opens item `id`.
fn item_line<'a>(source: &'a str, id: &str) -> &'a str {
    let open = format!(" id=\"{id}\">");
    source.lines().find(|l| l.contains(&open)).unwrap_or_else(|| panic!("no item {id}"))
}

#[test]
fn the_word_that_says_an_item_may_or_must_be_done_is_bold_as_on_the_page() {
    // The page writes "Je '''mag''' …", "… '''moet''' …" in such items.
    assert!(item_line(&EXPORT, "ask-advice").contains("You '''may''' ask"), "{}", item_line(&EXPORT, "ask-advice"));
    let options = Options { locale: Some(&DUTCH), translate: false, all_sections: true };
    let dutch = export::export_with(&COMPILED.0, &COMPILED.1, options).expect("the Dutch export");
    assert!(item_line(&dutch, "ask-advice").contains("Je '''mag''' andere"), "{}", item_line(&dutch, "ask-advice"));
    // Only in an item that may (or must) be done: a note saying "may" keeps it plain.
    let notes_with_may = RULES
        .items()
        .into_iter()
        .filter(|i| i.flow == Flow { role: carcassonne_rules_core::Role::Note, ..Flow::ACTION })
        .filter(|i| {
            i.text
                .0
                .iter()
                .any(|p| matches!(p, carcassonne_rules_compiler::model::WordingPart::Literal(s) if s.contains(" may ")))
        })
        .map(|i| i.id.clone())
        .collect::<Vec<_>>();
    assert!(!notes_with_may.is_empty(), "a note that says may");
    for id in &notes_with_may {
        assert!(!item_line(&EXPORT, id).contains("'''may'''"), "{}", item_line(&EXPORT, id));
    }
    // Bold reads back as the text: the page's reading of the export is the turn order (above).
}

#[test]
fn a_bold_modal_beside_hostile_text_stays_the_one_bold_run() {
    // Quotes and markup right beside the modal word: only the export's own
    // `'''` may be markup; every character of the text is shown as written.
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    common::copy_dir(&rules, dir.path());
    let path = dir.path().join("base.yaml");
    let text = std::fs::read_to_string(&path).expect("base.yaml");
    let plain = "text: You may ask other players for advice.";
    assert!(text.contains(plain), "ask-advice changed");
    let hostile = "text: \"You ''may'' [[ask]] |x| ''' <b>\"";
    std::fs::write(&path, text.replacen(plain, hostile, 1)).expect("write");
    let compiled = compile_dir(dir.path());
    let rules = compiled.result.unwrap_or_else(|p| panic!("{}", render(&p, false)));
    let export = export::export(&rules, &compiled.sources).expect("the export");
    let line = item_line(&export, "ask-advice");
    // The text's own quotes are character references; the bold run is the export's.
    assert_eq!(line.matches("'''").count(), 2, "{line}");
    assert!(line.contains("&#39;&#39;'''may'''&#39;&#39;"), "{line}");
    for raw in ["[[", "|x|", "<b>"] {
        assert!(!line.contains(raw), "{raw} left as markup: {line}");
    }
    // It reads back as the text written.
    let page = Page::parse(&export, &rules, &Errata::default());
    let cfg = Config { edition: EditionId(1), variant: VariantId(0), modules: Default::default() };
    let read = page.turn_order(&rules, &cfg);
    let ask = read.section(Section::AnyTime).iter().flat_map(|i| &i.children).find(|i| i.id() == "ask-advice");
    assert_eq!(ask.map(|i| i.text.as_ref()), Some("You ''may'' [[ask]] |x| ''' <b>"));
}

/// The page has no Setup and no Final scoring: the export writes them only
/// when asked for every section.
#[test]
fn setup_and_final_scoring_only_with_every_section() {
    let (rules, sources) = &*COMPILED;
    let page = export::export(rules, sources).expect("the export");
    for section in [Section::Setup, Section::FinalScoring] {
        let heading = export::heading(section);
        assert!(!page.contains(&heading), "{heading} on the page's sections");
        assert!(EXPORT.contains(&heading), "{heading} with every section");
    }
    assert!(page.contains(&export::heading(Section::AnyTime)));
    assert!(page.contains("id=\"_Expansion_Selector_\""), "the page's selector");
}

/// An item whose text names its publishers has its label around that text,
/// not empty before it, and reads back with its text.
#[test]
fn a_label_stands_around_the_text_that_names_its_publishers() {
    let line = EXPORT.lines().find(|l| l.contains("id=\"messages-note-zmg-space-free\"")).expect("the ZMG note");
    assert!(line.contains("<span data-publishers=\"zmg\">Z-Man Games rules only: "), "{line}");
    assert!(line.ends_with(".</span></li>"), "{line}");
    assert!(!line.contains("data-publishers=\"zmg\"></span>"), "{line}");
}

/// The 1st edition's bazaar with the builder repeats its auction and round
/// until done: its sub-items stand in the page's `wica-repeat-action` box, and
/// the reader reads the repetition back from it.
#[test]
fn a_repetition_until_done_is_the_page_s_repeat_action_box() {
    let source = &*EXPORT;
    let at = source.find(item_line(source, "builder-bazaar-c1")).expect("the item's line");
    let after: Vec<&str> = source[at..].lines().skip(1).take(2).collect();
    assert_eq!(after, ["<div class=\"wica-box-body wica-repeat-action wica-visible\">", "<ul>"]);
    // No other item stands in one.
    assert_eq!(source.matches("wica-repeat-action").count(), 1);
    let cfg = RULES.catalog.config("C1", None, "builder,bazaars").expect("a selection");
    read_back(&cfg).unwrap_or_else(|diff| panic!("{diff}"));
    let read = PAGE.turn_order(&RULES, &cfg);
    let step = read.steps().find(|s| s.id == "4A").expect("4A");
    let bazaar = step.items.iter().find(|i| i.id() == "builder-bazaar-c1").expect("the bazaar");
    assert_eq!(bazaar.flow.repeat, Some(ItemRepeat::UntilDone));
    assert!(bazaar.children.iter().all(|c| c.flow.repeat.is_none()));
}
