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
//!
//! The rules' translations (`translations/<lang>/` in the folder) are
//! compiled in only when asked for, each as one table beside the generated
//! file, so that an engine's binary grows by a language's texts only if it
//! wants them:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), carcassonne_rules_build::Error> {
//!     carcassonne_rules_build::Build::new("rules").language("nl").compile()
//! }
//! ```
//!
//! `rules::RULES.locale("nl")` then gives the Dutch table, and
//! `rules::RULES.translated_turn_order(&cfg, table)` a turn order in Dutch.

#![forbid(unsafe_code)]

use std::fmt;
use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::codes::Severity;
use carcassonne_rules_compiler::translation::Locale;
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
    /// A language was asked for that the rules are not translated into.
    UnknownLanguage {
        /// The language asked for.
        lang: String,
        /// The languages the rules have (`translations/languages.yaml`).
        known: Vec<String>,
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
            Error::UnknownLanguage { lang, known } if known.is_empty() => {
                write!(f, "the rules are not translated into `{lang}`: they have no translations")
            }
            Error::UnknownLanguage { lang, known } => {
                write!(f, "the rules are not translated into `{lang}`; their languages are: {}", known.join(", "))
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
/// returned as [`Error::Rules`]. No language is compiled in: [`Build`] asks
/// for languages.
pub fn compile(dir: impl AsRef<Path>) -> Result<(), Error> {
    Build::new(dir).compile()
}

/// As [`compile`], into the file `out` (for a build script that compiles two
/// rule sets, or the runtime's own).
pub fn compile_into(dir: &Path, out: &Path) -> Result<(), Error> {
    Build::new(dir).out_file(out).compile()
}

/// Which of the rules' languages a [`Build`] compiles in.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Languages {
    /// These, in the order asked for (the default: none).
    Only(Vec<String>),
    /// Every language of the rules.
    All,
    /// Every language of the rules, each under the feature `lang-<tag>` of
    /// the crate that includes the code (which must declare it).
    ByFeature,
}

/// The rules folder to compile, where to, and with which languages: the
/// options of [`compile`].
///
/// ```no_run
/// # fn main() -> Result<(), carcassonne_rules_build::Error> {
/// carcassonne_rules_build::Build::new("rules").language("nl").language("ru").compile()
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Build {
    dir: PathBuf,
    out: Option<PathBuf>,
    languages: Languages,
}

impl Build {
    /// The rules folder `dir`, into `$OUT_DIR/`[`OUT_FILE`], with no language.
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Build { dir: dir.as_ref().to_path_buf(), out: None, languages: Languages::Only(Vec::new()) }
    }

    /// Into the file `out` instead; each language's table goes beside it
    /// (`rules.rs` → `rules_lang_nl.rs`).
    pub fn out_file(mut self, out: impl AsRef<Path>) -> Self {
        self.out = Some(out.as_ref().to_path_buf());
        self
    }

    /// Compiles in the language `lang` (`nl`), which the rules must be
    /// translated into: its table, and `RULES.locale("nl")`.
    pub fn language(mut self, lang: impl Into<String>) -> Self {
        let lang = lang.into();
        match &mut self.languages {
            Languages::Only(langs) if !langs.contains(&lang) => langs.push(lang),
            Languages::Only(_) => {}
            other => *other = Languages::Only(vec![lang]),
        }
        self
    }

    /// Compiles in every language the rules are translated into.
    pub fn all_languages(mut self) -> Self {
        self.languages = Languages::All;
        self
    }

    /// Writes every language's table, each compiled in only where the crate
    /// that includes the code has the feature `lang-<tag>` (`lang-nl`), which
    /// its `Cargo.toml` declares: as the runtime does for its bundled rules.
    pub fn languages_by_feature(mut self) -> Self {
        self.languages = Languages::ByFeature;
        self
    }

    /// Compiles the rules, and writes the generated code (only where it
    /// changed, so that the crate is not rebuilt needlessly).
    pub fn compile(self) -> Result<(), Error> {
        let out = match self.out {
            Some(out) => out,
            None => Path::new(&std::env::var_os("OUT_DIR").ok_or(Error::NoOutDir)?).join(OUT_FILE),
        };
        let dir = self.dir.as_path();
        // Absolute, since cargo reads a relative path from the crate's root,
        // which need not be the current folder.
        let watched = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        println!("cargo::rerun-if-changed={}", watched.display());
        let compiled = compile_dir(dir);
        let rules = match compiled.result {
            Ok(rules) => rules,
            Err(problems) => {
                eprint!("{}", diagnostics::render(&problems, false));
                return Err(Error::Rules { dir: dir.to_path_buf(), problems: problems.len() });
            }
        };
        let translations = &compiled.translations;
        let locales: Vec<&Locale> = match &self.languages {
            Languages::All | Languages::ByFeature => translations.locales.iter().collect(),
            Languages::Only(langs) => langs
                .iter()
                .map(|lang| {
                    translations.locale(lang).ok_or_else(|| Error::UnknownLanguage {
                        lang: lang.clone(),
                        known: translations.locales.iter().map(|l| l.lang.clone()).collect(),
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        if !locales.is_empty() {
            // A translation that does not check is left out (its unit shows in
            // English): say so, as `check` would, without failing the build.
            let errors = compiled.translation_problems.iter().filter(|p| p.severity() == Severity::Error).count();
            if errors > 0 {
                eprint!("{}", diagnostics::render(&compiled.translation_problems, false));
                println!(
                    "cargo::warning=the translations in {} have {errors} problem(s), shown in the build script's output; \
                     their units show in English",
                    dir.display()
                );
            }
        }
        let file = out.file_name().and_then(|f| f.to_str()).unwrap_or(OUT_FILE);
        let languages =
            codegen::Languages::beside(file, locales.iter().copied(), self.languages == Languages::ByFeature);
        let mut files = vec![(out.clone(), codegen::generate_with(&rules, &languages))];
        for (locale, name) in &languages.locales {
            files.push((out.with_file_name(name), codegen::generate_language(&rules, locale)));
        }
        for (path, code) in files {
            // Written only on change, so that the crate is not rebuilt needlessly.
            if std::fs::read_to_string(&path).ok().as_deref() != Some(code.as_str()) {
                std::fs::write(&path, code).map_err(|error| Error::Write { path: path.clone(), error })?;
            }
        }
        Ok(())
    }
}
