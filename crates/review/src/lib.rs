//! `review`: what changed between two versions of the rules, in which
//! selections, over all of them at once.
//!
//! Both versions' conditions become BDDs (the [`Logic`](carcassonne_rules_compiler::logic::Logic)
//! that `check`, `verify` and `explain` use) over one variable space: the
//! union of their modules (by id), editions and rule variants. Items,
//! markers and steps are then compared by id: where each shows in one
//! version and not the other, where its text, origin or place among its
//! siblings differs, and so on. Each difference is a [`Change`]
//! with the exact set of selections it holds in, printed as a small DSL
//! condition (`condition`), counted per edition, and shown by an example
//! selection. Since only meanings are compared, an equivalent rewrite of the
//! rules (`a or b` → `b or a`, keys reordered, quotes added) reports nothing.

#![forbid(unsafe_code)]

mod condition;
mod render;
pub mod revision;
mod space;
mod walk;
mod work;

use std::collections::{HashMap, HashSet};

use biodivine_lib_bdd::{Bdd, BddValuation};
use carcassonne_rules_core::{NamedEffect, Repeat};

pub use render::{Format, render};
use space::Vars;
use walk::{Node, Parent, StepNode, Version};
pub use work::{Side, TooComplex};

use carcassonne_rules_compiler::model::{Rules, Span};

/// What kind of difference a [`Change`] is (the JSON `kind`, **contract**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An item or step now shows where it did not.
    Shown,
    /// An item or step no longer shows where it did.
    Hidden,
    /// An item only the head has.
    Added,
    /// An item only the base has.
    Removed,
    /// An item's text reads differently.
    Text,
    /// An item's place among its siblings changed.
    Moved,
    /// A marker of an item shows in more or fewer selections.
    Marker,
    /// An item's origin (the module that brings it) or its foreign editions changed.
    Origin,
    /// A step's existence, repeat or choice, or an item's effect on the turn, changed.
    Step,
    /// An item's id changed, nothing else.
    Renamed,
}

impl Kind {
    /// As the JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Shown => "shown",
            Kind::Hidden => "hidden",
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Text => "text",
            Kind::Moved => "moved",
            Kind::Marker => "marker",
            Kind::Origin => "origin",
            Kind::Step => "step",
            Kind::Renamed => "renamed",
        }
    }
}

/// One difference between the versions, with the selections it holds in.
pub struct Change {
    /// What changed.
    pub kind: Kind,
    /// The item's id (the head's, for a rename), if an item changed.
    pub item: Option<String>,
    /// The step id or section name (`setup`) it is in.
    pub step: String,
    /// The marker, for [`Kind::Marker`].
    pub marker: Option<String>,
    /// A one-line description ("no longer shows", `C2: "…" → "…"`).
    pub detail: String,
    /// Where it holds, as a DSL condition.
    pub condition: String,
    /// Exact numbers of selections where it holds, per edition, every edition listed.
    pub selections: Vec<(String, u128)>,
    /// An `order …` command line (without the program name) that shows it.
    pub example: Option<String>,
    /// The expansion the item belongs to (by its origin), `None` for the base game.
    pub expansion: Option<String>,
    set: Bdd,
}

impl Change {
    /// The editions in which it holds somewhere.
    pub fn editions(&self) -> Vec<&str> {
        self.selections.iter().filter(|(_, n)| *n > 0).map(|(e, _)| e.as_str()).collect()
    }
}

/// The changes of one expansion, for the summary.
pub struct ExpansionSummary {
    /// The expansion's id, `None` for the base game.
    pub id: Option<String>,
    /// Its name.
    pub name: String,
    /// How many changes, by kind.
    pub kinds: Vec<(Kind, usize)>,
    /// The selections any of its changes holds in, per edition.
    pub selections: Vec<(String, u128)>,
}

/// Everything that differs between two versions.
pub struct Review {
    /// How the base was named (`HEAD~1`, a folder).
    pub base: String,
    /// How the head was named (its folder).
    pub head: String,
    /// Every change, in turn order.
    pub changes: Vec<Change>,
    /// Per expansion, in registry order (the base game first).
    pub expansions: Vec<ExpansionSummary>,
    /// The selections any change holds in, per edition.
    pub selections: Vec<(String, u128)>,
    /// Every selection, per edition.
    pub totals: Vec<(String, u128)>,
}

/// Compares `base` with `head`, within one budget of BDD work for both
/// ([`carcassonne_rules_compiler::logic::BUDGET`]): past it, the condition whose comparison
/// spent it (`None` if none was being compared).
pub fn review(base_name: &str, base: &Rules, head_name: &str, head: &Rules) -> Result<Review, Option<TooComplex>> {
    let vars = Vars::new(base, head);
    let old = Version::walk(base, &vars, Side::Base);
    let new = Version::walk(head, &vars, Side::Head);
    let mut cmp = Comparison { vars: &vars, old: &old, new: &new, changes: Vec::new(), renamed: HashMap::new() };
    cmp.steps();
    cmp.renames();
    cmp.items();
    cmp.siblings();
    let mut changes = cmp.changes;
    let rank = |c: &Change| new.rank(c).or_else(|| old.rank(c)).unwrap_or(usize::MAX);
    changes.sort_by_key(|c| rank(c));
    let expansions = summarise(&vars, head, base, &changes);
    let all = changes.iter().fold(vars.set.mk_false(), |acc, c| vars.work.or(&acc, &c.set));
    let everything = vars.domain.clone();
    let (selections, totals) = (vars.counts(&all), vars.counts(&everything));
    if let Some(failed) = vars.work.failed() {
        return Err(failed);
    }
    Ok(Review { base: base_name.to_string(), head: head_name.to_string(), selections, totals, changes, expansions })
}

fn summarise(vars: &Vars, head: &Rules, base: &Rules, changes: &[Change]) -> Vec<ExpansionSummary> {
    let mut order: Vec<(Option<String>, String)> = vec![(None, "Base game".to_string())];
    for x in head.catalog.expansions.iter().chain(&base.catalog.expansions) {
        if !order.iter().any(|(id, _)| id.as_deref() == Some(x.id.as_str())) {
            order.push((Some(x.id.clone()), x.name.clone()));
        }
    }
    order
        .into_iter()
        .filter_map(|(id, name)| {
            let mine: Vec<&Change> = changes.iter().filter(|c| c.expansion == id).collect();
            if mine.is_empty() {
                return None;
            }
            let mut kinds: Vec<(Kind, usize)> = Vec::new();
            for c in &mine {
                match kinds.iter_mut().find(|(k, _)| *k == c.kind) {
                    Some((_, n)) => *n += 1,
                    None => kinds.push((c.kind, 1)),
                }
            }
            kinds.sort();
            let union = mine.iter().fold(vars.set.mk_false(), |acc, c| vars.work.or(&acc, &c.set));
            Some(ExpansionSummary { id, name, kinds, selections: vars.counts(&union) })
        })
        .collect()
}

struct Comparison<'a, 'r> {
    vars: &'a Vars,
    old: &'a Version<'r>,
    new: &'a Version<'r>,
    changes: Vec<Change>,
    /// Head id → base id, for renamed items.
    renamed: HashMap<String, String>,
}

impl Comparison<'_, '_> {
    /// The work from now on compares `o` with `n`: of the two conditions,
    /// the larger is blamed if it spends the budget (the head's on a tie).
    fn blame(&self, o: Option<(&Bdd, Span)>, n: Option<(&Bdd, Span)>) {
        let (side, span) = match (o, n) {
            (Some((o, span)), Some((n, _))) if o.size() > n.size() => (Side::Base, span),
            (_, Some((_, span))) => (Side::Head, span),
            (Some((_, span)), None) => (Side::Base, span),
            (None, None) => return,
        };
        self.vars.work.at(side, span);
    }

    fn blame_items(&self, o: Option<&Node>, n: Option<&Node>) {
        self.blame(o.map(|o| (&o.shows, o.span)), n.map(|n| (&n.shows, n.span)));
    }

    fn blame_steps(&self, o: Option<&StepNode>, n: Option<&StepNode>) {
        self.blame(o.map(|o| (&o.exists, o.span)), n.map(|n| (&n.exists, n.span)));
    }

    /// Records a change where `set` holds, if it holds anywhere.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: Kind,
        item: Option<&str>,
        step: &str,
        marker: Option<&str>,
        expansion: Option<&String>,
        set: Bdd,
        detail: impl FnOnce(&BddValuation) -> String,
    ) {
        let set = self.vars.work.and(&set, &self.vars.domain);
        let Some(example) = self.vars.witness(&set) else { return };
        self.changes.push(Change {
            kind,
            item: item.map(str::to_string),
            step: step.to_string(),
            marker: marker.map(str::to_string),
            detail: detail(&example),
            condition: condition::condition(self.vars, &set),
            selections: self.vars.counts(&set),
            example: Some(self.vars.command(&example)),
            expansion: expansion.cloned(),
            set,
        });
    }

    fn steps(&mut self) {
        let (old, new, work) = (self.old, self.new, &self.vars.work);
        for (id, n) in &new.steps {
            let Some(o) = old.steps.get(id) else {
                self.blame_steps(None, Some(n));
                self.push(Kind::Step, None, id, None, None, n.exists.clone(), |_| "step added".into());
                continue;
            };
            self.blame_steps(Some(o), Some(n));
            let (now, before) = (work.and_not(&n.exists, &o.exists), work.and_not(&o.exists, &n.exists));
            self.push(Kind::Shown, None, id, None, None, now, |_| "step now exists".into());
            self.push(Kind::Hidden, None, id, None, None, before, |_| "step no longer exists".into());
            let both = work.and(&n.exists, &o.exists);
            let repeats =
                |r: &Option<(Repeat, Bdd)>| r.clone().unwrap_or((Repeat::DoubleTurn, self.vars.set.mk_false()));
            let ((ro, so), (rn, sn)) = (repeats(&o.repeat), repeats(&n.repeat));
            let differ = if ro == rn { work.xor(&so, &sn) } else { work.or(&so, &sn) };
            let describe = |r: Repeat, s: &Bdd, v: &BddValuation| match s.eval_in(v) {
                true => repeat_name(r),
                false => "none",
            };
            self.push(Kind::Step, None, id, None, None, work.and(&both, &differ), |v| {
                format!("repeat: {} → {}", describe(ro, &so, v), describe(rn, &sn, v))
            });
            if o.choose_one != n.choose_one {
                let yes_no = |b: bool| if b { "exactly one of its items" } else { "any of its items" };
                let detail = format!("choice: {} → {}", yes_no(o.choose_one), yes_no(n.choose_one));
                self.push(Kind::Step, None, id, None, None, both, |_| detail);
            }
        }
        for (id, o) in &old.steps {
            if !new.steps.contains_key(id) {
                self.blame_steps(Some(o), None);
                self.push(Kind::Step, None, id, None, None, o.exists.clone(), |_| "step removed".into());
            }
        }
    }

    /// The base id of a head item.
    fn base_id<'s>(&'s self, head_id: &'s str) -> &'s str {
        self.renamed.get(head_id).map_or(head_id, String::as_str)
    }

    fn base_parent(&self, p: &Parent) -> Parent {
        match p {
            Parent::Item(id) => Parent::Item(self.base_id(id).to_string()),
            other => other.clone(),
        }
    }

    /// Pairs an item only the base has with an identical one only the head has.
    fn renames(&mut self) {
        let (old, new, vars) = (self.old, self.new, self.vars);
        let mut taken: HashSet<&str> = HashSet::new();
        for (id, n) in &new.items {
            if old.items.contains_key(id) {
                continue;
            }
            let parent = self.base_parent(&n.parent);
            self.blame_items(None, Some(n));
            let same = |a: &Bdd, b: &Bdd| vars.work.same(a, b);
            let same_sets = |a: &[(String, Bdd)], b: &[(String, Bdd)]| same_sets(a, b, same);
            let found = old.items.iter().find(|(oid, o)| {
                !new.items.contains_key(*oid)
                    && !taken.contains(oid.as_str())
                    && o.place == n.place
                    && o.parent == parent
                    && old.effect(o.item) == new.effect(n.item)
                    && same(&o.shows, &n.shows)
                    && old.texts(vars, o.item) == new.texts(vars, n.item)
                    && old.foreign(vars, o.item) == new.foreign(vars, n.item)
                    && same_sets(&old.markers(vars, o), &new.markers(vars, n))
                    && same_sets(&o.origin, &n.origin)
            });
            if let Some((oid, _)) = found {
                taken.insert(oid);
                self.renamed.insert(id.clone(), oid.clone());
            }
        }
    }

    fn items(&mut self) {
        let (old, new) = (self.old, self.new);
        for (id, n) in &new.items {
            let base_id = self.base_id(id).to_string();
            let Some(o) = old.items.get(&base_id) else {
                self.blame_items(None, Some(n));
                let parent_added = matches!(&n.parent, Parent::Item(p) if !old.items.contains_key(self.base_id(p)));
                if !parent_added {
                    let text = |v: &BddValuation| {
                        clip(&new.texts(self.vars, n.item)[self.vars.selection(v).0].clone().unwrap_or_default())
                    };
                    self.push(Kind::Added, Some(id), &n.place, None, n.expansion.as_ref(), n.shows.clone(), |v| {
                        format!("added: \"{}\"", text(v))
                    });
                }
                continue;
            };
            if base_id != *id {
                self.push(Kind::Renamed, Some(id), &n.place, None, n.expansion.as_ref(), n.shows.clone(), |_| {
                    format!("renamed from `{base_id}`")
                });
            }
            self.pair(id, o, n);
        }
        let kept: HashSet<String> = new.items.keys().map(|id| self.base_id(id).to_string()).collect();
        for (id, o) in &old.items {
            if kept.contains(id) {
                continue;
            }
            let parent_removed = matches!(&o.parent, Parent::Item(p) if !kept.contains(p));
            if !parent_removed {
                self.blame_items(Some(o), None);
                self.push(Kind::Removed, Some(id), &o.place, None, o.expansion.as_ref(), o.shows.clone(), |_| {
                    "removed".into()
                });
            }
        }
    }

    /// Compares an item present in both versions.
    fn pair(&mut self, id: &str, o: &Node, n: &Node) {
        let (old, new, vars) = (self.old, self.new, self.vars);
        let work = &vars.work;
        let x = n.expansion.as_ref();
        let (om, nm) = (old.markers(vars, o), new.markers(vars, n));
        self.blame_items(Some(o), Some(n));
        let context = work.and(&o.context, &n.context);
        let now = work.and_not(&work.and(&context, &n.shows), &o.shows);
        self.push(Kind::Shown, Some(id), &n.place, None, x, now, |_| "now shows".into());
        let before = work.and_not(&work.and(&context, &o.shows), &n.shows);
        self.push(Kind::Hidden, Some(id), &n.place, None, x, before, |_| "no longer shows".into());
        let both = work.and(&o.shows, &n.shows);
        let none = vars.set.mk_false();
        let mut labels: Vec<&String> = nm.iter().map(|(l, _)| l).collect();
        labels.extend(om.iter().map(|(l, _)| l).filter(|l| !nm.iter().any(|(m, _)| m == *l)));
        for label in labels {
            let find =
                |ms: &[(String, Bdd)]| ms.iter().find(|(l, _)| l == label).map_or(none.clone(), |(_, s)| s.clone());
            let (before, after) = (find(&om), find(&nm));
            let now = work.and_not(&work.and(&both, &after), &before);
            self.push(Kind::Marker, Some(id), &n.place, Some(label), x, now, |_| format!("marker {label} now shows"));
            let gone = work.and_not(&work.and(&both, &before), &after);
            self.push(Kind::Marker, Some(id), &n.place, Some(label), x, gone, |_| {
                format!("marker {label} no longer shows")
            });
        }
        let (ot, nt) = (old.texts(vars, o.item), new.texts(vars, n.item));
        let changed: Vec<usize> = (0..vars.edition_ids.len()).filter(|&e| ot[e] != nt[e]).collect();
        let in_changed = changed.iter().fold(none.clone(), |acc, &e| work.or(&acc, &vars.edition(e)));
        self.push(Kind::Text, Some(id), &n.place, None, x, work.and(&both, &in_changed), |v| {
            let e = vars.selection(v).0;
            let (before, after) = where_they_differ(ot[e].as_deref().unwrap_or(""), nt[e].as_deref().unwrap_or(""));
            format!("{}: \"{before}\" → \"{after}\"", vars.edition_ids[e])
        });
        let origin_differs = o.origin.iter().fold(none.clone(), |acc, (m, there)| {
            let now = n.origin.iter().find(|(nm, _)| nm == m).map_or(none.clone(), |(_, s)| s.clone());
            work.or(&acc, &work.and_not(there, &now))
        });
        let origin_at = |origin: &[(String, Bdd)], v: &BddValuation| {
            origin.iter().find(|(_, s)| s.eval_in(v)).map_or("base".to_string(), |(m, _)| m.clone())
        };
        self.push(Kind::Origin, Some(id), &n.place, None, x, work.and(&both, &origin_differs), |v| {
            format!("origin: {} → {}", origin_at(&o.origin, v), origin_at(&n.origin, v))
        });
        let (of, nf) = (old.foreign(vars, o.item), new.foreign(vars, n.item));
        let flipped = (0..vars.edition_ids.len())
            .filter(|&e| of[e] != nf[e])
            .fold(none.clone(), |acc, e| work.or(&acc, &vars.edition(e)));
        self.push(Kind::Origin, Some(id), &n.place, None, x, work.and(&both, &flipped), |v| {
            let e = vars.selection(v).0;
            let yes_no = |f: bool| if f { "from another edition" } else { "native" };
            format!("in {}: {} → {}", vars.edition_ids[e], yes_no(of[e]), yes_no(nf[e]))
        });
        let (oe, ne) = (old.effect(o.item), new.effect(n.item));
        if oe != ne {
            let detail = format!("effect: {} → {}", effect_name(&oe), effect_name(&ne));
            self.push(Kind::Step, Some(id), &n.place, None, x, both.clone(), |_| detail);
        }
        if self.base_parent(&n.parent) != o.parent || o.place != n.place {
            let (was, now) = (parent_name(&o.parent), parent_name(&self.base_parent(&n.parent)));
            self.push(Kind::Moved, Some(id), &n.place, None, x, both, |_| format!("moved from {was} to {now}"));
        }
    }

    /// Items whose order relative to a sibling changed, where both show.
    fn siblings(&mut self) {
        let (old, new) = (self.old, self.new);
        for (parent, ids) in &new.lists {
            let parent = self.base_parent(parent);
            let Some(before) = old.lists.get(&parent) else { continue };
            let after: Vec<String> = ids.iter().map(|id| self.base_id(id).to_string()).collect();
            let common: Vec<&String> = after.iter().filter(|id| before.contains(id)).collect();
            let old_seq: Vec<&String> = before.iter().filter(|id| common.contains(id)).collect();
            let kept = lcs(&old_seq, &common);
            let pos = |seq: &[&String], id: &String| seq.iter().position(|x| *x == id).unwrap_or(0);
            for &x in common.iter().filter(|x| !kept.contains(x)) {
                let head_id = ids[after.iter().position(|a| a == x).unwrap_or(0)].clone();
                let (Some(xo), Some(xn)) = (old.items.get(x), new.items.get(&head_id)) else { continue };
                self.blame_items(Some(xo), Some(xn));
                let work = &self.vars.work;
                let mut set = self.vars.set.mk_false();
                for &y in common.iter().filter(|&&y| y != x) {
                    let flipped = (pos(&old_seq, x) < pos(&old_seq, y)) != (pos(&common, x) < pos(&common, y));
                    let y_head = &ids[after.iter().position(|a| a == y).unwrap_or(0)];
                    if let (true, Some(yo), Some(yn)) = (flipped, old.items.get(y), new.items.get(y_head)) {
                        set = work.or(&set, &work.and(&yo.shows, &yn.shows));
                    }
                }
                let set = work.and(&work.and(&set, &xo.shows), &xn.shows);
                let previous = |version: &Version, list: &[String], me: &str, v: &BddValuation| {
                    let at = list.iter().position(|i| i == me).unwrap_or(0);
                    list[..at]
                        .iter()
                        .rev()
                        .find(|i| version.items.get(*i).is_some_and(|n| n.shows.eval_in(v)))
                        .map_or("first".to_string(), |i| format!("after `{i}`"))
                };
                let expansion = xn.expansion.clone();
                self.push(Kind::Moved, Some(&head_id), &xn.place, None, expansion.as_ref(), set, |v| {
                    format!("was {}, now {}", previous(old, before, x, v), previous(new, ids, &head_id, v))
                });
            }
        }
    }
}

/// Equal labels with the same sets (by `same`), in any order.
fn same_sets(a: &[(String, Bdd)], b: &[(String, Bdd)], same: impl Fn(&Bdd, &Bdd) -> bool) -> bool {
    let nonempty = |s: &[(String, Bdd)]| s.iter().filter(|(_, x)| !x.is_false()).count();
    nonempty(a) == nonempty(b)
        && a.iter().filter(|(_, x)| !x.is_false()).all(|(l, x)| b.iter().any(|(m, y)| l == m && same(x, y)))
}

/// The longest common subsequence of two orderings of the same distinct
/// ids: the items that kept their relative order. It is the longest
/// increasing run of base positions taken in head order (O(n log n)).
fn lcs<'s>(base: &[&'s String], head: &[&'s String]) -> Vec<&'s String> {
    let at: HashMap<&String, usize> = base.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let positions: Vec<usize> = head.iter().filter_map(|id| at.get(id).copied()).collect();
    // tails[k]: index in `positions` of the smallest tail of an increasing run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; positions.len()];
    for (i, &p) in positions.iter().enumerate() {
        let k = tails.partition_point(|&t| positions[t] < p);
        previous[i] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut out = Vec::new();
    let mut cursor = tails.last().copied();
    while let Some(i) = cursor {
        out.push(base[positions[i]]);
        cursor = previous[i];
    }
    out.reverse();
    out
}

fn parent_name(p: &Parent) -> String {
    match p {
        Parent::Step(s) => format!("step {s}"),
        Parent::Item(i) => format!("under `{i}`"),
    }
}

fn repeat_name(r: Repeat) -> &'static str {
    match r {
        Repeat::DoubleTurn => "double_turn",
        Repeat::PerFeature => "per_feature",
    }
}

fn effect_name(e: &Option<NamedEffect>) -> String {
    e.as_ref().map_or_else(|| "none".into(), NamedEffect::to_string)
}

/// A text cut to a readable length for a one-line description.
fn clip(text: &str) -> String {
    const MAX: usize = 70;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Two texts cut to a readable length for a one-line description, around
/// where they differ: the same few characters before the first difference
/// in both, the differing span, a few after it, `…` where a text is cut. A
/// change past the first line's worth of text is still shown.
fn where_they_differ(old: &str, new: &str) -> (String, String) {
    const CONTEXT: usize = 20;
    const SPAN: usize = 50;
    let (o, n): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    let prefix = o.iter().zip(&n).take_while(|(a, b)| a == b).count();
    let suffix = o[prefix..].iter().rev().zip(n[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let start = prefix.saturating_sub(CONTEXT);
    let cut = |text: &[char]| {
        let differs_to = text.len() - suffix;
        let end = text.len().min(differs_to.min(prefix + SPAN) + CONTEXT);
        let mut shown: String = text[start..end].iter().collect();
        if start > 0 {
            shown.insert(0, '…');
        }
        if end < text.len() {
            shown.push('…');
        }
        shown
    };
    (cut(&o), cut(&n))
}

/// The `review` command: compiles the base (a folder, else a git revision,
/// see [`revision::compile_base`]) and the head folder, and renders what
/// changed; returns the output and whether anything changed. Problems in
/// either version are its diagnostics, each naming its version in its help.
pub fn command(
    base: &str,
    head_dir: &std::path::Path,
    format: Format,
    color: bool,
) -> Result<(String, bool), Vec<carcassonne_rules_compiler::Diagnostic>> {
    let head_name = head_dir.display().to_string();
    let head = carcassonne_rules_compiler::compile_dir(head_dir);
    let old = revision::compile_base(base, head_dir);
    let note = |which: &str, name: &str| {
        format!("this is in the {which} version ({})", carcassonne_rules_core::escape::terminal::quoted(name))
    };
    let mut problems = Vec::new();
    let mut failed = |note: String, found: Vec<carcassonne_rules_compiler::Diagnostic>| {
        problems.extend(found.into_iter().map(|d| d.with_help(note.clone())));
    };
    let (head_sources, head) = (head.sources, head.result);
    let head = head.map_err(|found| failed(note("head", &head_name), found)).ok();
    let (old_base, old) = match old {
        Ok(mut read) => match std::mem::replace(&mut read.compiled.result, Err(Vec::new())) {
            Ok(rules) => (Some(read), Some(rules)),
            Err(found) => {
                failed(note("base", base), found);
                (None, None)
            }
        },
        // Reading the revision failed: those diagnostics name it already.
        Err(mut found) => {
            problems.append(&mut found);
            (None, None)
        }
    };
    match (old, old_base, head) {
        (Some(old), Some(old_base), Some(head)) if problems.is_empty() => match review(base, &old, &head_name, &head) {
            Ok(review) => Ok((render(&review, format, color), !review.changes.is_empty())),
            Err(at) => {
                let (sources, which, name) = match at.map(|at| at.side) {
                    Some(Side::Base) => (&old_base.compiled.sources, "base", base),
                    _ => (&head_sources, "head", head_name.as_str()),
                };
                let help = format!(
                    "review compares both versions within a budget of {} steps of work, in a variable order \
                     that suits both: split the condition into simpler ones, or name the modules it pairs next \
                     to each other in earlier conditions",
                    carcassonne_rules_compiler::logic::BUDGET
                );
                let found = match at {
                    Some(at) => carcassonne_rules_compiler::Diagnostic::at(
                        carcassonne_rules_compiler::codes::Code::TooComplex,
                        sources,
                        at.span,
                        "this condition is too complex to review",
                        "comparing it takes more work than a review may do",
                    ),
                    None => carcassonne_rules_compiler::Diagnostic::global(
                        carcassonne_rules_compiler::codes::Code::TooComplex,
                        "the rules are too complex to review",
                    ),
                };
                let found = found.with_help(help).with_help(note(which, name));
                Err(vec![if which == "base" { old_base.named(found) } else { found }])
            }
        },
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_change_is_shown_where_the_texts_differ() {
        assert_eq!(
            where_they_differ("Draw a tile.", "Draw two tiles."),
            ("Draw a tile.".into(), "Draw two tiles.".into())
        );
        // Past any first line: the window moves to the difference.
        let old = format!("{}x{}", "a".repeat(150), "b".repeat(100));
        let new = format!("{}y{}", "a".repeat(150), "b".repeat(100));
        let (before, after) = where_they_differ(&old, &new);
        assert_eq!(before, format!("…{}x{}…", "a".repeat(20), "b".repeat(20)));
        assert_eq!(after, format!("…{}y{}…", "a".repeat(20), "b".repeat(20)));
        // Only an insertion: nothing of the old is missing, the new shows it.
        let (before, after) = where_they_differ("a long text", "a long\u{ad} text");
        assert_eq!((before.as_str(), after.as_str()), ("a long text", "a long\u{ad} text"));
    }

    #[test]
    fn the_kept_order_is_a_longest_common_subsequence() {
        let ids: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let refs = |order: &[usize]| order.iter().map(|&i| &ids[i]).collect::<Vec<_>>();
        let kept = |base: &[usize], head: &[usize]| {
            lcs(&refs(base), &refs(head)).into_iter().map(String::as_str).collect::<Vec<_>>().join("")
        };
        assert_eq!(kept(&[0, 1, 2, 3, 4], &[0, 1, 2, 3, 4]), "abcde");
        // `e` moved to the front: everything else kept its order.
        assert_eq!(kept(&[0, 1, 2, 3, 4], &[4, 0, 1, 2, 3]), "abcd");
        assert_eq!(kept(&[0, 1, 2, 3, 4], &[1, 0, 3, 2, 4]).len(), 3);
        assert_eq!(kept(&[0, 1, 2], &[2, 1, 0]).len(), 1);
    }
}
