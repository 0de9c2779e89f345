//! The turn order computed straight from a checked model, for rules that were
//! not compiled in (`--rules DIR`) and as the reference the generated code is
//! tested against.

use carcassonne_rules_compiler::model::{self, Cond, Item, Rules};

use crate::turn::{Config, Effect, Entry, PhaseOrder, Repeat, StepOrder, TurnOrder};

pub fn turn_order(rules: &Rules, cfg: &Config) -> TurnOrder {
    let holds = |c: &Cond| c.eval(cfg.edition, cfg.variant, cfg.modules);
    let entries = |items: &[Item]| entries(items, cfg);
    let mut modules: Vec<String> = rules
        .modules
        .iter()
        .enumerate()
        .filter(|(i, _)| cfg.modules & (1 << i) != 0)
        .map(|(_, m)| m.id.clone())
        .collect();
    modules.sort();
    TurnOrder {
        edition: rules.editions[cfg.edition].id.clone(),
        variant: rules.variants.get(cfg.variant).map_or_else(String::new, |v| v.id.clone()),
        modules,
        notes: entries(&rules.notes),
        setup: entries(&rules.setup),
        any_time: entries(&rules.any_time),
        phases: rules
            .phases
            .iter()
            .map(|phase| PhaseOrder {
                id: phase.id.clone(),
                title: phase.title.clone(),
                steps: phase
                    .steps
                    .iter()
                    .filter(|step| holds(&step.when))
                    .map(|step| StepOrder {
                        id: step.id.clone(),
                        title: step.title.clone(),
                        repeat: step.repeat.as_ref().filter(|(_, when)| holds(when)).map(|(kind, _)| match kind {
                            model::Repeat::DoubleTurn => Repeat::DoubleTurn,
                            model::Repeat::PerFeature => Repeat::PerFeature,
                        }),
                        choose_one: step.choose_one,
                        items: entries(&step.items),
                    })
                    .collect(),
            })
            .collect(),
        final_scoring: entries(&rules.final_scoring),
    }
}

fn entries(items: &[Item], cfg: &Config) -> Vec<Entry> {
    items
        .iter()
        .filter(|item| item.when.eval(cfg.edition, cfg.variant, cfg.modules))
        .map(|item| Entry {
            id: item.id.clone(),
            origin: item.origin.clone(),
            text: item.text.render(cfg.edition),
            markers: item
                .markers
                .iter()
                .filter(|m| m.when.eval(cfg.edition, cfg.variant, cfg.modules))
                .map(|m| m.label.clone())
                .collect(),
            foreign: item.foreign.contains(&cfg.edition),
            effect: item.effect.as_ref().map(|e| match e {
                model::Effect::Skip(steps) => Effect::Skip(steps.clone()),
                model::Effect::GoBack(step) => Effect::GoBack(step.clone()),
                model::Effect::DoubleTurn => Effect::DoubleTurn,
            }),
            children: entries(&item.children, cfg),
        })
        .collect()
}
