//! Origins from truth: an item's origin is the first selected module, in its
//! condition's order, of a part of the condition that holds for the selection
//! (derived flags count as the modules they name; inside `not` nothing
//! counts), else its parent's, else the base game.
//!
//! The oracle here reads the model's conditions directly, by their own
//! recursion (a conjunction's modules count only where the whole conjunction
//! holds), not through the candidates and guards the compiler derives, over
//! every module alone, every pair and 300 random selections (editions
//! cycling).

use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;

use carcassonne_rules_compiler::compile_dir;
use carcassonne_rules_compiler::model::{Cond, Flag, Item, Rules};
use carcassonne_rules_runtime::core::{Config, EditionId, Entry, ModuleId, ModuleSet, Origin, TurnOrder, VariantId};
use carcassonne_rules_runtime::generated::module;
use carcassonne_rules_runtime::{catalog, turn_order};

static RULES: LazyLock<Rules> = LazyLock::new(|| match compile_dir(Path::new("../../rules")).result {
    Ok(rules) => rules,
    Err(_) => panic!("the bundled rules do not check"),
});

/// The selected modules of the parts of `cond` that hold, in the condition's
/// order: a module counts where it is selected, inside an `and` only where the
/// whole `and` holds, inside an `or` whatever its siblings do, inside a `not`
/// never.
fn credited(cond: &Cond, flags: &[Flag], cfg: &Config, out: &mut Vec<ModuleId>) {
    match cond {
        Cond::Module(m) if cfg.has(*m) => out.push(*m),
        Cond::Flag(f) => credited(&flags[*f].when, flags, cfg, out),
        Cond::Any(parts) => parts.iter().for_each(|p| credited(p, flags, cfg, out)),
        Cond::All(parts) if cond.eval(flags, cfg) => parts.iter().for_each(|p| credited(p, flags, cfg, out)),
        _ => {}
    }
}

/// The model's items by id.
fn items(rules: &Rules) -> HashMap<&str, &Item> {
    fn walk<'a>(items: &'a [Item], out: &mut HashMap<&'a str, &'a Item>) {
        for item in items {
            out.insert(&item.id, item);
            walk(&item.children, out);
        }
    }
    let mut out = HashMap::new();
    for (_, section) in rules.sections.iter() {
        walk(section, &mut out);
    }
    for step in rules.steps() {
        walk(&step.items, &mut out);
    }
    out
}

/// Checks every shown item of `order`; returns how many items were checked.
fn check(order: &TurnOrder, cfg: &Config) -> usize {
    fn walk(entries: &[Entry], parent: Origin, cfg: &Config, by_id: &HashMap<&str, &Item>, count: &mut usize) {
        let rules = &*RULES;
        for entry in entries {
            let item = by_id[entry.id()];
            assert_eq!(entry.item, item.number, "`{}` is handed out as the model numbers it", entry.id());
            let mut own = Vec::new();
            credited(&item.when, &rules.flags, cfg, &mut own);
            let expected = own.first().map_or(parent, |&m| Origin::Module(m));
            // Equality implies the property: no origin of the item's
            // own is a module named only in parts that are false.
            assert_eq!(entry.origin, expected, "origin of `{}` for {cfg:?}", entry.id());
            let name = match entry.origin {
                Origin::Module(m) => rules.catalog.modules[usize::from(m.0)].id.as_str(),
                Origin::Base => "base",
            };
            assert_eq!(entry.origin_id(), name);
            *count += 1;
            walk(&entry.children, entry.origin, cfg, by_id, count);
        }
    }
    let by_id = items(&RULES);
    let mut count = 0;
    for (_, list) in order.sections.iter() {
        walk(list, Origin::Base, cfg, &by_id, &mut count);
    }
    for step in order.steps() {
        walk(&step.items, Origin::Base, cfg, &by_id, &mut count);
    }
    count
}

/// `modules` in the `n`th edition (cycling), under its default variant.
fn config(n: usize, modules: ModuleSet) -> Config {
    let n = n % catalog().editions.len();
    Config { edition: EditionId(n as u8), variant: catalog().editions[n].default_variant, modules }
}

#[test]
fn every_module_alone_and_every_pair() {
    let modules: Vec<ModuleId> = catalog().modules.iter().map(|m| m.bit).collect();
    let mut checked = 0;
    for (i, &a) in modules.iter().enumerate() {
        let cfg = config(i, ModuleSet::of(a));
        checked += check(&turn_order(&cfg), &cfg);
        for (j, &b) in modules[i + 1..].iter().enumerate() {
            let cfg = config(i + j, ModuleSet::of(a).union(ModuleSet::of(b)));
            checked += check(&turn_order(&cfg), &cfg);
        }
    }
    assert!(checked > 10_000, "only {checked} items checked");
}

#[test]
fn random_selections() {
    let mut rng = fastrand::Rng::with_seed(14);
    let modules = catalog().modules.len();
    for _ in 0..300 {
        let set: ModuleSet = (0..rng.usize(1..=12)).map(|_| ModuleId(rng.usize(..modules) as u8)).collect();
        let cfg = Config { variant: VariantId(rng.u8(..catalog().variants.len() as u8)), ..config(rng.usize(..), set) };
        check(&turn_order(&cfg), &cfg);
    }
}

/// The README's first command: the draw shows because of the abbey's tiles,
/// not because of the builder, which the condition names in a false part.
#[test]
fn drawing_a_tile_if_nothing_else_is_the_abbeys_with_the_builder() {
    let cfg = catalog().config("C2", None, "builder,abbey_and_mayor").expect("valid selection");
    let order = turn_order(&cfg);
    let draw = order.steps().flat_map(|s| &s.items).find(|i| i.id() == "draw-tile-if-nothing-else");
    assert_eq!(draw.map(|d| (d.origin, d.origin_id())), Some((Origin::Module(module::ABBEY), "abbey")));
}
