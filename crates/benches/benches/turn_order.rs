//! What the compiled-in rules cost against the interpreter over the checked
//! model, side by side in one process, and what compiling the rules costs.
//!
//! - `visible/*`: the static turn order of one selection (which steps, items
//!   and markers show), without rendering: the generated dispatch against the
//!   interpreter.
//! - `resolved/*`: the same, resolved into the owned, printable turn order.
//! - `pairs/*`: every single-module and every pair selection, per edition.
//! - `compile/*`: load → check, and load → check → codegen of `rules/`.

use std::hint::black_box;
use std::path::Path;

use carcassonne_rules_compiler::{compile_dir, model::Rules};

use carcassonne_rules_backends::codegen;

use carcassonne_rules_runtime::core::{Config, ModuleSet};
use carcassonne_rules_runtime::{catalog, internals, turn_order};
use carcassonne_rules_tools::interpret;
use criterion::{Criterion, criterion_group, criterion_main};

const RULES: &str = "../../rules";

fn rules() -> Rules {
    compile_dir(Path::new(RULES)).result.unwrap_or_else(|_| panic!("the bundled rules do not check"))
}

fn config(edition: &str, with: &str) -> Config {
    catalog().config(edition, None, with).unwrap_or_else(|_| panic!("invalid selection {edition} {with}"))
}

const SELECTIONS: [(&str, &str, &str); 3] = [
    ("base", "C2", ""),
    ("builder+abbey_and_mayor", "C2", "builder,abbey_and_mayor"),
    ("four_expansions", "C1", "traders_and_builders,princess_and_dragon,abbey_and_mayor,count_king_and_robber"),
];

fn one_selection(c: &mut Criterion) {
    let rules = rules();
    for (name, edition, with) in SELECTIONS {
        let cfg = config(edition, with);
        let mut group = c.benchmark_group(format!("visible/{name}"));
        group.bench_function("generated", |b| b.iter(|| internals::visible(black_box(&cfg))));
        group.bench_function("interpreted", |b| {
            b.iter(|| -> internals::Visible { interpret::visible(black_box(&rules), black_box(&cfg)) })
        });
        group.finish();
        let mut group = c.benchmark_group(format!("resolved/{name}"));
        group.bench_function("generated", |b| b.iter(|| turn_order(black_box(&cfg))));
        group.bench_function("interpreted", |b| b.iter(|| interpret::turn_order(black_box(&rules), black_box(&cfg))));
        group.finish();
    }
}

fn pairs(c: &mut Criterion) {
    let rules = rules();
    let modules: Vec<_> = catalog().modules.iter().map(|m| m.bit).collect();
    let mut sets: Vec<ModuleSet> = modules.iter().map(|&m| ModuleSet::of(m)).collect();
    for (i, &a) in modules.iter().enumerate() {
        sets.extend(modules[i + 1..].iter().map(|&b| ModuleSet::of(a).union(ModuleSet::of(b))));
    }
    for edition in &catalog().editions {
        let base = config(&edition.id, "");
        let configs: Vec<Config> = sets.iter().map(|&modules| Config { modules, ..base }).collect();
        let mut group = c.benchmark_group(format!("pairs/{} ({} selections)", edition.id, configs.len()));
        group.sample_size(20);
        group.bench_function("generated", |b| {
            b.iter(|| configs.iter().map(|cfg| internals::visible(black_box(cfg)).items.len()).sum::<usize>())
        });
        group.bench_function("interpreted", |b| {
            b.iter(|| {
                configs
                    .iter()
                    .map(|cfg| {
                        let visible: internals::Visible = interpret::visible(black_box(&rules), black_box(cfg));
                        visible.items.len()
                    })
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile");
    group.sample_size(20);
    group.bench_function("load+check", |b| b.iter(|| compile_dir(black_box(Path::new(RULES)))));
    group.bench_function("load+check+codegen", |b| {
        b.iter(|| compile_dir(black_box(Path::new(RULES))).result.map(|rules| codegen::generate(&rules)))
    });
    group.finish();
}

criterion_group!(benches, one_selection, pairs, compile);
criterion_main!(benches);
