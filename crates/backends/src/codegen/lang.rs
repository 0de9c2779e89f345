//! The rules' languages in the generated code: one file per language holding
//! its [`LangTable`](carcassonne_rules_core::LangTable) — each translated
//! unit's text (per edition where it has edition variants) and whether it is
//! outdated — and, in the rules' own file, the list `LANGUAGES` and one
//! module per language that includes its file. For the runtime each module
//! and each entry of the list stands under the runtime's feature
//! `lang-<tag>`, so that a build that asks for no language compiles none of
//! their tables; an engine's build script may compile its languages in
//! unconditionally.
//!
//! Every string goes through [`literal`] (the one Rust-string escaper,
//! [`rust::string`]); the units are sorted by id (the table is searched by
//! it), so the output is deterministic.

use carcassonne_rules_compiler::model::{Rules, Wording};
use carcassonne_rules_compiler::translation::{Locale, State};
use carcassonne_rules_core::lang::Unit;
use carcassonne_rules_core::words::Word;
use carcassonne_rules_core::{EditionId, Section};

use super::{GENERATOR, Names, WIDTH, Writer, doc, literal};
use crate::escape::markdown;
use crate::escape::rust::{self, Case};

/// Which of the rules' languages the generated code compiles in, and how.
#[derive(Debug, Default)]
pub struct Languages<'t> {
    /// Each language with the name of its tables' file, which stands beside
    /// the rules' generated file (that includes it by this name).
    pub locales: Vec<(&'t Locale, String)>,
    /// Each language only where the crate that includes the code has the
    /// feature `lang-<tag>` ([`feature`]): the runtime's features. Else
    /// every language given is compiled in.
    pub by_feature: bool,
}

impl<'t> Languages<'t> {
    /// `locales`, each in its file beside the generated file `main_file`
    /// ([`language_file`]).
    pub fn beside(main_file: &str, locales: impl IntoIterator<Item = &'t Locale>, by_feature: bool) -> Self {
        let locales = locales.into_iter().map(|l| (l, language_file(main_file, &l.lang))).collect();
        Languages { locales, by_feature }
    }
}

/// The cargo feature that compiles in the language `lang` (`lang-nl`).
pub fn feature(lang: &str) -> String {
    format!("lang-{lang}")
}

/// The file of the language `lang`'s tables beside the generated file
/// `main_file` (a file name): `turn_order.rs` → `turn_order_lang_nl.rs`.
pub fn language_file(main_file: &str, lang: &str) -> String {
    let stem = main_file.strip_suffix(".rs").unwrap_or(main_file);
    format!("{stem}_{}.rs", module(lang))
}

/// The module of `lang`'s tables (`lang_nl`, `lang_pt_br`).
fn module(lang: &str) -> String {
    rust::ident(&format!("lang_{lang}"), "l", Case::Lower)
}

/// The rules' file's part: a module per language, including its file, and
/// the list of the languages compiled in.
pub(super) fn languages(languages: &Languages<'_>, out: &mut Writer) {
    let cfg = |lang: &str| format!("#[cfg(feature = {})]", literal(&feature(lang)));
    for (locale, file) in &languages.locales {
        let gate = if languages.by_feature {
            format!(", compiled in with the feature {}", markdown::code(&feature(&locale.lang)))
        } else {
            String::new()
        };
        out.line(&doc(&format!(
            "The {} translation ({}){gate}.",
            markdown::code(&locale.lang),
            markdown::inline(&locale.name)
        )));
        if languages.by_feature {
            out.line(&cfg(&locale.lang));
        }
        out.code(&format!("pub mod {}", module(&locale.lang)), |out| {
            out.line(&format!("include!({});", literal(file)));
        });
    }
    out.line(&doc("The languages compiled in, in `languages.yaml`'s order."));
    if languages.locales.is_empty() {
        out.line("pub static LANGUAGES: &[&LangTable] = &[];");
        return;
    }
    out.block("pub static LANGUAGES: &[&LangTable] = &[", "];", |out| {
        for (locale, _) in &languages.locales {
            if languages.by_feature {
                out.line(&cfg(&locale.lang));
            }
            out.line(&format!("&{}::LANG,", module(&locale.lang)));
        }
    });
}

/// One translated unit, for the table.
struct Entry<'r> {
    id: &'r str,
    text: &'r Wording,
    outdated: bool,
}

/// The Rust source of `locale`'s tables: a file that the module the rules'
/// generated file declares for it includes.
pub fn generate_language(rules: &Rules, locale: &Locale) -> String {
    let names = Names::new(rules);
    let catalog = &rules.catalog;
    let kinds = [
        ("editions", entries(locale, catalog.editions.iter().map(|e| Unit::Edition(&e.id)))),
        ("variants", entries(locale, catalog.variants.iter().map(|v| Unit::Variant(&v.id)))),
        ("expansions", entries(locale, catalog.expansions.iter().map(|x| Unit::Expansion(&x.id)))),
        ("modules", entries(locale, catalog.modules.iter().map(|m| Unit::Module(&m.id)))),
        ("phases", entries(locale, rules.phases.iter().map(|p| Unit::Phase(&p.id)))),
        ("steps", entries(locale, rules.steps().map(|s| Unit::Step(&s.id)))),
        ("sections", entries(locale, Section::ALL.iter().map(|&s| Unit::Section(s)))),
        ("items", entries(locale, rules.items().into_iter().map(|i| Unit::Item(&i.id)))),
        ("markers", entries(locale, rules.markers.iter().map(|m| Unit::Marker(&m.id)))),
        ("words", entries(locale, Word::ALL.iter().map(|&w| Unit::Word(w)))),
    ];
    let units: Vec<&Entry> = kinds.iter().flat_map(|(_, units)| units).collect();
    let by_edition = units.iter().any(|u| by_edition(u, rules).is_some());
    let outdated = units.iter().filter(|u| u.outdated).count();
    let mut out = Writer::default();
    let lang = rust::comment(&locale.lang);
    out.line(&format!("// @generated by {GENERATOR}: do not edit by hand. Edit the YAML under"));
    out.line(&format!(
        "// rules/translations/{lang}/ and run `cargo run -- gen`. The `{lang}` translation of the rules"
    ));
    out.line("// whose generated code includes this file.");
    out.line("");
    out.line(if by_edition {
        "use super::{EditionText, LangTable, LangUnit, edition};"
    } else {
        "use super::{EditionText, LangTable, LangUnit};"
    });
    out.line("");
    out.line(&doc(&format!(
        "The {} translation ({}): {} units translated, {outdated} of them outdated; the rest shows in English.",
        markdown::code(&locale.lang),
        markdown::inline(&locale.name),
        units.len()
    )));
    out.block("pub static LANG: LangTable = LangTable {", "};", |out| {
        out.field("lang", &literal(&locale.lang));
        out.field("name", &literal(&locale.name));
        for (field, units) in &kinds {
            if units.is_empty() {
                out.field(field, "&[]");
                continue;
            }
            out.block(&format!("{field}: &["), "],", |out| {
                for unit in units {
                    lang_unit(unit, rules, &names, out);
                }
            });
        }
    });
    out.text
}

/// The translated units among `units` (of one kind, the rules' own, so
/// that a translation the rules do not have is never compiled in), sorted
/// by their id in the kind.
fn entries<'r>(locale: &'r Locale, units: impl Iterator<Item = Unit<'r>>) -> Vec<Entry<'r>> {
    let mut out: Vec<Entry<'r>> = units
        .filter_map(|unit| {
            let translated = locale.get(unit)?;
            let (_, id) = unit.parts();
            Some(Entry { id, text: &translated.text, outdated: translated.state == State::Outdated })
        })
        .collect();
    out.sort_by(|a, b| a.id.cmp(b.id));
    out.dedup_by(|a, b| a.id == b.id);
    out
}

/// `LangUnit { id, text, outdated }`, on one line where it fits; the text
/// per edition only where the editions read it differently (a translation
/// may word alike what the English words per edition).
fn lang_unit(unit: &Entry<'_>, rules: &Rules, names: &Names, out: &mut Writer) {
    let id = literal(unit.id);
    let Some(texts) = by_edition(unit, rules) else {
        let text = format!("EditionText::Same({})", literal(&unit.text.render(EditionId(0))));
        let one = format!("LangUnit {{ id: {id}, text: {text}, outdated: {} }},", unit.outdated);
        if !one.contains('\n') && out.indent + one.len() <= WIDTH {
            out.line(&one);
            return;
        }
        out.block("LangUnit {", "},", |out| {
            out.field("id", &id);
            out.field("text", &text);
            out.field("outdated", &unit.outdated.to_string());
        });
        return;
    };
    out.block("LangUnit {", "},", |out| {
        out.field("id", &id);
        let by_edition: Vec<String> = texts
            .iter()
            .enumerate()
            .map(|(e, text)| format!("({}, {})", names.edition(EditionId(e as u8)), literal(text)))
            .collect();
        out.list("text: EditionText::ByEdition(&", &by_edition, "),");
        out.field("outdated", &unit.outdated.to_string());
    });
}

/// The unit's text in each edition, where the editions read it differently.
fn by_edition(unit: &Entry<'_>, rules: &Rules) -> Option<Vec<String>> {
    if unit.text.is_uniform() {
        return None;
    }
    let texts: Vec<String> = (0..rules.catalog.editions.len()).map(|e| unit.text.render(EditionId(e as u8))).collect();
    texts.windows(2).any(|pair| pair[0] != pair[1]).then_some(texts)
}
