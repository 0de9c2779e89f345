//! Playing turns through a handler: double turns, per-feature steps, skips
//! and go-backs, recorded as traces (snapshotted in tests/snapshots/).

// Helpers outside `#[test]` functions panic on a bad selection, as tests do.
#![allow(clippy::expect_used)]

use std::collections::VecDeque;

use carcassonne_rules_runtime::core::{Effect, Entry, StepId, TurnOrder};
use carcassonne_rules_runtime::driver::{Event, Handler, MAX_GO_BACKS, Trace, TurnError, play_turn};

/// A handler that applies the effects `applies` picks and reports completed
/// features from a script.
struct Scripted<F: FnMut(&Entry) -> bool> {
    applies: F,
    features: VecDeque<usize>,
}

impl<F: FnMut(&Entry) -> bool> Handler for Scripted<F> {
    fn perform(&mut self, _step: StepId, item: &Entry) -> bool {
        (self.applies)(item)
    }
    fn completed_features(&mut self) -> usize {
        self.features.pop_front().unwrap_or(0)
    }
}

fn order(edition: &str, with: &str) -> TurnOrder<'static> {
    let config = carcassonne_rules_runtime::catalog().config(edition, None, with).expect("a valid selection");
    carcassonne_rules_runtime::turn_order(&config)
}

fn steps_started(trace: &Trace, id: &str) -> usize {
    trace.0.iter().filter(|e| matches!(e, Event::Step { id: s, .. } if s == id)).count()
}

#[test]
fn builder_double_turn_with_two_completed_features() {
    let order = order("C2", "builder");
    let mut handler =
        Scripted { applies: |e: &Entry| e.effect == Some(&Effect::DoubleTurn), features: VecDeque::from([2, 1]) };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    assert_eq!(steps_started(&trace, "1A"), 1, "1A stands outside the builder's block");
    assert_eq!(steps_started(&trace, "1B"), 2, "1B–4A are played twice");
    assert_eq!(steps_started(&trace, "4A"), 2);
    assert_eq!(steps_started(&trace, "3B"), 3, "two features in the first part, one in the second");
    assert!(trace.0.contains(&Event::Part(2)));
    insta::assert_snapshot!("trace_builder_double_turn", trace.to_string());
}

#[test]
fn without_the_builder_there_is_no_second_part() {
    let order = order("C2", "abbey_and_mayor");
    // Everything applies, except that the tile always fits.
    let mut handler =
        Scripted { applies: |e: &Entry| !matches!(e.effect, Some(&Effect::GoBack(_))), features: VecDeque::from([1]) };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    assert!(!trace.0.contains(&Event::Part(2)));
}

#[test]
fn princess_skips_deploying() {
    let order = order("C2", "princess");
    let mut handler =
        Scripted { applies: |e: &Entry| matches!(e.effect, Some(&Effect::Skip(_))), features: VecDeque::from([0]) };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    assert!(trace.0.contains(&Event::Skipped("2B-1".into())));
    assert!(trace.0.contains(&Event::Skipped("2B-2".into())));
    assert_eq!(steps_started(&trace, "2B-1"), 0);
    assert_eq!(steps_started(&trace, "2C"), 1, "only the skipped steps are left out");
    insta::assert_snapshot!("trace_princess_used", trace.to_string());
}

#[test]
fn unplaceable_tile_goes_back_to_1b() {
    let order = order("C2", "");
    let mut first = true;
    let applies = |e: &Entry| matches!(e.effect, Some(&Effect::GoBack(_))) && std::mem::take(&mut first);
    let mut handler = Scripted { applies, features: VecDeque::new() };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    assert!(trace.0.contains(&Event::GoBack { to: "1B".into() }));
    assert_eq!(steps_started(&trace, "1B"), 2);
    assert_eq!(steps_started(&trace, "1C"), 2);
    assert_eq!(steps_started(&trace, "4B"), 1);
}

#[test]
fn a_handler_that_always_goes_back_gets_an_error_not_a_hang() {
    let order = order("C2", "");
    let mut handler =
        Scripted { applies: |e: &Entry| matches!(e.effect, Some(&Effect::GoBack(_))), features: VecDeque::new() };
    assert_eq!(play_turn(&order, &mut handler), Err(TurnError::TooManyGoBacks(MAX_GO_BACKS)));
}
