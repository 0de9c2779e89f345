//! `check`: load and check all rules and their translations, print a summary
//! or every problem. An outdated or orphaned translation is a warning: it is
//! shown, and the rules pass.

use std::path::Path;

use carcassonne_rules_compiler::codes::Severity;
use carcassonne_rules_compiler::diagnostics;
use carcassonne_rules_runtime::core::escape::terminal;
use clap::Args;

use super::bundled::Source;
use super::shared::{Outcome, print_out};

/// `check` takes no options of its own.
#[derive(Args)]
pub struct CheckArgs {}

pub fn run(rules: Option<&Path>, _: &CheckArgs) -> Outcome {
    let source = Source::of(rules);
    let compiled = source.compile();
    let rules = compiled.result?;
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
    let languages =
        if languages.is_empty() { String::new() } else { format!("; translated: {}", languages.join(", ")) };
    print_out(format!(
        "{source}: {} editions, {} expansions, {} modules, {steps} steps, {} items{languages}: ok\n",
        rules.catalog.editions.len(),
        rules.catalog.expansions.len(),
        rules.catalog.modules.len(),
        rules.items().len(),
    ));
    Ok(())
}
