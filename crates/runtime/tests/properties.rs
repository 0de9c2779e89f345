//! Properties of the turn order over random selections (proptest): the
//! generated code agrees with the interpreter; adding a module never reorders
//! two items that both selections show; an item shows exactly where its
//! step's, its parents' and its own conditions hold.

use std::path::Path;
use std::sync::LazyLock;

use carcassonne_rules_compiler::compile_dir;
use carcassonne_rules_compiler::model::{Item, Rules};
use carcassonne_rules_runtime::core::{Config, EditionId, Entry, ModuleId, ModuleSet, Section, TurnOrder, VariantId};
use carcassonne_rules_runtime::{catalog, turn_order};
use carcassonne_rules_tools::interpret;
use proptest::prelude::*;

static RULES: LazyLock<Rules> = LazyLock::new(|| match compile_dir(Path::new("../../rules")).result {
    Ok(rules) => rules,
    Err(_) => panic!("the bundled rules do not check"),
});

/// Any edition, variant and set of modules.
fn selection() -> impl Strategy<Value = Config> {
    let catalog = catalog();
    let (editions, variants, modules) = (catalog.editions.len(), catalog.variants.len(), catalog.modules.len());
    (0..editions, 0..variants, proptest::collection::vec(0..modules, 0..12)).prop_map(|(e, v, ms)| Config {
        edition: EditionId(e as u8),
        variant: VariantId(v as u8),
        modules: ms.into_iter().map(|m| ModuleId(m as u8)).collect(),
    })
}

/// Every visible item's id, in turn order, pre-order.
fn ids(order: &TurnOrder) -> Vec<String> {
    fn walk(items: &[Entry], out: &mut Vec<String>) {
        for item in items {
            out.push(item.id().to_string());
            walk(&item.children, out);
        }
    }
    let mut out = Vec::new();
    for list in [order.section(Section::Notes), order.section(Section::Setup), order.section(Section::AnyTime)] {
        walk(list, &mut out);
    }
    for step in order.steps() {
        walk(&step.items, &mut out);
    }
    walk(order.section(Section::FinalScoring), &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_code_agrees_with_the_interpreter(cfg in selection()) {
        prop_assert_eq!(turn_order(&cfg), interpret::turn_order(&RULES, &cfg));
    }

    #[test]
    fn adding_a_module_never_reorders_what_both_show(cfg in selection(), extra in any::<u8>()) {
        let extra = ModuleId((usize::from(extra) % catalog().modules.len()) as u8);
        let before = ids(&turn_order(&cfg));
        let after = ids(&turn_order(&Config { modules: cfg.modules.union(ModuleSet::of(extra)), ..cfg }));
        let common_before: Vec<&String> = before.iter().filter(|id| after.contains(id)).collect();
        let common_after: Vec<&String> = after.iter().filter(|id| before.contains(id)).collect();
        prop_assert_eq!(common_before, common_after);
    }

    #[test]
    fn an_item_shows_exactly_where_its_conditions_hold(cfg in selection()) {
        let shown = ids(&turn_order(&cfg));
        let rules = &*RULES;
        fn walk(rules: &Rules, items: &[Item], context: bool, cfg: &Config, out: &mut Vec<(String, bool)>) {
            for item in items {
                let holds = context && item.when.eval(&rules.flags, cfg);
                out.push((item.id.clone(), holds));
                walk(rules, &item.children, holds, cfg, out);
            }
        }
        let mut expected = Vec::new();
        for (_, items) in rules.sections.iter() {
            walk(rules, items, true, &cfg, &mut expected);
        }
        for step in rules.steps() {
            walk(rules, &step.items, step.when.eval(&rules.flags, &cfg), &cfg, &mut expected);
        }
        for (id, holds) in expected {
            prop_assert_eq!(shown.contains(&id), holds, "{} under {:?}", id, cfg);
        }
    }
}
