//! `wiki`: write the order of play as wiki source.

use std::path::{Path, PathBuf};

use clap::Args;

use super::bundled::Source;
use super::shared::{Outcome, print_out, write_error};
use crate::output;

#[derive(Args)]
pub struct WikiArgs {
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

pub fn run(rules: Option<&Path>, args: &WikiArgs) -> Outcome {
    let compiled = Source::of(rules).compile();
    let text = carcassonne_rules_wiki::export::export(&compiled.result?, &compiled.sources)?;
    output::finish_writing_on_signal();
    output::write_file(&args.out, &text).map_err(write_error)?;
    print_out(format!("wrote {}\n", args.out.display()));
    Ok(())
}
