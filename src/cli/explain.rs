//! `explain`: why an item shows or not for a selection.

use carcassonne_rules_compiler::codes::Code;
use std::path::Path;

use carcassonne_rules_compiler::Diagnostic;

use carcassonne_rules_tools::explain;
use clap::Args;

use super::bundled::Source;
use super::shared::{Outcome, SelectionArgs, print_out};

#[derive(Args)]
pub struct ExplainArgs {
    /// The item's id.
    item: String,
    #[command(flatten)]
    selection: SelectionArgs,
}

pub fn run(rules: Option<&Path>, args: &ExplainArgs) -> Outcome {
    let compiled = Source::of(rules).compile();
    let rules = compiled.result?;
    let cfg = args.selection.config(&rules.catalog)?;
    let text = explain::explain(&rules, &compiled.sources, &args.item, &cfg)
        .map_err(|message| vec![Diagnostic::global(Code::CommandLine, message)])?;
    print_out(&text);
    Ok(())
}
