//! The carcassonne-rules compiler: YAML rules → checked model → Rust source.
//!
//! Data flows one way: [`syntax`] reads the files, [`dsl`] parses the strings
//! inside them, [`check`] resolves and validates everything (using [`order`] to
//! place items), producing the [`model`] that [`codegen`] turns into Rust.

pub mod check;
pub mod codegen;
pub mod diagnostics;
pub mod dsl;
pub mod model;
pub mod order;
pub mod syntax;

use std::path::Path;

pub use diagnostics::{Diagnostic, Sources};
pub use model::Rules;

/// The outcome of compiling a rules folder: the model, or every problem found.
pub struct Compiled {
    pub sources: Sources,
    pub result: Result<Rules, Vec<Diagnostic>>,
}

/// Loads and checks the rules under `dir`.
pub fn compile_dir(dir: &Path) -> Compiled {
    let mut sources = Sources::default();
    let mut problems = Vec::new();
    let raw = syntax::load_dir(dir, &mut sources, &mut problems);
    let rules = check::check(&raw, &sources, &mut problems);
    let result = match rules {
        Some(rules) if problems.is_empty() => Ok(rules),
        _ => Err(problems),
    };
    Compiled { sources, result }
}
