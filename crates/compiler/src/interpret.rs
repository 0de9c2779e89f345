//! The turn order computed straight from a checked model: for rules that were
//! not compiled in (`--rules DIR`), and as the oracle the generated code is
//! tested against. It shares no code with the generated dispatch or the
//! runtime's resolver, so the two can check each other.

use carcassonne_rules_core::{Config, Entry, PhaseOrder, StepOrder, TurnOrder, Visible};

use crate::model::{Item, Rules};

/// The turn order of `cfg` under `rules`.
pub fn turn_order(rules: &Rules, cfg: &Config) -> TurnOrder {
    let catalog = &rules.catalog;
    let entries = |items: &[Item]| entries(rules, items, cfg, "base");
    TurnOrder {
        edition: catalog.editions.get(usize::from(cfg.edition.0)).map_or_else(String::new, |e| e.id.clone()),
        variant: catalog.variants.get(usize::from(cfg.variant.0)).map_or_else(String::new, |v| v.id.clone()),
        modules: catalog.module_ids(cfg.modules),
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
                    .filter(|step| step.when.eval(&rules.flags, cfg))
                    .map(|step| StepOrder {
                        id: step.id.clone(),
                        title: step.title.clone(),
                        repeat: step.repeat.as_ref().filter(|(_, when)| when.eval(&rules.flags, cfg)).map(|(r, _)| *r),
                        choose_one: step.choose_one,
                        items: entries(&step.items),
                    })
                    .collect(),
            })
            .collect(),
        final_scoring: entries(&rules.final_scoring),
    }
}

fn entries(rules: &Rules, items: &[Item], cfg: &Config, parent_origin: &str) -> Vec<Entry> {
    items
        .iter()
        .filter(|item| item.when.eval(&rules.flags, cfg))
        .map(|item| {
            let origin = item
                .origin(&rules.flags, cfg)
                .and_then(|m| rules.catalog.modules.get(usize::from(m.0)))
                .map_or(parent_origin, |m| m.id.as_str());
            Entry {
                id: item.id.clone(),
                origin: origin.to_string(),
                text: item.text.render(cfg.edition),
                markers: item
                    .markers
                    .iter()
                    .filter(|m| m.when.eval(&rules.flags, cfg))
                    .map(|m| m.label.clone())
                    .collect(),
                foreign: item.foreign.contains(&cfg.edition),
                effect: item.effect.clone(),
                children: entries(rules, &item.children, cfg, origin),
            }
        })
        .collect()
}

/// What `cfg` shows under `rules`, as the generated dispatch computes it.
/// Panics if the rules have more steps, items, markers or origin candidates
/// than the words hold.
pub fn visible<const S: usize, const I: usize, const M: usize, const O: usize>(
    rules: &Rules,
    cfg: &Config,
) -> Visible<S, I, M, O> {
    fn mark<const S: usize, const I: usize, const M: usize, const O: usize>(
        rules: &Rules,
        items: &[Item],
        cfg: &Config,
        out: &mut Visible<S, I, M, O>,
    ) {
        for item in items.iter().filter(|item| item.when.eval(&rules.flags, cfg)) {
            out.item(item.number);
            for marker in item.markers.iter().filter(|m| m.when.eval(&rules.flags, cfg)) {
                out.marker(marker.number);
            }
            for candidate in item.origins.iter().filter(|c| c.holds(&rules.flags, cfg)) {
                out.origin(candidate.number);
            }
            mark(rules, &item.children, cfg, out);
        }
    }
    let mut out = Visible::default();
    for (_, section) in rules.sections() {
        mark(rules, section, cfg, &mut out);
    }
    for step in rules.steps().filter(|step| step.when.eval(&rules.flags, cfg)) {
        out.step(step.number);
        if step.repeat.as_ref().is_some_and(|(_, when)| when.eval(&rules.flags, cfg)) {
            out.repeat(step.number);
        }
        mark(rules, &step.items, cfg, &mut out);
    }
    out
}
