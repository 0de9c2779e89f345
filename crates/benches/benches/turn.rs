//! What playing a turn costs an engine (the resumable `Turn`):
//!
//! - `turn/answer`: one answer — the turn takes it and plays on to the next
//!   prompt (the first prompt of a builder turn, C2; the turn is cloned
//!   outside the measurement).
//! - `turn/whole/*`: a whole turn, started and answered to the end with
//!   scripted answers (the base game; the builder's double turn, C2).
//! - `turn/plan/*`: making a selection's turn order ready to play (once per
//!   game, not per turn).
//! - `turn/server/*`: what a server does per request with every C2 module
//!   selected: the saved turn parsed from JSON, one answer, the turn
//!   serialized again — on a `SharedPlan` kept across requests (`shared`),
//!   and with the plan built again from the turn order each time (`rebuilt`).
//!
//! The size of a saved turn is a test, not a benchmark:
//! `tests/turn_properties.rs` (`a_saved_turn_stays_under_two_kilobytes`,
//! `a_builder_double_turn_of_every_module_saves_under_two_kilobytes`).

// A bench panics when the rules misbehave, as tests do.
#![allow(clippy::expect_used)]

use std::hint::black_box;

use carcassonne_rules_runtime::core::Config;
use carcassonne_rules_runtime::trace::Trace;
use carcassonne_rules_runtime::turn::{Answer, Ask, Plan, Prompt, SharedPlan, Turn};
use carcassonne_rules_runtime::{catalog, turn_order};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn config(edition: &str, with: &str) -> Config {
    catalog().config(edition, None, with).unwrap_or_else(|_| panic!("invalid selection {edition} {with}"))
}

/// A builder who extends the feature: the double turn yes, every other item
/// no but a must, the first option, one completed feature.
fn builder(prompt: &Prompt) -> Answer {
    match &prompt.ask {
        Ask::Do(entry) => Answer::Do(prompt.must || entry.id() == "builder-double-turn"),
        Ask::Choose { options, .. } => Answer::Choose(options.first().map(|o| o.item)),
        Ask::Count => Answer::Count(1),
        _ => unimplemented!("a kind of prompt this test does not know"),
    }
}

/// The answers `builder` gives over a whole turn of `plan`.
fn script(plan: &Plan) -> Vec<Answer> {
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    let mut answers = Vec::new();
    while let Some(prompt) = turn.prompt(plan).expect("the plan's own turn") {
        let answer = builder(&prompt);
        turn.answer(plan, prompt.seq, answer, &mut trace).expect("a valid answer");
        answers.push(answer);
    }
    answers
}

/// Plays a whole turn of `plan` with `answers`; the trace's length.
fn whole(plan: &Plan, answers: &[Answer]) -> usize {
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    for (seq, &answer) in answers.iter().enumerate() {
        let _ = turn.answer(plan, seq as u32, answer, &mut trace);
    }
    assert!(turn.is_over());
    trace.0.len()
}

fn turn(c: &mut Criterion) {
    let base = turn_order(&config("C2", ""));
    let with_builder = turn_order(&config("C2", "builder"));
    let mut group = c.benchmark_group("turn");

    let plan = Plan::new(&with_builder);
    let start = Turn::start(&plan, &mut Trace::default());
    let first = builder(&start.prompt(&plan).expect("the plan's own turn").expect("a first prompt"));
    group.bench_function("answer", |b| {
        b.iter_batched(
            || (start.clone(), Trace(Vec::with_capacity(16))),
            |(mut turn, mut trace)| {
                turn.answer(&plan, 0, black_box(first), &mut trace).expect("a valid answer");
                (turn, trace)
            },
            BatchSize::SmallInput,
        )
    });

    for (name, order) in [("base", &base), ("builder double turn", &with_builder)] {
        let plan = Plan::new(order);
        let answers = script(&plan);
        eprintln!("turn/whole/{name}: {} answers", answers.len());
        group.bench_function(format!("whole/{name}"), |b| b.iter(|| whole(&plan, black_box(&answers))));
        group.bench_function(format!("plan/{name}"), |b| b.iter(|| Plan::new(black_box(order)).fingerprint().len()));
    }

    let every: Vec<&str> = catalog()
        .expansions
        .iter()
        .filter(|e| e.editions.iter().any(|ed| ed == "C2"))
        .flat_map(|e| e.modules.iter().map(|m| m.id.as_str()))
        .collect();
    let every = turn_order(&config("C2", &every.join(",")));
    let shared = SharedPlan::new(every.clone());
    let plan = shared.plan();
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    for _ in 0..5 {
        let prompt = turn.prompt(plan).expect("the plan's own turn").expect("a prompt");
        turn.answer(plan, prompt.seq, builder(&prompt), &mut trace).expect("a valid answer");
    }
    let state = serde_json::to_string(&turn).expect("serializes");
    let answer = builder(&turn.prompt(plan).expect("the plan's own turn").expect("a prompt"));
    let request = |plan: &Plan| {
        let mut turn: Turn = serde_json::from_str(black_box(&state)).expect("the saved turn");
        let mut trace = Trace(Vec::with_capacity(16));
        turn.answer(plan, turn.seq(), answer, &mut trace).expect("a valid answer");
        serde_json::to_string(&turn).expect("serializes").len()
    };
    group.bench_function("server/shared", |b| b.iter(|| request(shared.plan())));
    group.bench_function("server/rebuilt", |b| b.iter(|| request(&Plan::new(black_box(&every)))));
    group.finish();
}

criterion_group!(benches, turn);
criterion_main!(benches);
