//! A turn that an engine plays one answer at a time, and can save and restore
//! between any two answers.
//!
//! A [`Plan`] is a selection's turn order made ready to play (each step's
//! items flattened, with a fingerprint of everything that decides the flow).
//! A [`Turn`] is where a turn stands: plain data, serialized with the rules'
//! string ids, stamped with its plan's fingerprint and selection. The turn
//! says what it needs now ([`Turn::prompt`]); [`Turn::answer`] takes one
//! answer, checked against the prompt's `seq` and kind, and appends what
//! happened to a [`Trace`]. A refused answer changes nothing.
//!
//! How the items' flow is played (see [`Role`] and `Flow`):
//! - an action or a condition is asked ("was it done?", "does it hold?");
//!   their sub-items play only when it was done (holds) — but an action's
//!   one `otherwise` sub-item only when it was not; groups are never
//!   asked and their sub-items play; notes are never asked and nothing under
//!   them plays;
//! - a `must` action cannot be declined: its prompt says so and "no" is
//!   refused; every prompt names its [`Actor`], who answers it;
//! - a choose-one step or item asks for one of its options (the sub-items
//!   that are not notes): only the option taken plays; none may be taken
//!   where the step `may_pass` or the item is `optional`. A choose-one
//!   condition is asked first, a choose-one action or group is not. A
//!   choice of one option that may not be passed is not asked: the option
//!   is taken ([`Event::Taken`]);
//! - an item with `none_of` ("if you did none of the above") is left out of
//!   a pass of its step once one of the items it names was done in it (a
//!   go-back, a new part or the next feature's round is a new pass); an item
//!   an effect forbids is left out (and not offered) for the rest of the part,
//!   or of the turn;
//! - an item's effect applies when it is answered yes, an option's when it
//!   is taken: skip steps for the rest of this part, go back to a step (at
//!   most [`MAX_GO_BACKS`] times), earn the double turn (in part 1 only), or
//!   settle the completed feature (the rest of its round is not played);
//! - a double turn: after the block's last step, part 2 plays exactly the
//!   block, then the steps after the block that part 1 did not reach; every
//!   step outside the block is played at most once, unless a go-back returns
//!   to it;
//! - a `per_thing` item ("for each tree and each meeple") is played again
//!   once its sub-items are, until the player declines it or takes no
//!   option (at most [`MAX_FEATURES`] times in a row);
//! - an `until_done` item ("repeat actions 1 and 2 until …"), once done (or
//!   held, or entered where it is a group) and its sub-items played, is asked
//!   again ([`Prompt::again`]): yes plays its sub-items again (its effect is
//!   not taken again), no goes on after it (at most [`MAX_FEATURES`] rounds);
//! - a `once` item (or one under a `once` item) is done at most once per
//!   turn, both parts counted: once done it is neither asked nor offered again;
//! - the "at any time" items are not prompted: an engine reports one with
//!   [`Turn::any_time`] while a prompt is pending, or after the last one
//!   until it ends the turn ([`Turn::end`]) — but an obligation at any time
//!   (`must`, `once`) not reported by the end of the last step is asked
//!   then, at that step: the turn is not over without it.

use std::hash::Hasher;

use carcassonne_rules_core::words::{Word, Words};
use carcassonne_rules_core::{
    Actor, Effect, Entry, ItemId, NamedEffect, Repeat, Role, Section, StepId, StepOrder, TurnOrder,
};
use serde::{Deserialize, Serialize};

use crate::trace::{Event, Trace};

/// More go-backs than this in one turn is an engine bug, not a game: the
/// answer that would go back once more is refused.
pub const MAX_GO_BACKS: u32 = 100;

/// More completed features than this at once is refused (a tile completes a
/// handful; the bound keeps a per-feature step from running without end).
pub const MAX_FEATURES: u32 = 64;

/// A selection's turn order, ready to be played.
#[derive(Debug)]
pub struct Plan<'o> {
    order: &'o TurnOrder<'o>,
    steps: Vec<PlanStep<'o>>,
    any_time: Vec<Node<'o>>,
    /// The double-turn block, as indices into `steps`.
    block: Option<(usize, usize)>,
    fingerprint: String,
}

self_cell::self_cell!(
    /// A turn order and the plan made from it, in one owner.
    struct PlanCell {
        owner: TurnOrder<'static>,
        #[covariant]
        dependent: Plan,
    }
    impl {Debug}
);

/// A plan that owns its turn order: `Send + Sync` and cheap to clone (an
/// `Arc`), so an engine or a server keeps one per selection instead of
/// building it again for every request. The bundled rules' turn orders and
/// those of [`include_rules!`](crate::include_rules) are `'static`.
#[derive(Debug, Clone)]
pub struct SharedPlan(std::sync::Arc<PlanCell>);

impl SharedPlan {
    /// Prepares `order` for playing, once.
    pub fn new(order: TurnOrder<'static>) -> SharedPlan {
        SharedPlan(std::sync::Arc::new(PlanCell::new(order, |order| Plan::new(order))))
    }

    /// The plan, for [`Turn`]'s methods.
    pub fn plan(&self) -> &Plan<'_> {
        self.0.borrow_dependent()
    }
}

#[derive(Debug)]
struct PlanStep<'o> {
    order: &'o StepOrder<'o>,
    /// The step's items in pre-order.
    nodes: Vec<Node<'o>>,
}

/// One item of a flattened list.
#[derive(Debug, Clone, Copy)]
struct Node<'o> {
    entry: &'o Entry<'o>,
    /// One past the item's last descendant.
    end: usize,
    /// One past the last item under the item's parent (or in the step).
    scope_end: usize,
    /// The item is an option of a choose-one parent (or step).
    option: bool,
    /// The item, or one above it, may be done only once per turn.
    once: bool,
    /// Its `otherwise` sub-item: what plays when the action is not done.
    otherwise: Option<usize>,
    /// 0 for a step's own items.
    depth: usize,
    /// A later item's `none_of` names it: the turn remembers it done.
    alternative: bool,
    /// Only groups that offer no choice stand above it.
    under_groups: bool,
}

fn flatten<'o>(entries: &'o [Entry<'o>], option: bool, once: bool, depth: usize, nodes: &mut Vec<Node<'o>>) {
    let first = nodes.len();
    // An action's `otherwise` sub-item is played last of all: skipped when the
    // action was done, entered alone when it was not, and the action's end after it.
    let played = entries.iter().filter(|e| !e.flow.otherwise).chain(entries.iter().filter(|e| e.flow.otherwise));
    for entry in played {
        let at = nodes.len();
        let once = once || entry.flow.once;
        let under_groups = false;
        nodes.push(Node {
            entry,
            end: 0,
            scope_end: 0,
            option,
            once,
            otherwise: None,
            depth,
            alternative: false,
            under_groups,
        });
        flatten(&entry.children, entry.flow.choose_one, once, depth + 1, nodes);
        nodes[at].end = nodes.len();
        nodes[at].otherwise =
            (at + 1..nodes.len()).find(|&c| nodes[c].depth == depth + 1 && nodes[c].entry.flow.otherwise);
    }
    let scope_end = nodes.len();
    for node in &mut nodes[first..] {
        if node.scope_end == 0 {
            node.scope_end = scope_end;
        }
    }
}

impl<'o> Plan<'o> {
    /// The program's words in the turn order's language.
    pub fn words(&self) -> Words<'o> {
        self.order.words.clone().unwrap_or_default()
    }

    /// Prepares `order` for playing.
    pub fn new(order: &'o TurnOrder<'o>) -> Plan<'o> {
        let steps: Vec<PlanStep> = order
            .steps()
            .map(|step| {
                let mut nodes = Vec::new();
                flatten(&step.items, step.choose_one, false, 0, &mut nodes);
                let named: Vec<ItemId> = nodes.iter().flat_map(|n| n.entry.none_of.iter().copied()).collect();
                for node in &mut nodes {
                    node.alternative = named.contains(&node.entry.item);
                }
                PlanStep { order: step, nodes }
            })
            .collect();
        let mut any_time = Vec::new();
        flatten(order.section(Section::AnyTime), false, false, 0, &mut any_time);
        // Whether each item stands under groups alone (its ancestors are the
        // nearest items before it of each lesser depth).
        let mut plain: Vec<bool> = Vec::new();
        for node in &mut any_time {
            plain.truncate(node.depth);
            node.under_groups = plain.iter().all(|&p| p);
            let flow = node.entry.flow;
            plain.push(node.under_groups && flow.role == Role::Group && !flow.choose_one);
        }
        let index = |id: StepId| steps.iter().position(|s| s.order.step == id);
        let block = order.double_turn.and_then(|b| match (index(b.first), index(b.last)) {
            (Some(first), Some(last)) if first <= last => Some((first, last)),
            _ => None,
        });
        let fingerprint = fingerprint(order, &steps, &any_time, block);
        Plan { order, steps, any_time, block, fingerprint }
    }

    /// The turn order this plan plays.
    pub fn order(&self) -> &'o TurnOrder<'o> {
        self.order
    }

    /// What a saved turn is stamped with: a hash of the selection and of
    /// everything in its turn order that decides the flow (steps, repeats,
    /// items, their flow and effects, the double-turn block), not the texts.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// A step's id in the rules, where this plan has the step.
    pub fn step_name(&self, step: StepId) -> Option<&'o str> {
        self.steps.iter().find(|s| s.order.step == step).map(|s| &*s.order.id)
    }

    /// An item's id in the rules, where this plan has the item.
    pub fn item_name(&self, item: ItemId) -> Option<&'o str> {
        self.entries().find(|e| e.item == item).map(Entry::id)
    }

    /// How deeply an item is nested (0 for a step's own items).
    pub fn item_depth(&self, item: ItemId) -> usize {
        self.steps
            .iter()
            .flat_map(|s| &s.nodes)
            .chain(&self.any_time)
            .find(|n| n.entry.item == item)
            .map_or(0, |n| n.depth)
    }

    /// The step this plan has under `name`.
    pub fn step_named(&self, name: &str) -> Option<StepId> {
        self.steps.iter().find(|s| s.order.id == name).map(|s| s.order.step)
    }

    /// The item this plan has under `name`.
    pub fn item_named(&self, name: &str) -> Option<ItemId> {
        self.entries().find(|e| e.id() == name).map(|e| e.item)
    }

    fn entries(&self) -> impl Iterator<Item = &'o Entry<'o>> + '_ {
        self.nodes().map(|n| n.entry)
    }

    /// Every item of the plan: the steps' and the "at any time" ones.
    fn nodes(&self) -> impl Iterator<Item = &Node<'o>> + '_ {
        self.steps.iter().flat_map(|s| &s.nodes).chain(&self.any_time)
    }

    fn step_index(&self, name: &str) -> Option<usize> {
        self.steps.iter().position(|s| s.order.id == name)
    }

    fn step_index_of(&self, step: StepId) -> Option<usize> {
        self.steps.iter().position(|s| s.order.step == step)
    }

    /// The choose-one's options at `of` (an item's index, or the step's own
    /// items): its direct sub-items that are not notes, not done once already
    /// and not left out by what was done in this pass of the step.
    fn options<'a>(&'a self, turn: &'a Turn, s: usize, of: Option<usize>) -> impl Iterator<Item = usize> + 'a {
        let nodes = &self.steps[s].nodes;
        let (mut i, end) = match of {
            Some(at) => (at + 1, nodes[at].end),
            None => (0, nodes.len()),
        };
        std::iter::from_fn(move || {
            while i < end {
                let here = i;
                i = nodes[here].end;
                let node = nodes[here];
                if node.entry.flow.role != Role::Note
                    && !(node.once && done_once(&turn.once, node.entry))
                    && !turn.left_out(node.entry)
                {
                    return Some(here);
                }
            }
            None
        })
    }
}

impl Plan<'_> {
    /// An obligation at any time: a `must` (and `once`) action or condition
    /// of "at any time", at the top or under groups, which the turn asks at
    /// its end unless it was done.
    fn is_obligation(&self, node: &Node) -> bool {
        let flow = node.entry.flow;
        flow.must && node.once && node.under_groups && matches!(flow.role, Role::Action | Role::Condition)
    }

    /// `{"choose": null}` is allowed at the choice `of` (an item's index, or
    /// the step's own): the step `may_pass`, or the item is `optional`.
    fn may_pass(&self, s: usize, of: Option<usize>) -> bool {
        of.map_or(self.steps[s].order.may_pass, |i| self.steps[s].nodes[i].entry.flow.optional)
    }
}

/// Whether `entry` is among the `once` items done this turn.
fn done_once(once: &[String], entry: &Entry) -> bool {
    once.iter().any(|id| *id == entry.id())
}

/// A stable FNV-1a hash of what decides the flow: the same on every platform
/// and every build, for the compiled-in and the interpreted rules alike.
fn fingerprint(order: &TurnOrder, steps: &[PlanStep], any_time: &[Node], block: Option<(usize, usize)>) -> String {
    let mut h = fnv::FnvHasher::default();
    let mut text = |s: &str| {
        h.write(&(s.len() as u64).to_le_bytes());
        h.write(s.as_bytes());
    };
    text(&order.edition);
    text(&order.variant);
    for module in &order.modules {
        text(module);
    }
    let nodes = |h: &mut fnv::FnvHasher, nodes: &[Node]| {
        for node in nodes {
            let e = node.entry;
            let f = e.flow;
            // By the steps' ids in the rules: stable across rebuilds.
            let effect = match e.effect.map(|effect| effect.named(e.catalog)) {
                None => String::new(),
                Some(NamedEffect::Skip(steps)) => format!("skip {}", steps.join(",")),
                Some(NamedEffect::GoBack(to)) => format!("go back {to}"),
                Some(NamedEffect::DoubleTurn) => "double turn".into(),
                Some(NamedEffect::NextFeature) => "next feature".into(),
                Some(NamedEffect::Forbid { items, turn }) => format!("forbid {} {turn}", items.join(",")),
            };
            let none_of: Vec<&str> = e.none_of.iter().map(|&i| e.catalog.item_name(i)).collect();
            // `repeat` only where set: the other items' stamps stay as they were.
            let repeat = f.repeat.map_or(String::new(), |r| format!(" {}", r.name()));
            let flags = format!(
                "{:?} {} {} {} {} {} {:?} {} {effect} {}{repeat}",
                f.role,
                f.optional,
                f.choose_one,
                f.once,
                f.otherwise,
                f.must,
                f.actor,
                node.end,
                none_of.join(",")
            );
            for s in [e.id(), &flags] {
                h.write(&(s.len() as u64).to_le_bytes());
                h.write(s.as_bytes());
            }
        }
    };
    for step in steps {
        let o = step.order;
        let flags = format!("{} {:?} {} {} {}", o.id, o.repeat, o.choose_one, o.may_pass, step.nodes.len());
        h.write(flags.as_bytes());
        nodes(&mut h, &step.nodes);
    }
    h.write(b"any_time");
    nodes(&mut h, any_time);
    h.write(format!("{block:?}").as_bytes());
    format!("{:016x}", h.finish())
}

/// The selection a turn is played for, by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// The edition's id (`C2`).
    pub edition: String,
    /// The rule variant's id (`hig`).
    pub variant: String,
    /// The selected modules' ids, sorted and comma-separated (as `--with`
    /// takes them).
    pub modules: String,
}

/// Where a turn stands: what it asks next, and what it remembers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// [`Plan::fingerprint`] of the plan the turn was started from.
    rules: String,
    selection: Selection,
    /// How many prompts were answered: the pending prompt's `seq`.
    seq: u32,
    /// 1, or 2 in the second part of a double turn.
    part: u8,
    at: At,
    /// The double turn was earned in part 1.
    double_turn: bool,
    /// Part 1 stopped at the block's end: the steps after it are still to play.
    after_block: bool,
    /// Steps to leave out for the rest of this part.
    skipped: Vec<String>,
    /// The `once` items done this turn.
    once: Vec<String>,
    /// The items done in this pass of the current step that a later item's
    /// `none_of` names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    done_here: Vec<String>,
    /// Items ruled out for the rest of this part (`forbid`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    forbidden: Vec<String>,
    /// Items ruled out for the rest of the turn (`forbid … for the turn`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    forbidden_turn: Vec<String>,
    /// A `per_thing` or `until_done` item done, to ask again once its
    /// sub-items are played, and how many times in a row it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    again: Option<Again>,
    go_backs: u32,
    /// The engine ended the turn: after its last prompt, "at any time" items
    /// are taken until then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    ended: bool,
}

/// A repeating item to ask again, by id, and its rounds so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Again {
    item: String,
    rounds: u32,
}

/// The pending prompt, by string ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "prompt", rename_all = "snake_case")]
enum At {
    Do {
        step: String,
        feature: Option<[u32; 2]>,
        item: String,
    },
    Choose {
        step: String,
        feature: Option<[u32; 2]>,
        of: Option<String>,
    },
    Count {
        step: String,
    },
    /// An obligation at any time, asked after the last step.
    Obligation {
        step: String,
        item: String,
    },
    Over,
}

/// What the turn asks now.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Prompt<'o> {
    /// Counts the prompts from the start of the turn; an answer names it.
    pub seq: u32,
    /// 1, or 2 in the second part of a double turn.
    pub part: u8,
    /// The step being played.
    pub step: &'o StepOrder<'o>,
    /// `(n, of)`: the completed feature this round of a per-feature step is for.
    pub feature: Option<(u32, u32)>,
    /// The question.
    pub ask: Ask<'o>,
    /// The item cannot be declined (`{"do": false}` is refused), or one of
    /// the options must be taken.
    pub must: bool,
    /// Who answers.
    pub actor: Actor,
    /// An `until_done` item's sub-items were played: yes plays them again,
    /// no goes on after the item (the `do` prompt asks whether to repeat,
    /// not the item itself, and is never a must).
    pub again: bool,
}

/// The question of a [`Prompt`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ask<'o> {
    /// Was the action carried out (does the condition hold)? Answered with
    /// [`Answer::Do`].
    Do(&'o Entry<'o>),
    /// Which option does the player take? Answered with [`Answer::Choose`].
    Choose {
        /// The choose-one item, or `None` for the step's own items.
        of: Option<&'o Entry<'o>>,
        /// The options offered, in order.
        options: Vec<&'o Entry<'o>>,
        /// `Answer::Choose(None)` is allowed.
        may_pass: bool,
    },
    /// How many features were completed? Answered with [`Answer::Count`].
    Count,
}

impl Prompt<'_> {
    /// Every answer the prompt takes, in order: yes and no; each option,
    /// then none where it may be passed; 0 to [`MAX_FEATURES`] features.
    pub fn legal_answers(&self) -> Vec<Answer> {
        match &self.ask {
            Ask::Do(_) if self.must => vec![Answer::Do(true)],
            Ask::Do(_) => vec![Answer::Do(true), Answer::Do(false)],
            Ask::Choose { options, may_pass, .. } => options
                .iter()
                .map(|o| Answer::Choose(Some(o.item)))
                .chain(may_pass.then_some(Answer::Choose(None)))
                .collect(),
            Ask::Count => (0..=MAX_FEATURES).map(Answer::Count).collect(),
        }
    }
}

impl Ask<'_> {
    /// The kind of answer it takes.
    pub fn kind(&self) -> Kind {
        match self {
            Ask::Do(_) => Kind::Do,
            Ask::Choose { .. } => Kind::Choose,
            Ask::Count => Kind::Count,
        }
    }
}

/// One answer to a [`Prompt`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Done (holds), or not.
    Do(bool),
    /// The option taken, or none.
    Choose(Option<ItemId>),
    /// The number of completed features.
    Count(u32),
}

impl Answer {
    /// The kind of prompt it answers.
    pub fn kind(&self) -> Kind {
        match self {
            Answer::Do(_) => Kind::Do,
            Answer::Choose(_) => Kind::Choose,
            Answer::Count(_) => Kind::Count,
        }
    }
}

/// The kinds of prompts and answers, as the `play` command names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `{"do": true|false}`
    Do,
    /// `{"choose": "item-id"|null}`
    Choose,
    /// `{"count": n}`
    Count,
}

impl Kind {
    /// Its name in the `play` command's JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Do => "do",
            Kind::Choose => "choose",
            Kind::Count => "count",
        }
    }
}

/// Why a turn refused an answer, or a saved turn its rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TurnError {
    /// The turn was made from other rules (or another selection).
    OtherRules {
        /// The turn's stamp.
        turn: String,
        /// The plan's fingerprint.
        rules: String,
    },
    /// A saved turn names a step or an item its rules do not have where it says.
    BadState(String),
    /// The answer is for another prompt than the pending one.
    Stale {
        /// The answer's `seq`.
        answered: u32,
        /// The pending prompt's `seq`.
        pending: u32,
    },
    /// The turn is over.
    Over,
    /// The answer is of another kind than the prompt.
    WrongKind {
        /// What the prompt asks.
        expected: Kind,
        /// What was answered.
        got: Kind,
    },
    /// The item is not one of the options offered.
    NotOffered(ItemId),
    /// No option taken, where one must be.
    MayNotPass,
    /// The item is a must: it cannot be declined.
    Must(ItemId),
    /// More completed features than [`MAX_FEATURES`].
    TooManyFeatures(u32),
    /// The answer would send the turn back more than [`MAX_GO_BACKS`] times.
    TooManyGoBacks(u32),
    /// An effect names a step that this selection does not have.
    NoSuchStep(StepId),
    /// The item is not one of the selection's "at any time" items.
    NotAnyTime(ItemId),
    /// A `once` item was done already this turn.
    DoneOnce(ItemId),
    /// The turn cannot be ended while a prompt waits.
    NotOver,
    /// The "at any time" item is the pending prompt's: answer it.
    Pending(ItemId),
}

impl std::fmt::Display for TurnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TurnError::OtherRules { turn, rules } => {
                write!(
                    f,
                    "the turn was saved from other rules or another selection (stamp {turn}, these rules {rules})"
                )
            }
            TurnError::BadState(what) => write!(f, "the saved turn is not one of these rules: {what}"),
            TurnError::Stale { answered, pending } => {
                write!(f, "the answer is for prompt {answered}, but prompt {pending} is pending")
            }
            TurnError::Over => write!(f, "the turn is over: nothing more to answer"),
            TurnError::WrongKind { expected, got } => {
                write!(f, "a `{}` answer to a `{}` prompt", got.name(), expected.name())
            }
            TurnError::NotOffered(_) => write!(f, "that option is not offered"),
            TurnError::MayNotPass => write!(f, "one of the options must be taken here"),
            TurnError::Must(_) => write!(f, "this must be done: it cannot be declined"),
            TurnError::TooManyFeatures(n) => write!(f, "{n} completed features is more than {MAX_FEATURES}"),
            TurnError::TooManyGoBacks(n) => write!(f, "the turn went back {n} times; giving up"),
            TurnError::NoSuchStep(_) => write!(f, "an effect names a step that this selection does not have"),
            TurnError::NotAnyTime(_) => write!(f, "not an item of \"at any time during your turn\""),
            TurnError::DoneOnce(_) => write!(f, "allowed only once per turn, and done already"),
            TurnError::NotOver => write!(f, "the turn cannot end while a prompt waits"),
            TurnError::Pending(_) => write!(f, "the pending prompt asks this item: answer it"),
        }
    }
}

impl std::error::Error for TurnError {}

/// As JSON: `{"code": "stale", "message": "the answer is for prompt 3, but prompt 4 is pending"}`.
impl Serialize for TurnError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("TurnError", 2)?;
        s.serialize_field("code", self.code())?;
        s.serialize_field("message", &self.to_string())?;
        s.end()
    }
}

impl TurnError {
    /// The kind of refusal, stable across releases, for an engine to act on
    /// (`stale`, `not-offered`, …) rather than on the message.
    pub const fn code(&self) -> &'static str {
        match self {
            TurnError::OtherRules { .. } => "other-rules",
            TurnError::BadState(_) => "bad-state",
            TurnError::Stale { .. } => "stale",
            TurnError::Over => "over",
            TurnError::WrongKind { .. } => "wrong-kind",
            TurnError::NotOffered(_) => "not-offered",
            TurnError::MayNotPass => "may-not-pass",
            TurnError::Must(_) => "must",
            TurnError::TooManyFeatures(_) => "too-many-features",
            TurnError::TooManyGoBacks(_) => "too-many-go-backs",
            TurnError::NoSuchStep(_) => "no-such-step",
            TurnError::NotAnyTime(_) => "not-any-time",
            TurnError::DoneOnce(_) => "done-once",
            TurnError::NotOver => "not-over",
            TurnError::Pending(_) => "pending",
        }
    }

    /// The refusal in the language of `plan`'s turn order where the
    /// program's words say it, in English where they do not (a saved turn's
    /// problems, the bounds).
    pub fn message(&self, plan: &Plan) -> String {
        let words = plan.words();
        match self {
            TurnError::Over => words.get(Word::PlayOver).to_string(),
            TurnError::MayNotPass => words.get(Word::PlayMustChoose).to_string(),
            TurnError::Must(_) => words.get(Word::PlayMust).to_string(),
            TurnError::NotOffered(_) => words.get(Word::PlayNotOffered).to_string(),
            TurnError::DoneOnce(_) => words.get(Word::PlayOnlyOnce).to_string(),
            TurnError::NotAnyTime(_) => {
                words.fill(Word::PlayNotAnyTime, &[("section", words.heading(Section::AnyTime))])
            }
            TurnError::WrongKind { expected, got } => {
                words.fill(Word::PlayWrongAnswer, &[("answer", got.name()), ("prompt", expected.name())])
            }
            TurnError::NoSuchStep(step) => {
                let name = plan.step_name(*step).unwrap_or("?");
                words.fill(Word::PlayNoSuchStep, &[("step", name)])
            }
            other => other.to_string(),
        }
    }
}

/// The pending prompt, by indices into the plan.
#[derive(Debug, Clone, Copy)]
enum Here {
    Do {
        s: usize,
        feature: Option<(u32, u32)>,
        i: usize,
    },
    Choose {
        s: usize,
        feature: Option<(u32, u32)>,
        of: Option<usize>,
    },
    Count {
        s: usize,
    },
    /// `i` indexes the plan's "at any time" items; `s` is the last step.
    Obligation {
        s: usize,
        i: usize,
    },
    Over,
}

/// Where the walk between two prompts goes next.
enum Go {
    Step(usize),
    Round(usize, Option<(u32, u32)>),
    Node(usize, Option<(u32, u32)>, usize),
    /// An action's `otherwise` sub-item, entered because the action was not done.
    Enter(usize, Option<(u32, u32)>, usize),
    After(usize),
    /// The obligations at any time from the `usize`th on, after step `s`.
    Obligations {
        s: usize,
        from: usize,
    },
    /// A prompt is set.
    Wait,
}

impl Turn {
    /// Starts a turn of `plan`, recording in `trace` what happens up to the
    /// first prompt.
    pub fn start(plan: &Plan, trace: &mut Trace) -> Turn {
        Turn::start_at(plan, 0, trace)
    }

    /// Starts a turn whose first prompt is numbered `seq`: an engine that
    /// carries the game's count of prompts from turn to turn
    /// (`Turn::start_at(plan, last_turn.seq(), …)`) makes every answer meant
    /// for an earlier turn stale, not only those of this turn.
    pub fn start_at(plan: &Plan, seq: u32, trace: &mut Trace) -> Turn {
        let order = plan.order;
        let mut turn = Turn {
            rules: plan.fingerprint.clone(),
            selection: Selection {
                edition: order.edition.to_string(),
                variant: order.variant.to_string(),
                modules: order.modules.join(","),
            },
            seq,
            part: 1,
            at: At::Over,
            double_turn: false,
            after_block: false,
            skipped: Vec::new(),
            once: Vec::new(),
            done_here: Vec::new(),
            forbidden: Vec::new(),
            forbidden_turn: Vec::new(),
            again: None,
            go_backs: 0,
            ended: false,
        };
        if plan.steps.is_empty() {
            trace.0.push(Event::End);
        } else {
            turn.walk(plan, trace, Go::Step(0));
        }
        turn
    }

    /// The selection the turn is played for.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// The stamp of the rules the turn was made from ([`Plan::fingerprint`]).
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// The pending prompt's `seq`: how many prompts were answered.
    pub fn seq(&self) -> u32 {
        self.seq
    }

    /// The turn is over: nothing more is asked. Until [`Turn::end`], "at
    /// any time" items are still taken.
    pub fn is_over(&self) -> bool {
        self.at == At::Over
    }

    /// The engine ends the turn: once it is over, nothing more is taken, not
    /// even an "at any time" item. Refused while a prompt is pending.
    pub fn end(&mut self, plan: &Plan) -> Result<(), TurnError> {
        match self.here(plan)? {
            Here::Over => {
                self.ended = true;
                Ok(())
            }
            _ => Err(TurnError::NotOver),
        }
    }

    /// [`Turn::end`] was called.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Refuses a turn made from other rules than `plan`'s, or one that names
    /// what `plan` lacks. [`Turn::prompt`] and [`Turn::answer`] check it too.
    pub fn check(&self, plan: &Plan) -> Result<(), TurnError> {
        self.here(plan).map(|_| ())
    }

    /// What the turn needs now; `None` when it is over.
    pub fn prompt<'o>(&self, plan: &Plan<'o>) -> Result<Option<Prompt<'o>>, TurnError> {
        let mut again = false;
        let (s, feature, ask, must, actor) = match self.here(plan)? {
            Here::Over => return Ok(None),
            Here::Do { s, feature, i } => {
                let entry = plan.steps[s].nodes[i].entry;
                again = self.asked_again(entry);
                (s, feature, Ask::Do(entry), entry.flow.must && !again, entry.flow.actor)
            }
            Here::Choose { s, feature, of } => {
                let nodes = &plan.steps[s].nodes;
                let options = plan.options(self, s, of).map(|o| nodes[o].entry).collect();
                let may_pass = plan.may_pass(s, of);
                let actor = of.map_or(Actor::Active, |i| nodes[i].entry.flow.actor);
                (s, feature, Ask::Choose { of: of.map(|i| nodes[i].entry), options, may_pass }, !may_pass, actor)
            }
            Here::Count { s } => (s, None, Ask::Count, true, Actor::Active),
            Here::Obligation { s, i } => {
                let entry = plan.any_time[i].entry;
                (s, None, Ask::Do(entry), entry.flow.role == Role::Action, entry.flow.actor)
            }
        };
        Ok(Some(Prompt { seq: self.seq, part: self.part, step: plan.steps[s].order, feature, ask, must, actor, again }))
    }

    /// Takes the answer to prompt `seq`, and plays on to the next prompt,
    /// recording in `trace` what happened. A refused answer changes nothing.
    pub fn answer(&mut self, plan: &Plan, seq: u32, answer: Answer, trace: &mut Trace) -> Result<(), TurnError> {
        let here = self.here(plan)?;
        if matches!(here, Here::Over) {
            return Err(TurnError::Over);
        }
        if seq != self.seq {
            return Err(TurnError::Stale { answered: seq, pending: self.seq });
        }
        let next = match (here, answer) {
            (Here::Do { s, feature, i }, Answer::Do(done)) => {
                let node = plan.steps[s].nodes[i];
                let asked_again = self.asked_again(node.entry);
                if asked_again {
                    // Whether to play the sub-items again: no effect, and "no" is allowed.
                } else if done {
                    self.check_effect(plan, node.entry)?;
                } else if node.entry.flow.must {
                    return Err(TurnError::Must(node.entry.item));
                }
                trace.0.push(Event::Item {
                    part: self.part,
                    step: plan.steps[s].order.step,
                    item: node.entry.item,
                    done,
                    actor: node.entry.flow.actor,
                });
                // Declined after a round, a `per_thing` item is over: its
                // `otherwise` branch is for a first "no" alone.
                let repeating = self.again.as_ref().is_some_and(|a| a.item == node.entry.id());
                if node.entry.flow.repeat.is_some() {
                    self.again(plan, s, done.then_some(i));
                }
                match (done, node.otherwise) {
                    // Again: its sub-items, not the item (its effect, `once`…).
                    (true, _) if asked_again => Go::Node(s, feature, i + 1),
                    (true, _) => self.take(plan, trace, s, feature, i),
                    // Not done: only what happens then.
                    (false, Some(otherwise)) if !repeating => Go::Enter(s, feature, otherwise),
                    (false, _) => Go::Node(s, feature, node.end),
                }
            }
            (Here::Choose { s, feature, of }, Answer::Choose(choice)) => {
                let step = plan.steps[s].order.step;
                let actor = of.map_or(Actor::Active, |i| plan.steps[s].nodes[i].entry.flow.actor);
                match choice {
                    None => {
                        if !plan.may_pass(s, of) {
                            return Err(TurnError::MayNotPass);
                        }
                        trace.0.push(Event::Chose { part: self.part, step, item: None, actor });
                        // No option: a `per_thing` choice is over.
                        let over = of.map(|r| plan.steps[s].nodes[r].entry.id());
                        if self.again.as_ref().is_some_and(|a| Some(a.item.as_str()) == over) {
                            self.again = None;
                        }
                        let nodes = &plan.steps[s].nodes;
                        Go::Node(s, feature, of.map_or(nodes.len(), |i| nodes[i].end))
                    }
                    Some(item) => {
                        let nodes = &plan.steps[s].nodes;
                        let Some(o) = plan.options(self, s, of).find(|&o| nodes[o].entry.item == item) else {
                            return Err(TurnError::NotOffered(item));
                        };
                        self.check_effect(plan, nodes[o].entry)?;
                        trace.0.push(Event::Chose { part: self.part, step, item: Some(item), actor });
                        if let Some(r) = of.filter(|&r| nodes[r].entry.flow.per_thing()) {
                            self.again(plan, s, Some(r));
                        }
                        self.take(plan, trace, s, feature, o)
                    }
                }
            }
            (Here::Obligation { s, i }, Answer::Do(done)) => {
                let entry = plan.any_time[i].entry;
                // An action must be done; a condition held or not.
                if !done && entry.flow.role == Role::Action {
                    return Err(TurnError::Must(entry.item));
                }
                let step = plan.steps[s].order.step;
                trace.0.push(Event::Item { part: self.part, step, item: entry.item, done, actor: entry.flow.actor });
                self.once.push(entry.id().to_string());
                Go::Obligations { s, from: i + 1 }
            }
            (Here::Count { s }, Answer::Count(n)) => {
                if n > MAX_FEATURES {
                    return Err(TurnError::TooManyFeatures(n));
                }
                let step = plan.steps[s].order.step;
                if n == 0 {
                    trace.0.push(Event::NoFeatures { part: self.part, step });
                    Go::After(s)
                } else {
                    trace.0.push(Event::Step { part: self.part, step, feature: Some((1, n)) });
                    Go::Round(s, Some((1, n)))
                }
            }
            (here, answer) => {
                let expected = match here {
                    Here::Do { .. } | Here::Obligation { .. } => Kind::Do,
                    Here::Choose { .. } => Kind::Choose,
                    _ => Kind::Count,
                };
                return Err(TurnError::WrongKind { expected, got: answer.kind() });
            }
        };
        self.seq += 1;
        self.walk(plan, trace, next);
        Ok(())
    }

    /// Reports that the player used `item`, one of the "at any time" items,
    /// while the pending prompt waits; a `once` item is refused the second
    /// time. It answers no prompt (`seq` stays) and applies no effect (`check`
    /// refuses effects there).
    pub fn any_time(&mut self, plan: &Plan, item: ItemId, trace: &mut Trace) -> Result<(), TurnError> {
        let step = match self.here(plan)? {
            // After the last prompt the turn is still the player's, at its last step.
            Here::Over if !self.ended => trace.last_step().ok_or(TurnError::Over)?,
            Here::Over => return Err(TurnError::Over),
            Here::Obligation { i, .. } if plan.any_time[i].entry.item == item => {
                return Err(TurnError::Pending(item));
            }
            Here::Do { s, .. } | Here::Choose { s, .. } | Here::Count { s } | Here::Obligation { s, .. } => {
                plan.steps[s].order.step
            }
        };
        let Some(node) = plan
            .any_time
            .iter()
            .find(|n| n.entry.item == item && matches!(n.entry.flow.role, Role::Action | Role::Condition))
        else {
            return Err(TurnError::NotAnyTime(item));
        };
        if node.once {
            if done_once(&self.once, node.entry) {
                return Err(TurnError::DoneOnce(item));
            }
            self.once.push(node.entry.id().to_string());
        }
        trace.0.push(Event::AnyTime { part: self.part, step, item });
        Ok(())
    }

    /// The pending prompt, located in `plan`; refuses a turn of other rules.
    fn here(&self, plan: &Plan) -> Result<Here, TurnError> {
        if self.rules != plan.fingerprint {
            return Err(TurnError::OtherRules { turn: self.rules.clone(), rules: plan.fingerprint.clone() });
        }
        let bad = |what: String| Err(TurnError::BadState(what));
        self.check_memory(plan)?;
        let step = |name: &str| plan.step_index(name).ok_or_else(|| TurnError::BadState(format!("no step {name}")));
        let feature = |s: usize, feature: Option<[u32; 2]>| match feature {
            None if plan.steps[s].order.repeat != Some(Repeat::PerFeature) => Ok(None),
            Some([n, of]) if (1..=of).contains(&n) && of <= MAX_FEATURES => Ok(Some((n, of))),
            _ => Err(TurnError::BadState(format!("feature {feature:?} in step {}", plan.steps[s].order.id))),
        };
        let node = |s: usize, name: &str| {
            plan.steps[s]
                .nodes
                .iter()
                .position(|n| n.entry.id() == name)
                .ok_or_else(|| TurnError::BadState(format!("no item {name} in step {}", plan.steps[s].order.id)))
        };
        Ok(match &self.at {
            At::Over => Here::Over,
            At::Obligation { step: name, item } => {
                let s = step(name)?;
                let i = plan.any_time.iter().position(|n| n.entry.id() == item && plan.is_obligation(n));
                match i {
                    Some(i) if !done_once(&self.once, plan.any_time[i].entry) => Here::Obligation { s, i },
                    _ => return bad(format!("no obligation {item} pending")),
                }
            }
            At::Count { step: name } => {
                let s = step(name)?;
                if plan.steps[s].order.repeat != Some(Repeat::PerFeature) {
                    return bad(format!("step {name} is not per feature"));
                }
                Here::Count { s }
            }
            At::Do { step: name, feature: f, item } => {
                let s = step(name)?;
                let i = node(s, item)?;
                let entry = plan.steps[s].nodes[i].entry;
                let flow = entry.flow;
                // A group is asked only whether to play its sub-items again.
                let asked = matches!(flow.role, Role::Action | Role::Condition) || self.asked_again(entry);
                if !asked || flow.choose_one && flow.role == Role::Action {
                    return bad(format!("item {item} is not asked"));
                }
                Here::Do { s, feature: feature(s, *f)?, i }
            }
            At::Choose { step: name, feature: f, of } => {
                let s = step(name)?;
                let of = match of {
                    None if plan.steps[s].order.choose_one => None,
                    Some(item) if plan.steps[s].nodes[node(s, item)?].entry.flow.choose_one => Some(node(s, item)?),
                    _ => return bad(format!("no choice at {of:?} in step {name}")),
                };
                Here::Choose { s, feature: feature(s, *f)?, of }
            }
        })
    }

    /// Refuses what the turn remembers when no play of `plan` could have
    /// left it so: the part and double turn, the steps skipped, the `once`
    /// items done, the go-backs and the prompts' count. (The pending prompt is
    /// checked where [`Turn::here`] finds it.)
    fn check_memory(&self, plan: &Plan) -> Result<(), TurnError> {
        let bad = |what: String| Err(TurnError::BadState(what));
        if self.double_turn && plan.block.is_none() {
            return bad("a double turn in a selection without one".into());
        }
        match self.part {
            1 if self.after_block => return bad("the steps after the block are left only in part 2".into()),
            1 => {}
            2 if !self.double_turn => return bad("part 2 without a double turn".into()),
            2 => {}
            part => return bad(format!("part {part}")),
        }
        if self.go_backs > MAX_GO_BACKS {
            return bad(format!("{} go-backs, more than {MAX_GO_BACKS}", self.go_backs));
        }
        if self.ended && self.at != At::Over {
            return bad("ended while a prompt waits".into());
        }
        if self.seq == u32::MAX {
            return bad("the prompts' count is at its limit".into());
        }
        if let Some(again) = &self.again {
            let known = plan
                .steps
                .iter()
                .flat_map(|s| &s.nodes)
                .any(|n| n.entry.flow.repeat.is_some() && n.entry.id() == again.item);
            if !known || again.rounds == 0 || again.rounds > MAX_FEATURES {
                return bad(format!("no repeating item {} done {} times", again.item, again.rounds));
            }
        }
        let skippable = |id: &str| {
            plan.nodes().any(|n| match n.entry.effect {
                Some(Effect::Skip(steps)) => steps.iter().any(|&s| n.entry.catalog.step_name(s) == id),
                _ => false,
            })
        };
        let once = |id: &str| plan.nodes().any(|n| n.once && n.entry.id() == id);
        let alternative = |id: &str| plan.nodes().any(|n| n.alternative && n.entry.id() == id);
        let forbids = |turn: bool, id: &str| {
            plan.nodes().any(|n| match n.entry.effect {
                Some(Effect::Forbid { items, turn: t }) => {
                    *t == turn && items.iter().any(|&i| n.entry.catalog.item_name(i) == id)
                }
                _ => false,
            })
        };
        let (forbidden, forbidden_turn) = (|id: &str| forbids(false, id), |id: &str| forbids(true, id));
        let lists = [
            (&self.skipped, &skippable as &dyn Fn(&str) -> bool, "skipped step"),
            (&self.once, &once, "once item"),
            (&self.done_here, &alternative, "item named by none_of"),
            (&self.forbidden, &forbidden, "item forbidden for the part"),
            (&self.forbidden_turn, &forbidden_turn, "item forbidden for the turn"),
        ];
        for (list, known, what) in lists {
            for (at, id) in list.iter().enumerate() {
                if !known(id) {
                    return bad(format!("no {what} {id}"));
                }
                if list[..at].contains(id) {
                    return bad(format!("the {what} {id} twice"));
                }
            }
        }
        Ok(())
    }

    /// Remembers that the repeating item at `r` of step `s` was done, to
    /// ask it again (counting the rounds); `None`: it was declined.
    fn again(&mut self, plan: &Plan, s: usize, r: Option<usize>) {
        self.again = r.map(|r| {
            let item = plan.steps[s].nodes[r].entry.id().to_string();
            let rounds = self.again.as_ref().filter(|a| a.item == item).map_or(0, |a| a.rounds) + 1;
            Again { item, rounds }
        });
    }

    /// The repeating item of step `s` to ask again now that the walk is at
    /// `i`, past its sub-items; none after [`MAX_FEATURES`] rounds in a row.
    fn repeat_due(&self, plan: &Plan, s: usize, i: usize) -> Option<usize> {
        let again = self.again.as_ref().filter(|a| a.rounds < MAX_FEATURES)?;
        let nodes = &plan.steps[s].nodes;
        let r = nodes.iter().position(|n| n.entry.id() == again.item)?;
        (i >= nodes[r].end).then_some(r)
    }

    /// The pending prompt of `entry` asks whether to play its sub-items
    /// again: it is an `until_done` item done in this round already.
    fn asked_again(&self, entry: &Entry) -> bool {
        entry.flow.until_done() && self.again.as_ref().is_some_and(|a| a.item == entry.id())
    }

    /// `entry` is ruled out by what was done: an item its `none_of` names
    /// was done in this pass of its step, or an effect forbade it.
    fn left_out(&self, entry: &Entry) -> bool {
        let id = entry.id();
        entry.none_of.iter().any(|&i| self.done_here.iter().any(|d| d == entry.catalog.item_name(i)))
            || self.forbidden.iter().chain(&self.forbidden_turn).any(|f| f == id)
    }

    /// Refuses an answer whose effect cannot apply.
    fn check_effect(&self, plan: &Plan, entry: &Entry) -> Result<(), TurnError> {
        if let Some(&Effect::GoBack(to)) = entry.effect {
            if plan.step_index_of(to).is_none() {
                return Err(TurnError::NoSuchStep(to));
            }
            if self.go_backs >= MAX_GO_BACKS {
                return Err(TurnError::TooManyGoBacks(self.go_backs));
            }
        }
        Ok(())
    }

    /// The item at `i` was done (or taken as an option): its effect applies,
    /// and its sub-items come next.
    fn take(&mut self, plan: &Plan, trace: &mut Trace, s: usize, feature: Option<(u32, u32)>, i: usize) -> Go {
        let node = plan.steps[s].nodes[i];
        if node.once {
            self.once.push(node.entry.id().to_string());
        }
        if node.alternative && !self.done_here.iter().any(|d| d == node.entry.id()) {
            self.done_here.push(node.entry.id().to_string());
        }
        match node.entry.effect {
            Some(Effect::Skip(steps)) => {
                for &step in steps.iter() {
                    let name = node.entry.catalog.step_name(step);
                    // A per-feature round may take the same skip again.
                    if !self.skipped.iter().any(|s| s == name) {
                        self.skipped.push(name.to_string());
                    }
                }
            }
            Some(Effect::DoubleTurn) if self.part == 1 && plan.block.is_some() => self.double_turn = true,
            Some(Effect::DoubleTurn) | None => {}
            // The feature is settled: on to the end of its round.
            Some(Effect::NextFeature) => {
                self.again = None;
                return Go::Node(s, feature, plan.steps[s].nodes.len());
            }
            Some(Effect::Forbid { items, turn }) => {
                let list = if *turn { &mut self.forbidden_turn } else { &mut self.forbidden };
                for &item in items.iter() {
                    let name = node.entry.catalog.item_name(item);
                    if !list.iter().any(|f| f == name) {
                        list.push(name.to_string());
                    }
                }
            }
            Some(&Effect::GoBack(to)) => {
                // Checked by `check_effect`.
                let to = plan.step_index_of(to).unwrap_or(s);
                let (from, to_step) = (plan.steps[s].order.step, plan.steps[to].order.step);
                trace.0.push(Event::GoBack { part: self.part, from, to: to_step });
                self.go_backs += 1;
                self.skipped.clear();
                self.again = None;
                return Go::Step(to);
            }
        }
        if node.entry.flow.choose_one {
            self.choose(plan, trace, s, feature, Some(i))
        } else {
            Go::Node(s, feature, i + 1)
        }
    }

    /// A choose-one prompt; the one option taken where it is the only one
    /// and must be taken; past the choice when nothing is offered.
    fn choose(
        &mut self,
        plan: &Plan,
        trace: &mut Trace,
        s: usize,
        feature: Option<(u32, u32)>,
        of: Option<usize>,
    ) -> Go {
        let (first, second) = {
            let mut options = plan.options(self, s, of);
            (options.next(), options.next())
        };
        if let (Some(only), None, false) = (first, second, plan.may_pass(s, of)) {
            let nodes = &plan.steps[s].nodes;
            // Its effect, if any, is checked like an answer's; one that cannot apply leaves it to be asked.
            if self.check_effect(plan, nodes[only].entry).is_ok() {
                let actor = of.map_or(Actor::Active, |i| nodes[i].entry.flow.actor);
                let step = plan.steps[s].order.step;
                trace.0.push(Event::Taken { part: self.part, step, item: nodes[only].entry.item, actor });
                return self.take(plan, trace, s, feature, only);
            }
        }
        if first.is_some() {
            self.at = At::Choose {
                step: plan.steps[s].order.id.to_string(),
                feature: feature.map(|(n, of)| [n, of]),
                of: of.map(|i| plan.steps[s].nodes[i].entry.id().to_string()),
            };
            Go::Wait
        } else {
            let nodes = &plan.steps[s].nodes;
            Go::Node(s, feature, of.map_or(nodes.len(), |i| nodes[i].end))
        }
    }

    /// Plays from `go` to the next prompt (or the end), recording in `trace`.
    fn walk(&mut self, plan: &Plan, trace: &mut Trace, mut go: Go) {
        loop {
            go = match go {
                Go::Wait => return,
                Go::Step(s) => {
                    let step = plan.steps[s].order;
                    if self.skipped.iter().any(|id| *id == step.id) {
                        trace.0.push(Event::Skipped { part: self.part, step: step.step });
                        Go::After(s)
                    } else if step.repeat == Some(Repeat::PerFeature) {
                        self.at = At::Count { step: step.id.to_string() };
                        return;
                    } else {
                        trace.0.push(Event::Step { part: self.part, step: step.step, feature: None });
                        Go::Round(s, None)
                    }
                }
                Go::Round(s, feature) => {
                    // A new pass of the step: nothing of it is done yet.
                    self.done_here.clear();
                    self.again = None;
                    if plan.steps[s].order.choose_one {
                        self.choose(plan, trace, s, feature, None)
                    } else {
                        Go::Node(s, feature, 0)
                    }
                }
                // Past a repeating item done: it is asked again.
                Go::Node(s, feature, i) if self.repeat_due(plan, s, i).is_some() => {
                    let r = self.repeat_due(plan, s, i).unwrap_or(i);
                    let node = plan.steps[s].nodes[r];
                    let offered = !node.entry.flow.choose_one || plan.options(self, s, Some(r)).next().is_some();
                    if !offered || (node.once && done_once(&self.once, node.entry)) || self.left_out(node.entry) {
                        // Nothing left to do again.
                        self.again = None;
                        Go::Node(s, feature, i)
                    } else if node.entry.flow.choose_one {
                        self.choose(plan, trace, s, feature, Some(r))
                    } else {
                        self.at = At::Do {
                            step: plan.steps[s].order.id.to_string(),
                            feature: feature.map(|(n, of)| [n, of]),
                            item: node.entry.id().to_string(),
                        };
                        return;
                    }
                }
                go @ (Go::Node(s, feature, i) | Go::Enter(s, feature, i)) => {
                    let entered = matches!(go, Go::Enter(..));
                    let nodes = &plan.steps[s].nodes;
                    match nodes.get(i) {
                        None => match feature {
                            Some((n, of)) if n < of => {
                                let feature = Some((n + 1, of));
                                trace.0.push(Event::Step { part: self.part, step: plan.steps[s].order.step, feature });
                                Go::Round(s, feature)
                            }
                            _ => Go::After(s),
                        },
                        // Reached past the option taken: the others are not played.
                        Some(node) if node.option => Go::Node(s, feature, node.scope_end),
                        // Reached after its action's other sub-items: the action was done.
                        Some(node) if node.entry.flow.otherwise && !entered => Go::Node(s, feature, node.end),
                        Some(node) => {
                            let flow = node.entry.flow;
                            let step = plan.steps[s].order.step;
                            if flow.role == Role::Note {
                                Go::Node(s, feature, node.end)
                            } else if node.once && done_once(&self.once, node.entry) {
                                trace.0.push(Event::Once { part: self.part, step, item: node.entry.item });
                                Go::Node(s, feature, node.end)
                            } else if self.left_out(node.entry) {
                                trace.0.push(Event::LeftOut { part: self.part, step, item: node.entry.item });
                                Go::Node(s, feature, node.end)
                            } else if flow.role == Role::Group && !flow.choose_one {
                                // A group is never asked: entered, it is done once.
                                if flow.until_done() {
                                    self.again(plan, s, Some(i));
                                }
                                Go::Node(s, feature, i + 1)
                            } else if flow.role == Role::Condition || !flow.choose_one {
                                self.at = At::Do {
                                    step: plan.steps[s].order.id.to_string(),
                                    feature: feature.map(|(n, of)| [n, of]),
                                    item: node.entry.id().to_string(),
                                };
                                return;
                            } else {
                                self.choose(plan, trace, s, feature, Some(i))
                            }
                        }
                    }
                }
                Go::After(s) => match self.next_step(plan, trace, s) {
                    Some(next) => Go::Step(next),
                    None => Go::Obligations { s, from: 0 },
                },
                Go::Obligations { s, from } => {
                    let pending = plan
                        .any_time
                        .iter()
                        .enumerate()
                        .skip(from)
                        .find(|(_, n)| plan.is_obligation(n) && !done_once(&self.once, n.entry));
                    match pending {
                        Some((_, n)) => {
                            let step = plan.steps[s].order.id.to_string();
                            self.at = At::Obligation { step, item: n.entry.id().to_string() };
                        }
                        None => {
                            self.at = At::Over;
                            trace.0.push(Event::End);
                        }
                    }
                    return;
                }
            }
        }
    }

    /// The step after step `s`, following the double turn; `None` at the end.
    fn next_step(&mut self, plan: &Plan, trace: &mut Trace, s: usize) -> Option<usize> {
        let len = plan.steps.len();
        if let Some((first, last)) = plan.block {
            let second_part = |turn: &mut Turn, trace: &mut Trace, after_block| {
                turn.part = 2;
                turn.after_block = after_block;
                turn.skipped.clear();
                turn.forbidden.clear();
                trace.0.push(Event::Part { part: 2 });
                Some(first)
            };
            if self.part == 1 && self.double_turn && s == last {
                return second_part(self, trace, true);
            }
            if self.part == 2 && s == last && !self.after_block {
                return None;
            }
            if self.part == 1 && self.double_turn && s + 1 >= len {
                return second_part(self, trace, false);
            }
        }
        Some(s + 1).filter(|&n| n < len)
    }
}
