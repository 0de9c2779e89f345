//! `modules`: list the expansions, their modules and editions.

use std::path::Path;

use carcassonne_rules_compiler::Diagnostic;
use carcassonne_rules_runtime::core::Catalog;
use carcassonne_rules_runtime::render;
use clap::Args;

use super::shared::{ListFormat, Outcome, json_error, load, print_out};

#[derive(Args)]
pub struct ModulesArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
}

pub fn run(rules: Option<&Path>, args: &ModulesArgs) -> Outcome {
    let text = match rules {
        None => list(carcassonne_rules_runtime::catalog(), args.format)?,
        Some(dir) => list(&load(dir)?.catalog, args.format)?,
    };
    print_out(&text);
    Ok(())
}

fn list(catalog: &Catalog, format: ListFormat) -> Result<String, Vec<Diagnostic>> {
    Ok(match format {
        ListFormat::Text => render::catalog_text(catalog),
        ListFormat::Json => render::catalog_json(catalog).map_err(json_error)? + "\n",
    })
}
