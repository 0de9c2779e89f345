//! A selection's turn order as owned values: what the renderers print, the
//! JSON output serializes and the turn driver walks.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// The turn order for one selection (the `order --format json` contract).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnOrder {
    /// The edition's id.
    pub edition: String,
    /// The publisher's rule variant in force.
    pub variant: String,
    /// The selected module ids, sorted.
    pub modules: Vec<String>,
    /// Notes that depend on the selection (how to read the markers, …).
    pub notes: Vec<Entry>,
    /// Preparing the game.
    pub setup: Vec<Entry>,
    /// At any time during your turn.
    pub any_time: Vec<Entry>,
    /// The four phases and the steps that exist for the selection.
    pub phases: Vec<PhaseOrder>,
    /// Scoring at the end of the game.
    pub final_scoring: Vec<Entry>,
}

impl TurnOrder {
    /// The steps that exist for this selection, in order.
    pub fn steps(&self) -> impl Iterator<Item = &StepOrder> {
        self.phases.iter().flat_map(|p| &p.steps)
    }
}

/// One phase of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseOrder {
    /// `1` to `4`.
    pub id: String,
    /// What the phase is about.
    pub title: String,
    /// Its steps that exist for the selection.
    pub steps: Vec<StepOrder>,
}

/// One step of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepOrder {
    /// `1A` … `4B`.
    pub id: String,
    /// What the step is about.
    pub title: String,
    /// Whether, and how, the step is repeated.
    pub repeat: Option<Repeat>,
    /// The player does exactly one of the items.
    pub choose_one: bool,
    /// The visible items, possibly none.
    pub items: Vec<Entry>,
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

/// One visible item of the turn order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Unique among the rules' items.
    pub id: String,
    /// The selected module that brings the item, or `base`.
    pub origin: String,
    /// The item's text in the selected edition.
    pub text: String,
    /// Visible markers, upper case (`ROBBER CHOICE`).
    pub markers: Vec<String>,
    /// The item comes from another edition than the one selected.
    pub foreign: bool,
    /// How carrying the item out changes the course of the turn.
    pub effect: Option<Effect>,
    /// Visible sub-items.
    pub children: Vec<Entry>,
}

/// A step id inside an [`Effect`]: borrowed from the generated tables, owned
/// when the rules were interpreted.
pub type StepName = Cow<'static, str>;

/// What an item does to the course of the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Skip these steps for the rest of this part of the turn (the princess).
    Skip(Cow<'static, [StepName]>),
    /// Continue the turn at this step (the tile cannot be placed).
    GoBack(StepName),
    /// Play the builder's block once more.
    DoubleTurn,
}

/// `{"skip": ["2B-1"]}`, `{"go_back": "1B"}`, `{"double_turn": true}`.
impl Serialize for Effect {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        match self {
            Effect::Skip(steps) => map.serialize_entry("skip", steps)?,
            Effect::GoBack(step) => map.serialize_entry("go_back", step)?,
            Effect::DoubleTurn => map.serialize_entry("double_turn", &true)?,
        }
        map.end()
    }
}
