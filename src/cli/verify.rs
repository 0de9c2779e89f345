//! `verify`: prove properties of the rules over every selection at once.

use std::path::Path;

use carcassonne_rules_compiler::{compile_dir, verify};
use clap::Args;

use super::shared::{Outcome, print_out, rules_dir};

/// `verify` takes no options of its own.
#[derive(Args)]
pub struct VerifyArgs {}

pub fn run(rules: Option<&Path>, _: &VerifyArgs) -> Outcome {
    let dir = rules_dir(rules);
    let compiled = compile_dir(dir);
    let rules = compiled.result?;
    let started = std::time::Instant::now();
    let report = verify::verify(&rules, &compiled.sources);
    if !report.problems.is_empty() {
        return Err(report.problems);
    }
    print_out(format!(
        "{}: {} properties hold for every selection (largest BDD {} nodes, {:.0?})\n",
        dir.display(),
        report.checks,
        report.largest_bdd,
        started.elapsed()
    ));
    Ok(())
}
