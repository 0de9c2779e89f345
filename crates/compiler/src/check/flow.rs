//! The flow of a turn: each item's role and choices, and the effects that
//! change the course of the turn, checked against the steps and the
//! double-turn block (rules/README.md, "The flow of a turn").
//!
//! What one item says about itself is checked as it is built ([`Checker::flow`]);
//! what an effect says about other steps, once every item is placed
//! ([`Checker::check_effects`]), with the BDDs: a step an effect names must
//! exist wherever the item shows.

use crate::codes::Code;
use biodivine_lib_bdd::Bdd;
use carcassonne_rules_core::{Actor, Effect, Flow, ItemRepeat, Role, StepId};

use crate::logic::Logic;
use crate::model::{DoubleTurn, Step};

use super::*;

/// A repeat of an item in the words of its diagnostics.
fn how(repeat: ItemRepeat) -> &'static str {
    match repeat {
        ItemRepeat::PerThing => "per thing",
        ItemRepeat::UntilDone => "until done",
    }
}

/// The roles as written, with what each is.
const ROLES: [(&str, Role); 4] =
    [("action", Role::Action), ("condition", Role::Condition), ("group", Role::Group), ("note", Role::Note)];

impl Checker<'_> {
    /// The item's flow from its `role`, `optional`, `choose_one` and `once`,
    /// reporting what does not fit the item or its section. `has_children`:
    /// the item has sub-items (from nesting or `under`).
    pub(super) fn flow(&mut self, raw: &RawItem, section: &str, has_children: bool) -> Flow {
        let role = match &raw.role {
            None => Role::Action,
            Some(written) => match ROLES.iter().find(|(name, _)| *name == written.value) {
                Some(&(_, role)) => role,
                None => {
                    let message = format!("unknown role `{}`", quoted(&written.value));
                    let roles = "an item is an `action` (the default), a `condition`, a `group` or a `note`";
                    let candidates = ROLES.iter().map(|(name, _)| *name);
                    self.report_unknown(
                        Code::UnknownRole,
                        (written.span, message, "not a role of an item"),
                        &written.value,
                        candidates,
                        Some(roles.into()),
                    );
                    Role::Action
                }
            },
        };
        let (optional, choose_one, once) = (set(&raw.optional), set(&raw.choose_one), set(&raw.once));
        let id = &raw.id.value;
        if let Some(c) = choose_one {
            if role == Role::Note {
                self.report(
                    Code::InvalidOption,
                    c.span,
                    format!("note `{id}` offers a choice"),
                    "nothing under a note is played",
                    Some("make the item a `group` or an `action` whose sub-items are the options".into()),
                );
            } else if !has_children {
                self.report(
                    Code::InvalidOption,
                    c.span,
                    format!("`{id}` chooses one of its sub-items, but has none"),
                    "`choose_one` needs sub-items to choose from",
                    Some("add the options as `children` (or with `under`), or remove `choose_one`".into()),
                );
            }
        }
        if let Some(o) = optional {
            let fits = role == Role::Action || (role != Role::Note && choose_one.is_some());
            if !fits {
                self.report(
                    Code::InvalidOption,
                    o.span,
                    format!("{} `{id}` cannot be optional", role_name(role)),
                    "only an action, or a choice, may be declined",
                    Some(match role {
                        Role::Condition => "a condition holds or not; the player may decline an action".into(),
                        _ => "a group or a note is never asked; mark the sub-items the player may decline".into(),
                    }),
                );
            }
        }
        if let Some(o) = once {
            if section != Section::AnyTime.name() {
                self.report(
                    Code::InvalidOption,
                    o.span,
                    format!("`{id}` is done only once, but it is in `{section}`"),
                    "`once` is for items of `any_time`",
                    Some("a step's items are done once per part of the turn anyway".into()),
                );
            } else if matches!(role, Role::Group | Role::Note) {
                self.report(
                    Code::InvalidOption,
                    o.span,
                    format!("{} `{id}` is never done, so not only once", role_name(role)),
                    "a group or a note is never asked",
                    Some("mark each sub-item the player may do only once".into()),
                );
            }
        }
        if let Some(effect) = &raw.effect {
            if matches!(role, Role::Group | Role::Note) {
                self.report(
                    Code::InvalidOption,
                    effect.span,
                    format!("{} `{id}` has an effect", role_name(role)),
                    "a group or a note is never carried out",
                    Some("put the effect on the action or condition it follows from".into()),
                );
            } else if Section::named(section).is_none() {
                // A step: the effects are checked with the other steps.
            } else {
                self.report(
                    Code::InvalidEffect,
                    effect.span,
                    format!("`{id}` changes the course of the turn from `{section}`"),
                    "an effect belongs to an item of a step",
                    Some(format!("items of `{section}` are not played step by step: move the item into a step")),
                );
            }
        }
        let otherwise = set(&raw.otherwise);
        if let Some(o) = otherwise.filter(|_| role == Role::Note) {
            self.report(
                Code::InvalidOption,
                o.span,
                format!("note `{id}` is what happens when its parent is not done"),
                "nothing under a note is played, nor the note",
                Some("make the item an `action`, a `condition` or a `group`".into()),
            );
        }
        let must = self.must(raw, role, section, (optional.is_some(), choose_one.is_some(), once.is_some()));
        let actor = self.actor(raw, role);
        let repeat = self.item_repeat(raw, role, section, (optional.is_some(), choose_one.is_some(), has_children));
        Flow {
            role,
            optional: optional.is_some(),
            choose_one: choose_one.is_some(),
            once: once.is_some(),
            otherwise: otherwise.is_some(),
            must,
            actor,
            repeat,
        }
    }

    /// The item's `repeat`: `per_thing` on an optional action of a step,
    /// which the player declines to stop; `until_done` on an item of a step
    /// with sub-items that is asked or a group, not a choice (its sub-items are
    /// played again while the player says so).
    fn item_repeat(
        &mut self,
        raw: &RawItem,
        role: Role,
        section: &str,
        (optional, choose_one, has_children): (bool, bool, bool),
    ) -> Option<ItemRepeat> {
        let written = raw.repeat.as_ref()?;
        let id = &raw.id.value;
        let Some(&(name, repeat)) = ItemRepeat::ALL.iter().find(|(name, _)| *name == written.value) else {
            let message = format!("unknown repeat `{}` of an item", quoted(&written.value));
            let help = format!(
                "an item repeats {} (a step `per_feature`)",
                ItemRepeat::NAMES.map(|n| format!("`{n}`")).join(" or ")
            );
            self.report_unknown(
                Code::InvalidValue,
                (written.span, message, "not a repeat of an item"),
                &written.value,
                ItemRepeat::NAMES,
                Some(help),
            );
            return None;
        };
        let problem = if Section::named(section).is_some() {
            Some((
                format!("`{id}` in `{section}` repeats {}", how(repeat)),
                "items outside the steps are not played step by step",
            ))
        } else {
            match repeat {
                ItemRepeat::PerThing if role != Role::Action => Some((
                    format!("{} `{id}` repeats per thing", role_name(role)),
                    "only an action is carried out again",
                )),
                ItemRepeat::PerThing if !optional => Some((
                    format!("`{id}` repeats per thing, but is not optional"),
                    "the player stops the repetition by declining it: make it `optional`",
                )),
                ItemRepeat::UntilDone if role == Role::Note => {
                    Some((format!("note `{id}` repeats until done"), "nothing under a note is played"))
                }
                ItemRepeat::UntilDone if !has_children => Some((
                    format!("`{id}` repeats its sub-items until done, but has none"),
                    "`until_done` plays the sub-items again: add them as `children` (or with `under`)",
                )),
                ItemRepeat::UntilDone if choose_one => Some((
                    format!("`{id}` is a choice that repeats until done"),
                    "a choice offered again is `repeat: per_thing` on an optional choice",
                )),
                _ => None,
            }
        };
        match problem {
            Some((message, help)) => {
                let label = format!("`repeat: {name}`");
                self.report(Code::InvalidOption, written.span, message, label, Some(help.into()));
                None
            }
            None => Some(repeat),
        }
    }

    /// The item's `must`, reporting where it cannot be one: an item
    /// `(optional, choose_one, once)`.
    fn must(
        &mut self,
        raw: &RawItem,
        role: Role,
        section: &str,
        (optional, choose_one, once): (bool, bool, bool),
    ) -> bool {
        let id = &raw.id.value;
        let must = set(&raw.must);
        let any_time = section == Section::AnyTime.name();
        if let Some(m) = must {
            // At any time a must is an obligation the turn does not end
            // without: an action done, or a condition that held (or not).
            let problem = if any_time && !once {
                Some((
                    format!("`{id}` is an obligation at any time, but not `once`"),
                    "the turn asks it at its end unless it was done",
                    "add `once: true`: an obligation at any time is met once a turn",
                ))
            } else if role != Role::Action && !(any_time && role == Role::Condition) {
                Some((
                    format!("{} `{id}` cannot be a must", role_name(role)),
                    "only an action is carried out",
                    match role {
                        Role::Condition => "a condition holds or not; make the obligation an action under it",
                        _ => "a group or a note is never asked; mark the sub-items that must be done",
                    },
                ))
            } else if optional {
                Some((
                    format!("`{id}` is both optional and a must"),
                    "a must cannot be declined",
                    "remove `optional` (\"you must\") or `must` (\"you may\")",
                ))
            } else if choose_one {
                Some((
                    format!("`{id}` is a choice, and a must already"),
                    "a choice without `optional` takes one option",
                    "remove `must`: one of the options must be taken anyway",
                ))
            } else {
                None
            };
            if let Some((message, label, help)) = problem {
                self.report(Code::InvalidOption, m.span, message, label, Some(help.into()));
            }
        }
        must.is_some()
    }

    /// Who carries the item out, reporting an unknown actor and one on a note.
    fn actor(&mut self, raw: &RawItem, role: Role) -> Actor {
        let id = &raw.id.value;
        let actor = match &raw.actor {
            None => Actor::Active,
            Some(written) => match Actor::ALL.iter().find(|(name, _)| *name == written.value) {
                Some(&(_, actor)) => actor,
                None => {
                    let message = format!("unknown actor `{}`", quoted(&written.value));
                    let actors =
                        "an actor is `active` (the default), `left`, `each`, `each_from_left`, `owner` or `scorers`";
                    self.report_unknown(
                        Code::InvalidValue,
                        (written.span, message, "not an actor"),
                        &written.value,
                        Actor::ALL.iter().map(|(name, _)| *name),
                        Some(actors.into()),
                    );
                    Actor::Active
                }
            },
        };
        if let Some(written) = raw.actor.as_ref().filter(|_| role == Role::Note) {
            self.report(
                Code::InvalidOption,
                written.span,
                format!("note `{id}` names who carries it out"),
                "a note is read, never carried out",
                Some("name the actor on the action or condition".into()),
            );
        }
        actor
    }

    /// No repeating item under another: the turn plays one repetition at a
    /// time, and the inner one's end would end the outer's.
    pub(super) fn check_repeat_inside(&mut self, id: &str, outer: ItemRepeat, children: &[Item]) {
        for child in children {
            if let Some(inner) = child.flow.repeat {
                self.report(
                    Code::InvalidOption,
                    child.spans.id,
                    format!("`{}` repeats {} inside `{id}`, which repeats {}", child.id, how(inner), how(outer)),
                    "a repetition inside a repetition",
                    Some(format!("repeat `{id}` alone (its sub-items are played in each of its rounds)")),
                );
            }
            self.check_repeat_inside(id, outer, &child.children);
        }
    }

    /// A must action has no `otherwise` branch: "not done" is what the
    /// branch is for, and a must is never declined.
    pub(super) fn check_must(&mut self, id: &str, must: Option<Span>, children: &[Item]) {
        let Some(span) = must else { return };
        if let Some(branch) = children.iter().find(|c| c.flow.otherwise) {
            let d = Diagnostic::at(
                Code::InvalidOption,
                self.sources,
                span,
                format!("`{id}` is a must, but has an `otherwise` branch, `{}`", branch.id),
                "a must is never declined",
            );
            let d = match branch.spans.otherwise {
                Some(at) => d.also(self.sources, at, "what happens when it is not done"),
                None => d,
            };
            self.problems.push(d.with_help(
                "an action with an `otherwise` branch may not be carried out (the tile has no legal spot): remove `must`",
            ));
        }
    }

    /// An `otherwise` item is a sub-item of an action that offers no choice,
    /// one per action: the branch the turn takes when the action was not done.
    pub(super) fn check_otherwise(&mut self, parent: Option<(&str, Flow)>, children: &[Item]) {
        for (at, child) in children.iter().enumerate() {
            let Some(span) = child.spans.otherwise else { continue };
            let id = &child.id;
            let problem = match parent {
                None => Some((format!("`{id}` is what happens when its parent is not done, but it has no parent"), "`otherwise` is for a sub-item of an action".to_string())),
                Some((parent, flow)) if flow.role != Role::Action || flow.choose_one => Some((
                    format!("`{id}` is what happens when `{parent}` is not done, but `{parent}` is not an action"),
                    "only an action that offers no choice is done or not: a condition's sub-items play when it holds, an option is taken or not".to_string(),
                )),
                Some((parent, _)) if children[..at].iter().any(|c| c.flow.otherwise) => Some((
                    format!("`{parent}` has a second `otherwise` sub-item, `{id}`"),
                    "an action is done or not: one sub-item says what happens when it is not (make it a `group` of several)".to_string(),
                )),
                Some(_) => None,
            };
            if let Some((message, help)) = problem {
                self.report(Code::InvalidOption, span, message, "`otherwise: true`", Some(help));
            }
        }
    }

    /// The block's first and last steps exist wherever it does: a double
    /// turn then always knows where its second part starts and ends.
    pub(super) fn check_double_turn_block(
        &mut self,
        phases: &[model::Phase],
        block: Option<&DoubleTurn>,
        logic: &Logic,
    ) {
        let Some(block) = block else { return };
        let when = logic.cond(&block.when);
        for (n, key) in [(block.first, "from"), (block.last, "to")] {
            let Some(step) = phases.iter().flat_map(|p| &p.steps).find(|s| s.number == n) else { continue };
            let missing = when.and(&logic.cond(&step.when).not());
            if !missing.is_false() {
                let d = Diagnostic::at(
                    Code::DoubleTurn,
                    self.sources,
                    block.when_span.unwrap_or(block.span),
                    format!(
                        "the double-turn block's `{key}` step `{}` does not exist in every game with double turns",
                        step.id
                    ),
                    "where this holds",
                )
                .also(
                    self.sources,
                    step.when_span.unwrap_or(step.span),
                    "the step exists only where this holds",
                );
                self.problems.push(
                    match example(
                        logic,
                        &missing,
                        "the block starts and ends at steps every such game has; for example, this game lacks it",
                    ) {
                        Some(help) => d.with_help(help),
                        None => d,
                    },
                );
            }
        }
    }

    /// Checks every effect of the steps' items against the steps it names and
    /// the double-turn block, wherever the item shows.
    pub(super) fn check_effects(&mut self, phases: &[model::Phase], block: Option<&DoubleTurn>, logic: &Logic) {
        let steps: Vec<&Step> = phases.iter().flat_map(|p| &p.steps).collect();
        // Where each item shows, built once: the BDD work is bounded per run.
        let places = places(&steps, logic);
        let mut effects = Vec::new();
        for step in &steps {
            collect(&step.items, step, &places, &mut effects);
        }
        let double_turns: Vec<&WithEffect> = effects.iter().filter(|e| e.effect == &Effect::DoubleTurn).collect();
        for e in &effects {
            match e.effect {
                &Effect::GoBack(target) => self.go_back(e, target, &steps, block, logic),
                Effect::Skip(targets) => {
                    for &target in targets.iter() {
                        self.skip(e, target, &steps, &double_turns, logic);
                    }
                }
                // A block that was written but refused is reported already.
                Effect::DoubleTurn if self.double_turn_refused => {}
                Effect::DoubleTurn => self.double_turn_effect(e, &steps, block, logic),
                Effect::NextFeature => self.next_feature(e, logic),
                &Effect::Forbid { turn, .. } => self.forbid(e, turn, &places, block),
            }
        }
        self.check_required_choices(&steps, &places, logic);
    }

    fn go_back(&mut self, e: &WithEffect, to: StepId, steps: &[&Step], block: Option<&DoubleTurn>, logic: &Logic) {
        let Some(to) = steps.iter().find(|s| s.number == to) else { return };
        let (id, here, target) = (&e.item.id, &e.step.id, &to.id);
        if to.number >= e.step.number {
            let what = if to.number == e.step.number { "its own step" } else { "a later step" };
            self.report(
                Code::InvalidEffect,
                e.span,
                format!("`{id}` goes back to `{target}`, {what}"),
                format!("`{id}` is in `{here}`"),
                Some(format!("`go back to` names a step before `{here}`; to pass over steps, write `skip {target}`")),
            );
            return;
        }
        let missing = e.shows.and(&logic.cond(&to.when).not());
        if !missing.is_false() {
            self.report(
                Code::InvalidEffect,
                e.span,
                format!("`{id}` goes back to `{target}`, which some games where it shows do not have"),
                format!("step `{target}` exists only where its `when` holds"),
                example(logic, &missing, &format!("for example, this game has `{id}` but no step `{target}`")),
            );
            return;
        }
        // From inside the double-turn block to a step before it: the second
        // part of a double turn would play steps it does not repeat.
        if let Some(block) = block.filter(|b| b.holds_step(e.step.number) && to.number < b.first) {
            let leaves = e.shows.and(&logic.cond(&block.when));
            if !leaves.is_false() {
                self.report(
                    Code::InvalidEffect,
                    e.span,
                    format!("`{id}` goes back to `{target}`, out of the double-turn block"),
                    format!("`{here}` is in the block, `{target}` before it"),
                    example(logic, &leaves, "go back to a step of the block; for example, this game has both"),
                );
            }
        }
    }

    fn skip(&mut self, e: &WithEffect, target: StepId, steps: &[&Step], double_turns: &[&WithEffect], logic: &Logic) {
        let Some(skipped) = steps.iter().find(|s| s.number == target) else { return };
        let (id, here, target) = (&e.item.id, &e.step.id, &skipped.id);
        if skipped.number <= e.step.number {
            let what = if skipped.number == e.step.number { "its own step" } else { "an earlier step" };
            self.report(
                Code::InvalidEffect,
                e.span,
                format!("`{id}` skips `{target}`, {what}"),
                format!("`{id}` is in `{here}`"),
                Some(format!("`skip` names steps after `{here}`; to play a step again, write `go back to {target}`")),
            );
            return;
        }
        // A double turn is earned in its step: skipping it loses the turn.
        for earned in double_turns.iter().filter(|d| d.step.number == skipped.number) {
            let both = e.shows.and(&earned.shows);
            if !both.is_false() {
                let help =
                    example(logic, &both, "skip only steps without a double turn; for example, this game has both");
                let mut d = Diagnostic::at(
                    Code::DoubleTurn,
                    self.sources,
                    e.span,
                    format!("`{id}` skips `{target}`, where a double turn is earned"),
                    "this skip",
                )
                .also(self.sources, earned.item.spans.id, "the double turn it would swallow");
                if let Some(help) = help {
                    d = d.with_help(help);
                }
                self.problems.push(d);
            }
        }
    }

    /// `forbid` names items that can still come in its scope, where both show:
    /// a later step, or later in its own step (and, for the turn, the
    /// double-turn block, which part 2 plays again).
    fn forbid(&mut self, e: &WithEffect, turn: bool, places: &HashMap<&str, Place>, block: Option<&DoubleTurn>) {
        let id = &e.item.id;
        let Some(&Place { position: here, .. }) = places.get(id.as_str()) else { return };
        for (name, span) in &e.item.spans.forbid {
            let Some(target) = places.get(name.as_str()) else {
                let message = format!("unknown item `{name}`");
                let candidates = places.keys().copied();
                self.report_unknown(
                    Code::UnknownItem,
                    (*span, message, "no item of a step has this id (forbid)"),
                    name,
                    candidates,
                    None,
                );
                continue;
            };
            let replayed = turn && block.is_some_and(|b| b.holds_step(target.step));
            let problem = if target.position <= here && !replayed {
                Some(format!("`{id}` forbids `{name}`, which comes before it"))
            } else if e.shows.and(&target.shows).is_false() && !self.failed.editions && !self.failed.modules {
                Some(format!("`{id}` forbids `{name}`, which never shows with it"))
            } else {
                None
            };
            if let Some(message) = problem {
                let help = if turn {
                    "name an item that comes later in the turn, or in the double-turn block"
                } else {
                    "name an item that comes later in this part of the turn (`for the turn` reaches the double-turn block)"
                };
                self.report(Code::InvalidEffect, *span, message, "nothing it could rule out", Some(help.into()));
            }
        }
    }

    /// A choice that must be made offers an option wherever it shows: a
    /// required `choose_one` item (not `optional`) or step (not `may_pass`)
    /// whose options can all be hidden would ask for what cannot be given.
    fn check_required_choices(&mut self, steps: &[&Step], places: &HashMap<&str, Place>, logic: &Logic) {
        // Conditions naming editions or modules that could not be read hold
        // nowhere: what they would hide is not known.
        if self.failed.editions || self.failed.modules {
            return;
        }
        for step in steps {
            if step.choose_one && !step.may_pass {
                let span = step.may_pass_span.unwrap_or(step.span);
                self.required_choice(&step.id, span, &step.items, &logic.cond(&step.when), places, logic);
            }
            self.required_choices_in(&step.items, places, logic);
        }
    }

    fn required_choices_in(&mut self, items: &[Item], places: &HashMap<&str, Place>, logic: &Logic) {
        for item in items {
            // (A choice without sub-items is reported as such.)
            let required = item.flow.choose_one && !item.flow.optional && item.flow.role != Role::Note;
            if let (true, false, Some(place)) = (required, item.children.is_empty(), places.get(item.id.as_str())) {
                self.required_choice(&item.id, item.spans.id, &item.children, &place.shows, places, logic);
            }
            self.required_choices_in(&item.children, places, logic);
        }
    }

    /// Reports `what` (an item or step at `span`) when, where it shows
    /// (`shows`), none of its options (the `options` that are not notes) may.
    fn required_choice(
        &mut self,
        what: &str,
        span: Span,
        options: &[Item],
        shows: &Bdd,
        places: &HashMap<&str, Place>,
        logic: &Logic,
    ) {
        let mut none = shows.clone();
        for option in options.iter().filter(|o| o.flow.role != Role::Note) {
            if let Some(place) = places.get(option.id.as_str()) {
                none = none.and(&place.shows.not());
            }
        }
        if !none.is_false() {
            self.report(
                Code::InvalidOption,
                span,
                format!("`{what}` must take one of its options, but some games where it shows offer none"),
                "a choice without `optional` (or a step without `may_pass`) takes one option",
                example(
                    logic,
                    &none,
                    "make it `optional` or give it an option for every game; for example, this game offers none",
                )
                .or_else(|| Some("make it `optional`, or give it an option for every game".into())),
            );
        }
    }

    /// `next feature` ends a round of a per-feature step: the step repeats
    /// per feature wherever the item shows.
    fn next_feature(&mut self, e: &WithEffect, logic: &Logic) {
        let (id, here) = (&e.item.id, &e.step.id);
        let per_feature = match &e.step.repeat {
            Some((carcassonne_rules_core::Repeat::PerFeature, when)) => logic.cond(when),
            _ => logic.cond(&crate::model::Cond::False),
        };
        let without = e.shows.and(&per_feature.not());
        if !without.is_false() {
            self.report(
                Code::InvalidEffect,
                e.span,
                format!("`{id}` goes on to the next feature, but `{here}` is not played per feature"),
                format!("`{here}` has no `repeat: per_feature` where the item shows"),
                example(logic, &without, "`next feature` is for a step played once per completed feature; for example, this game has the item")
                    .or_else(|| Some("`next feature` is for a step played once per completed feature (3B)".into())),
            );
        }
    }

    fn double_turn_effect(&mut self, e: &WithEffect, steps: &[&Step], block: Option<&DoubleTurn>, logic: &Logic) {
        let id = &e.item.id;
        let Some(block) = block else {
            self.report(
                Code::DoubleTurn,
                e.span,
                format!("`{id}` earns a double turn, but the rules have no double-turn block"),
                "no steps to play once more",
                Some("declare the block in base.yaml: `double_turn: { from: 1B, to: 4A, when: builder }`".into()),
            );
            return;
        };
        let step_id = |n: carcassonne_rules_core::StepId| steps.iter().find(|s| s.number == n).map_or("?", |s| &s.id);
        let (first, last) = (step_id(block.first), step_id(block.last));
        if e.step.number <= block.last {
            self.report(
                Code::DoubleTurn,
                e.span,
                format!("`{id}` earns a double turn in `{}`, not after the block", e.step.id),
                format!("the block is `{first}` to `{last}`"),
                Some(format!(
                    "a double turn is earned after the block's last step `{last}`, which it then plays again"
                )),
            );
            return;
        }
        let without = e.shows.and(&logic.cond(&block.when).not());
        if !without.is_false() {
            let d = Diagnostic::at(
                Code::DoubleTurn,
                self.sources,
                e.span,
                format!("`{id}` earns a double turn where the rules have none"),
                "the item shows where the block's `when` does not hold",
            )
            .also(self.sources, block.when_span.unwrap_or(block.span), "the block's condition");
            self.problems.push(
                match example(logic, &without, "for example, this game shows the item without the block") {
                    Some(help) => d.with_help(help),
                    None => d,
                },
            );
        }
    }
}

/// An item with an effect, with its step and where it shows.
struct WithEffect<'r> {
    item: &'r Item,
    step: &'r Step,
    effect: &'r Effect,
    /// The item's `effect:` in its file.
    span: Span,
    /// The selections where the item shows.
    shows: Bdd,
}

/// The items of `items` (and their descendants) that have an effect.
fn collect<'r>(items: &'r [Item], step: &'r Step, places: &HashMap<&str, Place>, out: &mut Vec<WithEffect<'r>>) {
    for item in items {
        if let (Some(effect), Some(span), Some(place)) = (&item.effect, item.spans.effect, places.get(item.id.as_str()))
        {
            out.push(WithEffect { item, step, effect, span, shows: place.shows.clone() });
        }
        collect(&item.children, step, places, out);
    }
}

/// Where an item of a step stands in the turn, and where it shows.
struct Place {
    step: StepId,
    /// (the step's place among the steps, the item's in its step in pre-order)
    position: (usize, usize),
    shows: Bdd,
}

/// Every item of the steps by id, with its place.
fn places<'r>(steps: &[&'r Step], logic: &Logic) -> HashMap<&'r str, Place> {
    fn walk<'r>(
        items: &'r [Item],
        s: usize,
        step: StepId,
        context: &Bdd,
        logic: &Logic,
        out: &mut HashMap<&'r str, Place>,
    ) {
        for item in items {
            let shows = context.and(&logic.cond(&item.when));
            let position = (s, out.len());
            out.insert(&item.id, Place { step, position, shows: shows.clone() });
            walk(&item.children, s, step, &shows, logic, out);
        }
    }
    let mut out = HashMap::new();
    for (s, step) in steps.iter().enumerate() {
        walk(&step.items, s, step.number, &logic.cond(&step.when), logic, &mut out);
    }
    out
}

/// A `true` flag as written.
fn set(key: &Option<Spanned<bool>>) -> Option<&Spanned<bool>> {
    key.as_ref().filter(|k| k.value)
}

/// `lead` and the command that shows a game of `set`.
fn example(logic: &Logic, set: &Bdd, lead: &str) -> Option<String> {
    logic.witness(set).map(|cfg| format!("{lead}: {}", logic.command(&cfg)))
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Action => "action",
        Role::Condition => "condition",
        Role::Group => "group",
        Role::Note => "note",
    }
}
