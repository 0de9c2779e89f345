//! A selection's turn order: what the renderers print, the JSON output
//! serializes and the turn driver walks. Its strings borrow from the rules it
//! was resolved from (the generated code's static tables: nothing is copied),
//! and each step and item carries its typed id, which an engine matches
//! against the generated `step::…` and `item::…` constants.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};

use crate::catalog::Catalog;
use crate::section::{Section, Sections};
use crate::select::ModuleId;
use crate::tables::{Flow, ItemId, StepId};
use crate::words::{Word, Words};

/// A string of the rules: borrowed from them, owned where it was put together.
pub type Str<'a> = Cow<'a, str>;

/// The turn order for one selection (the `order --format json` contract).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnOrder<'a> {
    /// The edition's id.
    pub edition: Str<'a>,
    /// The publisher's rule variant in force.
    pub variant: Str<'a>,
    /// The selected module ids, sorted.
    pub modules: Vec<Str<'a>>,
    /// The items of the sections outside the steps (notes, setup, any time,
    /// final scoring), each serialized under its name: the first three
    /// before `phases`, final scoring after them.
    pub sections: Sections<Vec<Entry<'a>>>,
    /// The four phases and the steps that exist for the selection.
    pub phases: Vec<PhaseOrder<'a>>,
    /// The steps a double turn plays a second time, where the selection has
    /// a double turn (the builder).
    pub double_turn: Option<DoubleTurnBlock>,
    /// The language of its texts when it was translated (`nl`); none for the
    /// rules' own English.
    pub lang: Option<Str<'a>>,
    /// The program's words in that language (`Step`, the headings), for the
    /// renderers; none for English.
    pub words: Option<Words<'a>>,
}

/// The contract's field order: the selection, the sections before the steps,
/// the phases, the sections after them (the double-turn block is not part of
/// it).
impl Serialize for TurnOrder<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("TurnOrder", 5 + Section::ALL.len())?;
        out.serialize_field("edition", &self.edition)?;
        out.serialize_field("variant", &self.variant)?;
        out.serialize_field("modules", &self.modules)?;
        if let Some(lang) = &self.lang {
            out.serialize_field("lang", lang)?;
        }
        for section in Section::BEFORE_STEPS {
            out.serialize_field(section.name(), &self.sections[section])?;
        }
        out.serialize_field("phases", &self.phases)?;
        for section in Section::AFTER_STEPS {
            out.serialize_field(section.name(), &self.sections[section])?;
        }
        out.end()
    }
}

/// The steps a double turn plays once more, `first` to `last` inclusive, in
/// turn order. A step inside the block keeps its own repeat (3B is still
/// played once per completed feature).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DoubleTurnBlock {
    /// The block's first step (1B).
    pub first: StepId,
    /// The block's last step (4A).
    pub last: StepId,
}

impl<'a> TurnOrder<'a> {
    /// The steps that exist for this selection, in order.
    pub fn steps(&self) -> impl Iterator<Item = &StepOrder<'a>> {
        self.phases.iter().flat_map(|p| &p.steps)
    }

    /// The items of a section outside the steps.
    pub fn section(&self, section: Section) -> &[Entry<'a>] {
        &self.sections[section]
    }
}

/// One phase of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseOrder<'a> {
    /// `1` to `4`.
    pub id: Str<'a>,
    /// What the phase is about.
    pub title: Str<'a>,
    /// Its steps that exist for the selection.
    pub steps: Vec<StepOrder<'a>>,
}

/// One step of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepOrder<'a> {
    /// The step, as the generated `step::…` constants name it.
    #[serde(skip)]
    pub step: StepId,
    /// `1A` … `4B`: its id in the rules.
    pub id: Str<'a>,
    /// What the step is about.
    pub title: Str<'a>,
    /// Whether, and how, the step is repeated.
    pub repeat: Option<Repeat>,
    /// The player does exactly one of the items.
    pub choose_one: bool,
    /// With `choose_one`: the player may also take none of them.
    #[serde(skip)]
    pub may_pass: bool,
    /// The visible items, possibly none.
    pub items: Vec<Entry<'a>>,
}

/// How a step is repeated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Repeat {
    /// Part of the builder's block: done once, or twice on a double turn.
    DoubleTurn,
    /// Done once for each completed feature.
    PerFeature,
}

impl Repeat {
    /// What a step's heading says of the repeat (`once per completed feature`).
    pub const fn label(self) -> &'static str {
        self.word().english()
    }

    /// The word of the program that says it.
    pub const fn word(self) -> Word {
        match self {
            Repeat::DoubleTurn => Word::OnceOrTwice,
            Repeat::PerFeature => Word::OncePerFeature,
        }
    }
}

/// What a step with no visible item says.
pub const NO_ACTIONS: &str = Word::NoActions.english();
/// What a `choose_one` step says before its items.
pub const CHOOSE_ONE: &str = Word::ChooseOneLead.english();

/// One visible item of the turn order. Its ids are typed; their names in the
/// rules (what the JSON output and the renderers print) come from the
/// catalog it was resolved with: [`Entry::id`], [`Entry::origin_id`].
#[derive(Clone)]
pub struct Entry<'a> {
    /// The item, as the generated `item::…` constants name it.
    pub item: ItemId,
    /// The rules' catalog, which names the entry's ids.
    pub catalog: &'a Catalog,
    /// The selected module that brings the item, or the base game.
    pub origin: Origin,
    /// The item's text in the selected edition.
    pub text: Str<'a>,
    /// Visible markers, upper case (`ROBBER CHOICE`). A boxed slice, not a
    /// vector: it never grows, and the eight bytes saved keep an entry within
    /// 128 bytes, which moves without a call to `memcpy`.
    pub markers: Box<[Str<'a>]>,
    /// The item comes from another edition than the one selected.
    pub foreign: bool,
    /// How carrying the item out changes the course of the turn.
    pub effect: Option<&'a Effect>,
    /// How the item takes part when a turn is played.
    pub flow: Flow,
    /// "If you did none of the above": the earlier items of its step that,
    /// once done in a pass of the step, leave this one out of that pass.
    pub none_of: &'a [ItemId],
    /// Visible sub-items.
    pub children: Vec<Entry<'a>>,
    /// Whether its text is translated, in a translated turn order.
    pub translation: Option<Translation>,
}

/// What a translated turn order shows of an item's text: MediaWiki's
/// Translate's states (an outdated text is Translate's "fuzzy").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Translation {
    /// Translated from the English the rules hold.
    Translated,
    /// Translated from English that has changed since: shown, marked.
    Outdated,
    /// Not translated: the English is shown.
    Missing,
}

impl<'a> Entry<'a> {
    /// Its id in the rules, unique among their items (`draw-tile`).
    pub fn id(&self) -> &'a str {
        self.catalog.item_name(self.item)
    }

    /// [`Entry::origin`] by name: the module's id, or `base`.
    pub fn origin_id(&self) -> &'a str {
        self.catalog.origin_name(self.origin)
    }
}

/// Equal entries say the same: ids compared by name, so an entry of the
/// interpreted rules equals the compiled rules' one although each has its
/// own catalog.
impl PartialEq for Entry<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.item == other.item
            && self.id() == other.id()
            && self.origin == other.origin
            && self.origin_id() == other.origin_id()
            && self.text == other.text
            && self.markers == other.markers
            && self.foreign == other.foreign
            && self.effect == other.effect
            && self.flow == other.flow
            && self.children == other.children
            && self.translation == other.translation
    }
}

impl Eq for Entry<'_> {}

/// The ids by name, not the whole catalog.
impl fmt::Debug for Entry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("item", &self.item)
            .field("id", &self.id())
            .field("origin", &self.origin_id())
            .field("text", &self.text)
            .field("markers", &self.markers)
            .field("foreign", &self.foreign)
            .field("effect", &self.effect.map(|e| e.named(self.catalog)))
            .field("flow", &self.flow)
            .field("children", &self.children)
            .field("translation", &self.translation)
            .finish()
    }
}

/// The `order --format json` contract: `{"id", "origin", "text", "markers",
/// "foreign", "effect", "children"}`, ids by name.
impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entry = serializer.serialize_struct("Entry", 8)?;
        entry.serialize_field("id", self.id())?;
        entry.serialize_field("origin", self.origin_id())?;
        entry.serialize_field("text", &self.text)?;
        entry.serialize_field("markers", &self.markers)?;
        entry.serialize_field("foreign", &self.foreign)?;
        entry.serialize_field("effect", &self.effect.map(|e| e.named(self.catalog)))?;
        entry.serialize_field("children", &self.children)?;
        if let Some(translation) = self.translation {
            entry.serialize_field("translation", &translation)?;
        }
        entry.end()
    }
}

/// Where an item comes from, for the selection it was resolved for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The base game.
    Base,
    /// A selected module.
    Module(ModuleId),
}

impl Origin {
    /// How the JSON output and the renderers name the base game.
    pub const BASE: &'static str = "base";
}

/// What an item does to the course of the turn. Steps are named by their
/// typed ids; [`Effect::named`] gives their ids in the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Skip these steps for the rest of this part of the turn (the princess).
    /// Borrowed from the generated tables, owned when the rules were interpreted.
    Skip(Cow<'static, [StepId]>),
    /// Continue the turn at this step (the tile cannot be placed).
    GoBack(StepId),
    /// Play the builder's block once more.
    DoubleTurn,
    /// This completed feature is settled: the rest of its round of the
    /// per-feature step is not played (a castle is built).
    NextFeature,
    /// These items are ruled out for the rest of this part of the turn, or
    /// with `turn` for the whole turn: neither asked nor offered.
    Forbid {
        /// The items ruled out.
        items: Cow<'static, [ItemId]>,
        /// For the whole turn, both parts of a double turn.
        turn: bool,
    },
}

impl Effect {
    /// The effect with its steps named by `catalog`, for output.
    pub fn named<'c>(&self, catalog: &'c Catalog) -> NamedEffect<'c> {
        match self {
            Effect::Skip(steps) => NamedEffect::Skip(steps.iter().map(|&s| catalog.step_name(s)).collect()),
            Effect::GoBack(step) => NamedEffect::GoBack(catalog.step_name(*step)),
            Effect::DoubleTurn => NamedEffect::DoubleTurn,
            Effect::NextFeature => NamedEffect::NextFeature,
            Effect::Forbid { items, turn } => {
                NamedEffect::Forbid { items: items.iter().map(|&i| catalog.item_name(i)).collect(), turn: *turn }
            }
        }
    }
}

/// An [`Effect`] with its steps by their ids in the rules: `{"skip":
/// ["2B-1"]}`, `{"go_back": "1B"}`, `{"double_turn": true}`,
/// `{"next_feature": true}`, `{"forbid": ["item"], "for": "part"}`; as text
/// `skip 2B-1, 2B-2`, `go back to 1B`, `double turn`, `next feature`,
/// `forbid item` (`for the turn`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamedEffect<'c> {
    /// See [`Effect::Skip`].
    Skip(Vec<&'c str>),
    /// See [`Effect::GoBack`].
    GoBack(&'c str),
    /// See [`Effect::DoubleTurn`].
    DoubleTurn,
    /// See [`Effect::NextFeature`].
    NextFeature,
    /// See [`Effect::Forbid`].
    Forbid {
        /// The items ruled out.
        items: Vec<&'c str>,
        /// For the whole turn.
        turn: bool,
    },
}

impl Serialize for NamedEffect<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            NamedEffect::Skip(steps) => map.serialize_entry("skip", steps)?,
            NamedEffect::GoBack(step) => map.serialize_entry("go_back", step)?,
            NamedEffect::DoubleTurn => map.serialize_entry("double_turn", &true)?,
            NamedEffect::NextFeature => map.serialize_entry("next_feature", &true)?,
            NamedEffect::Forbid { items, turn } => {
                map.serialize_entry("forbid", items)?;
                map.serialize_entry("for", if *turn { "turn" } else { "part" })?;
            }
        }
        map.end()
    }
}

impl fmt::Display for NamedEffect<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NamedEffect::Skip(steps) => write!(f, "skip {}", steps.join(", ")),
            NamedEffect::GoBack(step) => write!(f, "go back to {step}"),
            NamedEffect::DoubleTurn => f.write_str("double turn"),
            NamedEffect::NextFeature => f.write_str("next feature"),
            NamedEffect::Forbid { items, turn } => {
                write!(f, "forbid {}{}", items.join(", "), if *turn { " for the turn" } else { "" })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_moves_without_a_memcpy_call() {
        // A resolved turn order moves every entry into its list once; at 128
        // bytes or less the move is a few vector stores (docs/performance.md).
        assert!(size_of::<Entry<'static>>() <= 128, "{} bytes", size_of::<Entry<'static>>());
    }
}
