//! The static description of compiled rules: phases, steps, items and their
//! texts. The generated code holds one [`Tables`]; what a selection shows is a
//! [`Visible`](crate::Visible) over its indices.

use crate::order::{DoubleTurnBlock, Effect, Repeat};
use crate::section::{Section, Sections};
use crate::select::{EditionId, ModuleId};

/// A step, by its position among all steps of all phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepId(pub u8);

/// An item, by its position in a pre-order walk of every section's items
/// (notes, setup, any time, the steps in order, final scoring).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub u16);

/// A marker of an item, by its position among all items' markers in item order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MarkerId(pub u16);

/// A candidate for an item's origin, by its position among all items'
/// candidates in item order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OriginId(pub u16);

/// Everything about compiled rules that does not depend on the selection.
#[derive(Debug)]
pub struct Tables {
    /// The phases, in order.
    pub phases: &'static [PhaseInfo],
    /// Every step, by [`StepId`].
    pub steps: &'static [StepInfo],
    /// Every item, by [`ItemId`].
    pub items: &'static [ItemInfo],
    /// Every marker's label, by [`MarkerId`].
    pub markers: &'static [&'static str],
    /// Every origin candidate's module, by [`OriginId`].
    pub origins: &'static [ModuleId],
    /// Top-level items of the sections outside the steps.
    pub sections: Sections<&'static [ItemId]>,
    /// The steps a double turn plays once more, where the selection has
    /// double turns ([`Visible::double_turn`](crate::Visible)).
    pub double_turn: Option<DoubleTurnBlock>,
}

impl Tables {
    /// The top-level items of a section outside the steps.
    pub fn section(&self, section: Section) -> &'static [ItemId] {
        self.sections[section]
    }
}

/// A phase and its steps.
#[derive(Debug)]
pub struct PhaseInfo {
    /// `1` to `4`.
    pub id: &'static str,
    /// What the phase is about.
    pub title: &'static str,
    /// Its steps, in order.
    pub steps: &'static [StepId],
}

/// A step and its top-level items.
#[derive(Debug)]
pub struct StepInfo {
    /// `1A` … `4B`.
    pub id: &'static str,
    /// What the step is about.
    pub title: &'static str,
    /// How the step repeats, where its repeat condition holds.
    pub repeat: Option<Repeat>,
    /// The player does exactly one of the items.
    pub choose_one: bool,
    /// With `choose_one`: the player may also take none of them.
    pub may_pass: bool,
    /// Top-level items, in order.
    pub items: &'static [ItemId],
}

/// One item: what it says and does; whether it shows is the generated code's
/// business.
#[derive(Debug)]
pub struct ItemInfo {
    /// Unique among the rules' items.
    pub id: &'static str,
    /// The text, per edition where it differs.
    pub text: EditionText,
    /// The candidates for the item's origin, in the condition's order: the
    /// origin is the module of the first that the selection shows (a module
    /// selected in a part of the condition that holds), else its parent's
    /// origin, else the base game.
    pub origins: &'static [OriginId],
    /// The item's markers, each shown where its own condition holds.
    pub markers: &'static [MarkerId],
    /// Editions in which the item (or its parent) comes from another edition.
    pub foreign: &'static [EditionId],
    /// What carrying the item out does to the turn.
    pub effect: Option<Effect>,
    /// How the item takes part when a turn is played.
    pub flow: Flow,
    /// "If you did none of the above": the items that leave it out.
    pub none_of: &'static [ItemId],
    /// Sub-items, in order.
    pub children: &'static [ItemId],
}

/// What playing a turn asks of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Something the player carries out. Asked as "was it done?"; its
    /// sub-items are how it was done and what follows, played only when it
    /// was done — but for an `otherwise` sub-item, played only when it was not.
    Action,
    /// A question about the game ("if the tile shows a magic symbol"). Asked
    /// as "does it hold?"; its sub-items and its effect apply only when it does.
    Condition,
    /// A heading ("Only once:"): never asked; its sub-items are played.
    Group,
    /// Something to read: never asked, and nothing under it is played.
    Note,
}

/// How an item takes part in playing a turn. An item's effect applies when
/// its prompt is answered yes (done, or holds); an option's when it is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flow {
    /// What the item is.
    pub role: Role,
    /// "You may": an action the player may decline; with `choose_one`, the
    /// player may take none of the options.
    pub optional: bool,
    /// The sub-items are options: the player takes exactly one (at most one
    /// where `optional`), and only the one taken is played.
    pub choose_one: bool,
    /// "Only once" during the whole turn, both parts of a double turn counted.
    pub once: bool,
    /// What happens when the parent action was not done ("if the tile cannot
    /// be placed…"): played only then, and never when it was.
    pub otherwise: bool,
    /// "You must": an action that cannot be declined once it is reached;
    /// the turn asks only for it to be acknowledged.
    pub must: bool,
    /// Who carries the item out and answers its prompt.
    pub actor: Actor,
    /// How the item is played again, if it is (`repeat:`).
    pub repeat: Option<ItemRepeat>,
}

/// How an item is played again (the rules' `repeat:` of an item).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemRepeat {
    /// "For each tree and each meeple": an optional action played again,
    /// once per thing, until the player declines it (or takes no option).
    PerThing,
    /// "Repeat actions 1 and 2 until …": the item's sub-items are played in
    /// order, then the player is asked whether to play them again.
    UntilDone,
}

impl ItemRepeat {
    /// Every repeat of an item, with its name in the rules: the one list the
    /// compiler, the rules' JSON Schema and the editor take them from.
    pub const ALL: [(&'static str, ItemRepeat); 2] =
        [("per_thing", ItemRepeat::PerThing), ("until_done", ItemRepeat::UntilDone)];

    /// The names alone, in the order of [`ItemRepeat::ALL`].
    pub const NAMES: [&'static str; 2] = [ItemRepeat::ALL[0].0, ItemRepeat::ALL[1].0];

    /// Its name in the rules (`per_thing`).
    pub fn name(self) -> &'static str {
        ItemRepeat::ALL.iter().find(|(_, r)| *r == self).map_or("", |(name, _)| name)
    }
}

impl Flow {
    /// A `per_thing` item: played again once per thing.
    pub fn per_thing(&self) -> bool {
        self.repeat == Some(ItemRepeat::PerThing)
    }

    /// An `until_done` item: its sub-items played again while the player says so.
    pub fn until_done(&self) -> bool {
        self.repeat == Some(ItemRepeat::UntilDone)
    }
}

impl Flow {
    /// An action of the active player's, neither optional nor a must (done
    /// where it applies): the default when the rules say nothing.
    pub const ACTION: Flow = Flow {
        role: Role::Action,
        optional: false,
        choose_one: false,
        once: false,
        otherwise: false,
        must: false,
        actor: Actor::Active,
        repeat: None,
    };
}

/// Who carries an item out and answers its prompt (the rules' `actor:`).
/// Where several players act, they do so in the order given, and one prompt
/// stands for all of them: done when any of them did it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The player whose turn it is.
    Active,
    /// The player on the active player's left.
    Left,
    /// Every player in turn order, the active player first.
    Each,
    /// Every player in turn order from the one on the left, the active player last.
    EachFromLeft,
    /// The player the feature, figure or tile concerns (the owner of the
    /// small city, of the captured meeple).
    Owner,
    /// Each player who scores.
    Scorers,
}

impl Actor {
    /// Every actor, with its name in the rules and in the `play` contract.
    pub const ALL: [(&'static str, Actor); 6] = [
        ("active", Actor::Active),
        ("left", Actor::Left),
        ("each", Actor::Each),
        ("each_from_left", Actor::EachFromLeft),
        ("owner", Actor::Owner),
        ("scorers", Actor::Scorers),
    ];

    /// Its name in the rules and in the `play` contract (`each_from_left`).
    pub fn name(self) -> &'static str {
        Actor::ALL.iter().find(|(_, a)| *a == self).map_or("active", |(name, _)| name)
    }
}

/// An item's text in each edition, as the generated tables hold it (the
/// compiler's `model::Wording`, read out per edition).
#[derive(Debug)]
pub enum EditionText {
    /// The same in every edition.
    Same(&'static str),
    /// Each edition with its text.
    ByEdition(&'static [(EditionId, &'static str)]),
}

impl EditionText {
    /// The text in `edition`.
    #[inline]
    pub fn get(&self, edition: EditionId) -> &'static str {
        match self {
            EditionText::Same(text) => text,
            EditionText::ByEdition(texts) => texts.iter().find(|(e, _)| *e == edition).map_or("", |(_, text)| text),
        }
    }
}
