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
//!
//! The pass runs after the rules check, one concern a file: [`read`]
//! (`read.rs`) reads `languages.yaml` and each declared language's files
//! into their records (`records.rs`), one after another, into the sources
//! after the rules files; [`check`] (`check.rs`) holds them against the
//! rules' [`units`] (`units.rs`) and gives each language's [`Locale`]
//! (`locale.rs`), and holds its texts to its glossary (`glossary.rs`);
//! `plurals.rs` says which forms a count takes in a language.

mod check;
mod glossary;
mod locale;
mod plurals;
mod read;
mod records;
mod units;

pub use check::{MAX_LANGUAGE_NAME_CHARS, check};
pub use glossary::GLOSSARY_FILE;
pub use locale::{Locale, Orphan, State, Statistics, Translated, Translations};
pub use plurals::{plural_categories, plural_category};
pub use read::{RawTranslations, read};
pub use records::{RawLanguage, RawLanguagesFile, RawTranslationFile, RawUnit};
pub use units::{Unit, canonical, unit_id, units};

/// The folder of the translations, in the rules folder.
pub const TRANSLATIONS_DIR: &str = "translations";
/// The languages and which of them must be complete, in the rules folder.
pub const LANGUAGES_FILE: &str = "translations/languages.yaml";
/// The language the rules are written in.
pub const SOURCE_LANG: &str = "en";

/// The file of a language's folder that holds the program's words.
pub const PROGRAM_FILE: &str = "program.yaml";
