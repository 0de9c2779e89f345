//! `check`: load and check all rules, print a summary or every problem.

use std::path::Path;

use clap::Args;

use super::shared::{Outcome, load, print_out, rules_dir};

/// `check` takes no options of its own.
#[derive(Args)]
pub struct CheckArgs {}

pub fn run(rules: Option<&Path>, _: &CheckArgs) -> Outcome {
    let dir = rules_dir(rules);
    let rules = load(dir)?;
    let steps = rules.steps().count();
    print_out(format!(
        "{}: {} editions, {} expansions, {} modules, {steps} steps, {} items: ok\n",
        dir.display(),
        rules.catalog.editions.len(),
        rules.catalog.expansions.len(),
        rules.catalog.modules.len(),
        rules.items().len(),
    ));
    Ok(())
}
