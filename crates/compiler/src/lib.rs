//! The carcassonne-rules compiler's front end: YAML rules → checked model.
//!
//! Data flows one way, each phase returning its product: [`syntax`] reads the
//! files into spanned raw records, [`dsl`] parses the strings inside them,
//! [`check`] binds every name and validates everything (using [`placement`] to place
//! items, and [`logic`] to decide conditions) into the [`model`], which keeps
//! where each part was written and why each item is placed where it is.
//! Problems are [`Diagnostic`]s with a stable [`codes::Code`]. [`syntax`]'s
//! records are also what the backends' JSON Schemas of the rules files are
//! derived from. [`lexicon`] says what each string of the rules may hold.
//!
//! What is made from the model lives in the crates above this one:
//! `carcassonne-rules-backends` (the Rust dispatch, the static page),
//! `carcassonne-rules-tools` (`verify`, `explain`, the interpreter),
//! `carcassonne-rules-review` and `carcassonne-rules-wiki`.

#![forbid(unsafe_code)]

pub mod budget;
pub mod check;
pub mod codes;
pub mod command;
pub mod diagnostics;
pub mod dsl;
pub mod lexicon;
pub mod logic;
pub mod model;
pub mod placement;
pub mod positions;
pub mod read;
pub mod syntax;
pub mod translation;

use std::collections::BTreeMap;
use std::path::Path;

pub use diagnostics::{Diagnostic, Sources};
pub use logic::Budget;
pub use model::Rules;

/// The folder of the files `gen` writes for editors (the backends' JSON Schemas),
/// relative to the repository root. They serve rule authors' editors only
/// (the rules' `$schema` comments name them), so no crate holds them.
pub const GENERATED_DIR: &str = "generated";

/// The outcome of compiling a rules folder: the model, or every problem found.
pub struct Compiled {
    /// Every file read, for rendering the diagnostics.
    pub sources: Sources,
    /// The checked rules (which keep where each part was written), or every
    /// problem found.
    pub result: Result<Rules, Vec<Diagnostic>>,
    /// The files that could not be read or parsed, relative to the rules folder.
    pub unread: Vec<String>,
    /// The run's budget of work, what `check` spent of it: the later
    /// passes of the run charge it too ([`logic::Logic::within`]).
    pub budget: Budget,
    /// The rules' translations, checked (none while the rules do not check).
    pub translations: translation::Translations,
    /// What is wrong with the translations: errors (the rules are refused
    /// only by `check`) and warnings (outdated, orphaned).
    pub translation_problems: Vec<Diagnostic>,
}

/// Loads and checks the rules under `dir`.
pub fn compile_dir(dir: &Path) -> Compiled {
    compile_dir_within(dir, &Budget::new(logic::BUDGET))
}

/// As [`compile_dir`], deciding the conditions within `budget` (which then
/// tells how much of it the rules spent).
pub fn compile_dir_within(dir: &Path, budget: &Budget) -> Compiled {
    compile(
        dir,
        budget.clone(),
        |sources, problems| syntax::load_dir(dir, sources, problems),
        check::check,
        |sources, problems| {
            let present = syntax::translation_names(dir, problems);
            translation::read(dir, &present, |rel| syntax::read_file(dir, rel), None, sources, problems)
        },
    )
}

/// Loads and checks the rules held in `files` (path relative to the rules
/// folder, `/`-separated → text), as if they were the files of `dir`: what an
/// editor shows, unsaved changes included.
pub fn compile_files(dir: &Path, files: &BTreeMap<String, String>) -> Compiled {
    compile(
        dir,
        Budget::new(logic::BUDGET),
        |sources, problems| syntax::load_files(dir, files, sources, problems),
        check::check,
        |sources, problems| read_translations(dir, files, None, sources, problems),
    )
}

/// What the language server keeps from one compile to the next: each file
/// as last read, and the rules as last checked clean with the texts of the
/// rules files they were checked from.
#[derive(Default)]
pub struct Cache {
    /// Each rules file as last read.
    files: syntax::ParseCache,
    /// Each translation file as last read.
    translations: syntax::ParseCache,
    /// The rules last checked clean: the rules files' texts, and what they
    /// check to.
    checked: Option<(RulesTexts, Rules)>,
}

/// The rules files' names and texts, in reading order: what a compile's
/// rules were read from, for knowing that another compile reads the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesTexts(Vec<(String, String)>);

impl RulesTexts {
    /// The texts of the files `inputs` among `files` (path relative to the
    /// rules folder → text).
    pub fn of(inputs: &[String], files: &BTreeMap<String, String>) -> Self {
        RulesTexts(inputs.iter().map(|name| (name.clone(), files.get(name).cloned().unwrap_or_default())).collect())
    }

    /// Whether the files `inputs` among `files` are these, compared in
    /// place (nothing copied).
    pub fn are(&self, inputs: &[String], files: &BTreeMap<String, String>) -> bool {
        self.0.len() == inputs.len()
            && self.0.iter().zip(inputs).all(|((name, text), input)| {
                name == input && files.get(input).map_or(text.is_empty(), |now| now == text)
            })
    }
}

impl Cache {
    /// The tree of the file `name` (relative to the rules folder) if `text`
    /// is the text last read under that name: what `check` read, for the
    /// questions an editor asks, so a clean file is parsed once.
    pub fn tree(&self, name: &str, text: &str) -> Option<&syntax::tree::Node> {
        self.files.tree(name, text).or_else(|| self.translations.tree(name, text))
    }
}

/// As [`compile_files`], with `cache` saving the reading of every file whose
/// text is the one last read under its name, and the checking of rules
/// files none of which changed since they last checked clean (an edit to a
/// translation checks no rule again): what the language server does on
/// every keystroke. The outcome is exactly [`compile_files`]'.
pub fn compile_files_cached(dir: &Path, files: &BTreeMap<String, String>, cache: &mut Cache) -> Compiled {
    let Cache { files: parsed, translations, checked } = cache;
    compile(
        dir,
        Budget::new(logic::BUDGET),
        |sources, problems| syntax::load_files_cached(dir, files, parsed, sources, problems),
        |raw, sources, budget, problems| {
            // The same texts, read under the same file ids (the rules files
            // take the first ids, in reading order).
            let known = checked.take().filter(|(known, _)| problems.is_empty() && known.are(&raw.inputs, files));
            if let Some((texts, rules)) = known {
                *checked = Some((texts, rules.clone()));
                return Some(rules);
            }
            let rules = check::check(raw, sources, budget, problems);
            if let Some(rules) = rules.as_ref().filter(|_| problems.is_empty()) {
                *checked = Some((RulesTexts::of(&raw.inputs, files), rules.clone()));
            }
            rules
        },
        |sources, problems| read_translations(dir, files, Some(translations), sources, problems),
    )
}

/// Reads the translation files among `files` (path relative to the rules
/// folder → text) as [`translation::read`] does.
fn read_translations(
    dir: &Path,
    files: &BTreeMap<String, String>,
    cache: Option<&mut syntax::ParseCache>,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> translation::RawTranslations {
    let present: Vec<String> = files.keys().filter(|rel| syntax::translation_file(rel)).cloned().collect();
    translation::read(dir, &present, |rel| Ok(files.get(rel).cloned()), cache, sources, problems)
}

/// Reads the rules through `load` and checks them through `check`; once
/// they check, reads their translations through `translations` and checks
/// them against the rules. The rules files take the first ids in the
/// sources, the translation files the ids after them.
fn compile(
    dir: &Path,
    budget: Budget,
    load: impl FnOnce(&mut Sources, &mut Vec<Diagnostic>) -> syntax::RawRules,
    check: impl FnOnce(&syntax::RawRules, &Sources, &Budget, &mut Vec<Diagnostic>) -> Option<Rules>,
    translations: impl FnOnce(&mut Sources, &mut Vec<Diagnostic>) -> translation::RawTranslations,
) -> Compiled {
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = load(&mut sources, &mut problems);
    let rules = check(&raw, &sources, &budget, &mut problems);
    let mut translation_problems = Vec::new();
    let (result, translations) = match rules {
        Some(rules) if problems.is_empty() => {
            let read = translations(&mut sources, &mut translation_problems);
            let checked = translation::check(dir, &rules, &read, &sources, &mut translation_problems);
            (Ok(rules), checked)
        }
        // The translations are not read, nor checked, against rules that do not check.
        _ => (Err(problems), translation::Translations::default()),
    };
    Compiled { sources, result, unread: raw.unread, translations, translation_problems, budget }
}
