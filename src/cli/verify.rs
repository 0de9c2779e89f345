//! `verify`: prove properties of the rules over every selection at once.

use std::path::Path;

use carcassonne_rules_tools::verify;
use clap::Args;

use super::bundled::Source;
use super::shared::{Outcome, print_out};

/// `verify` takes no options of its own.
#[derive(Args)]
pub struct VerifyArgs {}

pub fn run(rules: Option<&Path>, _: &VerifyArgs) -> Outcome {
    let source = Source::of(rules);
    let compiled = source.compile();
    let rules = compiled.result?;
    let started = std::time::Instant::now();
    // The run's budget, which `check` spent from: verify charges it too.
    let report = verify::verify_within(&rules, &compiled.sources, compiled.budget.clone());
    if !report.problems.is_empty() {
        return Err(report.problems);
    }
    print_out(format!(
        "{source}: {} properties hold for every selection (largest BDD {} nodes, {:.0?})\n",
        report.checks,
        report.largest_bdd,
        started.elapsed()
    ));
    Ok(())
}
