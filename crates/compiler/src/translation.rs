//! Translations of the rules, beside them in `translations/<lang>/`: each
//! unit (an item's text, a title, a name, a heading) keyed by its id, with the
//! English it was translated from, so that "outdated" is an exact comparison.
//!
//! As MediaWiki's Translate extension does for the wiki's pages, a unit whose
//! English changed since it was translated is *outdated* (Translate: fuzzy)
//! and does not count as translated; a unit with no translation is *missing*
//! and falls back to English; a translation whose id the rules no longer have
//! is *orphaned*. Unlike Translate, a unit is one item, not one paragraph.
//! Only words are translated: conditions, placement and markers stay in the
//! rules, so a translation cannot change which items show.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use carcassonne_rules_core::escape::terminal::quoted;
use carcassonne_rules_core::lang::{self, Language};
use carcassonne_rules_core::order::Translation;
use carcassonne_rules_core::suggest;
use carcassonne_rules_core::words::{self, Word, Words};
use carcassonne_rules_core::{Catalog, EditionId, Section, TurnOrder};
use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use serde::{Deserialize, Serialize};
use unic_langid::LanguageIdentifier;

use crate::codes::Code;
use crate::diagnostics::{Diagnostic, Fix, Sources, Span};
use crate::model::{Rules, Wording, WordingPart};
use crate::syntax::{self, ParseCache, Spanned};
use crate::{dsl, lexicon};

/// The folder of the translations, in the rules folder.
pub const TRANSLATIONS_DIR: &str = "translations";
/// The languages and which of them must be complete, in the rules folder.
pub const LANGUAGES_FILE: &str = "translations/languages.yaml";
/// The language the rules are written in.
pub const SOURCE_LANG: &str = "en";

/// `translations/languages.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLanguagesFile {
    /// The languages the rules are translated into.
    pub languages: Vec<RawLanguage>,
}

/// One language of `languages.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLanguage {
    /// Its tag (BCP 47: `nl`, `ru`), also its folder's name.
    pub lang: Spanned<String>,
    /// Its name in itself (`Nederlands`), for a language switch.
    pub name: Spanned<String>,
    /// Whether `check` refuses the rules while a unit is untranslated.
    #[serde(default)]
    pub required: bool,
}

/// One translation file: the units of one rules file, by kind, each keyed by
/// its id.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTranslationFile {
    /// Edition names (`editions.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub editions: Vec<(Spanned<String>, RawUnit)>,
    /// Rule variants' names (`editions.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub variants: Vec<(Spanned<String>, RawUnit)>,
    /// Expansion names (`modules.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub expansions: Vec<(Spanned<String>, RawUnit)>,
    /// Module names (`modules.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub modules: Vec<(Spanned<String>, RawUnit)>,
    /// Phase titles (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub phases: Vec<(Spanned<String>, RawUnit)>,
    /// Step titles (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub steps: Vec<(Spanned<String>, RawUnit)>,
    /// The headings of the sections outside the steps (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub sections: Vec<(Spanned<String>, RawUnit)>,
    /// Item texts, by item id.
    #[serde(default, deserialize_with = "syntax::entries")]
    pub items: Vec<(Spanned<String>, RawUnit)>,
    /// Marker labels, by marker id (`ROBBER_CHOICE`) (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub markers: Vec<(Spanned<String>, RawUnit)>,
    /// The program's words, by their key (`no_actions`), in `program.yaml`.
    #[serde(default, deserialize_with = "syntax::entries")]
    pub program: Vec<(Spanned<String>, RawUnit)>,
}

impl RawTranslationFile {
    /// Its units, by kind.
    fn kinds(&self) -> [(UnitKind, &[Keyed]); 10] {
        [
            (UnitKind::Edition, &self.editions),
            (UnitKind::Variant, &self.variants),
            (UnitKind::Expansion, &self.expansions),
            (UnitKind::Module, &self.modules),
            (UnitKind::Phase, &self.phases),
            (UnitKind::Step, &self.steps),
            (UnitKind::Section, &self.sections),
            (UnitKind::Item, &self.items),
            (UnitKind::Program, &self.program),
            (UnitKind::Marker, &self.markers),
        ]
    }

    /// Its units, each with its kind, in the order of [`Self::kinds`].
    fn entries(&self) -> impl Iterator<Item = (UnitKind, &Keyed)> {
        self.kinds().into_iter().flat_map(|(kind, entries)| entries.iter().map(move |entry| (kind, entry)))
    }
}

/// A unit as written, under its key.
type Keyed = (Spanned<String>, RawUnit);

/// One translated unit as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    /// The English it was translated from.
    pub from: Spanned<String>,
    /// The translation (the text DSL, for an item's text).
    pub text: Spanned<String>,
}

/// What kind of text a unit is: its id's prefix and its key in a
/// translation file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitKind {
    /// An edition's name.
    Edition,
    /// A rule variant's name.
    Variant,
    /// An expansion's name.
    Expansion,
    /// A module's name.
    Module,
    /// A phase's title.
    Phase,
    /// A step's title.
    Step,
    /// A section's heading.
    Section,
    /// An item's text.
    Item,
    /// A word of the program (`Step`, "There are no actions in this step.").
    Program,
    /// A marker's label (`ROBBER CHOICE`; the Dutch page's `ROVERKEUZE`).
    Marker,
}

impl UnitKind {
    /// The unit id of the thing `id` of this kind: `step.1B`, and an item's
    /// id alone (items are most units, and their ids have no dot).
    pub fn unit_id(self, id: &str) -> String {
        match self.prefix() {
            Some(prefix) => format!("{prefix}.{id}"),
            None => id.to_string(),
        }
    }

    fn prefix(self) -> Option<&'static str> {
        Some(match self {
            UnitKind::Edition => "edition",
            UnitKind::Variant => "variant",
            UnitKind::Expansion => "expansion",
            UnitKind::Module => "module",
            UnitKind::Phase => "phase",
            UnitKind::Step => "step",
            UnitKind::Section => "section",
            UnitKind::Program => "program",
            UnitKind::Marker => "marker",
            UnitKind::Item => return None,
        })
    }

    /// Whether the unit's text is the text DSL (edition variants).
    fn is_dsl(self) -> bool {
        self == UnitKind::Item
    }
}

/// One translatable text of the rules, in English.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Its unit id (`draw-tile`, `step.1B`).
    pub id: String,
    /// What kind of text it is.
    pub kind: UnitKind,
    /// Its English, in canonical form (see [`canonical`]).
    pub english: String,
    /// Where the English is written, when it is in a rules file.
    pub span: Option<Span>,
}

impl Unit {
    /// Its id in its kind, as a translation file keys it (`1B` of `step.1B`).
    fn key(&self) -> &str {
        self.kind.prefix().map_or(&self.id, |prefix| &self.id[prefix.len() + 1..])
    }
}

/// Every unit of `rules`, in the order a reader meets them: names, then the
/// turn's titles, the headings, the items.
pub fn units(rules: &Rules) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut push = |kind: UnitKind, id: &str, english: &str, span: Option<Span>| {
        out.push(Unit { id: kind.unit_id(id), kind, english: collapse(english), span });
    };
    let catalog = &rules.catalog;
    for e in &catalog.editions {
        push(UnitKind::Edition, &e.id, &e.name, None);
    }
    for v in &catalog.variants {
        push(UnitKind::Variant, &v.id, &v.name, None);
    }
    for x in &catalog.expansions {
        push(UnitKind::Expansion, &x.id, &x.name, None);
    }
    for m in &catalog.modules {
        push(UnitKind::Module, &m.id, &m.name, None);
    }
    for phase in &rules.phases {
        push(UnitKind::Phase, &phase.id, &phase.title, None);
    }
    for step in rules.steps() {
        push(UnitKind::Step, &step.id, &step.title, Some(step.span));
    }
    for section in Section::ALL {
        push(UnitKind::Section, section.name(), section.title(), None);
    }
    for marker in &rules.markers {
        push(UnitKind::Marker, &marker.id, &marker.label, Some(marker.span));
    }
    for word in Word::ALL {
        push(UnitKind::Program, word.key(), word.english(), None);
    }
    let edition_names: Vec<&str> = catalog.editions.iter().map(|e| e.id.as_str()).collect();
    for item in rules.items() {
        let english = wording_canonical(&item.text, &edition_names);
        if !english.is_empty() {
            push(UnitKind::Item, &item.id, &english, Some(item.spans.text));
        }
    }
    out
}

/// Whitespace runs as one space, none at either end: a YAML scalar reflowed
/// over lines reads the same.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A wording in the text DSL's canonical form: `{C1: farm | C2, WE: field}`.
fn wording_canonical(wording: &Wording, editions: &[&str]) -> String {
    let edition = |e: &EditionId| editions.get(usize::from(e.0)).copied().unwrap_or("?");
    canonical_of(wording.0.iter().map(|part| match part {
        WordingPart::Literal(s) => Piece::Literal(s),
        WordingPart::ByEdition(alternatives) => Piece::Variants(
            alternatives.iter().map(|(eds, text)| (eds.iter().map(edition).collect(), text.as_str())).collect(),
        ),
    }))
}

/// A DSL text as written (`from:` or a translation) in canonical form, its
/// edition names as written: what is compared with a unit's English.
pub fn canonical(parts: &[dsl::TextPart]) -> String {
    canonical_of(parts.iter().map(|part| {
        match part {
            dsl::TextPart::Literal(s) => Piece::Literal(s),
            dsl::TextPart::Variants(alternatives) => Piece::Variants(
                alternatives
                    .iter()
                    .map(|(names, text)| (names.iter().map(|n| n.text.as_str()).collect(), text.as_str()))
                    .collect(),
            ),
        }
    }))
}

/// One part of a text, its editions by name, for [`canonical_of`].
enum Piece<'a> {
    Literal(&'a str),
    Variants(Vec<(Vec<&'a str>, &'a str)>),
}

/// The one canonical form of a text: literals as written, each variant as
/// `{C1: farm | C2, WE: field}`, whitespace collapsed.
fn canonical_of<'a>(pieces: impl Iterator<Item = Piece<'a>>) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Literal(s) => out.push_str(s),
            Piece::Variants(alternatives) => {
                let alternatives: Vec<String> =
                    alternatives.iter().map(|(names, text)| format!("{}: {}", names.join(", "), text.trim())).collect();
                out.push('{');
                out.push_str(&alternatives.join(" | "));
                out.push('}');
            }
        }
    }
    collapse(&out)
}

/// What a language has of a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Translated from the English the rules hold now.
    Translated,
    /// Translated from English that has changed since (Translate: fuzzy).
    Outdated,
    /// Not translated: English is shown.
    Missing,
}

impl State {
    /// As `order --format json` writes it.
    pub fn name(&self) -> &'static str {
        match self {
            State::Translated => "translated",
            State::Outdated => "outdated",
            State::Missing => "missing",
        }
    }
}

/// A unit's translation, checked.
#[derive(Debug, Clone)]
pub struct Translated {
    /// The translation: an item's text as a wording, a title or name as one
    /// literal part.
    pub text: Wording,
    /// The English it was translated from, canonical.
    pub from: String,
    /// Translated, or outdated.
    pub state: State,
    /// Where the translation is written (its `text:`).
    pub span: Span,
    /// Where its `from:` is written.
    pub from_span: Span,
    /// Where its key (the unit's id in its kind) is written, quotes left out.
    pub key_span: Span,
}

/// A translation whose unit the rules no longer have.
#[derive(Debug, Clone)]
pub struct Orphan {
    /// The unit id it is translated under.
    pub id: String,
    /// The key, in the translation file.
    pub span: Span,
    /// The unit id nearest to it, if any is near.
    pub nearest: Option<String>,
}

/// One language, checked against the rules.
#[derive(Debug, Clone)]
pub struct Locale {
    /// Its tag (`nl`).
    pub lang: String,
    /// Its name in itself.
    pub name: String,
    /// Whether every unit must be translated.
    pub required: bool,
    /// The translations, by unit id (translated or outdated).
    pub units: BTreeMap<String, Translated>,
    /// Translations of ids the rules do not have.
    pub orphaned: Vec<Orphan>,
}

/// How complete and current a language is (the `translations` command).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statistics {
    /// The language's tag.
    pub lang: String,
    /// The rules' units.
    pub units: usize,
    /// Units translated from the English as it is.
    pub translated: usize,
    /// Units translated from English that has changed since.
    pub outdated: usize,
    /// Units not translated.
    pub missing: usize,
    /// Translations of units the rules do not have.
    pub orphaned: usize,
    /// Translated (and current) units per hundred, one decimal.
    pub percent: f64,
    /// The outdated units' ids, in the rules' order.
    pub outdated_units: Vec<String>,
    /// The missing units' ids, in the rules' order.
    pub missing_units: Vec<String>,
}

impl Locale {
    /// The state of the unit `id` in this language.
    pub fn state(&self, id: &str) -> State {
        self.units.get(id).map_or(State::Missing, |t| t.state.clone())
    }

    /// How many of `units` (the rules' units) it has translated from the
    /// English as it is, per hundred: [`Statistics::percent`] alone.
    pub fn percent(&self, units: &[Unit]) -> f64 {
        percent(self.current(), units.len())
    }

    /// How many units it has translated from the English as it is.
    fn current(&self) -> usize {
        self.units.values().filter(|t| t.state == State::Translated).count()
    }

    /// Its statistics over `units`, the rules' units.
    pub fn statistics(&self, units: &[Unit]) -> Statistics {
        let mut stats = Statistics {
            lang: self.lang.clone(),
            units: units.len(),
            translated: 0,
            outdated: 0,
            missing: 0,
            orphaned: self.orphaned.len(),
            percent: 0.0,
            outdated_units: Vec::new(),
            missing_units: Vec::new(),
        };
        for unit in units {
            match self.state(&unit.id) {
                State::Translated => stats.translated += 1,
                State::Outdated => {
                    stats.outdated += 1;
                    stats.outdated_units.push(unit.id.clone());
                }
                State::Missing => {
                    stats.missing += 1;
                    stats.missing_units.push(unit.id.clone());
                }
            }
        }
        stats.percent = percent(stats.translated, stats.units);
        stats
    }
}

/// `part` of `whole` per hundred, rounded down to one decimal, so that 99.97%
/// never reads as 100%.
fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return 100.0;
    }
    (part * 1000 / whole) as f64 / 10.0
}

/// The rules' translations, checked.
#[derive(Debug, Clone, Default)]
pub struct Translations {
    /// Every unit of the rules.
    pub units: Vec<Unit>,
    /// Every language, in `languages.yaml`'s order.
    pub locales: Vec<Locale>,
}

impl Translations {
    /// The language `lang`, if the rules are translated into it.
    pub fn locale(&self, lang: &str) -> Option<&Locale> {
        self.locales.iter().find(|l| l.lang == lang)
    }
}

/// The translation files read from a rules folder.
#[derive(Debug, Default)]
pub struct RawTranslations {
    /// `languages.yaml`, if the rules have it.
    pub languages: Option<RawLanguagesFile>,
    /// Each language's files (by tag), each with its path relative to the
    /// rules folder.
    pub files: BTreeMap<String, Vec<(String, RawTranslationFile)>>,
    /// Every translation file there is, relative to the rules folder.
    present: Vec<String>,
}

/// The files of one language's folder, relative to it: the rules files'
/// names, and [`PROGRAM_FILE`]. A language need not have every file.
fn language_file_names(inputs: &[String]) -> impl Iterator<Item = &str> {
    inputs.iter().map(String::as_str).chain([PROGRAM_FILE])
}

/// The file of a language's folder that holds the program's words.
pub const PROGRAM_FILE: &str = "program.yaml";

/// Reads the translation files of the rules folder `dir`, after its rules:
/// `languages.yaml`, then every file of a declared language's folder among
/// `present` (the translation files there are, [`syntax::translation_file`],
/// relative to the rules folder), each into `sources` and as YAML, in
/// order. `text` gives a file's text by its path relative to the rules
/// folder (`None` when there is no such file); `cache` saves reading a file
/// whose text it holds. Which files mirror a rules file is [`check`]'s to
/// say.
pub fn read(
    dir: &Path,
    present: &[String],
    text: impl Fn(&str) -> Result<Option<String>, Diagnostic>,
    mut cache: Option<&mut ParseCache>,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawTranslations {
    let mut raw = RawTranslations::default();
    let path = dir.join(LANGUAGES_FILE);
    let Ok(Some(languages)) = text(LANGUAGES_FILE).map_err(|problem| problems.push(problem)) else { return raw };
    let file = syntax::add_source(languages, &path, sources);
    let languages = syntax::read_source::<RawLanguagesFile>(file, &path, LANGUAGES_FILE, sources, None);
    let Ok(languages) = languages.map_err(|problem| problems.push(problem)) else { return raw };
    for rel in present {
        let lang = folder_of(rel);
        if !languages.languages.iter().any(|l| l.lang.value == lang && is_language_tag(lang)) {
            continue;
        }
        // A file gone since the folder was listed is not there.
        let Ok(Some(written)) = text(rel).map_err(|problem| problems.push(problem)) else { continue };
        let path = dir.join(rel);
        let file = syntax::add_source(written, &path, sources);
        match syntax::read_source(file, &path, rel, sources, cache.as_deref_mut()) {
            Ok(records) => raw.files.entry(lang.to_string()).or_default().push((rel.clone(), records)),
            Err(problem) => problems.push(problem),
        }
    }
    raw.languages = Some(languages);
    raw.present = present.to_vec();
    raw
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

/// The language folder a translation file `rel` is in (`nl`), if any.
fn folder_of(rel: &str) -> &str {
    rel.strip_prefix(&format!("{TRANSLATIONS_DIR}/")).and_then(|rest| rest.split_once('/')).map_or("", |(lang, _)| lang)
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

/// A language tag as a folder may be named: lower-case letters, then
/// `-`-separated letters or digits (`nl`, `pt-br`).
fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let first = parts.next().unwrap_or("");
    (2..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
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
    let by_key: HashMap<(UnitKind, &str), usize> =
        units.iter().enumerate().map(|(i, u)| ((u.kind, u.key()), i)).collect();
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
/// edition variants where it is an item's text with braces (the text DSL),
/// else its words.
fn read_field(kind: UnitKind, field: &Spanned<String>) -> Result<Vec<dsl::TextPart>, dsl::SyntaxError> {
    if kind.is_dsl() && field.value.contains(['{', '}']) {
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
    let plural = unit.kind == UnitKind::Program && words::plural_forms(&unit.english).is_some();
    if plural && let Some(problem) = plural_problem(unit, lang, texts.plural, entry, sources) {
        problems.push(problem);
        return None;
    }
    if unit.kind == UnitKind::Program && !plural {
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

/// The plural categories a count takes in `lang` (CLDR's cardinal rules, as
/// the page's `Intl.PluralRules` has them), in CLDR's order; none for a
/// language CLDR does not know.
pub fn plural_categories(lang: &str) -> Vec<&'static str> {
    let Some(rules) = plural_rules(lang) else { return Vec::new() };
    let mut found: Vec<&'static str> = (0..=1000u32).filter_map(|n| category(&rules, n)).collect();
    found.sort_by_key(|c| words::PLURAL_CATEGORIES.iter().position(|k| k == c));
    found.dedup();
    found
}

/// The plural category of the count `n` in `lang` (`one`, `few`, `many`…):
/// the rules of its primary language where CLDR has none of the tag's own
/// (`en-xa` counts as `en`), as a browser's `Intl.PluralRules` falls back.
pub fn plural_category(lang: &str, n: u32) -> Option<&'static str> {
    category(&plural_rules(lang)?, n)
}

/// CLDR's cardinal rules for `lang`, else for its primary language.
fn plural_rules(lang: &str) -> Option<PluralRules> {
    let create = |tag: &str| {
        let langid: LanguageIdentifier = tag.parse().ok()?;
        PluralRules::create(langid, PluralRuleType::CARDINAL).ok()
    };
    let primary = lang.split('-').next().unwrap_or(lang);
    create(lang).or_else(|| create(primary))
}

fn category(rules: &PluralRules, n: u32) -> Option<&'static str> {
    Some(match rules.select(n).ok()? {
        PluralCategory::ZERO => "zero",
        PluralCategory::ONE => "one",
        PluralCategory::TWO => "two",
        PluralCategory::FEW => "few",
        PluralCategory::MANY => "many",
        PluralCategory::OTHER => "other",
    })
}

/// What is wrong with a plural word's translation into `lang`: its forms
/// must be one per category a count takes in the language, each with the
/// English forms' placeholders.
fn plural_problem(unit: &Unit, lang: &str, wanted: &[&str], entry: &RawUnit, sources: &Sources) -> Option<Diagnostic> {
    let english = words::plural_forms(&unit.english)?;
    let placeholders = words::placeholders(english.first().map_or("", |(_, f)| f));
    let problem = |message: String| {
        Diagnostic::at(Code::InvalidTranslation, sources, entry.text.span, message, "its forms").with_help(format!(
            "a count in `{lang}` takes the forms {}: write them as `{}`, each with {}",
            wanted.join(", "),
            wanted.iter().map(|c| format!("{c}: …")).collect::<Vec<_>>().join(" | "),
            placeholders.join(" ")
        ))
    };
    let Some(forms) = words::plural_forms(&entry.text.value) else {
        return Some(problem(format!("the translation of `{}` is not a list of plural forms", unit.id)));
    };
    let categories: Vec<&str> = forms.iter().map(|(c, _)| *c).collect();
    if categories != wanted {
        return Some(problem(format!(
            "the translation of `{}` has the forms {}, but a count in `{lang}` takes {}",
            unit.id,
            categories.join(", "),
            wanted.join(", ")
        )));
    }
    if let Some((category, _)) = forms.iter().find(|(_, form)| words::placeholders(form) != placeholders) {
        return Some(problem(format!("the `{category}` form of `{}` must hold {}", unit.id, placeholders.join(" "))));
    }
    None
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
            Some(near) => problem.with_help(format!(
                "did you mean `{near}`? An item renamed by hand leaves its translations behind: rename their keys too"
            )),
            None => problem.with_help("remove it, or give it the id of the unit it translates"),
        };
        problems.push(problem);
    }
}

impl Locale {
    /// `order` in this language: every title and text it has a translation
    /// for (an outdated one too, marked so), English elsewhere; each item
    /// says which it shows. Ids, markers and structure stay as they are.
    /// The one implementation is the core's [`lang::translate`], which the
    /// runtime's generated tables of a language use too.
    pub fn translate(&self, order: &mut TurnOrder<'_>, catalog: &Catalog) {
        lang::translate(self, order, catalog);
    }

    /// The program's words and the sections' headings in this language,
    /// English where it has none.
    pub fn words(&self) -> Words<'static> {
        lang::words(self)
    }

    /// A marker's label as shown (`ROBBER CHOICE`, `MESSAGES (#1B)`) in this
    /// language, its argument kept; none where it has no translation.
    pub fn marker_label(&self, shown: &str) -> Option<String> {
        lang::marker_label(self, shown).map(Cow::into_owned)
    }

    /// A section's heading in this language, else English.
    pub fn heading(&self, section: Section) -> String {
        lang::heading(self, section).into_owned()
    }
}

/// A language as the core's [`lang::translate`] reads it: each unit's
/// translation rendered for the edition, owned.
impl<'a> Language<'a> for Locale {
    fn tag(&self) -> Cow<'a, str> {
        Cow::Owned(self.lang.clone())
    }

    fn text(&self, unit: lang::Unit<'_>, edition: EditionId) -> Option<(Cow<'a, str>, Translation)> {
        use lang::Unit as U;
        let translated = match unit {
            // An item's unit id is its id: no key to make.
            U::Item(id) => self.units.get(id),
            U::Edition(id) => self.units.get(&UnitKind::Edition.unit_id(id)),
            U::Variant(id) => self.units.get(&UnitKind::Variant.unit_id(id)),
            U::Expansion(id) => self.units.get(&UnitKind::Expansion.unit_id(id)),
            U::Module(id) => self.units.get(&UnitKind::Module.unit_id(id)),
            U::Phase(id) => self.units.get(&UnitKind::Phase.unit_id(id)),
            U::Step(id) => self.units.get(&UnitKind::Step.unit_id(id)),
            U::Section(section) => self.units.get(&UnitKind::Section.unit_id(section.name())),
            U::Marker(id) => self.units.get(&UnitKind::Marker.unit_id(id)),
            U::Word(word) => self.units.get(&UnitKind::Program.unit_id(word.key())),
        }?;
        let state = match translated.state {
            State::Outdated => Translation::Outdated,
            _ => Translation::Translated,
        };
        Some((Cow::Owned(translated.text.render(edition)), state))
    }
}
