//! The engine's own rules resolve and play through the runtime: the fan
//! expansion's item is in the turn order when its module is selected, and the
//! driver plays a builder's double turn that carries it out in both parts.

use carcassonne_rules_engine_example::rules::{RULES, edition, item, module, step};
use carcassonne_rules_runtime::Rules;
use carcassonne_rules_runtime::core::{Entry, StepId};
use carcassonne_rules_runtime::driver::{Handler, play_turn};
use carcassonne_rules_runtime::trace::Event;
use carcassonne_rules_runtime::turn::Plan;

/// Extends the builder's feature, and records what it was asked.
#[derive(Default)]
struct Engine {
    performed: Vec<(StepId, &'static str)>,
}

impl Handler for Engine {
    fn perform(&mut self, step: StepId, entry: &Entry) -> bool {
        let name = match entry.item {
            item::WINDMILL_TURN_SAILS => "sails",
            item::BUILDER_DOUBLE_TURN => "builder",
            _ => "other",
        };
        self.performed.push((step, name));
        // The builder's road grew; the tile always fits.
        entry.item != item::PLACE_TILE_FITS_NOWHERE
    }

    fn completed_features(&mut self) -> usize {
        1
    }
}

#[test]
fn the_catalog_is_the_engines_own() {
    let catalog = RULES.catalog();
    let ids: Vec<&str> = catalog.modules.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["builder", "windmills"]);
    assert_eq!(catalog.editions.len(), 2);
    assert_eq!(catalog.module("windmills").map(|m| m.bit), Some(module::WINDMILLS));
}

#[test]
fn the_fan_expansion_shows_only_when_selected() {
    let with = RULES.turn_order(&RULES.config(edition::C2).with(module::WINDMILLS));
    let step_4a = with.steps().find(|s| s.step == step::S4A).expect("step 4A");
    let ids: Vec<&str> = step_4a.items.iter().map(|e| e.id()).collect();
    assert_eq!(ids, ["windmill-turn-sails"]);
    assert_eq!(with.modules, ["windmills"]);

    let without = RULES.turn_order(&RULES.config(edition::C2).with(module::BUILDER));
    assert!(without.steps().all(|s| s.items.iter().all(|e| e.item != item::WINDMILL_TURN_SAILS)));
}

#[test]
fn a_builders_double_turn_turns_the_sails_in_both_parts() {
    let cfg = RULES.config(edition::C2).with(module::BUILDER).with(module::WINDMILLS);
    let order = RULES.turn_order(&cfg);
    let mut engine = Engine::default();
    let trace = play_turn(&order, &mut engine).expect("a finished turn");
    let sails: Vec<StepId> = engine.performed.iter().filter(|(_, n)| *n == "sails").map(|(s, _)| *s).collect();
    assert_eq!(sails, [step::S4A, step::S4A], "once in each part of the double turn");
    let text = trace.text(&Plan::new(&order));
    assert_eq!(trace.0.iter().filter(|e| matches!(e, Event::Part { part: 2 })).count(), 1, "{text}");
    assert_eq!(trace.0.last(), Some(&Event::End));
}
