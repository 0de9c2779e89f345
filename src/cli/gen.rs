//! `gen`: write the generated Rust code, or check that it is current.

use carcassonne_rules_compiler::codes::Code;
use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::{Diagnostic, compile_dir};
use clap::Args;

use super::shared::{Outcome, print_out, rules_dir, write_error};
use crate::output;

#[derive(Args)]
pub struct GenArgs {
    /// Do not write; fail if a generated file is stale.
    #[arg(long)]
    check: bool,
    /// The repository root the generated files' paths are relative to
    /// (crates/runtime/src/generated/turn_order.rs and a file per language
    /// beside it, generated/schemas/).
    #[arg(long, default_value = ".", value_name = "DIR")]
    out: PathBuf,
}

pub fn run(rules: Option<&Path>, args: &GenArgs) -> Outcome {
    // Everything is generated before anything is written; the stale
    // files are then written as one set (src/output.rs).
    // The translations as they check: an outdated unit is generated as
    // outdated, an invalid one left out (`check` reports both).
    let compiled = compile_dir(rules_dir(rules));
    let rules = compiled.result?;
    let mut files = carcassonne_rules_backends::generated_files(&rules, &compiled.translations);
    files.extend(carcassonne_rules_wiki::generated_files(&rules));
    let out = &args.out;
    if args.check {
        let mut stale = Vec::new();
        for (name, text) in &files {
            let path = out.join(name);
            if output::current(&path).map_err(write_error)?.as_deref() != Some(text.as_str()) {
                stale.push(
                    Diagnostic::global(
                        Code::StaleGenerated,
                        format!("{} is stale: the rules generate something else", path.display()),
                    )
                    .with_help("run `cargo run -- gen`, review the diff and commit it"),
                );
            }
        }
        if !stale.is_empty() {
            return Err(stale);
        }
        print_out(up_to_date(out, files.len()));
        return Ok(());
    }
    output::finish_writing_on_signal();
    let options = output::SetOptions { lock: true, keep_work_dir: true };
    let written = output::write_set(out, &files, &options).map_err(write_error)?;
    if written.is_empty() {
        print_out(up_to_date(out, files.len()));
    }
    for path in written {
        print_out(format!("wrote {}\n", path.display()));
    }
    Ok(())
}

/// "the generated files are up to date (6 files)", naming `--out` unless it is
/// the current folder.
fn up_to_date(out: &Path, n: usize) -> String {
    let under = if out == Path::new(".") { String::new() } else { format!(" under {}", out.display()) };
    format!("the generated files{under} are up to date ({n} files)\n")
}
