//! Checking the translations against the rules: each unit's text and
//! state, the orphans, a required language's missing units.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use carcassonne_rules_core::EditionId;
use carcassonne_rules_core::escape::terminal::quoted;
use carcassonne_rules_core::lang::Kind;
use carcassonne_rules_core::suggest;
use carcassonne_rules_core::words;

use super::glossary::{self, GLOSSARY_FILE};
use super::locale::{Locale, Orphan, State, Translated, Translations};
use super::plurals::{plural_categories, plural_problem};
use super::read::{RawTranslations, folder_of, is_language_tag};
use super::records::RawTranslationFile;
use super::records::{RawLanguage, RawLanguagesFile, RawUnit};
use super::units::{Unit, canonical, collapse, units};
use super::{LANGUAGES_FILE, PROGRAM_FILE, SOURCE_LANG, TRANSLATIONS_DIR};
use crate::codes::Code;
use crate::diagnostics::{Diagnostic, Fix, Sources, Span};
use crate::model::{Rules, Wording, WordingPart};
use crate::syntax::Spanned;
use crate::{dsl, lexicon};

/// The files of one language's folder, relative to it: the rules files'
/// names, [`PROGRAM_FILE`] and [`GLOSSARY_FILE`]. A language need not have
/// every file.
fn language_file_names(inputs: &[String]) -> impl Iterator<Item = &str> {
    inputs.iter().map(String::as_str).chain([PROGRAM_FILE, GLOSSARY_FILE])
}

/// The most characters a language's name may have: it stands in the page's
/// language switch.
pub const MAX_LANGUAGE_NAME_CHARS: usize = 64;

/// Reports a language's name that is not a name: one that holds what no
/// name may (a control character, a line break, a bidi override, an
/// invisible character: the rules' one test, [`lexicon::forbidden_in_text`]),
/// is empty, or is longer than a language switch can show.
fn check_language_name(name: &Spanned<String>, sources: &Sources, problems: &mut Vec<Diagnostic>) {
    if let Some((at, c)) = lexicon::forbidden_in_text(&name.value) {
        let problem = Diagnostic::at(
            Code::ForbiddenCharacter,
            sources,
            name.sub_span(at, at + c.len_utf8()),
            format!("a language's name holds {}", lexicon::describe_char(c)),
            "not allowed here",
        )
        .with_help(
            "names are one line without control characters or bidirectional overrides: remove it \
             (rules/README.md, \"What strings may hold\")",
        );
        problems.push(problem);
        return;
    }
    let chars = name.value.chars().count();
    let (message, label) = if name.value.trim().is_empty() {
        ("a language's name is empty".to_string(), "no name")
    } else if chars > MAX_LANGUAGE_NAME_CHARS {
        (format!("a language's name has {chars} characters, more than {MAX_LANGUAGE_NAME_CHARS}"), "too long")
    } else {
        return;
    };
    let help = format!(
        "a language's name is the language's own word for itself (`Nederlands`), as its switch shows it, \
         in 1 to {MAX_LANGUAGE_NAME_CHARS} characters"
    );
    problems.push(Diagnostic::at(Code::InvalidTranslation, sources, name.span, message, label).with_help(help));
}

/// The translation files the languages of `languages` read of rules whose
/// files are `inputs`: `languages.yaml`, and each language's mirror of every
/// rules file and its [`PROGRAM_FILE`].
fn expected_files(inputs: &[String], languages: &RawLanguagesFile) -> Vec<String> {
    let mut expected = vec![LANGUAGES_FILE.to_string()];
    for language in languages.languages.iter().filter(|l| is_language_tag(&l.lang.value)) {
        let lang = &language.lang.value;
        expected.extend(language_file_names(inputs).map(|name| format!("{TRANSLATIONS_DIR}/{lang}/{name}")));
    }
    expected
}

/// The translation file `rel` that is never read, as a warning: its
/// language is not declared, or it mirrors no rules file (`expected`). None
/// where its language is declared with a tag that is refused already.
fn orphaned_file(dir: &Path, rel: &str, languages: &RawLanguagesFile, expected: &[String]) -> Option<Diagnostic> {
    let shown = quoted(&dir.join(rel).display().to_string());
    let lang = folder_of(rel);
    let declared = languages.languages.iter().find(|l| l.lang.value.eq_ignore_ascii_case(lang));
    if declared.is_some_and(|l| !is_language_tag(&l.lang.value)) {
        return None;
    }
    let problem = Diagnostic::about_file(
        Code::OrphanedTranslation,
        dir.join(rel).display().to_string(),
        format!("`{shown}` is never read: it translates no rules file"),
    );
    if declared.is_none() {
        return Some(problem.with_help(format!(
            "no language `{}` is declared in {LANGUAGES_FILE}: declare it there, or remove the folder",
            quoted(lang)
        )));
    }
    Some(match suggest::did_you_mean(rel, expected.iter().map(String::as_str)) {
        Some(near) => problem.with_help(format!(
            "did you mean `{near}`? A rules file renamed by hand leaves its translations behind: rename the translation file too"
        )),
        None => problem.with_help("a language's folder mirrors the rules files: name it after the rules file it translates"),
    })
}

/// Checks the translations `raw` against `rules` (read from the folder
/// `dir`) and their units ([`units`]): each translation's text, its
/// state, the orphans (units and files); a required language's missing
/// units. Outdated and orphaned units are warnings, the rest errors.
pub fn check(
    dir: &Path,
    rules: &Rules,
    raw: &RawTranslations,
    sources: &Sources,
    problems: &mut Vec<Diagnostic>,
) -> Translations {
    let units = units(rules);
    let mut out = Translations { units: Vec::new(), locales: Vec::new() };
    let Some(languages) = &raw.languages else {
        out.units = units;
        return out;
    };
    let expected = expected_files(&rules.inputs, languages);
    for rel in raw.present.iter().filter(|rel| !expected.contains(rel)) {
        problems.extend(orphaned_file(dir, rel, languages, &expected));
    }
    // A translation finds its unit by its kind and key: no id is made for it.
    let by_key: HashMap<(Kind, &str), usize> = units.iter().enumerate().map(|(i, u)| ((u.kind, u.key()), i)).collect();
    let mut by_id_order: Vec<usize> = (0..units.len()).collect();
    by_id_order.sort_unstable_by_key(|&at| units[at].id.as_str());
    let editions: Vec<&str> = rules.catalog.editions.iter().map(|e| e.id.as_str()).collect();
    let mut seen_langs: Vec<&str> = Vec::new();
    // "Did you mean" for orphaned units, bounded for the run: each compares with every unit of its kind.
    let mut suggestions = suggest::Suggestions::default();
    for language in &languages.languages {
        let lang = language.lang.value.as_str();
        if !is_language_tag(lang) || lang == SOURCE_LANG {
            problems.push(Diagnostic::at(
                Code::InvalidTranslation,
                sources,
                language.lang.span,
                format!("`{lang}` is not a language the rules can be translated into"),
                "not a language tag",
            ).with_help("a language is its lower-case BCP 47 tag (`nl`, `pt-br`), the name of its folder; English is the rules' own"));
            continue;
        }
        if seen_langs.contains(&lang) {
            problems.push(Diagnostic::at(
                Code::DuplicateId,
                sources,
                language.lang.span,
                format!("language `{lang}` is declared twice"),
                "declared again here",
            ));
            continue;
        }
        seen_langs.push(lang);
        check_language_name(&language.name, sources, problems);
        let plural = plural_categories(lang);
        let mut locale = Locale {
            lang: lang.to_string(),
            name: language.name.value.clone(),
            required: language.required,
            units: BTreeMap::new(),
            orphaned: Vec::new(),
        };
        let texts = Texts { editions: &editions, plural: &plural };
        let files = raw.files.get(lang).map(Vec::as_slice).unwrap_or_default();
        // Whether each unit, by its place in `units`, is translated already;
        // its translation, if it checks.
        let mut seen = vec![false; units.len()];
        let mut translations: Vec<Option<Translated>> = vec![None; units.len()];
        for (_, file) in files.iter().filter(|(rel, _)| expected.contains(rel)) {
            for (kind, (key, entry)) in file.entries() {
                let Some(&at) = by_key.get(&(kind, key.value.as_str())) else {
                    let id = kind.unit_id(&key.value);
                    let candidates = units.iter().filter(|u| u.kind == kind).map(|u| u.id.as_str());
                    let nearest = suggestions.did_you_mean(&id, candidates).map(str::to_string);
                    locale.orphaned.push(Orphan { id, span: key.span, nearest });
                    continue;
                };
                let unit = &units[at];
                if std::mem::replace(&mut seen[at], true) {
                    problems.push(Diagnostic::at(
                        Code::DuplicateId,
                        sources,
                        key.span,
                        format!("`{}` is translated twice into `{lang}`", unit.id),
                        "translated again here",
                    ));
                    continue;
                }
                translations[at] = translated(unit, lang, key, entry, &texts, sources, problems);
            }
        }
        // In the ids' order, a map is built without sorting its entries again.
        let translations = by_id_order.iter().filter_map(|&at| Some((units[at].id.clone(), translations[at].take()?)));
        locale.units = translations.collect();
        report(&locale, language, &units, sources, problems);
        let read: Vec<&RawTranslationFile> =
            files.iter().filter(|(rel, _)| expected.contains(rel)).map(|(_, file)| file).collect();
        glossary::check(lang, &read, sources, problems);
        out.locales.push(locale);
    }
    out.units = units;
    out
}

/// What a language's translations are held against: the rules' editions,
/// and the plural categories a count takes in the language.
struct Texts<'a> {
    editions: &'a [&'a str],
    plural: &'a [&'static str],
}

/// Reads `field`, a `from:` or `text:` of a unit of the kind `kind`: its
/// edition variants where it is an item's text or a phase's title with braces
/// (the text DSL: a language may title a phase by edition, as Dutch does
/// phase 2), else its words.
fn read_field(kind: Kind, field: &Spanned<String>) -> Result<Vec<dsl::TextPart>, dsl::SyntaxError> {
    if matches!(kind, Kind::Item | Kind::Phase) && field.value.contains(['{', '}']) {
        dsl::text(&field.value)
    } else {
        Ok(vec![dsl::TextPart::Literal(collapse(&field.value))])
    }
}

/// A unit's translation, its text checked and its state decided.
fn translated(
    unit: &Unit,
    lang: &str,
    key: &Spanned<String>,
    entry: &RawUnit,
    texts: &Texts<'_>,
    sources: &Sources,
    problems: &mut Vec<Diagnostic>,
) -> Option<Translated> {
    // A `from:` is most often the English as it is, canonical (the form a
    // reviewed translation is marked with): that one needs no reading.
    let from_changed = entry.from.value != unit.english;
    let mut ok = true;
    let from_forbidden = from_changed.then(|| lexicon::forbidden_in_text(&entry.from.value)).flatten();
    for (field, forbidden) in
        [(&entry.from, from_forbidden), (&entry.text, lexicon::forbidden_in_text(&entry.text.value))]
    {
        if let Some((at, c)) = forbidden {
            problems.push(
                Diagnostic::at(
                    Code::ForbiddenCharacter,
                    sources,
                    field.sub_span(at, at + c.len_utf8()),
                    format!("a translation holds {}", lexicon::describe_char(c)),
                    "not allowed here",
                )
                .with_help("translations are one line without control characters or bidirectional overrides, as the rules' texts are"),
            );
            ok = false;
        }
    }
    if entry.text.value.trim().is_empty() {
        // Not translated yet: as if the entry were not there.
        return None;
    }
    let bound = |field: &Spanned<String>, problems: &mut Vec<Diagnostic>| match read_field(unit.kind, field) {
        Ok(parts) => bind(&parts, texts.editions, field, sources, problems).map(|wording| (wording, parts)),
        Err(err) => {
            let (start, end) = err.at;
            problems.push(Diagnostic::at(
                Code::InvalidExpression,
                sources,
                field.sub_span(start, end),
                format!("invalid text: {}", err.message),
                "here",
            ));
            None
        }
    };
    let from = if from_changed {
        bound(&entry.from, problems).map(|(_, parts)| canonical(&parts))
    } else {
        Some(unit.english.clone())
    };
    let text = bound(&entry.text, problems).map(|(text, _)| text);
    let (from, text) = (from?, text?);
    if !ok {
        return None;
    }
    let plural = unit.kind == Kind::Word && words::plural_forms(&unit.english).is_some();
    if plural && let Some(problem) = plural_problem(unit, lang, texts.plural, entry, sources) {
        problems.push(problem);
        return None;
    }
    if unit.kind == Kind::Word && !plural {
        let (english, translated) = (words::placeholders(&unit.english), words::placeholders(&entry.text.value));
        if english != translated {
            problems.push(
                Diagnostic::at(
                    Code::InvalidTranslation,
                    sources,
                    entry.text.span,
                    format!("the translation of `{}` must hold {}", unit.id, english.join(" ")),
                    "placeholders differ",
                )
                .with_help(format!(
                    "the program fills in {}; keep each of them once, as written",
                    if english.is_empty() { "nothing here: write no `{…}`".to_string() } else { english.join(", ") }
                )),
            );
            return None;
        }
    }
    let state = if from == unit.english { State::Translated } else { State::Outdated };
    // The key without its quotes, where it stands verbatim: what a rename replaces.
    let key_span =
        key.verbatim_start.map_or(key.span, |start| Span { file: key.span.file, start, len: key.value.len() });
    Some(Translated { text, from, state, span: entry.text.span, from_span: entry.from.span, key_span })
}

/// A text's edition variants bound to the rules' editions.
fn bind(
    parts: &[dsl::TextPart],
    editions: &[&str],
    field: &Spanned<String>,
    sources: &Sources,
    problems: &mut Vec<Diagnostic>,
) -> Option<Wording> {
    let mut out = Vec::new();
    let mut ok = true;
    for part in parts {
        match part {
            dsl::TextPart::Literal(s) => out.push(WordingPart::Literal(s.clone())),
            dsl::TextPart::Variants(alternatives) => {
                let mut bound = Vec::new();
                for (names, text) in alternatives {
                    let mut ids = Vec::new();
                    for name in names {
                        match editions.iter().position(|e| *e == name.text) {
                            Some(n)
                                if !bound
                                    .iter()
                                    .any(|(eds, _): &(Vec<EditionId>, String)| eds.contains(&EditionId(n as u8)))
                                    && !ids.contains(&EditionId(n as u8)) =>
                            {
                                ids.push(EditionId(n as u8))
                            }
                            Some(_) => {
                                problems.push(Diagnostic::at(
                                    Code::EditionNamedTwice,
                                    sources,
                                    field.sub_span(name.at.0, name.at.1),
                                    format!("edition `{}` is named twice in these variants", name.text),
                                    "named again here",
                                ));
                                ok = false;
                            }
                            None => {
                                let mut problem = Diagnostic::at(
                                    Code::UnknownEdition,
                                    sources,
                                    field.sub_span(name.at.0, name.at.1),
                                    format!("unknown edition `{}`", name.text),
                                    "not declared in editions.yaml",
                                );
                                if let Some(near) = suggest::did_you_mean(&name.text, editions.iter().copied()) {
                                    problem = problem.with_suggestion(field.sub_span(name.at.0, name.at.1), near);
                                }
                                problems.push(problem);
                                ok = false;
                            }
                        }
                    }
                    bound.push((ids, text.clone()));
                }
                out.push(WordingPart::ByEdition(bound));
            }
        }
    }
    ok.then_some(Wording(out))
}

/// The language's outdated and orphaned units as warnings; its missing
/// units, when it is required, as one error at its declaration.
fn report(locale: &Locale, language: &RawLanguage, all: &[Unit], sources: &Sources, problems: &mut Vec<Diagnostic>) {
    // Every unit translated is every unit current: none to list.
    let complete = locale.current() == all.len();
    if locale.required && !complete {
        let untranslated: Vec<&str> =
            all.iter().filter(|u| locale.state(&u.id) != State::Translated).map(|u| u.id.as_str()).collect();
        let shown: Vec<String> = untranslated.iter().take(5).map(|id| format!("`{id}`")).collect();
        let more = if untranslated.len() > 5 { format!(" and {} more", untranslated.len() - 5) } else { String::new() };
        problems.push(
            Diagnostic::at(
                Code::MissingTranslation,
                sources,
                language.lang.span,
                format!(
                    "`{}` must be complete, but {} of its {} units are missing or outdated: {}{more}",
                    locale.lang,
                    untranslated.len(),
                    all.len(),
                    shown.join(", ")
                ),
                "required here",
            )
            .with_help("translate them (`translations` lists them), or make the language optional (`required: false`)"),
        );
    }
    // Made at the first outdated unit: most languages have none.
    let mut units: Option<HashMap<&str, &Unit>> = None;
    for (id, translated) in &locale.units {
        if translated.state == State::Outdated {
            let units = units.get_or_insert_with(|| all.iter().map(|u| (u.id.as_str(), u)).collect());
            let now = units.get(id.as_str()).map_or("", |u| u.english.as_str());
            problems.push(
                Diagnostic::at(
                    Code::OutdatedTranslation,
                    sources,
                    translated.from_span,
                    format!("the `{}` translation of `{id}` is outdated: its English changed", locale.lang),
                    "translated from this English",
                )
                .with_help(format!("the English was: {}\nthe English is now: {now}\nreview the translation, then set `from:` to the English as it is now", translated.from))
                .with_fix(Fix {
                    title: "Mark the translation reviewed: `from:` the English as it is now".to_string(),
                    span: translated.from_span,
                    // A JSON string is a YAML double-quoted scalar.
                    replacement: serde_json::to_string(now).unwrap_or_default(),
                }),
            );
        }
    }
    for orphan in &locale.orphaned {
        let mut problem = Diagnostic::at(
            Code::OrphanedTranslation,
            sources,
            orphan.span,
            format!("`{}` is translated into `{}`, but the rules have no such unit", orphan.id, locale.lang),
            "no such unit",
        );
        problem = match &orphan.nearest {
            Some(near) => problem
                .with_help(format!(
                    "did you mean `{near}`? An item renamed by hand leaves its translations behind: rename their keys \
                     too"
                ))
                .with_fix(Fix {
                    title: format!("Rename the key to `{near}`"),
                    span: orphan.span,
                    replacement: near.clone(),
                }),
            None => problem.with_help("remove it, or give it the id of the unit it translates"),
        };
        problems.push(problem);
    }
}
