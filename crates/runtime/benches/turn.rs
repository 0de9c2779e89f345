//! What playing a turn costs (docs/performance.md#playing-a-turn):
//!
//! - `turn/answer/*`: one answer to a pending prompt, and the walk to the
//!   next one (the turn is cloned outside the timing);
//! - `turn/whole/*`: a whole turn from its start, answered from a script
//!   (every item no, the first option, one completed feature), on a plan
//!   built once per selection; `turn/plan/*`: building that plan;
//! - `turn/save_restore/*`: a turn written as JSON and read back.

use std::hint::black_box;

use carcassonne_rules_runtime::core::TurnOrder;
use carcassonne_rules_runtime::trace::Trace;
use carcassonne_rules_runtime::turn::{Answer, Ask, Plan, Turn};
use carcassonne_rules_runtime::{catalog, turn_order};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn order(edition: &str, with: &str) -> TurnOrder<'static> {
    let cfg = catalog().config(edition, None, with).unwrap_or_else(|_| panic!("invalid selection {edition} {with}"));
    turn_order(&cfg)
}

fn script(ask: &Ask) -> Answer {
    match ask {
        Ask::Do(_) => Answer::Do(false),
        Ask::Choose { options, .. } => Answer::Choose(options.first().map(|o| o.item)),
        Ask::Count => Answer::Count(1),
    }
}

/// A whole turn; the number of prompts answered.
fn whole(plan: &Plan, trace: &mut Trace) -> usize {
    trace.0.clear();
    let mut turn = Turn::start(plan, trace);
    let mut answered = 0;
    while let Ok(Some(prompt)) = turn.prompt(plan) {
        let answer = script(&prompt.ask);
        if turn.answer(plan, prompt.seq, answer, trace).is_err() {
            break;
        }
        answered += 1;
    }
    answered
}

const SELECTIONS: [(&str, &str, &str); 2] =
    [("base", "C2", ""), ("builder+abbey_and_mayor", "C2", "builder,abbey_and_mayor")];

fn turns(c: &mut Criterion) {
    for (name, edition, with) in SELECTIONS {
        let order = order(edition, with);
        let plan = Plan::new(&order);
        let mut trace = Trace::default();
        // A turn at its tenth prompt.
        let mut turn = Turn::start(&plan, &mut trace);
        for _ in 0..10 {
            let prompt = turn.prompt(&plan).ok().flatten().expect("a prompt");
            turn.answer(&plan, prompt.seq, script(&prompt.ask), &mut trace).expect("an answer");
        }
        let prompt = turn.prompt(&plan).ok().flatten().expect("a prompt");
        let (seq, answer) = (prompt.seq, script(&prompt.ask));
        c.bench_function(&format!("turn/answer/{name}"), |b| {
            b.iter_batched_ref(
                || (turn.clone(), Trace(Vec::with_capacity(64))),
                |(turn, trace)| turn.answer(&plan, seq, black_box(answer), trace),
                BatchSize::SmallInput,
            )
        });
        c.bench_function(&format!("turn/whole/{name}"), |b| b.iter(|| whole(black_box(&plan), &mut trace)));
        c.bench_function(&format!("turn/plan/{name}"), |b| b.iter(|| Plan::new(black_box(&order)).fingerprint().len()));
        c.bench_function(&format!("turn/save_restore/{name}"), |b| {
            b.iter(|| {
                let json = serde_json::to_string(black_box(&turn)).unwrap_or_default();
                serde_json::from_str::<Turn>(&json).is_ok()
            })
        });
        eprintln!("{name}: {} prompts in a whole turn", whole(&plan, &mut trace));
    }
}

criterion_group!(benches, turns);
criterion_main!(benches);
