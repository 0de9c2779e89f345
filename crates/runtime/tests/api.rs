//! The API an engine uses: a selection built from the generated constants is
//! the one the command line's ids name, default variant included, and the
//! bundled rules are reachable through the `Rules` trait as through the
//! crate's functions.

use carcassonne_rules_runtime::generated::{RULES, edition, module, variant};
use carcassonne_rules_runtime::{Rules, catalog, config, turn_order};

#[test]
fn a_typed_selection_is_the_one_its_ids_name() {
    let cases = [
        (config(edition::C2).with(module::BUILDER), ("C2", "builder")),
        (config(edition::C1).with(module::DRAGON).with(module::PRINCESS), ("C1", "dragon,princess")),
        (config(edition::WE), ("WE", "")),
    ];
    for (typed, (edition, with)) in cases {
        assert_eq!(Some(typed), catalog().config(edition, None, with).ok(), "{edition} {with}");
    }
    // Each edition's own default variant, as `--variant` left out gives it.
    for (n, e) in catalog().editions.iter().enumerate() {
        let typed = RULES.config(carcassonne_rules_runtime::core::EditionId(n as u8));
        assert_eq!(typed.variant, e.default_variant, "{}", e.id);
    }
    let rgg = config(edition::C1).with_variant(variant::RGG);
    assert_eq!(Some(rgg), catalog().config("C1", Some("rgg"), "").ok());
}

#[test]
fn the_functions_are_the_bundled_rules_methods() {
    let cfg = config(edition::C2).with(module::ABBEY).with(module::MAYOR);
    assert_eq!(RULES.turn_order(&cfg), turn_order(&cfg));
    assert!(std::ptr::eq(RULES.catalog(), catalog()));
    let order = turn_order(&cfg);
    assert_eq!(order.modules, ["abbey", "mayor"]);
    assert_eq!(order.edition, "C2");
}
