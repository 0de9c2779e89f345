//! The `carcassonne-rules` command line.
//!
//! `order` and `modules` run the bundled rules compiled into the binary (the
//! runtime crate), so an installed binary needs no rules folder. With
//! `--rules DIR` they compile that folder and interpret it instead. `check`
//! and `gen` are the rule author's tools and read `rules/` (or `--rules`).

#![forbid(unsafe_code)]

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use carcassonne_rules_compiler::diagnostics::{self, Span};
use carcassonne_rules_compiler::{Diagnostic, Rules, Sources, command, compile_dir, explain, interpret, verify};
use carcassonne_rules_runtime::core::catalog::{SelectionError, SelectionPart};
use carcassonne_rules_runtime::core::{Catalog, Config, TurnOrder};
use carcassonne_rules_runtime::render;
use clap::{Args, Parser, Subcommand, ValueEnum};

mod output;

#[derive(Parser)]
#[command(name = "carcassonne-rules", version, about = "Carcassonne's order of play, compiled from YAML rules")]
struct Cli {
    /// A rules folder. `order`, `modules` and `diff` use the rules compiled
    /// into this binary without it, and compile and interpret DIR with it; the
    /// other commands read `rules/` without it.
    #[arg(long, global = true, value_name = "DIR")]
    rules: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load and check all rules; print every problem.
    Check,
    /// Prove properties of the rules over every selection at once (no item that
    /// can never show, no marker or wording that cannot be seen, no heading
    /// without sub-items, …); each failure comes with a selection that shows it.
    Verify,
    /// Write the generated Rust code into generated/.
    Gen {
        /// Do not write; fail if generated/ is stale.
        #[arg(long)]
        check: bool,
        /// Where the generated code lives.
        #[arg(long, default_value = "generated", value_name = "DIR")]
        out: PathBuf,
    },
    /// Print the turn order for an edition and a selection of modules.
    Order {
        #[command(flatten)]
        selection: SelectionArgs,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Why an item shows or not for a selection: its conditions term by term,
    /// where it was placed, and the smallest change that flips it.
    Explain {
        /// The item's id.
        item: String,
        #[command(flatten)]
        selection: SelectionArgs,
    },
    /// Compare the turn orders of two selections: a unified diff, with item ids.
    Diff {
        /// The first selection.
        #[command(flatten)]
        selection: SelectionArgs,
        /// The second selection's module and expansion ids.
        #[arg(long, value_name = "IDS")]
        against: String,
        /// The second selection's edition (else the first's).
        #[arg(long, value_name = "E")]
        against_edition: Option<String>,
        /// The second selection's rule variant (else its edition's default).
        #[arg(long, value_name = "ID")]
        against_variant: Option<String>,
    },
    /// What changed between two versions of the rules, over every selection:
    /// where items, markers and steps now show or no longer show, texts,
    /// origins, places and renames, each with exact counts and an example.
    Review {
        /// The version to compare against: a folder if one exists at that
        /// path, else a git revision (HEAD~1, main, a commit) of the
        /// repository holding --rules, read without touching the work tree.
        #[arg(long, value_name = "DIR|REV")]
        base: String,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit with 1 when anything changed.
        #[arg(long)]
        fail_on_change: bool,
    },
    /// List the expansions, their modules and editions.
    Modules {
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
    /// Write the order of play as a static web page (index.html, its script
    /// and styles) from `rules/` (or `--rules`).
    Site {
        /// The folder to write the page into.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Write the order of play as wiki source in the conventions of the
    /// wiki's Order of Play page, from `rules/` (or `--rules`).
    Wiki {
        /// The file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Serve the Language Server Protocol on stdin/stdout for an editor:
    /// diagnostics as you type, completion, hover, definition, references and
    /// rename, for the `rules/` folder of the workspace the editor opens.
    Lsp,
}

/// An edition, a rule variant and modules, as `order`, `explain` and `diff` take them.
#[derive(Args)]
struct SelectionArgs {
    /// C1 (1st edition), C2 (new edition) or WE (Winter edition).
    #[arg(long)]
    edition: String,
    /// A publisher's rule variant (hig, zmg, rgg); each edition has a default.
    #[arg(long, value_name = "ID")]
    variant: Option<String>,
    /// Module and expansion ids, comma-separated.
    #[arg(long, default_value = "", value_name = "IDS")]
    with: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Markdown,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum ListFormat {
    Text,
    Json,
}

/// Set by `review --fail-on-change` when something changed: exit 1 without a diagnostic.
static CHANGED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The rules folder `check` and `gen` read by default.
const RULES_DIR: &str = "rules";

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) if CHANGED.load(std::sync::atomic::Ordering::Relaxed) => ExitCode::FAILURE,
        Ok(()) => ExitCode::SUCCESS,
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

fn run(cli: &Cli) -> Result<(), Vec<Diagnostic>> {
    match &cli.command {
        Command::Verify => {
            let dir = rules_dir(cli);
            let compiled = compile_dir(dir);
            let rules = compiled.result?;
            let started = std::time::Instant::now();
            let report = verify::verify(&rules, &compiled.sources);
            if !report.problems.is_empty() {
                return Err(report.problems);
            }
            print_out(&format!(
                "{}: {} properties hold for every selection (largest BDD {} nodes, {:.0?})\n",
                dir.display(),
                report.checks,
                report.largest_bdd,
                started.elapsed()
            ));
            Ok(())
        }
        Command::Check => {
            let dir = rules_dir(cli);
            let rules = load(dir)?;
            let steps = rules.steps().count();
            print_out(&format!(
                "{}: {} editions, {} expansions, {} modules, {steps} steps, {} items: ok\n",
                dir.display(),
                rules.catalog.editions.len(),
                rules.catalog.expansions.len(),
                rules.catalog.modules.len(),
                rules.items().len(),
            ));
            Ok(())
        }
        Command::Gen { check, out } => {
            // Everything is generated before anything is written; the stale
            // files are then written as one set (src/output.rs).
            let files = carcassonne_rules_compiler::generated_files(&load(rules_dir(cli))?);
            if *check {
                let mut stale = Vec::new();
                for (name, text) in &files {
                    let path = out.join(name);
                    if output::current(&path).map_err(write_error)?.as_deref() != Some(text.as_str()) {
                        stale.push(
                            Diagnostic::global(format!(
                                "{} is stale: the rules generate something else",
                                path.display()
                            ))
                            .with_help("run `cargo run -- gen`, review the diff and commit it"),
                        );
                    }
                }
                if !stale.is_empty() {
                    return Err(stale);
                }
                print_out(&format!("{} is up to date ({} files)\n", out.display(), files.len()));
                return Ok(());
            }
            output::finish_writing_on_signal();
            let options = output::SetOptions { lock: true, keep_work_dir: true };
            let written = output::write_set(out, &files, &options).map_err(write_error)?;
            if written.is_empty() {
                print_out(&format!("{} is up to date ({} files)\n", out.display(), files.len()));
            }
            for path in written {
                print_out(&format!("wrote {}\n", path.display()));
            }
            Ok(())
        }
        Command::Order { selection: SelectionArgs { edition, variant, with }, format } => {
            let text = match &cli.rules {
                None => {
                    let cfg = selection(carcassonne_rules_runtime::catalog(), edition, variant.as_deref(), with)?;
                    render_order(&carcassonne_rules_runtime::turn_order(&cfg), *format)?
                }
                Some(dir) => {
                    let rules = load(dir)?;
                    let cfg = selection(&rules.catalog, edition, variant.as_deref(), with)?;
                    render_order(&interpret::turn_order(&rules, &cfg), *format)?
                }
            };
            print_out(&text);
            Ok(())
        }
        Command::Explain { item, selection: SelectionArgs { edition, variant, with } } => {
            let compiled = compile_dir(rules_dir(cli));
            let rules = compiled.result?;
            let cfg = selection(&rules.catalog, edition, variant.as_deref(), with)?;
            let text = explain::explain(&rules, &compiled.sources, item, &cfg)
                .map_err(|message| vec![Diagnostic::global(message)])?;
            print_out(&text);
            Ok(())
        }
        Command::Diff {
            selection: SelectionArgs { edition, variant, with },
            against,
            against_edition,
            against_variant,
        } => {
            let other_edition = against_edition.as_deref().unwrap_or(edition);
            let (a, b) = match &cli.rules {
                None => {
                    let catalog = carcassonne_rules_runtime::catalog();
                    let first = selection(catalog, edition, variant.as_deref(), with)?;
                    let second = selection(catalog, other_edition, against_variant.as_deref(), against)?;
                    let text = |cfg| render::text_with_ids(&carcassonne_rules_runtime::turn_order(cfg));
                    (text(&first), text(&second))
                }
                Some(dir) => {
                    let rules = load(dir)?;
                    let first = selection(&rules.catalog, edition, variant.as_deref(), with)?;
                    let second = selection(&rules.catalog, other_edition, against_variant.as_deref(), against)?;
                    let text = |cfg| render::text_with_ids(&interpret::turn_order(&rules, cfg));
                    (text(&first), text(&second))
                }
            };
            print_out(&carcassonne_rules::diff::unified(&a, &b, std::io::stdout().is_terminal()));
            Ok(())
        }
        Command::Review { base, format, fail_on_change } => {
            use carcassonne_rules_compiler::review;
            let format = match format {
                Format::Text => review::Format::Text,
                Format::Markdown => review::Format::Markdown,
                Format::Json => review::Format::Json,
            };
            let (text, changed) = review::command(base, rules_dir(cli), format, std::io::stdout().is_terminal())?;
            print_out(&text);
            CHANGED.store(changed && *fail_on_change, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
        Command::Modules { format } => {
            let text = match &cli.rules {
                None => list(carcassonne_rules_runtime::catalog(), *format)?,
                Some(dir) => list(&load(dir)?.catalog, *format)?,
            };
            print_out(&text);
            Ok(())
        }
        Command::Site { out } => {
            let page = carcassonne_rules_compiler::site::generate(&load(rules_dir(cli))?);
            // The folder is empty, new, or holds a page written before.
            let names: Vec<&str> = page.iter().map(|f| f.name).collect();
            output::owned_folder(out, &names).map_err(write_error)?;
            let files: Vec<(String, String)> = page.iter().map(|f| (f.name.to_string(), f.contents.clone())).collect();
            output::finish_writing_on_signal();
            let options = output::SetOptions { lock: false, keep_work_dir: false };
            output::write_set(out, &files, &options).map_err(write_error)?;
            print_out(&format!("wrote {} and its {} files\n", out.join("index.html").display(), files.len() - 1));
            Ok(())
        }
        Command::Lsp => carcassonne_rules_lsp::stdio()
            .map_err(|e| vec![Diagnostic::global(format!("the language server stopped: {e}"))]),
        Command::Wiki { out } => {
            let compiled = compile_dir(rules_dir(cli));
            let text = carcassonne_rules_compiler::wiki_export::export(&compiled.result?, &compiled.sources)?;
            output::finish_writing_on_signal();
            output::write_file(out, &text).map_err(write_error)?;
            print_out(&format!("wrote {}\n", out.display()));
            Ok(())
        }
    }
}

/// A failure to write an output, as a diagnostic.
fn write_error(message: String) -> Vec<Diagnostic> {
    vec![Diagnostic::global(message)]
}

fn rules_dir(cli: &Cli) -> &Path {
    cli.rules.as_deref().unwrap_or(Path::new(RULES_DIR))
}

fn load(dir: &Path) -> Result<Rules, Vec<Diagnostic>> {
    compile_dir(dir).result
}

/// The selection the command line names, or one diagnostic per option with
/// an unknown id.
fn selection(catalog: &Catalog, edition: &str, variant: Option<&str>, with: &str) -> Result<Config, Vec<Diagnostic>> {
    catalog.config(edition, variant, with).map_err(|errors| {
        let mut parts: Vec<SelectionPart> = errors.iter().map(|e| e.part).collect();
        parts.dedup();
        parts
            .into_iter()
            .map(|part| diagnostic(&errors.iter().filter(|e| e.part == part).collect::<Vec<_>>()))
            .collect()
    })
}

/// Unknown ids labelled in one diagnostic, at most this many.
const MAX_LABELLED_IDS: usize = 10;

/// One diagnostic that shows an option's value once, with its unknown ids
/// underlined (the first few of them: the value may hold thousands).
fn diagnostic(errors: &[&SelectionError]) -> Diagnostic {
    let Some(first) = errors.first() else {
        return Diagnostic::global("no unknown id");
    };
    let mut sources = Sources::default();
    let option = command::option(first.part);
    let file = sources.add(option, first.value.clone());
    let span = |e: &SelectionError| Span { file, start: e.at.start, len: e.at.len().max(1) };
    if let [only] = errors {
        let help = only.help.clone().unwrap_or_else(|| command::MODULE_IDS_HELP.to_string());
        return Diagnostic::at(&sources, span(only), only.message.clone(), only.label.clone()).with_help(help);
    }
    let what = first.message.split('`').next().unwrap_or("unknown id ").trim_end();
    let message = format!("{} {what} ids in {option}", errors.len());
    // A close id is the best label; the list of all ids is too long for one.
    let label = |e: &SelectionError| match &e.help {
        Some(help) if help.starts_with("did you mean") => help.clone(),
        _ => e.label.clone(),
    };
    let mut d = Diagnostic::at(&sources, span(first), message, label(first));
    for e in errors.iter().skip(1).take(MAX_LABELLED_IDS - 1) {
        d = d.also(&sources, span(e), label(e));
    }
    let more = errors.len().saturating_sub(MAX_LABELLED_IDS);
    let help = command::MODULE_IDS_HELP;
    d.with_help(if more > 0 { format!("{help} ({more} more unknown ids are not underlined)") } else { help.into() })
}

fn render_order(order: &TurnOrder, format: Format) -> Result<String, Vec<Diagnostic>> {
    Ok(match format {
        Format::Text => render::text(order),
        Format::Markdown => render::markdown(order),
        Format::Json => render::json(order).map_err(json_error)? + "\n",
    })
}

fn list(catalog: &Catalog, format: ListFormat) -> Result<String, Vec<Diagnostic>> {
    Ok(match format {
        ListFormat::Text => render::catalog_text(catalog),
        ListFormat::Json => render::catalog_json(catalog).map_err(json_error)? + "\n",
    })
}

fn json_error(err: serde_json::Error) -> Vec<Diagnostic> {
    vec![Diagnostic::global(format!("cannot write JSON: {err}"))]
}

/// Prints to stdout; a closed pipe (`| head`) is not an error.
fn print_out(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}
