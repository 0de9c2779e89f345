//! From what a selection shows (the generated dispatch's [`Visible`]) to the
//! owned [`TurnOrder`] that renderers print and the driver walks.

use carcassonne_rules_core::tables::{ItemId, Tables};
use carcassonne_rules_core::{Catalog, Config, Entry, PhaseOrder, StepOrder, TurnOrder, Visible};

/// Resolves `visible` against `tables`: texts in the selected edition, origins
/// among the selected modules, visible markers and children.
pub fn turn_order<const S: usize, const I: usize, const M: usize, const O: usize>(
    tables: &Tables,
    catalog: &Catalog,
    visible: &Visible<S, I, M, O>,
    cfg: &Config,
) -> TurnOrder {
    let entries = |items: &[ItemId]| entries(tables, catalog, visible, cfg, items, "base");
    TurnOrder {
        edition: catalog.editions.get(usize::from(cfg.edition.0)).map_or_else(String::new, |e| e.id.clone()),
        variant: catalog.variants.get(usize::from(cfg.variant.0)).map_or_else(String::new, |v| v.id.clone()),
        modules: catalog.module_ids(cfg.modules),
        notes: entries(tables.notes),
        setup: entries(tables.setup),
        any_time: entries(tables.any_time),
        phases: tables
            .phases
            .iter()
            .map(|phase| PhaseOrder {
                id: phase.id.to_string(),
                title: phase.title.to_string(),
                steps: phase
                    .steps
                    .iter()
                    .filter(|&&s| visible.has_step(s))
                    .filter_map(|&s| Some((s, tables.steps.get(usize::from(s.0))?)))
                    .map(|(s, step)| StepOrder {
                        id: step.id.to_string(),
                        title: step.title.to_string(),
                        repeat: step.repeat.filter(|_| visible.has_repeat(s)),
                        choose_one: step.choose_one,
                        items: entries(step.items),
                    })
                    .collect(),
            })
            .collect(),
        final_scoring: entries(tables.final_scoring),
    }
}

fn entries<const S: usize, const I: usize, const M: usize, const O: usize>(
    tables: &Tables,
    catalog: &Catalog,
    visible: &Visible<S, I, M, O>,
    cfg: &Config,
    items: &[ItemId],
    parent_origin: &str,
) -> Vec<Entry> {
    items
        .iter()
        .filter(|&&i| visible.has_item(i))
        .filter_map(|&i| tables.items.get(usize::from(i.0)))
        .map(|item| {
            let origin = item
                .origins
                .iter()
                .find(|&&o| visible.has_origin(o))
                .and_then(|o| tables.origins.get(usize::from(o.0)))
                .and_then(|m| catalog.modules.get(usize::from(m.0)))
                .map_or(parent_origin, |m| m.id.as_str());
            Entry {
                id: item.id.to_string(),
                origin: origin.to_string(),
                text: item.text.get(cfg.edition).to_string(),
                markers: item
                    .markers
                    .iter()
                    .filter(|&&m| visible.has_marker(m))
                    .filter_map(|m| tables.markers.get(usize::from(m.0)))
                    .map(|label| label.to_string())
                    .collect(),
                foreign: item.foreign.contains(&cfg.edition),
                effect: item.effect.clone(),
                children: entries(tables, catalog, visible, cfg, item.children, origin),
            }
        })
        .collect()
}
