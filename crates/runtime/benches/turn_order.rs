//! The compiled-in rules against the interpreter over the checked model, on the
//! same selections, and the cost of compiling the rules folder.

use std::hint::black_box;
use std::path::Path;

use carcassonne_rules::{compiler, generated, interpret};
use criterion::{Criterion, criterion_group, criterion_main};

fn turn_order(c: &mut Criterion) {
    let rules = compiler::compile_dir(Path::new("rules")).result.expect("bundled rules check");
    let catalog = generated::catalog();
    let selections = [
        ("base", "C2", ""),
        ("builder+abbey_and_mayor", "C2", "builder,abbey_and_mayor"),
        ("four_expansions", "C1", "traders_and_builders,princess_and_dragon,abbey_and_mayor,count_king_and_robber"),
    ];
    for (name, edition, with) in selections {
        let config = catalog.config(edition, None, with).expect("valid selection");
        let mut group = c.benchmark_group(format!("turn_order/{name}"));
        group.bench_function("generated", |b| b.iter(|| generated::turn_order(black_box(&config))));
        group
            .bench_function("interpreted", |b| b.iter(|| interpret::turn_order(black_box(&rules), black_box(&config))));
        group.finish();
    }
    c.bench_function("compile_rules_dir", |b| b.iter(|| compiler::compile_dir(black_box(Path::new("rules")))));
}

criterion_group!(benches, turn_order);
criterion_main!(benches);
