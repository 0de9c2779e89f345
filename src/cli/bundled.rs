//! The bundled rules' YAML, built into the binary (listed by `build.rs`), and
//! where a command's rules come from.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use carcassonne_rules_compiler::diagnostics::{FileId, Sources};
use carcassonne_rules_compiler::model::Rules;
use carcassonne_rules_compiler::{Compiled, compile_dir, compile_files};

include!(concat!(env!("OUT_DIR"), "/bundled_rules.rs"));

/// The folder the rule author's commands read without `--rules`.
pub const RULES_DIR: &str = "rules";

/// Where a command's rules come from: `--rules DIR`; else `rules/` when the
/// current folder has one (a rule author's checkout); else the bundled rules
/// built into the binary, so that an installed binary works anywhere.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// A rules folder.
    Folder(&'a Path),
    /// The rules built into the binary.
    Bundled,
}

impl<'a> Source<'a> {
    /// The source `--rules` (or its absence) names.
    pub fn of(rules: Option<&'a Path>) -> Source<'a> {
        match rules {
            Some(dir) => Source::Folder(dir),
            None if Path::new(RULES_DIR).is_dir() => Source::Folder(Path::new(RULES_DIR)),
            None => Source::Bundled,
        }
    }

    /// Loads and checks these rules. The bundled files are named as under
    /// `rules/`, where they come from.
    pub fn compile(self) -> Compiled {
        match self {
            Source::Folder(dir) => compile_dir(dir),
            Source::Bundled => {
                let files: BTreeMap<String, String> =
                    FILES.iter().map(|(name, text)| (name.to_string(), text.to_string())).collect();
                compile_files(Path::new(RULES_DIR), &files)
            }
        }
    }
}

impl fmt::Display for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Folder(dir) => write!(f, "{}", dir.display()),
            Source::Bundled => write!(f, "the bundled rules"),
        }
    }
}

/// Whether `rules` (compiled with `sources`) are the bundled rules: the same
/// rules files, byte for byte (translations aside, which do not change how a
/// turn is played).
pub fn same_rules(rules: &Rules, sources: &Sources) -> bool {
    let bundled: BTreeMap<&str, &str> =
        FILES.iter().filter(|(name, _)| !name.starts_with("translations/")).copied().collect();
    bundled.len() == rules.inputs.len()
        && rules
            .inputs
            .iter()
            .enumerate()
            .all(|(at, name)| bundled.get(name.as_str()).is_some_and(|text| sources.text(FileId(at)) == *text))
}
