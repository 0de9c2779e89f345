//! `translations`: how complete and current each language of the rules is,
//! as the wiki's language statistics say it, but per unit of one item.

use std::path::Path;

use carcassonne_rules_compiler::codes::Severity;
use carcassonne_rules_compiler::diagnostics;
use carcassonne_rules_compiler::translation::{SOURCE_LANG, Statistics, Translations};
use carcassonne_rules_runtime::core::escape::terminal;
use clap::Args;
use serde::Serialize;

use super::bundled::Source;
use super::shared::{ListFormat, Outcome, json_error, print_out};

#[derive(Args)]
pub struct TranslationsArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
}

/// The `translations --format json` contract.
#[derive(Serialize)]
struct Report {
    source: &'static str,
    locales: Vec<Statistics>,
}

pub fn run(rules: Option<&Path>, args: &TranslationsArgs) -> Outcome {
    let compiled = Source::of(rules).compile();
    compiled.result?;
    // The counts say what is missing; the problems say why a unit counts so.
    let problems: Vec<_> =
        compiled.translation_problems.into_iter().filter(|p| p.severity() == Severity::Error).collect();
    if !problems.is_empty() && matches!(args.format, ListFormat::Text) {
        eprint!("{}", diagnostics::render(&problems, std::io::IsTerminal::is_terminal(&std::io::stderr())));
    }
    let report = report(&compiled.translations);
    let text = match args.format {
        ListFormat::Text => table(&report),
        ListFormat::Json => serde_json::to_string_pretty(&report).map_err(json_error)? + "\n",
    };
    print_out(text);
    Ok(())
}

fn report(translations: &Translations) -> Report {
    let locales = translations.locales.iter().map(|l| l.statistics(&translations.units)).collect();
    Report { source: SOURCE_LANG, locales }
}

/// One line per language, the wiki's columns, and the units not current.
fn table(report: &Report) -> String {
    let mut out = format!(
        "{:<6} {:>6} {:>10} {:>8} {:>7} {:>8} {:>8}\n",
        "lang", "units", "translated", "outdated", "missing", "orphaned", "percent"
    );
    for l in &report.locales {
        out.push_str(&format!(
            "{:<6} {:>6} {:>10} {:>8} {:>7} {:>8} {:>7.1}%\n",
            terminal::line(&l.lang),
            l.units,
            l.translated,
            l.outdated,
            l.missing,
            l.orphaned,
            l.percent
        ));
    }
    for l in &report.locales {
        if !l.outdated_units.is_empty() {
            out.push_str(&format!(
                "\n{} outdated: {}\n",
                terminal::line(&l.lang),
                terminal::line(&l.outdated_units.join(", "))
            ));
        }
    }
    out
}
