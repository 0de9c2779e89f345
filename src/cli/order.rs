//! `order`: print the turn order for a selection, from the rules compiled
//! into the binary or, with `--rules`, from that folder.

use std::path::Path;

use carcassonne_rules_compiler::Diagnostic;

use carcassonne_rules_runtime::core::TurnOrder;
use carcassonne_rules_runtime::render;
use carcassonne_rules_tools::interpret;
use clap::Args;

use super::shared::{Format, LangArgs, Outcome, SelectionArgs, json_error, load, print_out};

#[derive(Args)]
pub struct OrderArgs {
    #[command(flatten)]
    selection: SelectionArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    lang: LangArgs,
}

pub fn run(rules: Option<&Path>, args: &OrderArgs) -> Outcome {
    let locale = args.lang.locale(rules)?;
    let translated = |mut order: TurnOrder, catalog| {
        if let Some(locale) = &locale {
            locale.translate(&mut order, catalog);
        }
        render_order(&order, args.format)
    };
    let text = match rules {
        None => {
            let catalog = carcassonne_rules_runtime::catalog();
            let cfg = args.selection.config(catalog)?;
            translated(carcassonne_rules_runtime::turn_order(&cfg), catalog)?
        }
        Some(dir) => {
            let rules = load(dir)?;
            let cfg = args.selection.config(&rules.catalog)?;
            translated(interpret::turn_order(&rules, &cfg), &rules.catalog)?
        }
    };
    print_out(&text);
    Ok(())
}

fn render_order(order: &TurnOrder, format: Format) -> Result<String, Vec<Diagnostic>> {
    Ok(match format {
        Format::Text => render::text(order),
        Format::Markdown => render::markdown(order),
        Format::Json => render::json(order).map_err(json_error)? + "\n",
    })
}
