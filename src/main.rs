//! The `carcassonne-rules` command line.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use carcassonne_rules::catalog::Catalog;
use carcassonne_rules::compiler::{self, Diagnostic, Rules};
use carcassonne_rules::{interpret, render, render_diagnostics, wiki};
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "carcassonne-rules", version, about = "Carcassonne's order of play, compiled from YAML rules")]
struct Cli {
    /// The rules folder.
    #[arg(long, global = true, default_value = "rules", value_name = "DIR")]
    rules: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load and check all rules; print every problem.
    Check,
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
        /// C1 (1st edition), C2 (new edition) or WE (Winter edition).
        #[arg(long)]
        edition: String,
        /// A publisher's rule variant (hig, zmg, rgg); each edition has a default.
        #[arg(long, value_name = "ID")]
        variant: Option<String>,
        /// Module and expansion ids, comma-separated.
        #[arg(long, default_value = "", value_name = "IDS")]
        with: String,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare the rules with the wiki page, step by step: the number and origins
    /// of visible top-level items. Without --edition: the base game and every
    /// module alone in every edition, plus --random selections. Exit 1 when a
    /// difference is not explained by rules/errata.yaml.
    Conformance {
        /// The wiki source of the Order of Play page.
        #[arg(long, default_value = "../shared/seeds/order-of-play.nl.wikitext", value_name = "FILE")]
        page: PathBuf,
        #[arg(long)]
        edition: Option<String>,
        #[arg(long, value_name = "ID")]
        variant: Option<String>,
        #[arg(long, default_value = "", value_name = "IDS")]
        with: String,
        /// Also print the sections that agree.
        #[arg(long)]
        all: bool,
        /// How many random selections to add (without --edition).
        #[arg(long, default_value_t = 0)]
        random: usize,
        #[arg(long, default_value_t = 2026)]
        seed: u64,
    },
    /// List the expansions, their modules and editions.
    Modules {
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
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

/// The generated file inside the output folder.
const GENERATED_FILE: &str = "turn_order.rs";

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => {
            eprint!("{}", render_diagnostics(&problems, std::io::stderr().is_terminal()));
            let n = problems.len();
            eprintln!("error: {n} problem{} found", if n == 1 { "" } else { "s" });
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), Vec<Diagnostic>> {
    match &cli.command {
        Command::Check => {
            let rules = load(&cli.rules)?;
            let items: usize = count_items(&rules);
            println!(
                "{}: {} editions, {} expansions, {} modules, {} steps, {items} items: ok",
                cli.rules.display(),
                rules.editions.len(),
                rules.expansions.len(),
                rules.modules.len(),
                rules.phases.iter().map(|p| p.steps.len()).sum::<usize>(),
            );
            Ok(())
        }
        Command::Gen { check, out } => {
            let rules = load(&cli.rules)?;
            let code = compiler::codegen::generate(&rules);
            let path = out.join(GENERATED_FILE);
            let current = std::fs::read_to_string(&path).ok();
            if current.as_deref() == Some(code.as_str()) {
                println!("{} is up to date", path.display());
                return Ok(());
            }
            if *check {
                return Err(vec![
                    Diagnostic::global(format!("{} is stale", path.display()))
                        .with_help("run `cargo run -- gen` and commit the result"),
                ]);
            }
            write_atomically(&path, &code)
                .map_err(|e| vec![Diagnostic::global(format!("cannot write {}: {e}", path.display()))])?;
            println!("wrote {}", path.display());
            Ok(())
        }
        Command::Order { edition, variant, with, format } => {
            let rules = load(&cli.rules)?;
            let config = Catalog::from_rules(&rules).config(edition, variant.as_deref(), with)?;
            let order = interpret::turn_order(&rules, &config);
            let text = match format {
                Format::Text => render::text(&order),
                Format::Markdown => render::markdown(&order),
                Format::Json => render::json(&order) + "\n",
            };
            print_out(&text);
            Ok(())
        }
        Command::Conformance { page, edition, variant, with, all, random, seed } => {
            let rules = load(&cli.rules)?;
            let source = std::fs::read_to_string(page)
                .map_err(|e| vec![Diagnostic::global(format!("cannot read {}: {e}", page.display()))])?;
            let page = wiki::Page::parse(&source, &rules);
            let catalog = Catalog::from_rules(&rules);
            let selections = match edition {
                Some(edition) => vec![(edition.clone(), with.clone())],
                None => wiki::selections(&catalog, *random, *seed),
            };
            let mut tally = wiki::Tally::default();
            let mut out = String::new();
            for class in &page.unreadable {
                out.push_str(&format!("unreadable page class (add it to errata.yaml): {class}\n"));
            }
            for (selection, comparisons) in wiki::compare_selections(&page, &rules, &selections, variant.as_deref())? {
                for c in comparisons.iter().filter(|c| *all || !c.agrees()) {
                    out.push_str(&format!("{selection} {}\n", wiki::describe(c)));
                }
                tally.add(&selection, &comparisons);
            }
            out.push_str(&tally.summary());
            out.push('\n');
            print_out(&out);
            if tally.unexplained.is_empty() {
                Ok(())
            } else {
                Err(vec![Diagnostic::global(format!(
                    "{} differences from the page are not explained by errata.yaml",
                    tally.unexplained.len()
                ))])
            }
        }
        Command::Modules { format } => {
            let rules = load(&cli.rules)?;
            let catalog = Catalog::from_rules(&rules);
            let text = match format {
                ListFormat::Text => render::catalog_text(&catalog),
                ListFormat::Json => render::catalog_json(&catalog) + "\n",
            };
            print_out(&text);
            Ok(())
        }
    }
}

fn load(dir: &Path) -> Result<Rules, Vec<Diagnostic>> {
    compiler::compile_dir(dir).result
}

fn count_items(rules: &Rules) -> usize {
    fn count(items: &[compiler::model::Item]) -> usize {
        items.iter().map(|i| 1 + count(&i.children)).sum()
    }
    let steps: usize = rules.phases.iter().flat_map(|p| &p.steps).map(|s| count(&s.items)).sum();
    steps + count(&rules.notes) + count(&rules.setup) + count(&rules.any_time) + count(&rules.final_scoring)
}

/// Writes through a temporary file in the same folder, so a reader never
/// sees half a file.
fn write_atomically(path: &Path, contents: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents.as_bytes())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Prints to stdout; a closed pipe (`| head`) is not an error.
fn print_out(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}
