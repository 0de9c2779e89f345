//! The checked, ordered rules: what `codegen` and the interpreter consume.
//!
//! Names are bound to ids, items are in their final order and numbered,
//! and every condition is known to be satisfiable. Derived flags stay named
//! ([`Cond::Flag`]), so the generated code can call them by name and an item's
//! origin can be read off the author's own condition.

use std::collections::BTreeMap;

use carcassonne_rules_core::tables::{Flow, ItemId, MarkerId, OriginId, StepId};
use carcassonne_rules_core::{Catalog, Config, EditionId, Effect, ModuleId, Repeat, Section, Sections, VariantId};

pub use crate::diagnostics::Span;

/// How many levels items nest (an item at the top of its step is level 1):
/// the same bound in every build, far below where any walk over the items
/// could run out of stack. The bundled rules use three.
pub const MAX_DEPTH: usize = 32;

/// Index into [`Rules::flags`].
pub type FlagIx = usize;

/// A checked rule set.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    /// Editions, variants, expansions and modules.
    pub catalog: Catalog,
    /// Derived flags, in definition order.
    pub flags: Vec<Flag>,
    /// The four phases and their steps.
    pub phases: Vec<Phase>,
    /// The steps a double turn plays a second time, if the rules have double turns.
    pub double_turn: Option<DoubleTurn>,
    /// The items of the sections outside the steps (notes, setup, any
    /// time, final scoring).
    pub sections: Sections<Vec<Item>>,
    /// The rules files read, relative to the rules folder, in reading
    /// order: the file id of `inputs[n]` is `FileId(n)` (the translation
    /// files, read after, have the ids after them).
    pub inputs: Vec<String>,
    /// Where each name of the registry and of `editions.yaml` is defined.
    pub defined: Defined,
    /// The markers items may carry, as `base.yaml` declares them.
    pub markers: Vec<MarkerInfo>,
}

/// A marker the rules declare.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerInfo {
    /// As items write it (`ROBBER_CHOICE`).
    pub id: String,
    /// As it is shown (`ROBBER CHOICE`): its English label.
    pub label: String,
    /// What it tells the player.
    pub meaning: String,
    /// Its `id:` in `base.yaml`.
    pub span: Span,
}

impl MarkerInfo {
    /// The label of the marker `id` (`ROBBER_CHOICE` → `ROBBER CHOICE`).
    pub fn label_of(id: &str) -> String {
        id.replace('_', " ")
    }
}

/// The id of each module, expansion, derived flag, edition and rule variant
/// where it is written, for an editor's "go to definition".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Defined {
    /// Modules, expansions and derived flags, which share one namespace.
    pub names: BTreeMap<String, Span>,
    /// Editions, in `editions.yaml`.
    pub editions: BTreeMap<String, Span>,
    /// Rule variants, in `editions.yaml`.
    pub variants: BTreeMap<String, Span>,
}

impl Defined {
    /// Where `name` is defined, whatever it names.
    pub fn get(&self, name: &str) -> Option<Span> {
        [&self.names, &self.editions, &self.variants].into_iter().find_map(|of| of.get(name)).copied()
    }
}

/// A derived flag: a named condition (`tiles_in_supply := abbey or halflings`).
#[derive(Debug, Clone, PartialEq)]
pub struct Flag {
    /// snake_case name.
    pub id: String,
    /// What it stands for.
    pub when: Cond,
    /// Its definition in `modules.yaml`.
    pub span: Span,
    /// Its name in `modules.yaml`.
    pub name_span: Span,
}

/// The double-turn block of `base.yaml`: the steps `first` to `last`
/// (inclusive, in turn order) that a double turn plays once more, in the
/// selections where `when` holds. Every step of the block without a repeat
/// of its own shows the repeat `double_turn` there.
#[derive(Debug, Clone, PartialEq)]
pub struct DoubleTurn {
    /// The block's first step.
    pub first: StepId,
    /// The block's last step.
    pub last: StepId,
    /// Where the selection has double turns.
    pub when: Cond,
    /// Its `from:` in `base.yaml`.
    pub span: Span,
    /// Its `when:` in `base.yaml`, if written.
    pub when_span: Option<Span>,
}

impl DoubleTurn {
    /// Whether `step` is one of the block's.
    pub fn holds_step(&self, step: StepId) -> bool {
        (self.first..=self.last).contains(&step)
    }
}

/// A phase and its steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Phase {
    /// `1` to `4`.
    pub id: String,
    /// What the phase is about.
    pub title: String,
    /// Its steps, in order.
    pub steps: Vec<Step>,
}

/// A step and its items.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// `1A` … `4B`.
    pub id: String,
    /// Its position among all steps.
    pub number: StepId,
    /// What the step is about.
    pub title: String,
    /// The step exists only where this holds (2D needs the dragon).
    pub when: Cond,
    /// How the step repeats, and where: its own `repeat:` (3B, per
    /// feature), else the double-turn block's where the step is one of it.
    pub repeat: Option<(Repeat, Cond)>,
    /// The player does exactly one of the items (2B-1: deploy one figure).
    pub choose_one: bool,
    /// With `choose_one`: the player may also take none of the items.
    pub may_pass: bool,
    /// Top-level items, in order.
    pub items: Vec<Item>,
    /// Its id in `base.yaml`.
    pub span: Span,
    /// Its `when:` in `base.yaml`, if written.
    pub when_span: Option<Span>,
    /// Its `repeat:` in `base.yaml`, if written (not for a repeat that
    /// comes from the double-turn block).
    pub repeat_span: Option<Span>,
    /// Its `may_pass:` in `base.yaml`, if written.
    pub may_pass_span: Option<Span>,
}

/// One item of a step or section.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Unique among the rules' items.
    pub id: String,
    /// Its position in a pre-order walk of all sections' items.
    pub number: ItemId,
    /// The candidates for the item's origin, in the condition's order: the
    /// origin is the module of the first that holds ([`Item::origin`]), else
    /// the parent's origin, else the base game.
    pub origins: Vec<Candidate>,
    /// The item's own condition; it is shown when this and its parent's hold.
    pub when: Cond,
    /// Its text, with edition variants.
    pub text: Wording,
    /// Markers, each with its own condition.
    pub markers: Vec<Marker>,
    /// Editions in which the item (or its parent) comes from another edition.
    pub foreign: Vec<EditionId>,
    /// What carrying the item out does to the turn.
    pub effect: Option<Effect>,
    /// How the item takes part when a turn is played.
    pub flow: Flow,
    /// "If you did none of the above": the earlier items of its step that
    /// leave it out of a pass of the step once done (numbered by `check`).
    pub none_of: Vec<ItemId>,
    /// The group of alternatives the item belongs to: at most one item of a
    /// group shows in any selection (`verify` proves it).
    pub one_of: Option<String>,
    /// Sub-items, in order.
    pub children: Vec<Item>,
    /// Where its parts were written.
    pub spans: ItemSpans,
    /// Where `check` placed it, and why.
    pub placed: Placed,
}

/// Where the parts of an item were written.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemSpans {
    /// The id.
    pub id: Span,
    /// The condition, if it has one.
    pub when: Option<Span>,
    /// The text.
    pub text: Span,
    /// Each edition its own `foreign` names, in the order written (the
    /// parent's are the parent's).
    pub foreign: Vec<(EditionId, Span)>,
    /// Its group of alternatives, if it names one.
    pub one_of: Option<Span>,
    /// Its effect, if it has one.
    pub effect: Option<Span>,
    /// Its `otherwise: true`, if it is one.
    pub otherwise: Option<Span>,
    /// Its `must: true`, if it is one.
    pub must: Option<Span>,
    /// Its own `actor:`, if it names one (else it has its parent's).
    pub actor: Option<Span>,
    /// Each id its `none_of` names, as written.
    pub none_of: Vec<(String, Span)>,
    /// Each id its effect `forbid …` names, as written.
    pub forbid: Vec<(String, Span)>,
}

/// How `check` placed an item in its list, with the references that did it.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The item it was moved under by `under`, and that `under`; `None` when
    /// it stays where it was written (nested under its parent in its file, or
    /// at the top of its step or section).
    pub under: Option<(String, Span)>,
    /// Where in its list it goes.
    pub anchor: Anchored,
}

/// Where an item goes in its list (the children of its parent, or the top
/// level of its step or section).
#[derive(Debug, Clone, PartialEq)]
pub enum Anchored {
    /// Right after the sibling `after:` names (before the items that merely
    /// follow that sibling).
    After(String, Span),
    /// Right before the sibling `before:` names.
    Before(String, Span),
    /// After the item written above it in its file (its id's span), which
    /// is in the same list.
    Above(String, Span),
    /// At the end of its list, among the other items placed so in file order
    /// (the base game's first).
    End(WhyEnd),
}

/// Why an item without `after` or `before` goes at the end of its list.
#[derive(Debug, Clone, PartialEq)]
pub enum WhyEnd {
    /// It is the first of its list in its file.
    FirstInFile,
    /// The item written above it (its id and span) ended up in another list:
    /// under the item named, or at the top level (`None`).
    AboveElsewhere {
        /// The item above it in its file.
        id: String,
        /// That item's id in the file.
        span: Span,
        /// Where that item went: under this item, or the top level.
        parent: Option<String>,
    },
}

impl Item {
    /// The item's own origin for `cfg`: the first selected module, in the
    /// condition's order, of a part of the condition that holds; `None` leaves
    /// it to the parent.
    pub fn origin(&self, flags: &[Flag], cfg: &Config) -> Option<ModuleId> {
        self.origins.iter().find(|c| c.holds(flags, cfg)).map(|c| c.module)
    }
}

/// A module that a condition names outside a `not` (derived flags expanded),
/// with what the rest of the condition asks for the part that names it to
/// hold: on the way from the root, every `and`'s other parts (an `or` holds
/// when one part does).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Its position among all items' candidates, in item order.
    pub number: OriginId,
    /// The module.
    pub module: ModuleId,
    /// The other parts that must hold with it.
    pub guard: Cond,
}

impl Candidate {
    /// Whether the module is selected and its part of the condition holds.
    pub fn holds(&self, flags: &[Flag], cfg: &Config) -> bool {
        cfg.has(self.module) && self.guard.eval(flags, cfg)
    }
}

/// What [`Cond::origins`] has found so far: the candidates in order, the
/// same as a set (a list's search for copies was quadratic in them), and the
/// flags walked, each with the parts beside it.
#[derive(Default)]
struct OriginWalk {
    out: Vec<Candidate>,
    seen: std::collections::HashSet<(ModuleId, Cond)>,
    walked: std::collections::HashSet<(FlagIx, Vec<Cond>)>,
}

/// A condition on the selection.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Always.
    True,
    /// Never.
    False,
    /// The module is selected.
    Module(ModuleId),
    /// The derived flag holds.
    Flag(FlagIx),
    /// The edition is played.
    Edition(EditionId),
    /// The rule variant is in force.
    Variant(VariantId),
    /// The condition does not hold.
    Not(Box<Cond>),
    /// Every condition holds.
    All(Vec<Cond>),
    /// Some condition holds.
    Any(Vec<Cond>),
}

impl Cond {
    /// Whether the condition holds for `cfg`; `flags` gives derived flags their meaning.
    /// Each flag is evaluated once however often it is named (a flag named
    /// 300,000 times, or one naming another twice at every level, would
    /// otherwise be evaluated at every mention).
    pub fn eval(&self, flags: &[Flag], cfg: &Config) -> bool {
        self.eval_once(flags, cfg, &mut Vec::new())
    }

    /// `values`: each flag's value once known, by index (made on the first flag met).
    fn eval_once(&self, flags: &[Flag], cfg: &Config, values: &mut Vec<Option<bool>>) -> bool {
        match self {
            Cond::True => true,
            Cond::False => false,
            Cond::Module(m) => cfg.has(*m),
            Cond::Flag(f) => {
                let Some(flag) = flags.get(*f) else { return false };
                if values.is_empty() {
                    values.resize(flags.len(), None);
                }
                if let Some(known) = values[*f] {
                    return known;
                }
                // A cycle (which `check` refuses) does not hold.
                values[*f] = Some(false);
                let value = flag.when.eval_once(flags, cfg, values);
                values[*f] = Some(value);
                value
            }
            Cond::Edition(e) => *e == cfg.edition,
            Cond::Variant(v) => *v == cfg.variant,
            Cond::Not(c) => !c.eval_once(flags, cfg, values),
            Cond::All(cs) => cs.iter().all(|c| c.eval_once(flags, cfg, values)),
            Cond::Any(cs) => cs.iter().any(|c| c.eval_once(flags, cfg, values)),
        }
    }

    /// The condition with every derived flag replaced by its definition.
    pub fn expanded(&self, flags: &[Flag]) -> Cond {
        match self {
            Cond::Flag(f) => flags.get(*f).map_or(Cond::False, |flag| flag.when.expanded(flags)),
            Cond::Not(c) => Cond::Not(Box::new(c.expanded(flags))),
            Cond::All(cs) => Cond::All(cs.iter().map(|c| c.expanded(flags)).collect()),
            Cond::Any(cs) => Cond::Any(cs.iter().map(|c| c.expanded(flags)).collect()),
            other => other.clone(),
        }
    }

    /// Modules the condition tests (flags expanded), first mention first, without repeats.
    pub fn modules(&self, flags: &[Flag]) -> Vec<ModuleId> {
        let mut out = Vec::new();
        self.walk_modules(flags, true, &mut out, &mut vec![false; flags.len()]);
        out
    }

    /// The modules the condition names other than under a `not` (flags
    /// expanded), first mention first: what the wiki export's classes credit.
    pub fn named_modules(&self, flags: &[Flag]) -> Vec<ModuleId> {
        let mut out = Vec::new();
        self.walk_modules(flags, false, &mut out, &mut vec![false; flags.len()]);
        out
    }

    /// The candidates for the origin of an item shown under this condition,
    /// in the condition's order (an item shown *without* the builder is not
    /// the builder's, so nothing under a `not` counts). Numbered 0, 1, …
    /// Within a budget of its own: for readers of rules `check` accepted.
    pub fn origins(&self, flags: &[Flag]) -> Vec<Candidate> {
        self.origins_within(flags, &crate::budget::Budget::new(crate::budget::BUDGET)).unwrap_or_default()
    }

    /// [`Cond::origins`], charging `budget` for each part walked and each
    /// condition copied into a candidate's guard: an item naming a big flag
    /// beside big parts could otherwise copy them without end.
    pub fn origins_within(
        &self,
        flags: &[Flag],
        budget: &crate::budget::Budget,
    ) -> Result<Vec<Candidate>, crate::budget::TooComplex> {
        let mut walk = OriginWalk::default();
        self.walk_origins(flags, &mut Vec::new(), &mut walk, budget)?;
        Ok(walk.out)
    }

    /// `others`: the parts that must hold beside `self` on the way from the root.
    fn walk_origins<'a>(
        &'a self,
        flags: &'a [Flag],
        others: &mut Vec<&'a Cond>,
        walk: &mut OriginWalk,
        budget: &crate::budget::Budget,
    ) -> Result<(), crate::budget::TooComplex> {
        // What this step copies and hashes: the parts beside it.
        let beside = || others.iter().map(|c| c.nodes()).sum::<usize>();
        match self {
            Cond::Module(m) => {
                budget.charge(1 + beside())?;
                let guard = others.iter().fold(Cond::True, |guard, &c| guard.and(c.clone()));
                // A later copy of an earlier candidate can never come first.
                if walk.seen.insert((*m, guard.clone())) {
                    walk.out.push(Candidate { number: OriginId(walk.out.len() as u16), module: *m, guard });
                }
            }
            Cond::Flag(f) => {
                budget.charge(1 + beside())?;
                // A flag walked before beside the same parts gives the same
                // candidates again, every one a copy: each is walked once.
                let beside: Vec<Cond> = others.iter().map(|&c| c.clone()).collect();
                if let Some(flag) = flags.get(*f)
                    && walk.walked.insert((*f, beside))
                {
                    flag.when.walk_origins(flags, others, walk, budget)?;
                }
            }
            Cond::Any(cs) => {
                budget.charge(1)?;
                for c in cs {
                    c.walk_origins(flags, others, walk, budget)?;
                }
            }
            Cond::All(cs) => {
                for (i, c) in cs.iter().enumerate() {
                    budget.charge(cs.len())?;
                    let depth = others.len();
                    others.extend(cs.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| c));
                    c.walk_origins(flags, others, walk, budget)?;
                    others.truncate(depth);
                }
            }
            Cond::True | Cond::False | Cond::Edition(_) | Cond::Variant(_) | Cond::Not(_) => {}
        }
        Ok(())
    }

    /// The nodes of the condition as written (flags not expanded).
    pub fn nodes(&self) -> usize {
        match self {
            Cond::Not(c) => 1 + c.nodes(),
            Cond::All(cs) | Cond::Any(cs) => 1 + cs.iter().map(Cond::nodes).sum::<usize>(),
            _ => 1,
        }
    }

    /// `walked`: the flags walked already, by index: a flag walked again
    /// names no module that is not in `out` already, so each is walked once
    /// (a flag naming another twice would double the walk at every level).
    fn walk_modules(&self, flags: &[Flag], negated_too: bool, out: &mut Vec<ModuleId>, walked: &mut [bool]) {
        match self {
            Cond::Module(m) if !out.contains(m) => out.push(*m),
            Cond::Flag(f) => {
                if let Some(flag) = flags.get(*f)
                    && !std::mem::replace(&mut walked[*f], true)
                {
                    flag.when.walk_modules(flags, negated_too, out, walked);
                }
            }
            Cond::Not(c) if negated_too => c.walk_modules(flags, negated_too, out, walked),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| c.walk_modules(flags, negated_too, out, walked)),
            _ => {}
        }
    }

    /// `self and other`, flattening trivial cases.
    pub fn and(self, other: Cond) -> Cond {
        match (self, other) {
            (Cond::True, c) | (c, Cond::True) => c,
            (Cond::All(mut a), Cond::All(b)) => {
                a.extend(b);
                Cond::All(a)
            }
            (Cond::All(mut a), c) => {
                a.push(c);
                Cond::All(a)
            }
            (c, Cond::All(mut b)) => {
                b.insert(0, c);
                Cond::All(b)
            }
            (a, b) => Cond::All(vec![a, b]),
        }
    }
}

/// An item's wording, checked: literal parts and parts that differ by edition,
/// in written order (the generated tables hold it as a core `EditionText`).
#[derive(Debug, Clone, PartialEq)]
pub struct Wording(pub Vec<WordingPart>);

/// One part of a [`Wording`].
#[derive(Debug, Clone, PartialEq)]
pub enum WordingPart {
    /// The same in every edition.
    Literal(String),
    /// Alternatives by edition; an edition no alternative names gets nothing.
    ByEdition(Vec<(Vec<EditionId>, String)>),
}

impl Wording {
    /// The text as `edition` reads it.
    pub fn render(&self, edition: EditionId) -> String {
        self.0
            .iter()
            .map(|part| match part {
                WordingPart::Literal(s) => s.as_str(),
                WordingPart::ByEdition(alts) => {
                    alts.iter().find(|(eds, _)| eds.contains(&edition)).map_or("", |(_, s)| s.as_str())
                }
            })
            .collect()
    }

    /// Whether the text reads the same in every edition.
    pub fn is_uniform(&self) -> bool {
        self.0.iter().all(|part| matches!(part, WordingPart::Literal(_)))
    }
}

/// A marker on an item.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// Its position among all items' markers, in item order.
    pub number: MarkerId,
    /// The declared marker's id (`ROBBER_CHOICE`), which names its
    /// translations whatever its label shows.
    pub id: String,
    /// As shown: `ROBBER CHOICE`, `MESSAGES (#1B)`.
    pub label: String,
    /// Where it shows (on a visible item).
    pub when: Cond,
    /// As written in the item's `markers`.
    pub span: Span,
}

impl Rules {
    /// Every step, in order.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.phases.iter().flat_map(|p| &p.steps)
    }

    /// The items of a section outside the steps.
    pub fn section(&self, section: Section) -> &[Item] {
        &self.sections[section]
    }

    /// Every item with its descendants, in numbering order.
    pub fn items(&self) -> Vec<&Item> {
        fn walk<'a>(items: &'a [Item], out: &mut Vec<&'a Item>) {
            for item in items {
                out.push(item);
                walk(&item.children, out);
            }
        }
        let mut out = Vec::new();
        for items in self.sections.before_steps() {
            walk(items, &mut out);
        }
        for step in self.steps() {
            walk(&step.items, &mut out);
        }
        for items in self.sections.after_steps() {
            walk(items, &mut out);
        }
        out
    }
}

/// A condition as the DSL writes it, with the names of `rules`: what every
/// printer of a condition shows (`explain`, the page's comments).
pub struct Dsl<'a> {
    rules: &'a Rules,
    cond: &'a Cond,
}

impl Rules {
    /// `cond` printed as the DSL.
    pub fn dsl<'a>(&'a self, cond: &'a Cond) -> Dsl<'a> {
        Dsl { rules: self, cond }
    }
}

impl std::fmt::Display for Dsl<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write(f, self.cond, 0)
    }
}

impl Dsl<'_> {
    /// Writes `cond`; `outer` is the binding strength around it (0: none,
    /// 1: `or`, 2: `and`, 3: `not`): a weaker condition is parenthesized.
    fn write(&self, f: &mut std::fmt::Formatter<'_>, cond: &Cond, outer: u8) -> std::fmt::Result {
        let catalog = &self.rules.catalog;
        let strength = match cond {
            Cond::Any(_) => 1,
            Cond::All(_) => 2,
            Cond::Not(_) => 3,
            _ => 4,
        };
        if strength < outer {
            f.write_str("(")?;
        }
        let parts = |f: &mut std::fmt::Formatter<'_>, parts: &[Cond], op: &str| {
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    f.write_str(op)?;
                }
                self.write(f, part, strength)?;
            }
            Ok(())
        };
        match cond {
            Cond::True => f.write_str("true")?,
            Cond::False => f.write_str("false")?,
            Cond::Module(m) => f.write_str(catalog.modules.get(usize::from(m.0)).map_or("?", |m| m.id.as_str()))?,
            Cond::Flag(x) => f.write_str(self.rules.flags.get(*x).map_or("?", |x| x.id.as_str()))?,
            Cond::Edition(e) => {
                write!(f, "edition == {}", catalog.editions.get(usize::from(e.0)).map_or("?", |e| e.id.as_str()))?
            }
            Cond::Variant(v) => {
                write!(f, "variant == {}", catalog.variants.get(usize::from(v.0)).map_or("?", |v| v.id.as_str()))?
            }
            Cond::Not(inner) => {
                f.write_str("not ")?;
                self.write(f, inner, 3)?;
            }
            Cond::All(all) => parts(f, all, " and ")?,
            Cond::Any(any) => parts(f, any, " or ")?,
        }
        if strength < outer {
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::{BUDGET, Budget, TooComplex};

    const NOWHERE: Span = Span { file: crate::diagnostics::FileId(0), start: 0, len: 0 };

    /// `f0 = m0 or m1`, and `fk = (f{k-1} and mk) or (f{k-1} and not m{k+1})`:
    /// each flag names the one before twice, so expanded it doubles at
    /// every level (`check` caps such flags; the walks must not depend on it).
    fn doubling(levels: usize) -> Vec<Flag> {
        let m = |k: usize| Cond::Module(ModuleId((k % 60) as u8));
        let flag = |k: usize, when: Cond| Flag { id: format!("f{k}"), when, span: NOWHERE, name_span: NOWHERE };
        let mut flags = vec![flag(0, Cond::Any(vec![m(0), m(1)]))];
        for k in 1..levels {
            let before = Cond::Flag(k - 1);
            let when = Cond::Any(vec![
                Cond::All(vec![before.clone(), m(k)]),
                Cond::All(vec![before, Cond::Not(Box::new(m(k + 1)))]),
            ]);
            flags.push(flag(k, when));
        }
        flags
    }

    #[test]
    fn modules_walk_each_flag_once_however_often_it_is_named() {
        // 2^50 mentions once expanded: walked at each, this would not end.
        let flags = doubling(50);
        let cond = Cond::Any(vec![Cond::Flag(49); 1_000]);
        let modules = cond.modules(&flags);
        assert_eq!(modules.len(), 51);
        assert_eq!(modules[..3], [ModuleId(0), ModuleId(1), ModuleId(2)], "first mention first");
        // Under `not` only the negated walk names them.
        assert_eq!(cond.named_modules(&flags).len(), 50);
        assert_eq!(Cond::Not(Box::new(cond)).named_modules(&flags), []);
    }

    #[test]
    fn eval_evaluates_each_flag_once_however_often_it_is_named() {
        // 2^50 mentions once expanded: evaluated at each, this would not end.
        let flags = doubling(50);
        let cond = Cond::Any(vec![Cond::Flag(49); 1_000]);
        let cfg = |modules: &[u8]| Config {
            edition: EditionId(0),
            variant: VariantId(0),
            modules: modules.iter().map(|&m| ModuleId(m)).collect(),
        };
        // With m0 alone every level holds (f0, then `not m(k+1)`); with none, none does.
        assert!(cond.eval(&flags, &cfg(&[0])));
        assert!(!cond.eval(&flags, &cfg(&[])));
        assert!(!Cond::Not(Box::new(cond)).eval(&flags, &cfg(&[0])));
    }

    #[test]
    fn the_origins_walk_charges_the_budget_and_stops_past_it() {
        // An item naming a flag of 3,000 pairs beside a part of 3,000 more:
        // every candidate's guard copies the big part.
        let m = |k: usize| Cond::Module(ModuleId((k % 60) as u8));
        let pairs = |from: usize| Cond::Any((0..3_000).map(|k| Cond::All(vec![m(from + k), m(k / 60)])).collect());
        let flags = vec![Flag { id: "pairs".into(), when: pairs(0), span: NOWHERE, name_span: NOWHERE }];
        let cond = Cond::All(vec![Cond::Flag(0), pairs(7)]);
        let budget = Budget::new(BUDGET);
        let refused = cond.origins_within(&flags, &budget);
        assert_eq!(refused.err(), Some(TooComplex::Here));
        assert_eq!(cond.origins_within(&flags, &budget).err(), Some(TooComplex::Earlier), "spent for the run");
        // The same without the big part beside it fits, and is charged.
        let budget = Budget::new(BUDGET);
        let origins = Cond::Any(vec![Cond::Flag(0); 1_000]).origins_within(&flags, &budget).expect("within");
        assert!(!origins.is_empty() && budget.spent() > 0 && budget.spent() < BUDGET / 10, "{}", budget.spent());
    }
}
