//! `check`: load and check all rules and their translations, print a summary
//! or every problem. An outdated or orphaned translation is a warning: it is
//! shown, and the rules pass.

use std::path::Path;

use carcassonne_rules_compiler::codes::Severity;
use carcassonne_rules_compiler::diagnostics;
use carcassonne_rules_runtime::core::escape::terminal;
use clap::Args;

use super::bundled::Source;
use super::shared::{LangArgs, Outcome, print_out};
use carcassonne_rules_runtime::core::words::{Word, Words};

/// `check`'s options: the language of its summary.
#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    lang: LangArgs,
}

pub fn run(rules: Option<&Path>, args: &CheckArgs) -> Outcome {
    let source = Source::of(rules);
    let compiled = source.compile();
    let rules = compiled.result?;
    args.lang.check(&compiled.translations)?;
    let words = compiled.translations.locale(&args.lang.lang).map_or_else(Words::english, |l| l.words());
    let (errors, warnings): (Vec<_>, Vec<_>) =
        compiled.translation_problems.into_iter().partition(|p| p.severity() == Severity::Error);
    if !warnings.is_empty() {
        eprint!("{}", diagnostics::render(&warnings, std::io::IsTerminal::is_terminal(&std::io::stderr())));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let steps = rules.steps().count();
    let languages: Vec<String> = compiled
        .translations
        .locales
        .iter()
        .map(|l| format!("{} {:.1}%", terminal::line(&l.lang), l.percent(&compiled.translations.units)))
        .collect();
    // The translators' words, escaped as the rules' texts are.
    let translated = if languages.is_empty() {
        String::new()
    } else {
        words.fill(Word::CheckTranslated, &[("languages", &languages.join(", "))])
    };
    let count = |n: usize| n.to_string();
    let summary = words.fill(
        Word::CheckOk,
        &[
            ("source", &source.to_string()),
            ("editions", &count(rules.catalog.editions.len())),
            ("expansions", &count(rules.catalog.expansions.len())),
            ("modules", &count(rules.catalog.modules.len())),
            ("steps", &count(steps)),
            ("items", &count(rules.items().len())),
            ("translated", &translated),
        ],
    );
    print_out(format!("{}\n", terminal::line(&summary)));
    Ok(())
}
