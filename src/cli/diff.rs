//! `diff`: the turn orders of two selections as a unified diff with item ids.

use std::io::IsTerminal;
use std::path::Path;

use carcassonne_rules_runtime::render;
use carcassonne_rules_tools::interpret;
use clap::Args;

use super::shared::{Outcome, SelectionArgs, load, print_out, selection};

#[derive(Args)]
pub struct DiffArgs {
    /// The first selection.
    #[command(flatten)]
    selection: SelectionArgs,
    /// The second selection's module and expansion ids.
    #[arg(long, value_name = "IDS")]
    against: String,
    /// The second selection's edition (else the first's).
    #[arg(long, value_name = "E")]
    against_edition: Option<String>,
    /// The second selection's rule variant (else its edition's default).
    #[arg(long, value_name = "ID")]
    against_variant: Option<String>,
}

pub fn run(rules: Option<&Path>, args: &DiffArgs) -> Outcome {
    let other_edition = args.against_edition.as_deref().unwrap_or(&args.selection.edition);
    let other_variant = args.against_variant.as_deref();
    let (a, b) = match rules {
        None => {
            let catalog = carcassonne_rules_runtime::catalog();
            let first = args.selection.config(catalog)?;
            let second = selection(catalog, other_edition, other_variant, &args.against)?;
            let text = |cfg| render::text_with_ids(&carcassonne_rules_runtime::turn_order(cfg));
            (text(&first), text(&second))
        }
        Some(dir) => {
            let rules = load(dir)?;
            let first = args.selection.config(&rules.catalog)?;
            let second = selection(&rules.catalog, other_edition, other_variant, &args.against)?;
            let text = |cfg| render::text_with_ids(&interpret::turn_order(&rules, cfg));
            (text(&first), text(&second))
        }
    };
    print_out(carcassonne_rules::diff::unified(&a, &b, std::io::stdout().is_terminal()));
    Ok(())
}
