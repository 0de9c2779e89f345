//! The turn order for one selection, as both the generated code and the
//! interpreter produce it, and the selection itself.

use serde::Serialize;

/// An edition and a set of selected modules. Indices follow the rules'
/// `editions.yaml` and `modules.yaml` (see [`Catalog`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    pub edition: usize,
    /// The publisher's rule variant (HiG, ZMG, RGG).
    pub variant: usize,
    /// Bit `i` set = module `i` selected.
    pub modules: u128,
}

impl Config {
    /// Whether the module with bit mask `module` is selected.
    #[inline]
    pub fn has(&self, module: u128) -> bool {
        self.modules & module != 0
    }

    /// The ids of the selected modules, sorted.
    pub fn module_ids(&self, modules: &[(&str, &str)]) -> Vec<String> {
        let mut ids: Vec<String> = modules
            .iter()
            .enumerate()
            .filter(|(i, _)| self.modules & (1 << i) != 0)
            .map(|(_, (id, _))| id.to_string())
            .collect();
        ids.sort();
        ids
    }
}

/// The labels of the markers whose condition holds.
pub fn markers(candidates: &[(bool, &str)]) -> Vec<String> {
    candidates.iter().filter(|(shown, _)| *shown).map(|(_, label)| label.to_string()).collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnOrder {
    pub edition: String,
    /// The publisher's rule variant; not part of the JSON contract.
    #[serde(skip)]
    pub variant: String,
    pub modules: Vec<String>,
    pub notes: Vec<Entry>,
    pub setup: Vec<Entry>,
    pub any_time: Vec<Entry>,
    pub phases: Vec<PhaseOrder>,
    pub final_scoring: Vec<Entry>,
}

impl TurnOrder {
    /// The steps that exist for this selection, in order.
    pub fn steps(&self) -> impl Iterator<Item = &StepOrder> {
        self.phases.iter().flat_map(|p| &p.steps)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseOrder {
    pub id: String,
    pub title: String,
    pub steps: Vec<StepOrder>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepOrder {
    pub id: String,
    pub title: String,
    pub repeat: Option<Repeat>,
    /// The player does exactly one of the items; not part of the JSON contract.
    #[serde(skip)]
    pub choose_one: bool,
    pub items: Vec<Entry>,
}

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
    pub id: String,
    /// The module that brings the item, or "base".
    pub origin: String,
    pub text: String,
    pub markers: Vec<String>,
    /// The item comes from another edition than the one selected.
    pub foreign: bool,
    /// How carrying the item out changes the course of the turn.
    #[serde(skip)]
    pub effect: Option<Effect>,
    pub children: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Skip these steps for the rest of this part of the turn.
    Skip(Vec<String>),
    /// Continue the turn at this step.
    GoBack(String),
    /// Play steps 1B–4A once more (the builder).
    DoubleTurn,
}
