//! Translations know when they are outdated: an edit to an item's English
//! outdates exactly that unit in every language, an edit to anything but the
//! words outdates nothing, and an item renamed by hand leaves its
//! translations orphaned, with the new id suggested.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use carcassonne_rules_compiler::codes::Code;
use carcassonne_rules_compiler::translation::{State, Statistics};
use carcassonne_rules_compiler::{self as compiler, Compiled, Diagnostic};
use carcassonne_rules_core::lang::Kind;

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";
const FIXTURE: &str = "tests/fixtures/minimal";

/// A copy of the rules folder `from`, with each `(file, old, new)` made.
fn edited(from: &str, edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(from), dir.path());
    for (file, old, new) in edits {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).expect("file to edit");
        assert!(text.contains(old), "{file} does not hold {old:?}");
        std::fs::write(&path, text.replacen(old, new, 1)).expect("write");
    }
    dir
}

/// Each language's statistics.
fn statistics(compiled: &Compiled) -> BTreeMap<String, Statistics> {
    let t = &compiled.translations;
    t.locales.iter().map(|l| (l.lang.clone(), l.statistics(&t.units))).collect()
}

fn compiled(dir: &Path) -> Compiled {
    let compiled = compiler::compile_dir(dir);
    if let Err(problems) = &compiled.result {
        panic!("{}", compiler::diagnostics::render(problems, false));
    }
    compiled
}

fn with_code(problems: &[Diagnostic], code: Code) -> Vec<&Diagnostic> {
    problems.iter().filter(|p| p.code() == code).collect()
}

/// The first item of `file` that every language has translated, and its
/// English as written there.
fn translated_everywhere<'c>(compiled: &'c Compiled, file: &str) -> (&'c str, String) {
    let rules = compiled.result.as_ref().expect("rules");
    let t = &compiled.translations;
    let item = rules
        .items()
        .into_iter()
        .find(|item| {
            compiled.sources.name(item.spans.text.file).ends_with(file)
                && t.locales.iter().all(|l| l.state(&item.id) == State::Translated)
        })
        .expect("an item every language translates");
    let span = item.spans.text;
    let written = &compiled.sources.text(span.file)[span.start..span.start + span.len];
    (item.id.as_str(), written.to_string())
}

#[test]
fn the_bundled_translations_are_dutch_in_full_and_russian_in_part() {
    let compiled = compiled(Path::new(BUNDLED));
    assert!(compiled.translation_problems.is_empty(), "{:?}", compiled.translation_problems);
    let stats = statistics(&compiled);
    let nl = &stats["nl"];
    assert_eq!((nl.translated, nl.outdated, nl.missing, nl.orphaned), (nl.units, 0, 0, 0));
    assert_eq!(nl.percent, 100.0);
    let ru = &stats["ru"];
    assert!(ru.missing > 0 && ru.translated > 0, "{ru:?}");
    // Russian has every name, title and heading, and the base game's items.
    let t = &compiled.translations;
    let russian = t.locale("ru").expect("ru");
    let rules = compiled.result.as_ref().expect("rules");
    let base_items: Vec<&str> = rules
        .items()
        .into_iter()
        .filter(|i| compiled.sources.name(i.spans.text.file).ends_with("base.yaml"))
        .map(|i| i.id.as_str())
        .collect();
    for unit in &t.units {
        if unit.kind != Kind::Item || base_items.contains(&unit.id.as_str()) {
            assert_eq!(russian.state(&unit.id), State::Translated, "ru lacks {}", unit.id);
        }
    }
}

#[test]
fn changing_one_english_text_outdates_exactly_that_unit_in_every_language() {
    let before = compiled(Path::new(BUNDLED));
    let (id, written) = translated_everywhere(&before, "base.yaml");
    let changed = format!("{} Really.", written.trim_end_matches('"'));
    let changed = if written.starts_with('"') { format!("{changed}\"") } else { changed };
    let dir = edited(BUNDLED, &[("base.yaml", &written, &changed)]);
    let after = compiled(dir.path());
    let (old, new) = (statistics(&before), statistics(&after));
    assert_eq!(old.len(), 2);
    for (lang, was) in &old {
        let now = &new[lang];
        assert_eq!(now.outdated_units, [id], "{lang}");
        assert_eq!(now.translated, was.translated - 1, "{lang}");
        assert_eq!((now.units, now.missing, now.orphaned), (was.units, was.missing, was.orphaned), "{lang}");
        // The percent drops by exactly one unit.
        let one_unit_less = ((was.translated - 1) * 1000 / was.units) as f64 / 10.0;
        assert_eq!(now.percent, one_unit_less, "{lang}");
    }
    // One warning per language, at the translation, with the English then and now.
    let outdated = with_code(&after.translation_problems, Code::OutdatedTranslation);
    assert_eq!(outdated.len(), 2, "{outdated:?}");
    for problem in outdated {
        let help = problem.help_text().expect("help");
        assert!(help.contains("Really."), "{help}");
        assert!(problem.location().expect("located").contains("translations/"), "{problem:?}");
    }
    // Dutch is required: an outdated unit keeps it from being complete.
    assert_eq!(with_code(&after.translation_problems, Code::MissingTranslation).len(), 1);
}

#[test]
fn reflowing_reordering_or_editing_a_condition_outdates_nothing() {
    let before = compiled(Path::new(BUNDLED));
    let file = "expansions/abbey-and-mayor.yaml";
    let dir = edited(
        BUNDLED,
        &[
            // A text reflowed as a folded block over three lines.
            (
                file,
                "      text: Every player adds the mayor of their colour to their supply.",
                "      text: >-\n        Every player adds the mayor\n        of their colour   to\n        their supply.",
            ),
            // Keys reordered: the text before the id and the condition.
            (
                file,
                "    - id: wagon-take-figure\n      when: wagon\n      text: Every player adds the wagon of their colour to their supply.",
                "    - text: Every player adds the wagon of their colour to their supply.\n      id: wagon-take-figure\n      when: wagon",
            ),
            // A condition edited.
            (
                file,
                "    - id: barn-take-figure\n      when: barn\n",
                "    - id: barn-take-figure\n      when: barn and not wagon\n",
            ),
        ],
    );
    let after = compiled(dir.path());
    assert!(after.translation_problems.is_empty(), "{:?}", after.translation_problems);
    assert_eq!(statistics(&after), statistics(&before));
}

#[test]
fn renaming_an_item_by_hand_orphans_its_translations_with_a_suggestion() {
    let file = "expansions/abbey-and-mayor.yaml";
    let dir = edited(BUNDLED, &[(file, "- id: abbey-take-tile\n", "- id: abbey-take-tiles\n")]);
    let after = compiler::compile_dir(dir.path());
    assert!(after.result.is_ok());
    // Dutch translates the item; Russian has only the base game's items.
    let orphaned = with_code(&after.translation_problems, Code::OrphanedTranslation);
    assert_eq!(orphaned.len(), 1, "{orphaned:?}");
    assert!(orphaned[0].location().expect("located").contains("translations/nl/expansions/abbey-and-mayor.yaml:"));
    for problem in &orphaned {
        assert!(problem.message().contains("`abbey-take-tile`"), "{}", problem.message());
        assert!(problem.help_text().expect("help").contains("did you mean `abbey-take-tiles`?"));
    }
    let stats = statistics(&after);
    assert_eq!(stats["nl"].orphaned, 1);
    assert_eq!(stats["nl"].missing_units, ["abbey-take-tiles"]);
    // Dutch must be complete; Russian need not.
    let missing = with_code(&after.translation_problems, Code::MissingTranslation);
    assert_eq!(missing.len(), 1);
    assert!(missing[0].message().starts_with("`nl` must be complete"), "{}", missing[0].message());
}

#[test]
fn a_translation_file_that_mirrors_no_rules_file_is_reported_with_the_nearest() {
    // The expansion's rules file renamed by hand: its translations stay behind.
    let dir = edited(BUNDLED, &[]);
    let rules = dir.path().join("expansions");
    std::fs::rename(rules.join("abbey-and-mayor.yaml"), rules.join("abbey-and-mayors.yaml")).expect("rename");
    // And a language folder no language is declared for.
    std::fs::create_dir(dir.path().join("translations/de")).expect("folder");
    std::fs::write(dir.path().join("translations/de/base.yaml"), "items: {}\n").expect("write");
    let on_disk = compiler::compile_dir(dir.path());
    let (files, refused) = compiler::syntax::read_folder(dir.path());
    assert!(refused.is_empty());
    let in_editor = compiler::compile_files(dir.path(), &files);
    for compiled in [on_disk, in_editor] {
        assert!(compiled.result.is_ok());
        let orphaned = with_code(&compiled.translation_problems, Code::OrphanedTranslation);
        let about = |file: &str| {
            orphaned
                .iter()
                .copied()
                .find(|p| p.file().is_some_and(|f| f.ends_with(file)))
                .unwrap_or_else(|| panic!("{file} not reported: {orphaned:?}"))
        };
        // (Russian translates none of the expansions.)
        let left = about("translations/nl/expansions/abbey-and-mayor.yaml");
        assert!(left.message().contains("is never read"), "{}", left.message());
        let help = left.help_text().expect("help");
        assert!(help.contains("did you mean `translations/nl/expansions/abbey-and-mayors.yaml`?"), "{help}");
        let undeclared = about("translations/de/base.yaml");
        assert!(undeclared.help_text().expect("help").contains("no language `de` is declared"));
        assert_eq!(orphaned.len(), 2, "{orphaned:?}");
        // Its units are missing now, not orphaned one by one.
        assert!(statistics(&compiled)["nl"].missing > 0);
    }
}

#[test]
fn a_translation_is_checked_as_the_rules_texts_are() {
    let file = "translations/nl/base.yaml";
    let dir = edited(
        FIXTURE,
        &[(file, "Zet een {C1: horige | C2, WE: meeple} in.", "Zet een {C1: horige | C3, WE: meeple} in.")],
    );
    let after = compiler::compile_dir(dir.path());
    let unknown = with_code(&after.translation_problems, Code::UnknownEdition);
    assert_eq!(unknown.len(), 1, "{:?}", after.translation_problems);
    assert!(unknown[0].help_text().is_some_and(|h| h.starts_with("did you mean `C")), "{:?}", unknown[0]);
    let location = unknown[0].location().expect("located");
    assert!(location.contains("translations/nl/base.yaml:"), "{location}");
    // A control character is refused in a translation as in the rules.
    let dir = edited(FIXTURE, &[(file, "text: Trek een tegel.", "text: \"Trek een\\u001b[2J tegel.\"")]);
    let after = compiler::compile_dir(dir.path());
    assert_eq!(with_code(&after.translation_problems, Code::ForbiddenCharacter).len(), 1);
}

/// A language's name is a name, as the rules' names are: each bad one is
/// refused with one located diagnostic, its code, and help, at the value (at
/// the character, for one no name may hold). Case by case: what the name is
/// written as in `languages.yaml`, the code, and the column of the place.
#[test]
fn a_language_s_name_is_checked_as_names_are() {
    const LINE: &str = "  - { lang: nl, name: Nederlands, required: true }";
    // The name's value starts at column 23 (1-based), after `name: `; a
    // character written as an escape is shown at the whole value (its text
    // is not the source's), one written as itself where it stands.
    let long = "a".repeat(65);
    let cases: Vec<(String, Code, usize)> = vec![
        (r#""Neder\nlands""#.into(), Code::ForbiddenCharacter, 23),
        (r#""Neder\u001b[31mlands""#.into(), Code::ForbiddenCharacter, 23),
        (r#""Nederlands\a""#.into(), Code::ForbiddenCharacter, 23),
        (r#""\u202eNederlands""#.into(), Code::ForbiddenCharacter, 23),
        ("Neder\u{202e}lands".into(), Code::ForbiddenCharacter, 28),
        ("Neder\u{2066}lands".into(), Code::ForbiddenCharacter, 28),
        ("Neder\u{200b}lands".into(), Code::ForbiddenCharacter, 28),
        (r#""""#.into(), Code::InvalidTranslation, 23),
        (r#""   ""#.into(), Code::InvalidTranslation, 23),
        (long.clone(), Code::InvalidTranslation, 23),
    ];
    for (name, code, column) in cases {
        let line = LINE.replacen("Nederlands", &name, 1);
        let dir = edited(FIXTURE, &[("translations/languages.yaml", LINE, &line)]);
        let compiled = compiler::compile_dir(dir.path());
        let problems = &compiled.translation_problems;
        assert_eq!(problems.len(), 1, "{name}: {problems:?}");
        let problem = &problems[0];
        assert_eq!(problem.code(), code, "{name}: {problem:?}");
        assert_eq!(problem.severity(), carcassonne_rules_compiler::codes::Severity::Error, "{name}");
        let location = problem.location().expect("located");
        assert!(location.ends_with(&format!("translations/languages.yaml:2:{column}")), "{name}: {location}");
        assert!(problem.help_text().is_some_and(|h| !h.is_empty()), "{name}: {problem:?}");
    }
    // 64 characters, and any script, are a name.
    let line = LINE.replacen("Nederlands", &"я".repeat(64), 1);
    let dir = edited(FIXTURE, &[("translations/languages.yaml", LINE, &line)]);
    let problems = compiler::compile_dir(dir.path()).translation_problems;
    assert!(problems.is_empty(), "{problems:?}");
}

/// The bundled Dutch says each term of its glossary one way; a planted
/// "voltooid" where the English says "completed" is a warning at that text,
/// whose fix writes the glossary's word, and the rest stays silent.
#[test]
fn a_dutch_text_that_says_a_glossary_term_otherwise_is_a_warning_with_the_terms_word() {
    let clean = compiled(Path::new(BUNDLED));
    assert!(with_code(&clean.translation_problems, Code::InconsistentTerm).is_empty(), "the bundled Dutch is one");
    let dir = edited(
        BUNDLED,
        &[(
            "translations/nl/expansions/the-spell-circles.yaml",
            "\"Mist afgebouwd: elk spook",
            "\"Mist voltooid: elk spook",
        )],
    );
    let planted = compiled(dir.path());
    let warnings = with_code(&planted.translation_problems, Code::InconsistentTerm);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let message = warnings[0].to_string();
    assert!(message.contains("`voltooid`") && message.contains("`afgebouwd`"), "{message}");
    let fix = &warnings[0].fixes()[0];
    assert!(fix.replacement.starts_with("\"Mist afgebouwd: elk spook"), "{}", fix.replacement);
}
