//! One version of the rules walked in the shared space: every item with
//! where it shows, where its parent shows, its origin and its expansion, and
//! every step with where it exists and repeats.

use biodivine_lib_bdd::Bdd;
use carcassonne_rules_core::{NamedEffect, Repeat, Section};
use indexmap::IndexMap;

use super::Change;
use super::space::Vars;
use super::work::Side;
use carcassonne_rules_compiler::logic::Logic;
use carcassonne_rules_compiler::model::{Cond, Item, Rules, Span};

/// Where an item is: the step or section, or the item it is under.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Parent {
    Step(String),
    Item(String),
}

/// One item of one version, with where it shows.
pub(super) struct Node<'r> {
    pub(super) item: &'r Item,
    pub(super) parent: Parent,
    /// The step id or section name.
    pub(super) place: String,
    /// Its position in a walk of the version: for putting changes in turn order.
    pub(super) rank: usize,
    /// Where it shows.
    pub(super) shows: Bdd,
    /// Where its parent (or its step) shows.
    pub(super) context: Bdd,
    /// For each module id (`base` for the base game), where it is the item's origin.
    pub(super) origin: Vec<(String, Bdd)>,
    /// Its expansion, by its origin (else its parent's); `None` for the base game.
    pub(super) expansion: Option<String>,
    /// Its condition's span (else its id's): blamed if comparing it spends the budget.
    pub(super) span: Span,
}

/// A step of one version.
pub(super) struct StepNode {
    pub(super) rank: usize,
    pub(super) exists: Bdd,
    pub(super) repeat: Option<(Repeat, Bdd)>,
    pub(super) choose_one: bool,
    /// Its condition's span (else its own).
    pub(super) span: Span,
}

/// One version of the rules, walked: every item and step with its BDDs.
pub(super) struct Version<'r> {
    pub(super) rules: &'r Rules,
    pub(super) logic: Logic<'r>,
    pub(super) items: IndexMap<String, Node<'r>>,
    /// The ids under each parent, in order.
    pub(super) lists: IndexMap<Parent, Vec<String>>,
    pub(super) steps: IndexMap<String, StepNode>,
    /// Module ids by this version's module bit.
    pub(super) module_ids: Vec<String>,
    /// Which version it is.
    pub(super) side: Side,
}

impl<'r> Version<'r> {
    pub(super) fn walk(rules: &'r Rules, vars: &Vars, side: Side) -> Version<'r> {
        let budget = vars.work.budget();
        let logic = Logic::in_space(&rules.catalog, &rules.flags, vars.set.clone(), vars.space(rules), budget);
        if let Some(flag) = logic.too_complex_flag().and_then(|f| rules.flags.get(f)) {
            vars.work.at(side, flag.span);
            vars.work.refuse();
        }
        let module_ids = rules.catalog.modules.iter().map(|m| m.id.clone()).collect();
        let mut v = Version {
            rules,
            logic,
            items: IndexMap::new(),
            lists: IndexMap::new(),
            steps: IndexMap::new(),
            module_ids,
            side,
        };
        let everything = vars.within.clone();
        let base_origin = vec![("base".to_string(), everything.clone())];
        let outside = |v: &mut Self, section: Section| {
            let (name, items) = (section.name(), rules.section(section));
            v.list(vars, items, Parent::Step(name.to_string()), name, &everything, &base_origin, None);
        };
        for section in Section::BEFORE_STEPS {
            outside(&mut v, section);
        }
        for step in rules.steps() {
            vars.work.at(side, step.when_span.unwrap_or(step.span));
            let exists = v.cond(vars, &step.when);
            let repeat = step.repeat.as_ref().map(|(r, when)| {
                vars.work.at(side, step.repeat_span.unwrap_or(step.span));
                (*r, vars.work.and(&exists, &v.cond(vars, when)))
            });
            let rank = v.items.len() + v.steps.len();
            v.steps.insert(
                step.id.clone(),
                StepNode {
                    rank,
                    exists: exists.clone(),
                    repeat,
                    choose_one: step.choose_one,
                    span: step.when_span.unwrap_or(step.span),
                },
            );
            v.list(vars, &step.items, Parent::Step(step.id.clone()), &step.id, &exists, &base_origin, None);
        }
        for section in Section::AFTER_STEPS {
            outside(&mut v, section);
        }
        v
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn list(
        &mut self,
        vars: &Vars,
        items: &'r [Item],
        parent: Parent,
        place: &str,
        context: &Bdd,
        parent_origin: &[(String, Bdd)],
        parent_expansion: Option<&str>,
    ) {
        self.lists.insert(parent.clone(), items.iter().map(|i| i.id.clone()).collect());
        for item in items {
            let span = item.spans.when.unwrap_or(item.spans.id);
            vars.work.at(self.side, span);
            let shows = vars.work.and(context, &self.cond(vars, &item.when));
            let origin = self.origin(vars, item, parent_origin);
            let expansion = item
                .origins
                .first()
                .and_then(|c| self.module_ids.get(usize::from(c.module.0)))
                .and_then(|m| self.rules.catalog.expansions.iter().find(|x| x.modules.iter().any(|xm| xm.id == *m)))
                .map(|x| x.id.clone())
                .or_else(|| parent_expansion.map(str::to_string));
            let rank = self.items.len() + self.steps.len();
            let node = Node {
                item,
                parent: parent.clone(),
                place: place.to_string(),
                rank,
                shows: shows.clone(),
                context: context.clone(),
                origin: origin.clone(),
                expansion: expansion.clone(),
                span,
            };
            self.items.insert(item.id.clone(), node);
            self.list(
                vars,
                &item.children,
                Parent::Item(item.id.clone()),
                place,
                &shows,
                &origin,
                expansion.as_deref(),
            );
        }
    }

    /// Where each module is the item's origin: the module of the first of
    /// its own candidates that holds (the module selected and its guard
    /// true), else its parent's origin.
    pub(super) fn origin(&self, vars: &Vars, item: &Item, parent: &[(String, Bdd)]) -> Vec<(String, Bdd)> {
        let mut out: Vec<(String, Bdd)> = Vec::new();
        let mut add = |id: &String, here: Bdd| match out.iter_mut().find(|(m, _)| m == id) {
            Some((_, set)) => *set = vars.work.or(set, &here),
            None => out.push((id.clone(), here)),
        };
        let mut rest = vars.set.mk_true();
        for candidate in &item.origins {
            let Some(id) = self.module_ids.get(usize::from(candidate.module.0)) else { continue };
            let holds =
                vars.work.and(&self.cond(vars, &Cond::Module(candidate.module)), &self.cond(vars, &candidate.guard));
            add(id, vars.work.and(&rest, &holds));
            rest = vars.work.and_not(&rest, &holds);
        }
        for (id, there) in parent {
            add(id, vars.work.and(&rest, there));
        }
        out
    }

    /// The item's text in each edition of the space (`None` where this version lacks the edition).
    pub(super) fn texts(&self, vars: &Vars, item: &Item) -> Vec<Option<String>> {
        vars.edition_ids.iter().map(|id| self.rules.catalog.edition(id).map(|e| item.text.render(e))).collect()
    }

    /// The item's effect with its steps by name: two versions may number
    /// their steps differently.
    pub(super) fn effect<'i>(&'i self, item: &'i Item) -> Option<NamedEffect<'i>> {
        item.effect.as_ref().map(|e| e.named(&self.rules.catalog))
    }

    /// Whether the item is foreign in each edition of the space.
    pub(super) fn foreign(&self, vars: &Vars, item: &Item) -> Vec<bool> {
        vars.edition_ids
            .iter()
            .map(|id| self.rules.catalog.edition(id).is_some_and(|e| item.foreign.contains(&e)))
            .collect()
    }

    /// Where each of the item's marker labels shows, within `shows`.
    pub(super) fn markers(&self, vars: &Vars, node: &Node) -> Vec<(String, Bdd)> {
        let mut out: Vec<(String, Bdd)> = Vec::new();
        for m in &node.item.markers {
            vars.work.at(self.side, m.span);
            let seen = vars.work.and(&node.shows, &self.cond(vars, &m.when));
            match out.iter_mut().find(|(label, _)| *label == m.label) {
                Some((_, set)) => *set = vars.work.or(set, &seen),
                None => out.push((m.label.clone(), seen)),
            }
        }
        out
    }

    /// `cond`'s selections, within the run's budget.
    fn cond(&self, vars: &Vars, cond: &Cond) -> Bdd {
        vars.work.done(self.logic.try_cond(cond))
    }

    pub(super) fn rank(&self, c: &Change) -> Option<usize> {
        match &c.item {
            Some(id) => self.items.get(id).map(|n| n.rank),
            None => self.steps.get(&c.step).map(|s| s.rank),
        }
    }
}
