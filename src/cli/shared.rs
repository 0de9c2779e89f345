//! What several commands share: the rules folder they read, the selection
//! they take, their output formats, and how they print and fail.

use carcassonne_rules_compiler::codes::Code;
use std::io::Write;
use std::path::Path;

use carcassonne_rules_compiler::diagnostics::Span;
use carcassonne_rules_compiler::translation::{Locale, SOURCE_LANG, Translations};
use carcassonne_rules_compiler::{Diagnostic, Rules, Sources, command, compile_dir};
use carcassonne_rules_runtime::core::catalog::{self, SelectionError, SelectionPart};
use carcassonne_rules_runtime::core::suggest;
use carcassonne_rules_runtime::core::{Catalog, Config};
use clap::{Args, ValueEnum};

use super::bundled::Source;

/// What a command that fails hands back: every problem, as a diagnostic.
pub type Outcome = Result<(), Vec<Diagnostic>>;

/// The folder `--rules` names, else `rules/`: for the commands that need a
/// folder (`gen` writes beside it, `review` compares it with another version).
pub fn rules_dir(rules: Option<&Path>) -> &Path {
    rules.unwrap_or(Path::new(super::bundled::RULES_DIR))
}

/// Compiles and checks the rules in `dir`.
pub fn load(dir: &Path) -> Result<Rules, Vec<Diagnostic>> {
    compile_dir(dir).result
}

/// An edition, a rule variant and modules, as `order`, `explain` and `diff` take them.
#[derive(Args)]
pub struct SelectionArgs {
    /// C1 (1st edition), C2 (new edition) or WE (Winter edition).
    #[arg(long)]
    pub edition: String,
    /// A publisher's rule variant (hig, zmg, rgg); each edition has a default.
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
    /// Module and expansion ids, comma-separated.
    #[arg(long, default_value = "", value_name = "IDS")]
    pub with: String,
}

impl SelectionArgs {
    /// The selection these options name in `catalog`.
    pub fn config(&self, catalog: &Catalog) -> Result<Config, Vec<Diagnostic>> {
        selection(catalog, &self.edition, self.variant.as_deref(), &self.with)
    }
}

/// How `order` and `review` print.
#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Markdown,
    Json,
}

/// How `modules` and `play` print.
#[derive(Clone, Copy, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

/// The selection the command line names, or one diagnostic per option with
/// an unknown id.
pub fn selection(
    catalog: &Catalog,
    edition: &str,
    variant: Option<&str>,
    with: &str,
) -> Result<Config, Vec<Diagnostic>> {
    catalog.config(edition, variant, with).map_err(|errors| {
        let value = |part| match part {
            SelectionPart::Edition => edition,
            SelectionPart::Variant => variant.unwrap_or_default(),
            SelectionPart::Modules => with,
        };
        let mut parts: Vec<SelectionPart> = errors.iter().map(|e| e.part).collect();
        parts.dedup();
        parts
            .into_iter()
            .map(|part| diagnostic(value(part), &errors.iter().filter(|e| e.part == part).collect::<Vec<_>>()))
            .collect()
    })
}

/// Unknown ids labelled in one diagnostic, at most this many.
const MAX_LABELLED_IDS: usize = 10;

/// One diagnostic that shows an option's `value` once, with its unknown ids
/// underlined (the first few of them: the value may hold thousands).
fn diagnostic(value: &str, errors: &[&SelectionError]) -> Diagnostic {
    let (Some(first), Some((message, help))) = (errors.first(), catalog::summary(errors)) else {
        return Diagnostic::global(Code::CommandLine, "no unknown id");
    };
    let mut sources = Sources::default();
    let file = sources.add(command::option(first.part), value.to_string());
    let span = |e: &SelectionError| Span { file, start: e.at.start, len: e.at.len().max(1) };
    if let [only] = errors {
        return Diagnostic::at(Code::CommandLine, &sources, span(only), message, only.label).with_help(help);
    }
    // A close id is the best label; the list of all ids is too long for one.
    let label = |e: &SelectionError| match &e.help {
        Some(help) if help.starts_with("did you mean") => help.clone(),
        _ => e.label.to_string(),
    };
    let mut d = Diagnostic::at(Code::CommandLine, &sources, span(first), message, label(first));
    for e in errors.iter().skip(1).take(MAX_LABELLED_IDS - 1) {
        d = d.also(&sources, span(e), label(e));
    }
    let more = errors.len().saturating_sub(MAX_LABELLED_IDS);
    d.with_help(if more > 0 { format!("{help} ({more} more unknown ids are not underlined)") } else { help })
}

/// A failure to write an output, as a diagnostic.
pub fn write_error(message: String) -> Vec<Diagnostic> {
    vec![Diagnostic::global(Code::Io, message)]
}

/// A failure to serialise JSON, as a diagnostic.
pub fn json_error(err: serde_json::Error) -> Vec<Diagnostic> {
    vec![Diagnostic::global(Code::Io, format!("cannot write JSON: {err}"))]
}

/// Prints to stdout; a closed pipe (`| head`) is not an error.
pub fn print_out(text: impl AsRef<[u8]>) {
    let _ = std::io::stdout().write_all(text.as_ref());
}

/// The language a command writes in: `--lang`.
#[derive(Args)]
pub struct LangArgs {
    /// The language to write in (`nl`, `ru`): a language the rules are
    /// translated into, or `en`, the rules' own.
    #[arg(long, default_value = SOURCE_LANG, value_name = "TAG")]
    pub lang: String,
}

impl LangArgs {
    /// The translation `--lang` names, from the rules `--rules` names (the
    /// bundled rules without it); none for English.
    pub fn locale(&self, rules: Option<&Path>) -> Result<Option<Locale>, Vec<Diagnostic>> {
        if self.lang == SOURCE_LANG {
            return Ok(None);
        }
        let source = rules.map_or(Source::Bundled, Source::Folder);
        let compiled = source.compile();
        compiled.result?;
        let mut translations = compiled.translations;
        self.check(&translations)?;
        let at = translations.locales.iter().position(|l| l.lang == self.lang);
        Ok(at.map(|at| translations.locales.swap_remove(at)))
    }

    /// Nothing when `--lang` is English or a language of `translations`;
    /// else the diagnostic, with the languages there are.
    pub fn check(&self, translations: &Translations) -> Result<(), Vec<Diagnostic>> {
        if self.lang == SOURCE_LANG || translations.locale(&self.lang).is_some() {
            return Ok(());
        }
        {
            let mut known = vec![SOURCE_LANG.to_string()];
            known.extend(translations.locales.iter().map(|l| l.lang.clone()));
            let mut sources = Sources::default();
            let file = sources.add("--lang", self.lang.clone());
            let span = Span { file, start: 0, len: self.lang.len().max(1) };
            let mut problem = Diagnostic::at(
                Code::CommandLine,
                &sources,
                span,
                format!("unknown language `{}`", self.lang),
                "not a language of the rules",
            );
            problem = match suggest::did_you_mean(&self.lang, known.iter().map(String::as_str)) {
                Some(near) => {
                    problem.with_help(format!("did you mean `{near}`? The rules are written in: {}", known.join(", ")))
                }
                None => problem.with_help(format!("the rules are written in: {}", known.join(", "))),
            };
            Err(vec![problem])
        }
    }
}
