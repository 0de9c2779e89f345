//! What the command line looks like, for the tools that show commands to a
//! rule author (counterexamples, example selections) and for diagnostics on
//! the command line's selection options. Core knows no command line.

use carcassonne_rules_core::Config;
use carcassonne_rules_core::catalog::{Catalog, SelectionPart};

/// The option a part of the selection is given with.
pub const fn option(part: SelectionPart) -> &'static str {
    part.option()
}

pub use carcassonne_rules_core::catalog::MODULE_IDS_HELP;

/// The command line that prints `cfg`'s turn order.
pub fn order(catalog: &Catalog, cfg: &Config) -> String {
    let edition = catalog.editions.get(usize::from(cfg.edition.0));
    let mut command = format!("carcassonne-rules order --edition {}", edition.map_or("?", |e| e.id.as_str()));
    if edition.is_some_and(|e| e.default_variant != cfg.variant) {
        let variant = catalog.variants.get(usize::from(cfg.variant.0)).map_or("?", |v| v.id.as_str());
        command.push_str(&format!(" --variant {variant}"));
    }
    let modules = catalog.module_ids(cfg.modules);
    if !modules.is_empty() {
        command.push_str(&format!(" --with {}", modules.join(",")));
    }
    command
}

#[cfg(test)]
mod tests {
    use carcassonne_rules_core::{ModuleId, ModuleSet, VariantId};

    use super::*;

    #[test]
    fn the_variant_is_named_only_when_it_is_not_the_editions_own() {
        let catalog = Catalog::new(
            &[("C1", "1st", VariantId(0))],
            &[("hig", "HiG"), ("rgg", "RGG")],
            &[("abbey", "Abbey", true), ("mayor", "Mayor", true)],
            &[],
        );
        let modules: ModuleSet = [ModuleId(1), ModuleId(0)].into_iter().collect();
        let cfg = catalog.config("C1", None, "").expect("valid");
        assert_eq!(
            order(&catalog, &Config { modules, ..cfg }),
            "carcassonne-rules order --edition C1 --with abbey,mayor"
        );
        let rgg = Config { variant: VariantId(1), ..cfg };
        assert_eq!(order(&catalog, &rgg), "carcassonne-rules order --edition C1 --variant rgg");
    }
}
