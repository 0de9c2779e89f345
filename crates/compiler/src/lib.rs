//! The carcassonne-rules compiler's front end: YAML rules → checked model.
//!
//! Data flows one way, each phase returning its product: [`syntax`] reads the
//! files into spanned raw records, [`dsl`] parses the strings inside them,
//! [`check`] binds every name and validates everything (using [`placement`] to place
//! items, and [`logic`] to decide conditions) into the [`model`], which keeps
//! where each part was written and why each item is placed where it is.
//! Problems are [`Diagnostic`]s with a stable [`codes::Code`]. [`schema`]
//! writes the JSON Schemas that give rule authors completion in their
//! editors, derived from [`syntax`]'s records. [`lexicon`] says what each
//! string of the rules may hold.
//!
//! What is made from the model lives in the crates above this one:
//! `carcassonne-rules-backends` (the Rust dispatch, the static page),
//! `carcassonne-rules-tools` (`verify`, `explain`, the interpreter),
//! `carcassonne-rules-review` and `carcassonne-rules-wiki`.

#![forbid(unsafe_code)]

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
pub mod schema;
pub mod syntax;
pub mod translation;

use std::collections::BTreeMap;
use std::path::Path;

pub use diagnostics::{Diagnostic, Sources};
pub use logic::Budget;
pub use model::Rules;

/// The folder of the rules files' JSON Schemas (in [`schema::SCHEMA_DIR`]),
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
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = syntax::load_dir(dir, &mut sources, &mut problems);
    let mut refused = Vec::new();
    let present = syntax::translation_names(dir, &mut refused);
    let files = translation::Files { present, refused, read: Box::new(|rel| syntax::read_file(dir, rel)) };
    finish(dir, raw, sources, problems, files, None, |raw, sources, problems| {
        check::check(raw, sources, budget, problems)
    })
}

/// Loads and checks the rules held in `files` (path relative to the rules
/// folder, `/`-separated → text), as if they were the files of `dir`: what an
/// editor shows, unsaved changes included.
pub fn compile_files(dir: &Path, files: &BTreeMap<String, String>) -> Compiled {
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = syntax::load_files(dir, files, &mut sources, &mut problems);
    finish(dir, raw, sources, problems, translation_files(files), None, check_within_the_budget)
}

/// What the language server keeps from one compile to the next: each file
/// as last read, and the rules as last checked clean with the texts of the
/// rules files they were checked from.
#[derive(Default)]
pub struct Cache {
    /// Each file as last read.
    pub files: syntax::ParseCache,
    /// The rules last checked clean: the rules files' names and texts, and
    /// what they check to.
    checked: Option<(Vec<(String, String)>, Rules)>,
}

/// As [`compile_files`], with `cache` saving the reading of every file whose
/// text is the one last read under its name, and the checking of rules
/// files none of which changed since they last checked clean (an edit to a
/// translation checks no rule again): what the language server does on
/// every keystroke. The outcome is exactly [`compile_files`]'.
pub fn compile_files_cached(dir: &Path, files: &BTreeMap<String, String>, cache: &mut Cache) -> Compiled {
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = syntax::load_files_cached(dir, files, &mut cache.files, &mut sources, &mut problems);
    let texts: Vec<(String, String)> =
        raw.inputs.iter().map(|name| (name.clone(), files.get(name).cloned().unwrap_or_default())).collect();
    let known = cache.checked.take().filter(|(checked, _)| problems.is_empty() && *checked == texts);
    let compiled = finish(
        dir,
        raw,
        sources,
        problems,
        translation_files(files),
        Some(&mut cache.files),
        |raw, sources, problems| {
            known.map(|(_, rules)| rules).or_else(|| check_within_the_budget(raw, sources, problems))
        },
    );
    if let Ok(rules) = &compiled.result {
        cache.checked = Some((texts, rules.clone()));
    }
    compiled
}

/// [`check::check`] within the default budget.
fn check_within_the_budget(raw: &syntax::RawRules, sources: &Sources, problems: &mut Vec<Diagnostic>) -> Option<Rules> {
    check::check(raw, sources, &Budget::new(logic::BUDGET), problems)
}

/// The translation files among `files` (path relative to the rules folder → text).
fn translation_files(files: &BTreeMap<String, String>) -> translation::Files<'_> {
    translation::Files {
        present: files.keys().filter(|rel| syntax::translation_file(rel)).cloned().collect(),
        refused: Vec::new(),
        read: Box::new(|rel| Ok(files.get(rel).cloned())),
    }
}

/// Checks what was read and, once the rules check, their translations
/// (`translation_files`). The translation files are read as YAML on a second
/// core while the rules are checked: they depend on the rules only when they
/// are compared with them, and they are about as much YAML as the rules.
fn finish(
    dir: &Path,
    raw: syntax::RawRules,
    mut sources: Sources,
    mut problems: Vec<Diagnostic>,
    translation_files: translation::Files<'_>,
    cache: Option<&mut syntax::ParseCache>,
    check: impl FnOnce(&syntax::RawRules, &Sources, &mut Vec<Diagnostic>) -> Option<Rules>,
) -> Compiled {
    let mut translation_problems = Vec::new();
    // Rules that did not read will not check: their translations are not read.
    let pending = match problems.is_empty() {
        true => translation::read(dir, &raw.inputs, translation_files, &mut sources, &mut translation_problems),
        false => translation::Pending::default(),
    };
    let sources = sources;
    let (rules, raw_translations) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut problems = Vec::new();
            (translation::parse(dir, pending, &sources, cache, &mut problems), problems)
        });
        let rules = check(&raw, &sources, &mut problems);
        // The reader's panic is this thread's.
        (rules, reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    let mut translations = translation::Translations::default();
    let result = match rules {
        Some(rules) if problems.is_empty() => {
            let (raw, read_problems) = raw_translations;
            translation_problems.extend(read_problems);
            translations = translation::check(&rules, &raw, &sources, &mut translation_problems);
            Ok(rules)
        }
        // The translations are not checked against rules that do not check.
        _ => {
            translation_problems.clear();
            Err(problems)
        }
    };
    Compiled { sources, result, unread: raw.unread, translations, translation_problems }
}
