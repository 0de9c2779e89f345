//! `carcassonne-conformance`: compares the rules with the wiki's Order of Play
//! page, step by step, and explains every difference by an erratum or fails.
//!
//! Run from the repository root:
//! `carcassonne-conformance --page ../shared/seeds/order-of-play.nl.wikitext`.

#![forbid(unsafe_code)]

use carcassonne_rules_compiler::codes::Code;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use carcassonne_rules_compiler::diagnostics::{self, Diagnostic, Sources, Span, suggestion};
use carcassonne_rules_compiler::{Rules, command, compile_dir};
use carcassonne_rules_core::catalog::{SelectionError, SelectionPart};
use carcassonne_rules_core::{Catalog, VariantId};
use carcassonne_rules_wiki::page::{self, Page, Selection, Tally};
use carcassonne_rules_wiki::{Errata, compare_nested};
use clap::Parser;

/// Compare the rules with the wiki page, step by step: the number and origins
/// of visible top-level items. Without --edition: the base game and every
/// module alone in every edition, plus --random selections. Exit 1 when a
/// difference is not explained by the errata.
#[derive(Parser)]
#[command(name = "carcassonne-conformance", version)]
struct Cli {
    /// The rules folder.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    rules: PathBuf,
    /// Class readings and deliberate differences from the page.
    #[arg(long, default_value = "crates/wiki/errata.yaml", value_name = "FILE")]
    errata: PathBuf,
    /// The wiki source of the Order of Play page.
    #[arg(long, env = "CARCASSONNE_WIKI_PAGE", value_name = "FILE")]
    page: PathBuf,
    /// Compare this one edition (with --with's modules) only.
    #[arg(long, value_name = "ID")]
    edition: Option<String>,
    /// The publisher's rule variant (default: each edition's own).
    #[arg(long, value_name = "ID")]
    variant: Option<String>,
    /// Module and expansion ids, comma-separated (with --edition).
    #[arg(long, default_value = "", value_name = "IDS", requires = "edition")]
    with: String,
    /// Also print the sections that agree.
    #[arg(long)]
    all: bool,
    /// How many random selections to add (without --edition).
    #[arg(long, default_value_t = 500, value_name = "N")]
    random: usize,
    /// The seed of the random selections.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => {
            eprint!("{}", diagnostics::render(&problems, std::io::stderr().is_terminal()));
            let n = problems.len();
            eprintln!("error: {n} problem{} found", if n == 1 { "" } else { "s" });
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), Vec<Diagnostic>> {
    let rules = compile_dir(&cli.rules).result?;
    let errata = Errata::load(&cli.errata, &rules, &mut Sources::default())?;
    let source = std::fs::read_to_string(&cli.page).map_err(|e| {
        vec![Diagnostic::global(Code::Io, format!("cannot read the wiki page `{}`: {e}", cli.page.display()))]
    })?;
    let page = Page::parse(&source, &rules, &errata);
    let selections = selections(cli, &rules)?;

    let mut out = String::new();
    for class in &page.unreadable {
        out.push_str(&format!("unreadable page class (add it to {}): {class}\n", cli.errata.display()));
    }
    let mut tally = Tally::default();
    for selection in &selections {
        let comparisons = page::compare_selection(&page, &rules, &errata, &selection.config);
        for c in comparisons.iter().filter(|c| cli.all || !c.agrees()) {
            out.push_str(&format!("{} {}\n", selection.label, page::describe(c)));
        }
        tally.add(&selection.label, &comparisons);
    }
    out.push_str(&tally.summary());
    out.push('\n');
    // Below the top level: every selection at once, so once per run.
    let nested = compare_nested(&page, &rules, &errata);
    for f in nested.findings.iter().filter(|f| cli.all || f.difference.is_some()) {
        out.push_str(&format!("{}\n", page::nested::describe(f)));
    }
    out.push_str(&nested.summary());
    out.push('\n');
    print_out(&out);

    let mut problems = Vec::new();
    for (id, line) in page::stale_page_lines(&page, &errata) {
        problems.push(
            Diagnostic::global(
                Code::Errata,
                format!("erratum `{id}` names page line {line}, which holds no top-level item"),
            )
            .with_help(format!("update its `page_lines` in {} to the page's current lines", cli.errata.display())),
        );
    }
    for (id, line) in &nested.stale {
        problems.push(
            Diagnostic::global(
                Code::Errata,
                format!("erratum `{id}` names page line {line}, where it explains nothing"),
            )
            .with_help(format!(
                "update its `nested_lines`, `mark_lines` or `repair_lines` in {} to the page's current lines",
                cli.errata.display()
            )),
        );
    }
    let unexplained = nested.unexplained().count();
    if unexplained > 0 {
        problems.push(
            Diagnostic::global(
                Code::WikiPage,
                format!("{unexplained} nested differences from the page are not explained by {}", cli.errata.display()),
            )
            .with_help(
                "fix the rules, or name the page line in an erratum's `nested_lines`, `mark_lines` or `repair_lines`",
            ),
        );
    }
    if !page.unreadable.is_empty() {
        problems.push(
            Diagnostic::global(Code::WikiPage, format!("{} page classes cannot be read", page.unreadable.len()))
                .with_help(format!("give their meaning under `classes` in {}", cli.errata.display())),
        );
    }
    if !tally.unexplained.is_empty() {
        problems.push(
            Diagnostic::global(
                Code::WikiPage,
                format!(
                    "{} differences from the page are not explained by {}",
                    tally.unexplained.len(),
                    cli.errata.display()
                ),
            )
            .with_help("fix the rules, or add an entry under `differences` saying why they differ"),
        );
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// The selections the command line asks for.
fn selections(cli: &Cli, rules: &Rules) -> Result<Vec<Selection>, Vec<Diagnostic>> {
    let catalog = &rules.catalog;
    let Some(edition) = &cli.edition else {
        let variant = cli.variant.as_deref().map(|v| variant(catalog, v)).transpose()?;
        let mut selections = page::selections(catalog, cli.random, cli.seed);
        if let Some(variant) = variant {
            selections.iter_mut().for_each(|s| s.config.variant = variant);
        }
        return Ok(selections);
    };
    let config = catalog.config(edition, cli.variant.as_deref(), &cli.with).map_err(|errors| {
        let value = |part| match part {
            SelectionPart::Edition => edition.as_str(),
            SelectionPart::Variant => cli.variant.as_deref().unwrap_or_default(),
            SelectionPart::Modules => cli.with.as_str(),
        };
        errors.iter().map(|e| selection_error(value(e.part), e)).collect::<Vec<_>>()
    })?;
    for module in config.modules.iter().filter_map(|m| catalog.modules.get(usize::from(m.0))) {
        if !module.on_wiki_page {
            eprintln!(
                "note: the wiki page has no selector for `{}` (wiki: false); its items are left out of the comparison",
                module.id
            );
        }
    }
    let label = format!("{edition} [{}]", catalog.module_ids(config.modules).join(","));
    Ok(vec![Selection { label, config }])
}

/// The rule variant `id`, or a diagnostic with a suggestion.
fn variant(catalog: &Catalog, id: &str) -> Result<VariantId, Vec<Diagnostic>> {
    match catalog.variants.iter().position(|v| v.id == id) {
        Some(i) => Ok(VariantId(i as u8)),
        None => {
            let ids = || catalog.variants.iter().map(|v| v.id.as_str());
            let help = suggestion(id, ids())
                .unwrap_or_else(|| format!("rule variants: {}", ids().collect::<Vec<_>>().join(", ")));
            let error = SelectionError {
                part: SelectionPart::Variant,
                at: 0..id.len(),
                message: format!("unknown rule variant `{id}`"),
                label: "not a rule variant id",
                help: Some(help),
            };
            Err(vec![selection_error(id, &error)])
        }
    }
}

/// A command-line selection error as a diagnostic pointing into the option's `value`.
fn selection_error(value: &str, error: &SelectionError) -> Diagnostic {
    let mut sources = Sources::default();
    let file = sources.add(command::option(error.part), value.to_string());
    let span = Span { file, start: error.at.start, len: error.at.len().max(1) };
    let help = error.help.clone().unwrap_or_else(|| command::MODULE_IDS_HELP.to_string());
    Diagnostic::at(Code::Errata, &sources, span, error.message.clone(), error.label).with_help(help)
}

/// Prints to stdout; a closed pipe (`| head`) is not an error.
fn print_out(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}
