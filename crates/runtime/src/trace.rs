//! What happened in a turn: typed [`Event`]s for an engine, and the same
//! events by the rules' string ids ([`NamedEvent`]) for JSON and text.

use carcassonne_rules_core::escape::terminal;
use carcassonne_rules_core::words::Word;
use carcassonne_rules_core::{Actor, ItemId, StepId};
use serde::{Deserialize, Serialize};

use crate::turn::Plan;

/// One thing that happened in a turn. `part` is 1, or 2 in the second part
/// of a double turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// The second part of a double turn begins.
    Part {
        /// Always 2.
        part: u8,
    },
    /// A step begins; `feature` is `(n, of)` in a per-feature step.
    Step {
        /// See [`Event`].
        part: u8,
        /// The step.
        step: StepId,
        /// The completed feature this round is for, and out of how many.
        feature: Option<(u32, u32)>,
    },
    /// An action or condition was asked: done (holds), or not.
    Item {
        /// See [`Event`].
        part: u8,
        /// The step it was asked in.
        step: StepId,
        /// The item.
        item: ItemId,
        /// The answer.
        done: bool,
        /// Who answered.
        actor: Actor,
    },
    /// A choose-one was answered: the option taken, or none.
    Chose {
        /// See [`Event`].
        part: u8,
        /// The step it was asked in.
        step: StepId,
        /// The option taken.
        item: Option<ItemId>,
        /// Who answered.
        actor: Actor,
    },
    /// The only option of a choice that must be taken, taken without asking.
    Taken {
        /// See [`Event`].
        part: u8,
        /// The step it is in.
        step: StepId,
        /// The option.
        item: ItemId,
        /// Who takes it.
        actor: Actor,
    },
    /// An item left out by what was done before: one of the items its
    /// `none_of` names was done in this pass of the step ("if you did none
    /// of the above"), or an effect forbade it (`forbid`).
    LeftOut {
        /// See [`Event`].
        part: u8,
        /// The step it would have been asked in.
        step: StepId,
        /// The item.
        item: ItemId,
    },
    /// A step left out by an effect earlier in this part.
    Skipped {
        /// See [`Event`].
        part: u8,
        /// The step.
        step: StepId,
    },
    /// A per-feature step with no completed feature.
    NoFeatures {
        /// See [`Event`].
        part: u8,
        /// The step.
        step: StepId,
    },
    /// A `once` item left out: it was done already this turn.
    Once {
        /// See [`Event`].
        part: u8,
        /// The step it would have been asked in.
        step: StepId,
        /// The item.
        item: ItemId,
    },
    /// An effect sent the turn back; the rest of step `from` is dropped.
    GoBack {
        /// See [`Event`].
        part: u8,
        /// The step the effect was in.
        from: StepId,
        /// The step the turn continues at.
        to: StepId,
    },
    /// The player used an "at any time" item while a prompt of `step` waited.
    AnyTime {
        /// See [`Event`].
        part: u8,
        /// The pending prompt's step.
        step: StepId,
        /// The item.
        item: ItemId,
    },
    /// The turn is over.
    End,
}

/// Everything that happened in one turn, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace(pub Vec<Event>);

/// An [`Event`] by the rules' string ids: the `play` command's JSON
/// (`{"event": "item", "part": 1, "step": "1B", "item": "draw-tile", "done": true}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum NamedEvent {
    Part { part: u8 },
    Step { part: u8, step: String, feature: Option<[u32; 2]> },
    Item { part: u8, step: String, item: String, done: bool, actor: Actor },
    Chose { part: u8, step: String, item: Option<String>, actor: Actor },
    Taken { part: u8, step: String, item: String, actor: Actor },
    LeftOut { part: u8, step: String, item: String },
    Skipped { part: u8, step: String },
    NoFeatures { part: u8, step: String },
    Once { part: u8, step: String, item: String },
    GoBack { part: u8, from: String, to: String },
    AnyTime { part: u8, step: String, item: String },
    End,
}

impl Event {
    /// The event by string ids; `?` for an id `plan` lacks.
    pub fn named(&self, plan: &Plan) -> NamedEvent {
        let step = |s: StepId| plan.step_name(s).unwrap_or("?").to_string();
        let item = |i: ItemId| plan.item_name(i).unwrap_or("?").to_string();
        match *self {
            Event::Part { part } => NamedEvent::Part { part },
            Event::Step { part, step: s, feature } => {
                NamedEvent::Step { part, step: step(s), feature: feature.map(|(n, of)| [n, of]) }
            }
            Event::Item { part, step: s, item: i, done, actor } => {
                NamedEvent::Item { part, step: step(s), item: item(i), done, actor }
            }
            Event::Chose { part, step: s, item: i, actor } => {
                NamedEvent::Chose { part, step: step(s), item: i.map(item), actor }
            }
            Event::Taken { part, step: s, item: i, actor } => {
                NamedEvent::Taken { part, step: step(s), item: item(i), actor }
            }
            Event::LeftOut { part, step: s, item: i } => NamedEvent::LeftOut { part, step: step(s), item: item(i) },
            Event::Skipped { part, step: s } => NamedEvent::Skipped { part, step: step(s) },
            Event::NoFeatures { part, step: s } => NamedEvent::NoFeatures { part, step: step(s) },
            Event::Once { part, step: s, item: i } => NamedEvent::Once { part, step: step(s), item: item(i) },
            Event::GoBack { part, from, to } => NamedEvent::GoBack { part, from: step(from), to: step(to) },
            Event::AnyTime { part, step: s, item: i } => NamedEvent::AnyTime { part, step: step(s), item: item(i) },
            Event::End => NamedEvent::End,
        }
    }
}

impl NamedEvent {
    /// The typed event, where `plan` has every id it names.
    pub fn typed(&self, plan: &Plan) -> Option<Event> {
        let step = |s: &str| plan.step_named(s);
        let item = |i: &str| plan.item_named(i);
        Some(match self {
            NamedEvent::Part { part } => Event::Part { part: *part },
            NamedEvent::Step { part, step: s, feature } => {
                Event::Step { part: *part, step: step(s)?, feature: feature.map(|[n, of]| (n, of)) }
            }
            NamedEvent::Item { part, step: s, item: i, done, actor } => {
                Event::Item { part: *part, step: step(s)?, item: item(i)?, done: *done, actor: *actor }
            }
            NamedEvent::Chose { part, step: s, item: i, actor } => Event::Chose {
                part: *part,
                step: step(s)?,
                item: match i {
                    Some(i) => Some(item(i)?),
                    None => None,
                },
                actor: *actor,
            },
            NamedEvent::Taken { part, step: s, item: i, actor } => {
                Event::Taken { part: *part, step: step(s)?, item: item(i)?, actor: *actor }
            }
            NamedEvent::LeftOut { part, step: s, item: i } => {
                Event::LeftOut { part: *part, step: step(s)?, item: item(i)? }
            }
            NamedEvent::Skipped { part, step: s } => Event::Skipped { part: *part, step: step(s)? },
            NamedEvent::NoFeatures { part, step: s } => Event::NoFeatures { part: *part, step: step(s)? },
            NamedEvent::Once { part, step: s, item: i } => Event::Once { part: *part, step: step(s)?, item: item(i)? },
            NamedEvent::GoBack { part, from, to } => Event::GoBack { part: *part, from: step(from)?, to: step(to)? },
            NamedEvent::AnyTime { part, step: s, item: i } => {
                Event::AnyTime { part: *part, step: step(s)?, item: item(i)? }
            }
            NamedEvent::End => Event::End,
        })
    }
}

impl Trace {
    /// The step the turn was last at: the last step begun, skipped or found
    /// without features.
    pub fn last_step(&self) -> Option<StepId> {
        self.0.iter().rev().find_map(|e| match *e {
            Event::Step { step, .. } | Event::Skipped { step, .. } | Event::NoFeatures { step, .. } => Some(step),
            _ => None,
        })
    }

    /// The events by string ids.
    pub fn named(&self, plan: &Plan) -> Vec<NamedEvent> {
        self.0.iter().map(|e| e.named(plan)).collect()
    }

    /// One line per event, as `play` prints a trace.
    pub fn text(&self, plan: &Plan) -> String {
        let words = plan.words();
        let mut out = String::new();
        for (event, named) in self.0.iter().zip(self.named(plan)) {
            let depth = match event {
                Event::Item { item, .. }
                | Event::Once { item, .. }
                | Event::LeftOut { item, .. }
                | Event::Taken { item, .. }
                | Event::Chose { item: Some(item), .. } => plan.item_depth(*item),
                _ => 0,
            };
            let mut line = "  ".repeat(depth);
            let step_line = |word, step: &str| format!("  {}", words.fill(word, &[("step", step)]));
            let item_line = |word, item: &str| format!("    {}", words.fill(word, &[("item", item)]));
            line.push_str(&match named {
                NamedEvent::Part { part } => words.fill(Word::TracePart, &[("part", &part.to_string())]),
                NamedEvent::Step { step, feature: None, .. } => step_line(Word::TraceStep, &step),
                NamedEvent::Step { step, feature: Some([n, of]), .. } => {
                    let feature = words.fill(Word::TraceFeature, &[("n", &n.to_string()), ("of", &of.to_string())]);
                    format!("{} ({feature})", step_line(Word::TraceStep, &step))
                }
                NamedEvent::Item { item, done, actor, .. } => format!(
                    "    {item}: {}{}",
                    words.get(if done { Word::TraceYes } else { Word::TraceNo }),
                    by(&words, actor)
                ),
                NamedEvent::Chose { item: Some(item), actor, .. } => {
                    format!("{}{}", item_line(Word::TraceChose, &item), by(&words, actor))
                }
                NamedEvent::Chose { item: None, actor, .. } => {
                    format!("    {}{}", words.get(Word::TraceChoseNone), by(&words, actor))
                }
                NamedEvent::Taken { item, actor, .. } => {
                    format!("{}{}", item_line(Word::TraceTaken, &item), by(&words, actor))
                }
                NamedEvent::LeftOut { item, .. } => item_line(Word::TraceLeftOut, &item),
                NamedEvent::Skipped { step, .. } => step_line(Word::TraceSkipped, &step),
                NamedEvent::NoFeatures { step, .. } => step_line(Word::TraceNoFeatures, &step),
                NamedEvent::Once { item, .. } => item_line(Word::TraceOnce, &item),
                NamedEvent::GoBack { from, to, .. } => {
                    format!("  {}", words.fill(Word::TraceGoBack, &[("from", &from), ("to", &to)]))
                }
                NamedEvent::AnyTime { item, .. } => item_line(Word::TraceAnyTime, &item),
                NamedEvent::End => words.get(Word::TraceEnd).to_string(),
            });
            // The ids come from the rules: untrusted, escaped for the terminal.
            out.push_str(&terminal::line(&line));
            out.push('\n');
        }
        out
    }
}

/// ` (the player on your left)` after an answer of another than the active player.
fn by(words: &carcassonne_rules_core::words::Words, actor: Actor) -> String {
    match actor {
        Actor::Active => String::new(),
        other => format!(" ({})", words.actor(other)),
    }
}
