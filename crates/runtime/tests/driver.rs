//! Playing turns of the bundled rules through a handler: double turns,
//! per-feature steps, choose-one steps, skips and go-backs, recorded as
//! traces (snapshotted in tests/snapshots/).

// Helpers outside `#[test]` functions panic on a bad selection, as tests do.
#![allow(clippy::expect_used)]

use std::collections::VecDeque;

use carcassonne_rules_runtime::core::{Effect, Entry, StepId, TurnOrder};
use carcassonne_rules_runtime::driver::{Handler, play_turn};
use carcassonne_rules_runtime::trace::{Event, Trace};
use carcassonne_rules_runtime::turn::{MAX_GO_BACKS, Plan, TurnError};

/// A handler that applies the effects `applies` picks and reports completed
/// features from a script; it takes the first option of every choice.
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

fn steps_started(order: &TurnOrder, trace: &Trace, id: &str) -> usize {
    let plan = Plan::new(order);
    let step = plan.step_named(id);
    trace.0.iter().filter(|e| matches!(e, Event::Step { step: s, .. } if Some(*s) == step)).count()
}

fn items_asked(order: &TurnOrder, trace: &Trace, id: &str) -> usize {
    let item = Plan::new(order).item_named(id);
    trace.0.iter().filter(|e| matches!(e, Event::Item { item: i, .. } if Some(*i) == item)).count()
}

/// Taken as an option: chosen, or taken as the only one.
fn times_chosen(order: &TurnOrder, trace: &Trace, id: &str) -> usize {
    let item = Plan::new(order).item_named(id);
    trace
        .0
        .iter()
        .filter(|e| match e {
            Event::Chose { item: Some(i), .. } | Event::Taken { item: i, .. } => Some(*i) == item,
            _ => false,
        })
        .count()
}

/// Asked as an item or taken as an option.
fn played(order: &TurnOrder, trace: &Trace, id: &str) -> usize {
    items_asked(order, trace, id) + times_chosen(order, trace, id)
}

#[test]
fn builder_double_turn_with_two_completed_features() {
    let order = order("C2", "builder");
    let mut handler =
        Scripted { applies: |e: &Entry| e.effect == Some(&Effect::DoubleTurn), features: VecDeque::from([2, 1]) };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    assert_eq!(steps_started(&order, &trace, "1A"), 1, "1A stands outside the builder's block");
    assert_eq!(steps_started(&order, &trace, "1B"), 2, "1B–4A are played twice");
    assert_eq!(steps_started(&order, &trace, "4A"), 2);
    // The old driver replayed 4B and asked for the double turn again.
    assert_eq!(steps_started(&order, &trace, "4B"), 1, "4B is outside the block: played once");
    assert_eq!(items_asked(&order, &trace, "builder-double-turn"), 1);
    assert_eq!(steps_started(&order, &trace, "3B"), 3, "two features in the first part, one in the second");
    assert!(trace.0.contains(&Event::Part { part: 2 }));
    insta::assert_snapshot!("trace_builder_double_turn", trace.text(&Plan::new(&order)));
}

#[test]
fn a_choose_one_step_plays_only_the_option_taken() {
    // The old driver carried out both deploy-meeple and deploy-other-figures.
    let order = order("C2", "builder");
    let mut handler = Scripted { applies: |_: &Entry| false, features: VecDeque::new() };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    // 2B-1 offers deploy-meeple and deploy-other-figures; the handler takes the
    // first, and deploy-meeple's own options (the figures) the first again.
    assert_eq!(times_chosen(&order, &trace, "deploy-meeple"), 1, "the option taken (the first)");
    assert_eq!(played(&order, &trace, "deploy-normal-meeple"), 1, "under the option taken");
    assert_eq!(played(&order, &trace, "deploy-other-figures"), 0, "the option not taken");
    assert_eq!(played(&order, &trace, "builder-deploy"), 0, "an option not taken");
}

#[test]
fn without_the_builder_there_is_no_second_part() {
    let order = order("C2", "abbey_and_mayor");
    // Everything applies, except that the tile always fits.
    let mut handler =
        Scripted { applies: |e: &Entry| !matches!(e.effect, Some(&Effect::GoBack(_))), features: VecDeque::from([1]) };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    assert!(!trace.0.contains(&Event::Part { part: 2 }));
    assert_eq!(trace.0.last(), Some(&Event::End));
}

#[test]
fn princess_skips_deploying() {
    let order = order("C2", "princess");
    let plan = Plan::new(&order);
    let mut handler =
        Scripted { applies: |e: &Entry| matches!(e.effect, Some(&Effect::Skip(_))), features: VecDeque::from([0]) };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    for id in ["2B-1", "2B-2"] {
        let step = plan.step_named(id).expect("the step");
        assert!(trace.0.contains(&Event::Skipped { part: 1, step }), "{id}");
        assert_eq!(steps_started(&order, &trace, id), 0);
    }
    assert_eq!(steps_started(&order, &trace, "2C"), 1, "only the skipped steps are left out");
    insta::assert_snapshot!("trace_princess_used", trace.text(&plan));
}

#[test]
fn unplaceable_tile_goes_back_to_1b() {
    let order = order("C2", "");
    let plan = Plan::new(&order);
    let mut first = true;
    let applies = |e: &Entry| matches!(e.effect, Some(&Effect::GoBack(_))) && std::mem::take(&mut first);
    let mut handler = Scripted { applies, features: VecDeque::new() };
    let trace = play_turn(&order, &mut handler).expect("a turn");
    let (from, to) = (plan.step_named("1C").expect("1C"), plan.step_named("1B").expect("1B"));
    assert!(trace.0.contains(&Event::GoBack { part: 1, from, to }));
    assert_eq!(steps_started(&order, &trace, "1B"), 2);
    assert_eq!(steps_started(&order, &trace, "1C"), 2);
    assert_eq!(steps_started(&order, &trace, "4B"), 1);
}

#[test]
fn a_handler_that_always_goes_back_gets_an_error_not_a_hang() {
    let order = order("C2", "");
    let mut handler =
        Scripted { applies: |e: &Entry| matches!(e.effect, Some(&Effect::GoBack(_))), features: VecDeque::new() };
    assert_eq!(play_turn(&order, &mut handler), Err(TurnError::TooManyGoBacks(MAX_GO_BACKS)));
}

/// A handler for the 1st edition's bazaar with the builder: the bazaar
/// holds, and its auction and round are played again `rounds - 1` times.
struct Bazaar {
    again: usize,
    asked_again: usize,
}

impl Handler for Bazaar {
    fn perform(&mut self, _step: StepId, item: &Entry) -> bool {
        item.id() == "builder-bazaar-c1"
    }
    fn completed_features(&mut self) -> usize {
        0
    }
    fn again(&mut self, _step: StepId, item: &Entry) -> bool {
        assert_eq!(item.id(), "builder-bazaar-c1");
        self.asked_again += 1;
        self.asked_again <= self.again
    }
}

#[test]
fn the_bazaar_s_auction_and_round_are_played_again_while_the_handler_says_so() {
    let order = order("C1", "builder,bazaars");
    for (again, rounds) in [(0, 1), (1, 2), (3, 4)] {
        let mut handler = Bazaar { again, asked_again: 0 };
        let trace = play_turn(&order, &mut handler).expect("a finished turn");
        // Asked after each round, the last answer no.
        assert_eq!(handler.asked_again, rounds);
        assert_eq!(items_asked(&order, &trace, "builder-bazaar-c1-auction"), rounds, "{trace:?}");
        assert_eq!(items_asked(&order, &trace, "builder-bazaar-c1-round"), rounds);
        // The bazaar itself: asked once, then once more after each round.
        assert_eq!(items_asked(&order, &trace, "builder-bazaar-c1"), 1 + rounds);
    }
    // The new edition's bazaar is played once, and nothing is asked again.
    let order = self::order("C2", "builder,bazaars");
    let mut handler = Bazaar { again: 5, asked_again: 0 };
    let trace = play_turn(&order, &mut handler).expect("a finished turn");
    assert_eq!((handler.asked_again, items_asked(&order, &trace, "builder-bazaar-c2-auction")), (0, 0));
}
