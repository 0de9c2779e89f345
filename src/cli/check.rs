//! `check`: load and check all rules, print a summary or every problem.

use std::path::Path;

use clap::Args;

use super::bundled::Source;
use super::shared::{Outcome, print_out};

/// `check` takes no options of its own.
#[derive(Args)]
pub struct CheckArgs {}

pub fn run(rules: Option<&Path>, _: &CheckArgs) -> Outcome {
    let source = Source::of(rules);
    let rules = source.compile().result?;
    let steps = rules.steps().count();
    print_out(format!(
        "{source}: {} editions, {} expansions, {} modules, {steps} steps, {} items: ok\n",
        rules.catalog.editions.len(),
        rules.catalog.expansions.len(),
        rules.catalog.modules.len(),
        rules.items().len(),
    ));
    Ok(())
}
