//! Rust names for the rules' ids: a constant per edition, variant, module,
//! step, item, marker and origin candidate, a function per derived flag and
//! per step, each unique in its module however the ids mangle.

use std::collections::HashSet;

use carcassonne_rules_core::tables::{MarkerId, OriginId, StepId};
use carcassonne_rules_core::{EditionId, ModuleId, Section};

use crate::escape::rust::{self, Case};
use carcassonne_rules_compiler::model::{Item, Rules, Step};

/// Rust names for the rules' ids, each unique in its module (see [`unique`]).
pub(super) struct Names {
    pub(super) editions: Vec<String>,
    pub(super) variants: Vec<String>,
    /// By module bit.
    pub(super) modules: Vec<String>,
    pub(super) flags: Vec<String>,
    /// By [`ItemId`].
    pub(super) items: Vec<String>,
    /// By [`StepId`]: the constant and the function that marks the step.
    pub(super) steps: Vec<(String, String)>,
    /// By [`MarkerId`]: the item's and the label's names.
    pub(super) markers: Vec<String>,
    /// By [`OriginId`]: the item's and the module's names.
    pub(super) origins: Vec<String>,
}

impl Names {
    pub(super) fn new(rules: &Rules) -> Self {
        let catalog = &rules.catalog;
        let items = rules.items();
        let module_name = |m: ModuleId| catalog.modules.get(usize::from(m.0)).map_or("", |m| m.id.as_str());
        let pair = |item: &str, what: &str| format!("{}_{}", constant(item, "I"), word(what));
        let markers = items.iter().flat_map(|i| i.markers.iter().map(|m| pair(&i.id, &m.label)));
        let origins = items.iter().flat_map(|i| i.origins.iter().map(|c| pair(&i.id, module_name(c.module))));
        let in_module = |module: &str, names: Vec<String>| -> Vec<String> {
            names.into_iter().map(|name| format!("{module}::{name}")).collect()
        };
        let steps: Vec<&Step> = rules.steps().collect();
        let step_consts = unique(steps.iter().map(|s| step_const(s)).collect(), &[]);
        // The dispatch functions beside the steps'.
        let sections: Vec<&str> =
            Section::BEFORE_STEPS.into_iter().chain(Section::AFTER_STEPS).map(|s| s.name()).collect();
        let fixed: Vec<&str> = sections.into_iter().chain(["visible", "catalog"]).collect();
        let step_fns = unique(steps.iter().map(|s| step_fn(s)).collect(), &fixed);
        let mut by_number = vec![String::new(); items.len()];
        let item_names = unique(items.iter().map(|i| constant(&i.id, "I")).collect(), &[]);
        for (item, name) in items.iter().zip(item_names) {
            if let Some(slot) = by_number.get_mut(usize::from(item.number.0)) {
                *slot = format!("item::{name}");
            }
        }
        Names {
            markers: in_module("marker", unique(markers.collect(), &[])),
            origins: in_module("origin", unique(origins.collect(), &[])),
            editions: in_module(
                "edition",
                unique(catalog.editions.iter().map(|e| constant(&e.id, "E")).collect(), &[]),
            ),
            variants: in_module(
                "variant",
                unique(catalog.variants.iter().map(|v| constant(&v.id, "V")).collect(), &[]),
            ),
            modules: in_module("module", unique(catalog.modules.iter().map(|m| constant(&m.id, "M")).collect(), &[])),
            flags: in_module("flag", unique(rules.flags.iter().map(|f| function(&f.id)).collect(), &[])),
            items: by_number,
            steps: step_consts.into_iter().map(|c| format!("step::{c}")).zip(step_fns).collect(),
        }
    }

    pub(super) fn edition(&self, e: EditionId) -> &str {
        &self.editions[usize::from(e.0)]
    }

    pub(super) fn module(&self, m: ModuleId) -> &str {
        &self.modules[usize::from(m.0)]
    }

    pub(super) fn marker(&self, m: MarkerId) -> &str {
        &self.markers[usize::from(m.0)]
    }

    pub(super) fn origin(&self, o: OriginId) -> &str {
        &self.origins[usize::from(o.0)]
    }

    pub(super) fn item(&self, item: &Item) -> &str {
        &self.items[usize::from(item.number.0)]
    }

    /// The step's constant.
    pub(super) fn step(&self, step: &Step) -> &str {
        self.step_const(step.number)
    }

    /// The constant of the step numbered `step`.
    pub(super) fn step_const(&self, step: StepId) -> &str {
        &self.steps[usize::from(step.0)].0
    }

    /// The function that marks the step and its items.
    pub(super) fn step_fn(&self, step: &Step) -> &str {
        &self.steps[usize::from(step.number.0)].1
    }

    pub(super) fn items(&self, items: &[Item]) -> Vec<String> {
        items.iter().map(|i| self.item(i).to_string()).collect()
    }
}

/// Names unique by construction, for ids whose `naturals` (the names made
/// of them, in order) may coincide — `20th` and `m_20th` both make
/// `M_20TH`, markers `X` and `X` on one item and `X_2` on it make `…_X_2`
/// twice. Each id keeps its natural name where no earlier id took it (or
/// `taken` has it); else it gets the natural name with the first suffix
/// `_2`, `_3`, … that is no id's natural name and not yet given, so no
/// name is given twice and ids that collide with none keep their names.
fn unique(naturals: Vec<String>, taken: &[&str]) -> Vec<String> {
    let reserved: HashSet<&str> = naturals.iter().map(String::as_str).chain(taken.iter().copied()).collect();
    let mut given: HashSet<String> = taken.iter().map(|t| t.to_string()).collect();
    let mut out = Vec::with_capacity(naturals.len());
    for name in &naturals {
        let name = if given.contains(name) {
            (2..)
                .map(|n| format!("{name}_{n}"))
                .find(|candidate| !reserved.contains(candidate.as_str()) && !given.contains(candidate))
                .unwrap_or_default()
        } else {
            name.clone()
        };
        given.insert(name.clone());
        out.push(name);
    }
    out
}

/// `MESSAGES (#1B)` → `MESSAGES_1B`: upper case, runs of other characters one `_`.
fn word(label: &str) -> String {
    let upper = label.to_uppercase();
    let parts: Vec<&str> = upper.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty()).collect();
    parts.join("_")
}

/// `abbey-and-mayor` → `ABBEY_AND_MAYOR`; a leading digit gets `prefix_`.
fn constant(id: &str, prefix: &str) -> String {
    rust::ident(id, prefix, Case::Upper)
}

/// A flag's function name: its id, or `f_` + its id where the id is not a
/// Rust identifier (`20th_anniversary_expansion_plus`, `type`).
fn function(id: &str) -> String {
    rust::ident(id, "f", Case::Keep)
}

/// A step's constant as its id makes it (`1A` → `S1A`), before [`unique`].
fn step_const(step: &Step) -> String {
    let name = constant(&step.id, "S");
    name.strip_prefix("S_").map_or_else(|| name.clone(), |rest| format!("S{rest}"))
}

fn step_fn(step: &Step) -> String {
    rust::ident(&format!("step_{}", step.id), "s", Case::Lower)
}
