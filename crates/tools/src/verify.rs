//! Properties of the rules over every selection at once: each condition
//! becomes a binary decision diagram (BDD) over the modules, the edition and
//! the rule variant, so "no selection does X" is one emptiness test, not an
//! enumeration of 10^25 selections.
//!
//! What is checked, for every item in the context of its parent and its step:
//! it can be shown; its condition adds something to its parent's; each of its
//! markers, `foreign` editions and text alternatives can be seen; it has a
//! wording in every edition it shows in; a heading (a text ending in `:` with
//! sub-items) never shows without one of them. For every group of
//! alternatives (items with the same `one_of`), at most one shows. A step
//! with a condition of its own never shows empty. For every derived flag, it
//! is neither always true nor always false. Each failure is a
//! diagnostic at the culprit, with a selection as a ready-to-run command: one
//! that shows the fault, or, where the fault is that nothing can show, one
//! that shows the context without it.
//!
//! The proofs combine conditions that `check` decided one at a time (every
//! item of a step at once, alternatives two by two), so they work within
//! the run's budget ([`verify_within`]; [`Logic::new`]'s): past it, the culprit where the
//! work ran out gets a located "too complex to verify" diagnostic, and what
//! was not proved is not reported.

use biodivine_lib_bdd::Bdd;
use carcassonne_rules_compiler::codes::Code;
use carcassonne_rules_core::EditionId;

use carcassonne_rules_compiler::diagnostics::{Diagnostic, Sources, Span};
use carcassonne_rules_compiler::logic::{BUDGET, Budget, TooComplex};
pub use carcassonne_rules_compiler::logic::{Logic, Selection};
use carcassonne_rules_compiler::model::{Cond, Item, Rules, WordingPart};

/// What a run of [`verify`] found and how much it did.
pub struct Report {
    /// One diagnostic per failed property.
    pub problems: Vec<Diagnostic>,
    /// How many properties were proved or refuted.
    pub checks: usize,
    /// The largest BDD built for an item's visibility, in nodes.
    pub largest_bdd: usize,
}

/// Proves the properties listed in the module documentation for every
/// selection, reporting each failure at its YAML span with a counterexample.
pub fn verify(rules: &Rules, sources: &Sources) -> Report {
    verify_within(rules, sources, Budget::new(BUDGET))
}

/// [`verify`], charging `budget`: the run's, which `check` spent from.
pub fn verify_within(rules: &Rules, sources: &Sources, budget: Budget) -> Report {
    let logic = Logic::within(rules, budget);
    let mut run = Run {
        rules,
        logic: &logic,
        sources,
        problems: Vec::new(),
        checks: 0,
        largest: 0,
        groups: Vec::new(),
        exhausted: false,
    };
    let everything = logic.everything().clone();
    for (i, flag) in rules.flags.iter().enumerate() {
        let span = flag.span;
        let shows = run.bounded(span, |l| l.try_cond(&Cond::Flag(i)));
        run.check_possible(&shows, &everything, span, || format!("derived flag `{}` is never true", flag.id));
        let hidden = run.bounded(span, |l| l.and_not(&everything, &shows));
        run.check_possible(&hidden, &everything, span, || format!("derived flag `{}` is always true", flag.id));
    }
    for (_, items) in rules.sections.iter() {
        run.items(items, &everything, None);
    }
    // A step of every game with no visible item reads "There are no actions
    // in this step", as the wiki's 2B-2 (a `choose_one` step) does in the
    // base game. A step that exists only under a condition (2D: the dragon)
    // must have something to do wherever it shows.
    for step in rules.steps() {
        let shown = run.bounded(step.span, |l| l.try_cond(&step.when));
        let any = run.items(&step.items, &shown, None);
        if step.when != Cond::True {
            let empty = run.bounded(step.span, |l| l.and_not(&shown, &any));
            run.check_empty(
                &empty,
                step.span,
                || format!("step {} exists only under its condition, but can show with none of its items", step.id),
                "shown with nothing in it",
            );
        }
    }
    run.alternatives();
    Report { problems: run.problems, checks: run.checks, largest_bdd: run.largest }
}

struct Run<'a, 'r> {
    rules: &'a Rules,
    logic: &'a Logic<'r>,
    sources: &'a Sources,
    problems: Vec<Diagnostic>,
    checks: usize,
    largest: usize,
    /// Items with a `one_of`, in order: group, id, where they show, the span.
    groups: Vec<(String, String, Bdd, Span)>,
    /// The budget ran out (and was reported): nothing more is proved.
    exhausted: bool,
}

impl Run<'_, '_> {
    /// Checks `items` under `context` (the selections where their parent, or
    /// their step, shows); returns the selections where one of them shows.
    fn items(&mut self, items: &[Item], context: &Bdd, parent: Option<&Item>) -> Bdd {
        let mut any = self.logic.nothing();
        for item in items {
            let span = item.spans.when.unwrap_or(item.spans.id);
            let shows = self.bounded(span, |l| l.and(context, &l.try_cond(&item.when)?));
            self.largest = self.largest.max(shows.size());
            any = self.bounded(span, |l| l.or(&any, &shows));
            if let Some(group) = &item.one_of {
                self.groups.push((
                    group.clone(),
                    item.id.clone(),
                    shows.clone(),
                    item.spans.one_of.unwrap_or(item.spans.id),
                ));
            }
            self.item(item, context, &shows, parent);
        }
        any
    }

    /// No two items of a group of alternatives show together.
    fn alternatives(&mut self) {
        let groups = std::mem::take(&mut self.groups);
        for (i, (group, first, first_shows, _)) in groups.iter().enumerate() {
            for (other_group, second, second_shows, span) in &groups[i + 1..] {
                if other_group != group {
                    continue;
                }
                let both = self.bounded(*span, |l| l.and(first_shows, second_shows));
                self.check_empty(
                    &both,
                    *span,
                    || format!("`{first}` and `{second}`, alternatives of `{group}`, can show together"),
                    "an alternative that overlaps another",
                );
            }
        }
    }

    fn item(&mut self, item: &Item, context: &Bdd, shows: &Bdd, parent: Option<&Item>) {
        let spans = &item.spans;
        let id = &item.id;
        let at_when = spans.when.unwrap_or(spans.id);
        self.check_possible(shows, context, at_when, || format!("item `{id}` can never be shown"));
        // A top-level item's condition names the module it comes from, even
        // where its step already implies it (2D needs the dragon anyway).
        if item.when != Cond::True && parent.is_some() {
            let redundant = self.bounded(at_when, |l| l.and_not(context, shows));
            self.check_possible(&redundant, context, at_when, || {
                format!("the condition of `{id}` adds nothing to its parent's and its step's")
            });
        }
        for marker in &item.markers {
            let seen = self.bounded(marker.span, |l| l.and(shows, &l.try_cond(&marker.when)?));
            self.check_possible(&seen, shows, marker.span, || {
                format!("marker {} on `{id}` can never be seen", marker.label)
            });
        }
        for (e, span) in &spans.foreign {
            let seen = self.bounded(*span, |l| l.and(shows, &l.edition(*e)));
            let name = self.edition_name(*e);
            self.check_possible(&seen, shows, *span, || {
                format!("`{id}` is marked foreign in {name}, but never shows in {name}")
            });
        }
        for part in &item.text.0 {
            let WordingPart::ByEdition(alternatives) = part else { continue };
            let mut named = self.logic.nothing();
            for (editions, wording) in alternatives {
                let these = editions.iter().fold(self.logic.nothing(), |acc, &e| acc.or(&self.logic.edition(e)));
                named = named.or(&these);
                let seen = self.bounded(spans.text, |l| l.and(shows, &these));
                let names: Vec<String> = editions.iter().map(|&e| self.edition_name(e)).collect();
                self.check_possible(&seen, shows, spans.text, || {
                    format!("the wording \"{wording}\" of `{id}` ({}) is never shown", names.join(", "))
                });
            }
            let unworded = self.bounded(spans.text, |l| l.and_not(shows, &named));
            self.check_empty(
                &unworded,
                spans.text,
                || format!("`{id}` can show in an edition its text variants give no wording for"),
                "no alternative for this edition",
            );
        }
        let children = self.items(&item.children, shows, Some(item));
        if !item.children.is_empty() && item.text.render(EditionId(0)).trim_end().ends_with(':') {
            let bare = self.bounded(spans.id, |l| l.and_not(shows, &children));
            self.check_empty(
                &bare,
                spans.id,
                || format!("heading `{id}` can show without any of its sub-items"),
                "shown with nothing under it",
            );
        }
    }

    fn edition_name(&self, e: EditionId) -> String {
        self.rules.catalog.editions.get(usize::from(e.0)).map_or_else(|| "?".into(), |x| x.id.clone())
    }

    /// What `op` builds, or, past the budget, no selection, after saying
    /// so at `span` (once: the work that ran out there is the culprit).
    fn bounded(&mut self, span: Span, op: impl FnOnce(&Logic) -> Result<Bdd, TooComplex>) -> Bdd {
        if self.exhausted {
            return self.logic.nothing();
        }
        op(self.logic).unwrap_or_else(|_| {
            self.exhausted = true;
            let d = Diagnostic::at(
                Code::Unverifiable,
                self.sources,
                span,
                "this is too complex to verify",
                "verifying this with what comes before it takes more work than the rules may use",
            )
            .with_help(format!(
                "verify works within a budget of {BUDGET} steps for all the rules; conditions that each fit \
                 may still combine past it (every item of a step at once, alternatives two by two): name the \
                 modules they pair next to each other in earlier conditions, or split the step"
            ));
            self.problems.push(d);
            self.logic.nothing()
        })
    }

    /// Fails when `set` is empty: something that should be possible is not.
    /// The example is a selection from `around` (where it was expected), which
    /// shows the context without it.
    fn check_possible(&mut self, set: &Bdd, around: &Bdd, span: Span, message: impl FnOnce() -> String) {
        if self.exhausted {
            return;
        }
        self.checks += 1;
        if set.is_false() {
            let command = self.logic.witness(around).map(|w| self.logic.command(&w));
            self.report(Code::PropertyFails, span, message(), "no selection shows this", command);
        }
    }

    /// Fails when `set` is not empty: a selection in it is the counterexample.
    fn check_empty(&mut self, set: &Bdd, span: Span, message: impl FnOnce() -> String, label: &str) {
        if self.exhausted {
            return;
        }
        self.checks += 1;
        if set.is_false() {
            return;
        }
        let command = self.logic.witness(set).map(|w| self.logic.command(&w));
        self.report(Code::PropertyFails, span, message(), label, command);
    }

    fn report(&mut self, code: Code, span: Span, message: String, label: &str, counterexample: Option<String>) {
        let mut d = Diagnostic::at(code, self.sources, span, message, label);
        if let Some(command) = counterexample {
            d = d.with_help(format!("for example: {command}"));
        }
        self.problems.push(d);
    }
}
