//! A turn's answers as its trace records them. Played again from the
//! start they give the same turn: that proves a saved turn is one its plan
//! could have reached (a forged jump or memory does not replay to itself),
//! and undoes answers (the turn replayed up to an earlier prompt).

use carcassonne_rules_core::ItemId;

use crate::trace::{Event, Trace};
use crate::turn::{Answer, Plan, Turn, TurnError};

/// One thing the player said, as the trace records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// An answer to a prompt.
    Answer(Answer),
    /// An "at any time" item used while a prompt waited.
    AnyTime(ItemId),
}

/// What was said in `trace`, in order. A per-feature step's count is its
/// first round (`n` of `n`) or its `NoFeatures`; the later rounds are not answers.
pub fn said(trace: &Trace) -> Vec<Said> {
    trace
        .0
        .iter()
        .filter_map(|event| match *event {
            Event::Item { done, .. } => Some(Said::Answer(Answer::Do(done))),
            Event::Chose { item, .. } => Some(Said::Answer(Answer::Choose(item))),
            Event::Step { feature: Some((1, n)), .. } => Some(Said::Answer(Answer::Count(n))),
            Event::NoFeatures { .. } => Some(Said::Answer(Answer::Count(0))),
            Event::AnyTime { item, .. } => Some(Said::AnyTime(item)),
            _ => None,
        })
        .collect()
}

/// How many prompts `said` answers.
fn answers(said: &[Said]) -> u32 {
    said.iter().filter(|s| matches!(s, Said::Answer(_))).count() as u32
}

/// The turn of `plan` whose first prompt is `first_seq`, played with `said`.
pub fn replay(plan: &Plan, first_seq: u32, said: &[Said]) -> Result<(Turn, Trace), TurnError> {
    let mut trace = Trace::default();
    let mut turn = Turn::start_at(plan, first_seq, &mut trace);
    for s in said {
        match *s {
            Said::Answer(answer) => turn.answer(plan, turn.seq(), answer, &mut trace)?,
            Said::AnyTime(item) => turn.any_time(plan, item, &mut trace)?,
        }
    }
    Ok((turn, trace))
}

/// Refuses `turn` and `trace` unless playing the trace's answers again from
/// the turn's start gives exactly them.
pub fn verify(plan: &Plan, turn: &Turn, trace: &Trace) -> Result<(), TurnError> {
    turn.check(plan)?;
    let said = said(trace);
    let first = turn.seq().checked_sub(answers(&said)).ok_or_else(|| forged("more answers than prompts"))?;
    let (mut again, again_trace) = replay(plan, first, &said).map_err(|_| forged("its answers do not play"))?;
    // Ending a turn is the engine's word, not an answer.
    if turn.is_ended() {
        again.end(plan).map_err(|_| forged("it was ended with a prompt pending"))?;
    }
    if again != *turn || again_trace != *trace {
        return Err(forged("its answers play to another turn"));
    }
    Ok(())
}

/// The turn as it was when prompt `seq` was pending: its answers from then
/// on taken back (and the "at any time" items used while that prompt waited,
/// too). `seq` is the pending prompt's or an earlier one of this turn.
pub fn undo(plan: &Plan, turn: &Turn, trace: &Trace, seq: u32) -> Result<(Turn, Trace), TurnError> {
    let said = said(trace);
    let first = turn.seq().checked_sub(answers(&said)).ok_or_else(|| forged("more answers than prompts"))?;
    if !(first..=turn.seq()).contains(&seq) {
        return Err(TurnError::Stale { answered: seq, pending: turn.seq() });
    }
    let mut kept = 0;
    let mut answered = 0;
    for s in &said {
        if first + answered == seq {
            break;
        }
        if matches!(s, Said::Answer(_)) {
            answered += 1;
        }
        kept += 1;
    }
    replay(plan, first, &said[..kept])
}

fn forged(why: &str) -> TurnError {
    TurnError::BadState(format!("the saved trace is not this turn's: {why}"))
}
