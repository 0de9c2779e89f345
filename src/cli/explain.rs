//! `explain`: why an item shows or not for a selection.

use std::path::Path;

use carcassonne_rules_compiler::{Diagnostic, compile_dir, explain};
use clap::Args;

use super::shared::{Outcome, SelectionArgs, print_out, rules_dir};

#[derive(Args)]
pub struct ExplainArgs {
    /// The item's id.
    item: String,
    #[command(flatten)]
    selection: SelectionArgs,
}

pub fn run(rules: Option<&Path>, args: &ExplainArgs) -> Outcome {
    let compiled = compile_dir(rules_dir(rules));
    let rules = compiled.result?;
    let cfg = args.selection.config(&rules.catalog)?;
    let text = explain::explain(&rules, &compiled.sources, &args.item, &cfg)
        .map_err(|message| vec![Diagnostic::global(message)])?;
    print_out(&text);
    Ok(())
}
