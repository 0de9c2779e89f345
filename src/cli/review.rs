//! `review`: what changed between two versions of the rules.

use std::io::IsTerminal;
use std::path::Path;

use carcassonne_rules_compiler::Diagnostic;

use carcassonne_rules_review as review;
use clap::Args;

use super::shared::{Format, print_out, rules_dir};

#[derive(Args)]
pub struct ReviewArgs {
    /// The version to compare against: a folder, or a git revision
    /// (HEAD~1, main, a commit) of the repository holding --rules, read
    /// without touching the work tree. A name that is both is refused.
    #[arg(long, value_name = "DIR|REV")]
    base: String,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit with 1 when anything changed.
    #[arg(long)]
    fail_on_change: bool,
}

/// Prints the review; `Ok(true)` when something changed and `--fail-on-change`
/// asks for exit code 1 (without a diagnostic).
pub fn run(rules: Option<&Path>, args: &ReviewArgs) -> Result<bool, Vec<Diagnostic>> {
    let format = match args.format {
        Format::Text => review::Format::Text,
        Format::Markdown => review::Format::Markdown,
        Format::Json => review::Format::Json,
    };
    let (text, changed) = review::command(&args.base, rules_dir(rules), format, std::io::stdout().is_terminal())?;
    print_out(&text);
    Ok(changed && args.fail_on_change)
}
