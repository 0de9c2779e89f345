//! `modules`: list the expansions, their modules and editions.

use std::path::Path;

use carcassonne_rules_compiler::Diagnostic;
use carcassonne_rules_compiler::translation::Locale;
use carcassonne_rules_runtime::core::lang::Unit;
use carcassonne_rules_runtime::core::{Catalog, EditionId};
use carcassonne_rules_runtime::render;
use clap::Args;

use super::shared::{LangArgs, ListFormat, Outcome, json_error, load, print_out};

#[derive(Args)]
pub struct ModulesArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
    #[command(flatten)]
    lang: LangArgs,
}

pub fn run(rules: Option<&Path>, args: &ModulesArgs) -> Outcome {
    let locale = args.lang.locale(rules)?;
    let mut catalog = match rules {
        None => carcassonne_rules_runtime::catalog().clone(),
        Some(dir) => load(dir)?.catalog,
    };
    if let Some(locale) = &locale {
        translate(&mut catalog, locale);
    }
    print_out(&list(&catalog, args.format, locale.as_ref())?);
    Ok(())
}

/// The expansions' and modules' names in `locale`'s language, English where
/// it has none.
fn translate(catalog: &mut Catalog, locale: &Locale) {
    let name = |unit: Unit<'_>| locale.get(unit).map(|t| t.text.render(EditionId(0)));
    for expansion in &mut catalog.expansions {
        if let Some(text) = name(Unit::Expansion(&expansion.id)) {
            expansion.name = text;
        }
        for module in &mut expansion.modules {
            if let Some(text) = name(Unit::Module(&module.id)) {
                module.name = text;
            }
        }
    }
    for module in &mut catalog.modules {
        if let Some(text) = name(Unit::Module(&module.id)) {
            module.name = text;
        }
    }
}

fn list(catalog: &Catalog, format: ListFormat, locale: Option<&Locale>) -> Result<String, Vec<Diagnostic>> {
    Ok(match format {
        ListFormat::Text => render::catalog_text(catalog),
        ListFormat::Json => {
            let json = render::catalog_json(catalog).map_err(json_error)?;
            match locale {
                // As `order --lang` does: the language it is written in,
                // first, the catalog's keys in their order after it.
                Some(locale) => match json.strip_prefix("{\n") {
                    Some(rest) => {
                        let lang = serde_json::to_string(&locale.lang).map_err(json_error)?;
                        format!("{{\n  \"lang\": {lang},\n{rest}\n")
                    }
                    None => json + "\n",
                },
                None => json + "\n",
            }
        }
    })
}
