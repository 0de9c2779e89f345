//! The generated code against the interpreter over the checked model (the
//! oracle): the same catalog, and for every selection the same visible steps,
//! items and markers and the same resolved turn order.

use std::path::Path;

use carcassonne_rules_compiler::{compile_dir, diagnostics, model::Rules};

use carcassonne_rules_runtime::core::{Config, EditionId, ModuleSet, VariantId};
use carcassonne_rules_runtime::{catalog, internals, turn_order};
use carcassonne_rules_tools::interpret;

fn bundled_rules() -> Rules {
    match compile_dir(Path::new("../../rules")).result {
        Ok(rules) => rules,
        Err(problems) => panic!("{}", diagnostics::render(&problems, false)),
    }
}

/// The base game, every module alone, every pair of modules, everything, and
/// 300 random selections from a fixed seed.
fn selections(rules: &Rules) -> Vec<ModuleSet> {
    let modules: Vec<_> = rules.catalog.modules.iter().map(|m| m.bit).collect();
    let mut out = vec![ModuleSet::EMPTY, modules.iter().copied().collect()];
    for (i, &a) in modules.iter().enumerate() {
        out.push(ModuleSet::of(a));
        out.extend(modules[i + 1..].iter().map(|&b| ModuleSet::of(a).union(ModuleSet::of(b))));
    }
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..300 {
        out.push(modules.iter().copied().filter(|_| rng.u8(..8) == 0).collect());
    }
    out
}

#[test]
fn generated_code_and_interpreter_agree_on_every_pair_of_modules() {
    let rules = bundled_rules();
    assert_eq!(rules.catalog, *catalog(), "the generated catalog differs from the rules'");
    let selections = selections(&rules);
    assert!(selections.len() > 3000, "{}", selections.len());
    let mut compared = 0;
    for edition in 0..rules.catalog.editions.len() {
        for variant in 0..rules.catalog.variants.len() {
            for &modules in &selections {
                let cfg = Config { edition: EditionId(edition as u8), variant: VariantId(variant as u8), modules };
                let expected: internals::Visible = interpret::visible(&rules, &cfg);
                assert_eq!(internals::visible(&cfg), expected, "{cfg:?}");
                assert_eq!(turn_order(&cfg), interpret::turn_order(&rules, &cfg), "{cfg:?}");
                compared += 1;
            }
        }
    }
    println!("generated code and interpreter agree on {compared} selections");
}

#[test]
fn the_double_turn_block_is_1b_to_4a_exactly_where_the_builder_is() {
    let rules = bundled_rules();
    let builder = rules.catalog.modules.iter().find(|m| m.id == "builder").expect("the builder").bit;
    for &modules in &selections(&rules) {
        let cfg = Config { edition: EditionId(1), variant: VariantId(0), modules };
        let order = turn_order(&cfg);
        let block = order.double_turn.map(|b| {
            let id = |s| order.steps().find(|step| step.step == s).map(|step| step.id.to_string());
            (id(b.first), id(b.last))
        });
        let expected = cfg.has(builder).then(|| (Some("1B".to_string()), Some("4A".to_string())));
        assert_eq!(block, expected, "{cfg:?}");
    }
}
