//! Reading the translation files, after the rules, one after another.

use std::collections::BTreeMap;
use std::path::Path;

use super::records::{RawLanguagesFile, RawTranslationFile};
use super::{LANGUAGES_FILE, TRANSLATIONS_DIR};
use crate::diagnostics::{Diagnostic, Sources};
use crate::syntax::{self, ParseCache};

/// The translation files read from a rules folder.
#[derive(Debug, Default)]
pub struct RawTranslations {
    /// `languages.yaml`, if the rules have it.
    pub languages: Option<RawLanguagesFile>,
    /// Each language's files (by tag), each with its path relative to the
    /// rules folder.
    pub files: BTreeMap<String, Vec<(String, RawTranslationFile)>>,
    /// Every translation file there is, relative to the rules folder.
    pub(super) present: Vec<String>,
}

/// Reads the translation files of the rules folder `dir`, after its rules:
/// `languages.yaml`, then every file of a declared language's folder among
/// `present` (the translation files there are, [`syntax::translation_file`],
/// relative to the rules folder), each into `sources` and as YAML, in
/// order. `text` gives a file's text by its path relative to the rules
/// folder (`None` when there is no such file); `cache` saves reading a file
/// whose text it holds. Which files mirror a rules file is [`check`](fn@super::check)'s to
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

/// The language folder a translation file `rel` is in (`nl`), if any.
pub(super) fn folder_of(rel: &str) -> &str {
    rel.strip_prefix(&format!("{TRANSLATIONS_DIR}/")).and_then(|rest| rest.split_once('/')).map_or("", |(lang, _)| lang)
}

/// A language tag as a folder may be named: lower-case letters, then
/// `-`-separated letters or digits (`nl`, `pt-br`).
pub(super) fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let first = parts.next().unwrap_or("");
    (2..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}
