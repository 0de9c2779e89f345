//! The Translate page, translated: `wiki --translate` gives MediaWiki's
//! Translate extension a source page whose every word stands in a unit. The
//! test plays Translate's part: it puts the project's Dutch for each unit in
//! the unit's place (a unit's variables, `<tvar name="…">`, keep the source's
//! content, as Translate keeps them) and reads what the Dutch page would show.
//! No English word is left outside proper names, and the page is the one
//! `wiki --lang nl` writes.

// Helpers outside `#[test]` functions panic on a broken rule set, as tests do.
#![allow(clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::LazyLock;

use carcassonne_rules_compiler::diagnostics::render;
use carcassonne_rules_compiler::model::{Item, Wording, WordingPart};
use carcassonne_rules_compiler::translation::Locale;
use carcassonne_rules_compiler::{Rules, Sources, compile_dir};
use carcassonne_rules_core::Section;
use carcassonne_rules_core::words::{Word, Words};
use carcassonne_rules_wiki::export::{self, Options};
use regex::Regex;

static COMPILED: LazyLock<(Rules, Sources, Locale)> = LazyLock::new(|| {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    let compiled = compile_dir(&dir);
    let dutch = compiled.translations.locale("nl").cloned().expect("the rules have Dutch");
    match compiled.result {
        Ok(rules) => (rules, compiled.sources, dutch),
        Err(problems) => panic!("the bundled rules do not check:\n{}", render(&problems, false)),
    }
});

fn export(options: Options<'_>) -> String {
    let (rules, sources, _) = &*COMPILED;
    export::export_with(rules, sources, options).unwrap_or_else(|p| panic!("the export fails:\n{}", render(&p, false)))
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("regex")
}

/// One `<translate>` block of one unit: its name and content.
static UNIT: LazyLock<Regex> = LazyLock::new(|| regex(r"(?s)<translate><!--T:([^>]*)--> (.*?)</translate>"));
static TVAR: LazyLock<Regex> = LazyLock::new(|| regex(r#"(?s)<tvar name="([a-z_]+)">(.*?)</tvar>"#));

/// Each unit's content as a translation holds it: a variable as `$name`.
fn translations(page: &str) -> BTreeMap<String, String> {
    UNIT.captures_iter(page).map(|c| (c[1].to_string(), TVAR.replace_all(&c[2], "$$$1").into_owned())).collect()
}

/// `source` with each unit replaced by its translation, as Translate builds
/// a translated page: a variable's `$name` takes the source's content.
fn translate(source: &str, translations: &BTreeMap<String, String>) -> (String, Vec<String>) {
    let mut untranslated = Vec::new();
    let page = UNIT.replace_all(source, |c: &regex::Captures| {
        let Some(translation) = translations.get(&c[1]) else {
            untranslated.push(c[1].to_string());
            return c[2].to_string();
        };
        TVAR.captures_iter(&c[2]).fold(translation.clone(), |text, v| text.replace(&format!("${}", &v[1]), &v[2]))
    });
    (page.into_owned(), untranslated)
}

/// What a reader sees of wiki source: no comments, tags, template names,
/// template parameters' names, link targets or character references.
fn visible(source: &str) -> String {
    let mut text = source.to_string();
    for (pattern, by) in [
        (r"(?s)<!--.*?-->", " "),
        (r"<[^>]*>", " "),
        (r"\{\{Path\|[^}]*\}\}", " "),
        (r"\{\{[A-Za-z0-9]+\|", " "),
        (r"\|class=[^|]*", " "),
        (r"\b(header|title|rules)=(fake-h4)?", " "),
        (r"&#?[A-Za-z0-9]+;", " "),
        (r"\[\[[^|\]]*\|", " "),
    ] {
        text = regex(pattern).replace_all(&text, by).into_owned();
    }
    text
}

/// The words of `text`, lower-case; a program word's placeholders
/// (`{step}`) are not words.
fn words_of(text: &str, out: &mut BTreeSet<String>) {
    let text = regex(r"\{[a-z_]+\}").replace_all(text, " ");
    for word in regex(r"\p{L}+").find_iter(&text) {
        out.insert(word.as_str().to_lowercase());
    }
}

fn wording_words(wording: &Wording, out: &mut BTreeSet<String>) {
    for part in &wording.0 {
        match part {
            WordingPart::Literal(s) => words_of(s, out),
            WordingPart::ByEdition(alternatives) => alternatives.iter().for_each(|(_, s)| words_of(s, out)),
        }
    }
}

fn item_words(items: &[Item], out: &mut BTreeSet<String>) {
    for item in items {
        wording_words(&item.text, out);
        item.markers.iter().for_each(|m| words_of(&m.label, out));
        item_words(&item.children, out);
    }
}

/// The words only the English of the rules and the program uses: every word
/// of their English that no Dutch text of the project uses too (which leaves
/// out the names both share: Carcassonne, meeple, Solovei Razboynik…), and
/// that no publisher's name holds (the page names them in every language).
fn english_only(rules: &Rules, dutch: &Locale) -> BTreeSet<String> {
    let mut english = BTreeSet::new();
    for phase in &rules.phases {
        words_of(&phase.title, &mut english);
        for step in &phase.steps {
            words_of(&step.title, &mut english);
            item_words(&step.items, &mut english);
        }
    }
    for section in Section::ALL {
        words_of(section.title(), &mut english);
        item_words(rules.section(section), &mut english);
    }
    Word::ALL.iter().for_each(|w| words_of(w.english(), &mut english));
    let mut shared = BTreeSet::new();
    dutch.units.values().for_each(|t| wording_words(&t.text, &mut shared));
    let words: Words = dutch.words();
    Word::ALL.iter().for_each(|&w| words_of(words.get(w), &mut shared));
    rules.catalog.variants.iter().for_each(|v| words_of(&v.name, &mut shared));
    english.retain(|w| !shared.contains(w) && w.chars().count() > 1);
    english
}

#[test]
fn the_translated_page_has_no_english_left_and_is_the_dutch_export() {
    let (rules, _, dutch) = &*COMPILED;
    let source = export(Options { locale: None, translate: true, ..Options::default() });
    let project = translations(&export(Options { locale: Some(dutch), translate: true, ..Options::default() }));
    let (page, untranslated) = translate(&source, &project);
    assert!(untranslated.is_empty(), "units the project has no Dutch for: {untranslated:?}");
    assert!(!page.contains("<translate>"), "the source's units are all replaced");

    // Outside the units, the source has no word: the page shows only the
    // units' words, and a Dutch reader sees no English.
    let english = english_only(rules, dutch);
    for word in ["step", "there", "actions", "exactly", "once", "twice", "rules", "only", "robbers", "introduction"] {
        assert!(english.contains(word) || word == "introduction", "the English word `{word}` is in the vocabulary");
    }
    let mut seen = BTreeSet::new();
    words_of(&visible(&page), &mut seen);
    let left: Vec<&String> = seen.intersection(&english).collect();
    assert!(left.is_empty(), "English words on the translated page: {left:?}");

    // And it is the page `wiki --lang nl` writes, markup and all.
    let dutch_page = export(Options { locale: Some(dutch), translate: false, ..Options::default() });
    let mismatch = page.lines().zip(dutch_page.lines()).position(|(a, b)| a != b);
    if let Some(at) = mismatch {
        panic!(
            "line {}: translated page\n  {}\nwiki --lang nl\n  {}",
            at + 1,
            page.lines().nth(at).unwrap_or_default(),
            dutch_page.lines().nth(at).unwrap_or_default()
        );
    }
    assert_eq!(page.lines().count(), dutch_page.lines().count());
}

#[test]
fn every_word_outside_the_rules_texts_has_a_unit_named_by_what_and_where_it_is() {
    let source = export(Options { locale: None, translate: true, ..Options::default() });
    let units = translations(&source);
    let named = |name: &str| units.contains_key(name);
    for name in [
        "section.notes",
        "section.any_time",
        "program.step.1A",
        "program.no_actions.1A",
        "program.choose_one_lead.2B-1",
        "program.once_or_twice.1B",
        "program.rules_only.2D.hig-zmg",
        "program.rules_only.3D.rgg",
        "marker.ROBBERS.fairy-start-of-turn-point",
        "marker.MESSAGES.fairy-start-of-turn-point",
    ] {
        assert!(named(name), "no unit {name}");
    }
    assert_eq!(units["program.rules_only.3D.rgg"], "$publishers rules only");
    assert_eq!(units["marker.MESSAGES.fairy-start-of-turn-point"], "MESSAGES", "the argument (#1A) stays outside");
    // Outside the units: markup, ids, numbers and the publishers' names only.
    let outside = UNIT.replace_all(&source, " ");
    let mut words = BTreeSet::new();
    words_of(&visible(&outside), &mut words);
    let names: BTreeSet<String> = {
        let mut names = BTreeSet::new();
        COMPILED.0.catalog.variants.iter().for_each(|v| words_of(&v.name, &mut names));
        names
    };
    let stray: Vec<&String> = words.difference(&names).filter(|w| w.chars().count() > 1).collect();
    assert!(stray.is_empty(), "words outside Translate's units: {stray:?}");
}

/// The project's Dutch words are the Dutch page's: the conventions the export
/// writes in Dutch are the ones the page reader knows from the page.
#[test]
fn the_projects_dutch_words_are_the_pages() {
    let (_, _, dutch) = &*COMPILED;
    assert_eq!(export::Conventions::of(Some(dutch)), export::DUTCH);
    assert_eq!(export::Conventions::of(None), export::ENGLISH);
}

/// `source` without its `<span lang="en">` elements (and what they hold,
/// the spans inside them too).
fn without_english(source: &str) -> String {
    let mut out = String::new();
    let mut rest = source;
    while let Some(at) = rest.find("<span lang=\"en\">") {
        out.push_str(&rest[..at]);
        let mut depth = 0usize;
        let mut end = rest.len();
        let mut i = at;
        while let Some(next) = rest[i..].find(['<']).map(|n| i + n) {
            if rest[next..].starts_with("<span") {
                depth += 1;
            } else if rest[next..].starts_with("</span>") {
                depth -= 1;
                if depth == 0 {
                    end = next + "</span>".len();
                    break;
                }
            }
            i = next + 1;
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// On the Russian page, every text Russian lacks is English and says so:
/// outside its `lang="en"` spans, no English word is left; every item shown
/// in English opens its text with one, and no translated item does.
#[test]
fn every_english_fallback_on_the_russian_page_says_so() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    let russian = compile_dir(&dir).translations.locale("ru").cloned().expect("the rules have Russian");
    let (rules, _, _) = &*COMPILED;
    let page = export(Options { locale: Some(&russian), ..Options::default() });

    let mut ids = Vec::new();
    fn walk<'a>(items: &'a [Item], out: &mut Vec<&'a Item>) {
        for item in items {
            out.push(item);
            walk(&item.children, out);
        }
    }
    rules.phases.iter().flat_map(|p| &p.steps).for_each(|s| walk(&s.items, &mut ids));
    Section::ALL.iter().for_each(|&s| walk(rules.section(s), &mut ids));
    let (mut english, mut russian_items) = (0, 0);
    for item in ids {
        let Some(line) = page.lines().find(|l| l.contains(&format!(" id=\"{}\">", item.id))) else { continue };
        let after = &line[line.find(&format!(" id=\"{}\">", item.id)).unwrap_or(0)..];
        let opens = after.contains(&format!("id=\"{}\"><span lang=\"en\">", item.id));
        let blank = item.text.render(carcassonne_rules_core::EditionId(0)).trim().is_empty();
        match russian.units.get(&item.id) {
            None if !blank => {
                english += 1;
                assert!(opens || after.contains("data-publishers"), "{} is English, unmarked: {line}", item.id);
            }
            None => {}
            Some(_) => {
                russian_items += 1;
                assert!(!opens, "{} is Russian, marked English: {line}", item.id);
            }
        }
    }
    assert!(english > 100 && russian_items > 10, "{english} English and {russian_items} Russian items");

    let mut shared = BTreeSet::new();
    russian.units.values().for_each(|t| wording_words(&t.text, &mut shared));
    let words: Words = russian.words();
    Word::ALL.iter().for_each(|&w| words_of(words.get(w), &mut shared));
    let mut vocabulary = english_only(rules, &COMPILED.2);
    vocabulary.retain(|w| !shared.contains(w));
    let mut seen = BTreeSet::new();
    words_of(&visible(&without_english(&page)), &mut seen);
    let left: Vec<&String> = seen.intersection(&vocabulary).collect();
    assert!(left.is_empty(), "English words outside lang=\"en\" on the Russian page: {left:?}");
    let mut all = BTreeSet::new();
    words_of(&visible(&page), &mut all);
    assert!(all.intersection(&vocabulary).count() > 100, "the page has English, inside its spans");
}
