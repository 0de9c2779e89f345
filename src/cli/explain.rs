//! `explain`: why an item shows or not for a selection.

use std::path::Path;

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
    // The run's budget, which `check` spent from: explain charges it too.
    let text = explain::explain_within(&rules, &compiled.sources, &args.item, &cfg, compiled.budget.clone())
        .map_err(|refused| vec![refused])?;
    print_out(&text);
    Ok(())
}
