//! The `carcassonne-rules` command line: the commands and their dispatch.
//! Each command is one file in `src/cli/` with its arguments and its `run`.
//!
//! `order` and `modules` run the bundled rules compiled into the binary (the
//! runtime crate), so an installed binary needs no rules folder. With
//! `--rules DIR` they compile that folder and interpret it instead. The
//! commands that compile rules (`check`, `verify`, `explain`, `site`, `wiki`)
//! read `--rules`, else `rules/` if there is one, else the bundled rules' YAML
//! built into the binary (`cli/bundled.rs`); `gen` and `review` need a folder.

#![forbid(unsafe_code)]

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use carcassonne_rules_compiler::{Diagnostic, diagnostics};
use clap::{CommandFactory, Parser, Subcommand};

mod cli;
mod output;

use cli::{
    check, completions, diff, explain, r#gen, lsp, man, modules, order, play, review, site, translations, verify, wiki,
};

#[derive(Parser)]
#[command(name = "carcassonne-rules", version, about = "Carcassonne's order of play, compiled from YAML rules")]
struct Cli {
    /// A rules folder. `order`, `play`, `modules` and `diff` use the rules compiled
    /// into this binary without it, and compile and interpret DIR with it; the
    /// other commands read `rules/` without it, or where there is none the
    /// bundled rules built into this binary (`gen` and `review` need a folder).
    #[arg(long, global = true, value_name = "DIR")]
    rules: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load and check all rules; print every problem.
    Check(check::CheckArgs),
    /// Prove properties of the rules over every selection at once (no item that
    /// can never show, no marker or wording that cannot be seen, no heading
    /// without sub-items, …); each failure comes with a selection that shows it.
    Verify(verify::VerifyArgs),
    /// Write the generated Rust code (crates/runtime/src/generated/) and the
    /// rules files' JSON Schemas (generated/schemas/).
    Gen(r#gen::GenArgs),
    /// Print the turn order for an edition and a selection of modules.
    Order(order::OrderArgs),
    /// Why an item shows or not for a selection: its conditions term by term,
    /// where it was placed, and the smallest change that flips it.
    Explain(explain::ExplainArgs),
    /// Play one turn of a selection, one prompt at a time: interactive on a
    /// terminal, or scripted with JSON Lines answers; save it and resume it.
    Play(play::PlayArgs),
    /// Compare the turn orders of two selections: a unified diff, with item ids.
    Diff(diff::DiffArgs),
    /// What changed between two versions of the rules, over every selection:
    /// where items, markers and steps now show or no longer show, texts,
    /// origins, places and renames, each with exact counts and an example.
    Review(review::ReviewArgs),
    /// List the expansions, their modules and editions.
    Modules(modules::ModulesArgs),
    /// Write the order of play as a static web page (index.html, its script
    /// and styles) from `rules/` (or `--rules`, or the bundled rules).
    Site(site::SiteArgs),
    /// How complete and current each language of the rules is: per language
    /// its units, translated, outdated, missing, orphaned and the percent.
    Translations(translations::TranslationsArgs),
    /// Write the order of play as wiki source in the conventions of the
    /// wiki's Order of Play page, from `rules/` (or `--rules`, or the bundled
    /// rules).
    Wiki(wiki::WikiArgs),
    /// Serve the Language Server Protocol on stdin/stdout for an editor:
    /// diagnostics as you type, completion, hover, definition, references and
    /// rename, for the `rules/` folder of the workspace the editor opens.
    Lsp(lsp::LspArgs),
    /// Write the shell completion script for bash, zsh, fish, elvish or
    /// PowerShell to stdout.
    Completions(completions::CompletionsArgs),
    /// Write the manual pages (carcassonne-rules.1 and one per command).
    Man(man::ManArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => code,
        Err(problems) => {
            let mut stderr = std::io::stderr().lock();
            let n = problems.len();
            // A closed stderr leaves nothing to tell; the exit code still says it.
            let _ = write!(stderr, "{}", diagnostics::render(&problems, std::io::stderr().is_terminal()));
            let _ = writeln!(stderr, "error: {n} problem{} found", if n == 1 { "" } else { "s" });
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<ExitCode, Vec<Diagnostic>> {
    let rules = cli.rules.as_deref();
    match &cli.command {
        Command::Check(args) => check::run(rules, args)?,
        Command::Verify(args) => verify::run(rules, args)?,
        Command::Gen(args) => r#gen::run(rules, args)?,
        Command::Order(args) => order::run(rules, args)?,
        Command::Play(args) => play::run(rules, args)?,
        Command::Explain(args) => explain::run(rules, args)?,
        Command::Diff(args) => diff::run(rules, args)?,
        Command::Review(args) => {
            // `--fail-on-change` exits with 1 without a diagnostic.
            if review::run(rules, args)? {
                return Ok(ExitCode::FAILURE);
            }
        }
        Command::Modules(args) => modules::run(rules, args)?,
        Command::Site(args) => site::run(rules, args)?,
        Command::Translations(args) => translations::run(rules, args)?,
        Command::Wiki(args) => wiki::run(rules, args)?,
        Command::Lsp(args) => lsp::run(args)?,
        Command::Completions(args) => completions::run(Cli::command(), args)?,
        Command::Man(args) => man::run(Cli::command(), args)?,
    }
    Ok(ExitCode::SUCCESS)
}
