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
    finish(raw, sources, budget, problems)
}

/// Loads and checks the rules held in `files` (path relative to the rules
/// folder, `/`-separated → text), as if they were the files of `dir`: what an
/// editor shows, unsaved changes included.
pub fn compile_files(dir: &Path, files: &BTreeMap<String, String>) -> Compiled {
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = syntax::load_files(dir, files, &mut sources, &mut problems);
    finish(raw, sources, &Budget::new(logic::BUDGET), problems)
}

/// As [`compile_files`], with `cache` saving the reading of every file whose
/// text is the one last read under its name: what the language server does on
/// every keystroke. The outcome is exactly [`compile_files`]'.
pub fn compile_files_cached(dir: &Path, files: &BTreeMap<String, String>, cache: &mut syntax::ParseCache) -> Compiled {
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = syntax::load_files_cached(dir, files, cache, &mut sources, &mut problems);
    finish(raw, sources, &Budget::new(logic::BUDGET), problems)
}

fn finish(raw: syntax::RawRules, sources: Sources, budget: &Budget, mut problems: Vec<Diagnostic>) -> Compiled {
    let rules = check::check(&raw, &sources, budget, &mut problems);
    let result = match rules {
        Some(rules) if problems.is_empty() => Ok(rules),
        _ => Err(problems),
    };
    Compiled { sources, result, unread: raw.unread }
}
