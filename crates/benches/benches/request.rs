//! What one request to the module costs, natively (js/bench/answer.mjs
//! times the same requests through the package in Node):
//!
//! - `request/resume`: one answer to a saved builder turn, C2, four answers
//!   deep, passing 2B-1 — the saved turn parsed and verified by replay, the answer, the
//!   play output and the state written (the plan kept from the last request);
//! - `request/play`: a turn started with no answer.

// A bench panics when the module misbehaves, as tests do.
#![allow(clippy::expect_used)]

use std::hint::black_box;

use carcassonne_rules_wasm::handle;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

fn request(c: &mut Criterion) {
    let selection = json!({"edition": "C2", "with": ["builder"]});
    // The tile drawn and shown (musts) and placed: 2B-1's choice is pending.
    let answers = vec![json!({"do": true}); 3];
    let played: Value = serde_json::from_str(
        &handle(json!({"op": "play", "selection": selection, "answers": answers}).to_string().as_bytes())
            .expect("a turn"),
    )
    .expect("JSON");
    let resume = json!({"op": "resume", "state": played["state"], "answers": [{"choose": null}]}).to_string();
    let play = json!({"op": "play", "selection": selection, "answers": []}).to_string();
    let mut group = c.benchmark_group("request");
    group.bench_function("resume", |b| b.iter(|| handle(black_box(resume.as_bytes())).expect("taken").len()));
    group.bench_function("play", |b| b.iter(|| handle(black_box(play.as_bytes())).expect("taken").len()));
    group.finish();
}

criterion_group!(benches, request);
criterion_main!(benches);
