//! Compiles a folder of carcassonne-rules YAML in a crate's `build.rs`, as
//! prost-build does for `.proto` files: the rules are checked, and their
//! generated Rust lands in `OUT_DIR`, where
//! `carcassonne_rules_runtime::include_rules!()` includes it.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), carcassonne_rules_build::Error> {
//!     carcassonne_rules_build::compile("rules")
//! }
//! ```
//!
//! Rules that do not check fail the build, with every problem printed as a
//! located diagnostic (file, line, column, help). Cargo runs the build script
//! again whenever a file under the folder changes.

#![forbid(unsafe_code)]

use std::fmt;
use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::{compile_dir, diagnostics};

use carcassonne_rules_backends::codegen;

/// The file [`compile`] writes into `OUT_DIR`, which `include_rules!()` includes.
pub const OUT_FILE: &str = "carcassonne_rules.rs";

/// Why the rules could not be compiled. Its `Debug` is its message, so that a
/// `build.rs` whose `main` returns it prints a sentence, not a structure.
pub enum Error {
    /// Not run by cargo: `OUT_DIR` is not set.
    NoOutDir,
    /// The rules have problems; they were printed on stderr.
    Rules {
        /// The rules folder, as given.
        dir: PathBuf,
        /// How many problems.
        problems: usize,
    },
    /// The generated file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoOutDir => write!(f, "OUT_DIR is not set: compile the rules from a build script that cargo runs"),
            Error::Rules { dir, problems } => {
                let s = if *problems == 1 { "" } else { "s" };
                write!(f, "the rules in {} have {problems} problem{s} (shown above); fix them to build", dir.display())
            }
            Error::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

/// Compiles the rules folder `dir` (relative to the current folder, which in
/// a build script is the crate's root) into `$OUT_DIR/`[`OUT_FILE`], and
/// tells cargo to run the build script again when anything under `dir`
/// changes. Bad rules are printed as located diagnostics on stderr and
/// returned as [`Error::Rules`].
pub fn compile(dir: impl AsRef<Path>) -> Result<(), Error> {
    let out = std::env::var_os("OUT_DIR").ok_or(Error::NoOutDir)?;
    compile_into(dir.as_ref(), &Path::new(&out).join(OUT_FILE))
}

/// As [`compile`], into the file `out` (for a build script that compiles two
/// rule sets, or the runtime's own).
pub fn compile_into(dir: &Path, out: &Path) -> Result<(), Error> {
    // Absolute, since cargo reads a relative path from the crate's root,
    // which need not be the current folder.
    let watched = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    println!("cargo::rerun-if-changed={}", watched.display());
    let compiled = compile_dir(dir);
    let code = match compiled.result {
        Ok(rules) => codegen::generate(&rules),
        Err(problems) => {
            eprint!("{}", diagnostics::render(&problems, false));
            return Err(Error::Rules { dir: dir.to_path_buf(), problems: problems.len() });
        }
    };
    // Written only on change, so that the crate is not rebuilt needlessly.
    if std::fs::read_to_string(out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(out, code).map_err(|error| Error::Write { path: out.to_path_buf(), error })?;
    }
    Ok(())
}
