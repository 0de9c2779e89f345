//! Playing one turn with synchronous callbacks: a [`Handler`] answers each
//! prompt of a [`Turn`] as it comes (the loop of [`play_turn`]). An engine
//! that gets its answers asynchronously, or saves the game mid-turn, drives
//! the [`Turn`] itself.

use carcassonne_rules_core::{Entry, ItemId, StepId, TurnOrder};

use crate::trace::Trace;
use crate::turn::{Answer, Ask, Plan, Turn, TurnError};

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
    /// anything, and a `must` item is done whatever it returns.
    fn perform(&mut self, step: StepId, item: &Entry) -> bool;

    /// Which of `options` the player takes during `step`; `None` (no option)
    /// only where `may_pass`. By default, the first option.
    fn choose(&mut self, step: StepId, options: &[&Entry], may_pass: bool) -> Option<ItemId> {
        let _ = (step, may_pass);
        options.first().map(|option| option.item)
    }

    /// How many features were completed, asked when a per-feature step begins.
    fn completed_features(&mut self) -> usize;

    /// Whether to play the sub-items of `item`, an `until_done` item ("repeat
    /// actions 1 and 2 until …"), once more, asked after each round of them.
    /// By default, no: they are played once.
    fn again(&mut self, step: StepId, item: &Entry) -> bool {
        let _ = (step, item);
        false
    }
}

/// Plays one turn of `order` through `handler`. An answer the turn refuses
/// (an option not offered, a pass where none is allowed, too many go-backs)
/// ends it with that error.
pub fn play_turn(order: &TurnOrder, handler: &mut dyn Handler) -> Result<Trace, TurnError> {
    let plan = Plan::new(order);
    let mut trace = Trace::default();
    let mut turn = Turn::start(&plan, &mut trace);
    while let Some(prompt) = turn.prompt(&plan)? {
        let step = prompt.step.step;
        let answer = match &prompt.ask {
            Ask::Do(entry) if prompt.again => Answer::Do(handler.again(step, entry)),
            // A must cannot be declined: carried out, it is done.
            Ask::Do(entry) => Answer::Do(handler.perform(step, entry) || prompt.must),
            Ask::Choose { options, may_pass, .. } => Answer::Choose(handler.choose(step, options, *may_pass)),
            Ask::Count => Answer::Count(u32::try_from(handler.completed_features()).unwrap_or(u32::MAX)),
        };
        turn.answer(&plan, prompt.seq, answer, &mut trace)?;
    }
    Ok(trace)
}
