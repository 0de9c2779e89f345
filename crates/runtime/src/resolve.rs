//! From what a selection shows (the generated dispatch's [`Visible`]) to the
//! [`TurnOrder`] that renderers print and the driver walks. Every string is
//! borrowed from the static tables and the catalog: nothing is copied.
//!
//! Resolving allocates each non-empty list of the turn order once, at its
//! size, and one stack of the visible ids it is walking; it looks at each
//! list's ids once, and not into items without children or markers
//! (`docs/performance.md` has the instruction counts).

use std::borrow::Cow;

use carcassonne_rules_core::tables::{ItemId, ItemInfo, PhaseInfo, Tables};
use carcassonne_rules_core::{Catalog, Config, Entry, Origin, PhaseOrder, Sections, StepOrder, TurnOrder, Visible};

/// Resolves `visible` against `tables`: texts in the selected edition, origins
/// from the candidates that hold, visible markers and children.
pub fn turn_order<'a, const S: usize, const I: usize, const M: usize, const O: usize>(
    tables: &'a Tables,
    catalog: &'a Catalog,
    visible: &Visible<S, I, M, O>,
    cfg: &Config,
) -> TurnOrder<'a> {
    // Every visible id is on the stack at most once at a time: it never grows.
    let shown = Vec::with_capacity(visible.items.len());
    let mut r = Resolver { tables, catalog, visible, cfg, shown };
    let base = Origin::Base;
    TurnOrder {
        double_turn: tables.double_turn.filter(|_| visible.double_turn),
        edition: catalog.editions.get(usize::from(cfg.edition.0)).map_or(Cow::Borrowed(""), |e| Cow::Borrowed(&e.id)),
        variant: catalog.variants.get(usize::from(cfg.variant.0)).map_or(Cow::Borrowed(""), |v| Cow::Borrowed(&v.id)),
        modules: r.modules(),
        sections: Sections::from_fn(|section| r.entries(tables.section(section), base)),
        phases: tables.phases.iter().map(|phase| r.phase(phase)).collect(),
        lang: None,
        words: None,
    }
}

struct Resolver<'a, 'v, const S: usize, const I: usize, const M: usize, const O: usize> {
    tables: &'a Tables,
    catalog: &'a Catalog,
    visible: &'v Visible<S, I, M, O>,
    cfg: &'v Config,
    /// The visible ids of the lists being resolved, innermost last.
    shown: Vec<ItemId>,
}

impl<'a, const S: usize, const I: usize, const M: usize, const O: usize> Resolver<'a, '_, S, I, M, O> {
    /// The selected modules' ids, sorted (modules are numbered in id order).
    fn modules(&self) -> Vec<Cow<'a, str>> {
        let mut ids = Vec::with_capacity(self.cfg.modules.len());
        let modules = self.cfg.modules.iter().filter_map(|m| self.catalog.modules.get(usize::from(m.0)));
        ids.extend(modules.map(|m| Cow::Borrowed(m.id.as_str())));
        ids
    }

    /// `phase` with the steps that exist for the selection.
    fn phase(&mut self, phase: &'a PhaseInfo) -> PhaseOrder<'a> {
        let (tables, visible) = (self.tables, self.visible);
        let exist = phase.steps.iter().copied().filter(|&s| visible.has_step(s));
        let mut steps = Vec::with_capacity(exist.clone().count());
        steps.extend(exist.filter_map(|s| Some((s, tables.steps.get(usize::from(s.0))?))).map(|(s, step)| StepOrder {
            step: s,
            id: Cow::Borrowed(step.id),
            title: Cow::Borrowed(step.title),
            repeat: step.repeat.filter(|_| visible.has_repeat(s)),
            choose_one: step.choose_one,
            may_pass: step.may_pass,
            items: self.entries(step.items, Origin::Base),
        }));
        PhaseOrder { id: Cow::Borrowed(phase.id), title: Cow::Borrowed(phase.title), steps }
    }

    /// The visible ones of `items`, with `parent`'s origin as theirs where
    /// none of their own candidates holds.
    fn entries(&mut self, items: &[ItemId], parent: Origin) -> Vec<Entry<'a>> {
        // One walk over the list: the ids that show go on a stack that every
        // level shares (a child's list goes above its parent's, and is gone
        // when the child is done), and the list is sized from them.
        let from = self.shown.len();
        let visible = self.visible;
        self.shown.extend(items.iter().copied().filter(|&i| visible.has_item(i)));
        let to = self.shown.len();
        let mut out = Vec::with_capacity(to - from);
        for at in from..to {
            let i = self.shown[at];
            if let Some(item) = self.tables.items.get(usize::from(i.0)) {
                out.push(self.entry(i, item, parent));
            }
        }
        self.shown.truncate(from);
        out
    }

    /// The visible item `i`, described by `item`, under a parent of `parent`'s origin.
    fn entry(&mut self, i: ItemId, item: &'a ItemInfo, parent: Origin) -> Entry<'a> {
        let (tables, visible) = (self.tables, self.visible);
        let own = item
            .origins
            .iter()
            .find(|&&o| visible.has_origin(o))
            .and_then(|o| tables.origins.get(usize::from(o.0)))
            .map(|&m| Origin::Module(m));
        let origin = own.unwrap_or(parent);
        Entry {
            item: i,
            catalog: self.catalog,
            origin,
            text: Cow::Borrowed(item.text.get(self.cfg.edition)),
            markers: self.markers(item),
            foreign: item.foreign.contains(&self.cfg.edition),
            effect: item.effect.as_ref(),
            flow: item.flow,
            none_of: item.none_of,
            // Most items have no children: no call, no walk.
            children: if item.children.is_empty() { Vec::new() } else { self.entries(item.children, origin) },
            translation: None,
        }
    }

    /// The visible markers of `item`, in order.
    fn markers(&self, item: &'a ItemInfo) -> Box<[Cow<'a, str>]> {
        // Most items have no marker: no need to look at what shows.
        if item.markers.is_empty() {
            return Box::default();
        }
        let labels = self.tables.markers;
        let shown = item.markers.iter().filter(|&&m| self.visible.has_marker(m));
        let mut out = Vec::with_capacity(shown.clone().count());
        out.extend(shown.filter_map(|m| labels.get(usize::from(m.0))).map(|&label| Cow::Borrowed(label)));
        out.into_boxed_slice()
    }
}
