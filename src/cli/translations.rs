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
use super::shared::{LangArgs, ListFormat, Outcome, json_error, print_out};
use carcassonne_rules_runtime::core::words::{Word, Words};

#[derive(Args)]
pub struct TranslationsArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
    /// The language of the table's headings (JSON's keys are the contract's).
    #[command(flatten)]
    lang: LangArgs,
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
    args.lang.check(&compiled.translations)?;
    let words = compiled.translations.locale(&args.lang.lang).map_or_else(Words::english, |l| l.words());
    let report = report(&compiled.translations);
    let text = match args.format {
        ListFormat::Text => table(&report, &words),
        ListFormat::Json => serde_json::to_string_pretty(&report).map_err(json_error)? + "\n",
    };
    print_out(text);
    Ok(())
}

fn report(translations: &Translations) -> Report {
    let locales = translations.locales.iter().map(|l| l.statistics(&translations.units)).collect();
    Report { source: SOURCE_LANG, locales }
}

/// One line per language, the wiki's columns (headed in `words`' language),
/// and the units not current.
fn table(report: &Report, words: &Words) -> String {
    let headings = [
        Word::ColumnLanguage,
        Word::ColumnUnits,
        Word::ColumnTranslated,
        Word::ColumnOutdated,
        Word::ColumnMissing,
        Word::ColumnOrphaned,
        Word::ColumnPercent,
    ]
    .map(|w| terminal::line(words.get(w)).into_owned());
    let rows: Vec<[String; 7]> = report
        .locales
        .iter()
        .map(|l| {
            [
                terminal::line(&l.lang).into_owned(),
                l.units.to_string(),
                l.translated.to_string(),
                l.outdated.to_string(),
                l.missing.to_string(),
                l.orphaned.to_string(),
                format!("{:.1}%", l.percent),
            ]
        })
        .collect();
    // Each column as wide as its widest cell; the language to the left, the
    // numbers to the right.
    let width = |c: usize| rows.iter().map(|r| &r[c]).chain([&headings[c]]).map(|s| s.chars().count()).max();
    let line = |cells: &[String; 7]| {
        let mut line = String::new();
        for (c, cell) in cells.iter().enumerate() {
            let pad = " ".repeat(width(c).unwrap_or(0) - cell.chars().count());
            if c == 0 {
                line.push_str(&format!("{cell}{pad}"));
            } else {
                line.push_str(&format!(" {pad}{cell}"));
            }
        }
        line + "\n"
    };
    let mut out = line(&headings);
    rows.iter().for_each(|r| out.push_str(&line(r)));
    for l in &report.locales {
        if !l.outdated_units.is_empty() {
            out.push_str(&format!(
                "\n{} {}: {}\n",
                terminal::line(&l.lang),
                terminal::line(words.get(Word::ColumnOutdated)),
                terminal::line(&l.outdated_units.join(", "))
            ));
        }
    }
    out
}
