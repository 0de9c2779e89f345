//! The turn order computed straight from a checked model: for rules that were
//! not compiled in (`--rules DIR`), and as the oracle the generated code is
//! tested against. It shares no code with the generated dispatch or the
//! runtime's resolver, so the two can check each other.

use std::borrow::Cow;

use carcassonne_rules_core::{Config, DoubleTurnBlock, Entry, Origin, PhaseOrder, StepOrder, TurnOrder, Visible};

use carcassonne_rules_compiler::model::{Item, Rules};

/// The turn order of `cfg` under `rules`, borrowing their strings.
pub fn turn_order<'r>(rules: &'r Rules, cfg: &Config) -> TurnOrder<'r> {
    let catalog = &rules.catalog;
    let entries = |items: &'r [Item]| entries(rules, items, cfg, Origin::Base);
    let name = |id: Option<&'r String>| Cow::Borrowed(id.map_or("", String::as_str));
    let phases: Vec<PhaseOrder<'r>> = rules
        .phases
        .iter()
        .map(|phase| PhaseOrder {
            id: Cow::Borrowed(&phase.id),
            title: Cow::Borrowed(&phase.title),
            steps: phase
                .steps
                .iter()
                .filter(|step| step.when.eval(&rules.flags, cfg))
                .map(|step| StepOrder {
                    step: step.number,
                    id: Cow::Borrowed(&step.id),
                    title: Cow::Borrowed(&step.title),
                    repeat: step.repeat.as_ref().filter(|(_, when)| when.eval(&rules.flags, cfg)).map(|(r, _)| *r),
                    choose_one: step.choose_one,
                    may_pass: step.may_pass,
                    items: entries(&step.items),
                })
                .collect(),
        })
        .collect();
    TurnOrder {
        double_turn: rules
            .double_turn
            .as_ref()
            .filter(|block| block.when.eval(&rules.flags, cfg))
            .map(|block| DoubleTurnBlock { first: block.first, last: block.last }),
        edition: name(catalog.editions.get(usize::from(cfg.edition.0)).map(|e| &e.id)),
        variant: name(catalog.variants.get(usize::from(cfg.variant.0)).map(|v| &v.id)),
        modules: cfg
            .modules
            .iter()
            .filter_map(|m| catalog.modules.get(usize::from(m.0)))
            .map(|m| name(Some(&m.id)))
            .collect(),
        sections: rules.sections.map(|_, items| entries(items)),
        phases,
        lang: None,
        words: None,
    }
}

fn entries<'r>(rules: &'r Rules, items: &'r [Item], cfg: &Config, parent: Origin) -> Vec<Entry<'r>> {
    items
        .iter()
        .filter(|item| item.when.eval(&rules.flags, cfg))
        .map(|item| {
            let origin = item.origin(&rules.flags, cfg).map_or(parent, Origin::Module);
            Entry {
                item: item.number,
                catalog: &rules.catalog,
                origin,
                text: Cow::Owned(item.text.render(cfg.edition)),
                markers: item
                    .markers
                    .iter()
                    .filter(|m| m.when.eval(&rules.flags, cfg))
                    .map(|m| Cow::Borrowed(m.label.as_str()))
                    .collect(),
                foreign: item.foreign.contains(&cfg.edition),
                effect: item.effect.as_ref(),
                flow: item.flow,
                none_of: &item.none_of,
                children: entries(rules, &item.children, cfg, origin),
                translation: None,
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
    for (_, section) in rules.sections.iter() {
        mark(rules, section, cfg, &mut out);
    }
    for step in rules.steps().filter(|step| step.when.eval(&rules.flags, cfg)) {
        out.step(step.number);
        if step.repeat.as_ref().is_some_and(|(_, when)| when.eval(&rules.flags, cfg)) {
            out.repeat(step.number);
        }
        mark(rules, &step.items, cfg, &mut out);
    }
    out.double_turn = rules.double_turn.as_ref().is_some_and(|block| block.when.eval(&rules.flags, cfg));
    out
}
