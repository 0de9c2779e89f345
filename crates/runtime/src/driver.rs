//! Playing one turn: walks the turn order step by step, lets a [`Handler`]
//! carry out each item, and follows the items' effects — the builder's double
//! turn, step 3B once per completed feature, the princess's skip, and going
//! back to 1B when a tile cannot be placed. Everything is recorded in a trace.

use std::fmt;

use carcassonne_rules_core::{Effect, Entry, Repeat, StepId, StepOrder, TurnOrder};

/// The game engine's side of a turn. An engine matches the typed ids it is
/// handed against the generated constants:
///
/// ```
/// use carcassonne_rules_runtime::core::{Entry, StepId};
/// use carcassonne_rules_runtime::driver::{Handler, play_turn};
/// use carcassonne_rules_runtime::generated::{edition, item, step};
///
/// /// An engine whose tile never fits, so the turn goes back to drawing once.
/// #[derive(Default)]
/// struct Engine {
///     draws: usize,
///     placements: usize,
/// }
///
/// impl Handler for Engine {
///     fn perform(&mut self, in_step: StepId, entry: &Entry) -> bool {
///         match entry.item {
///             item::DRAW_TILE => {
///                 assert_eq!(in_step, step::S1B);
///                 self.draws += 1;
///                 false
///             }
///             // No legal spot the first time: back to 1B.
///             item::PLACE_TILE_NO_LEGAL_SPOT => {
///                 self.placements += 1;
///                 self.placements == 1
///             }
///             _ => false,
///         }
///     }
///     fn completed_features(&mut self) -> usize {
///         0
///     }
/// }
///
/// let cfg = carcassonne_rules_runtime::config(edition::C2);
/// let order = carcassonne_rules_runtime::turn_order(&cfg);
/// let mut engine = Engine::default();
/// play_turn(&order, &mut engine).expect("a finished turn");
/// assert_eq!((engine.draws, engine.placements), (2, 2));
/// ```
pub trait Handler {
    /// Carries out `item` during `step`. Returns whether the item's effect
    /// applies (the princess was used, the tile could not be placed, the
    /// builder's feature was extended, …). Items without an effect may return
    /// anything.
    fn perform(&mut self, step: StepId, item: &Entry) -> bool;

    /// How many features were completed, asked when a per-feature step begins.
    fn completed_features(&mut self) -> usize;
}

/// One entry of a [`Trace`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A part of the turn begins (a double turn has two).
    Part(usize),
    /// A step begins; `feature` is `(n, of)` for per-feature steps.
    Step {
        /// The step's id (`1B`).
        id: String,
        /// Which completed feature this round is for, and out of how many.
        feature: Option<(usize, usize)>,
    },
    /// An item was carried out; `depth` is 0 for a step's own items.
    Item {
        /// The item's id.
        id: String,
        /// How deeply the item is nested under the step.
        depth: usize,
        /// The item has an effect and the handler said it applies.
        applied: bool,
    },
    /// A step left out by an earlier effect.
    Skipped(String),
    /// A per-feature step with no completed feature.
    NoFeatures(String),
    /// An effect sent the turn back; the rest of the current step is dropped.
    GoBack {
        /// The step the turn continues at.
        to: String,
    },
    /// The turn is over.
    End,
}

/// Everything that happened in one turn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace(pub Vec<Event>);

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for event in &self.0 {
            match event {
                Event::Part(n) => writeln!(f, "part {n}")?,
                Event::Step { id, feature: None } => writeln!(f, "  step {id}")?,
                Event::Step { id, feature: Some((n, of)) } => writeln!(f, "  step {id} (feature {n} of {of})")?,
                Event::Item { id, depth, applied } => {
                    let indent = "  ".repeat(depth + 2);
                    writeln!(f, "{indent}{id}{}", if *applied { " (applies)" } else { "" })?
                }
                Event::Skipped(id) => writeln!(f, "  step {id} skipped")?,
                Event::NoFeatures(id) => writeln!(f, "  step {id}: no completed feature")?,
                Event::GoBack { to } => writeln!(f, "  go back to {to}")?,
                Event::End => writeln!(f, "end of turn")?,
            }
        }
        Ok(())
    }
}

/// Why [`play_turn`] could not finish a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnError {
    /// The handler kept sending the turn back; a real game cannot loop forever.
    TooManyGoBacks(usize),
    /// An effect names a step that does not exist for this selection.
    NoSuchStep(String),
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::TooManyGoBacks(n) => write!(f, "the turn went back {n} times; giving up"),
            TurnError::NoSuchStep(id) => write!(f, "an effect names step {id}, which this selection does not have"),
        }
    }
}

impl std::error::Error for TurnError {}

/// More go-backs than this in one turn is a handler bug, not a game.
pub const MAX_GO_BACKS: usize = 100;

/// Plays one turn of `order` through `handler`.
pub fn play_turn(order: &TurnOrder, handler: &mut dyn Handler) -> Result<Trace, TurnError> {
    let steps: Vec<&StepOrder> = order.steps().collect();
    let index = |id: &str| steps.iter().position(|s| s.id == id).ok_or_else(|| TurnError::NoSuchStep(id.to_string()));
    let mut turn =
        Turn { trace: Trace::default(), skipped: Vec::new(), go_back: None, double_turn: false, second_part: false };
    let mut part = 1;
    let mut go_backs = 0;
    let mut i = 0;
    turn.trace.0.push(Event::Part(part));
    while i < steps.len() {
        let step = steps[i];
        i += 1;
        if turn.skipped.iter().any(|s| *s == step.id) {
            turn.trace.0.push(Event::Skipped(step.id.to_string()));
            continue;
        }
        if step.repeat == Some(Repeat::PerFeature) {
            let features = handler.completed_features();
            if features == 0 {
                turn.trace.0.push(Event::NoFeatures(step.id.to_string()));
            }
            for n in 1..=features {
                turn.trace.0.push(Event::Step { id: step.id.to_string(), feature: Some((n, features)) });
                turn.items(step.step, &step.items, 0, handler);
            }
        } else {
            turn.trace.0.push(Event::Step { id: step.id.to_string(), feature: None });
            turn.items(step.step, &step.items, 0, handler);
        }
        if let Some(to) = turn.go_back.take() {
            go_backs += 1;
            if go_backs > MAX_GO_BACKS {
                return Err(TurnError::TooManyGoBacks(go_backs - 1));
            }
            turn.trace.0.push(Event::GoBack { to: to.clone() });
            turn.skipped.clear();
            i = index(&to)?;
            continue;
        }
        if i == steps.len() && turn.double_turn && !turn.second_part {
            // The builder's second part: the double-turn block once more.
            part = 2;
            turn.second_part = true;
            turn.skipped.clear();
            turn.trace.0.push(Event::Part(part));
            i = steps.iter().position(|s| s.repeat == Some(Repeat::DoubleTurn)).unwrap_or(steps.len());
        }
    }
    turn.trace.0.push(Event::End);
    Ok(turn.trace)
}

struct Turn {
    trace: Trace,
    skipped: Vec<String>,
    go_back: Option<String>,
    double_turn: bool,
    /// In the second part a double turn can no longer be earned.
    second_part: bool,
}

impl Turn {
    fn items(&mut self, step: StepId, items: &[Entry], depth: usize, handler: &mut dyn Handler) {
        for item in items {
            if self.go_back.is_some() {
                return;
            }
            let effect = item.effect.filter(|e| !(**e == Effect::DoubleTurn && self.second_part));
            let performed = handler.perform(step, item);
            let applied = performed && effect.is_some();
            self.trace.0.push(Event::Item { id: item.id.to_string(), depth, applied });
            match effect.filter(|_| performed) {
                Some(Effect::Skip(steps)) => self.skipped.extend(steps.iter().map(|s| s.to_string())),
                Some(Effect::GoBack(to)) => self.go_back = Some(to.to_string()),
                Some(Effect::DoubleTurn) => self.double_turn = true,
                None => {}
            }
            self.items(step, &item.children, depth + 1, handler);
        }
    }
}
