//! Interactions between modules: for every pair of modules in every edition,
//! the items, markers, steps and repeats whose visibility in the pair's game
//! is not what the two modules' own changes to the base game make it (an item
//! of the base game shows where both modules keep it; any other where either
//! module shows it). One reviewed snapshot lists every interacting pair with
//! the ids involved, so a rule edit shows which interactions it made or undid.

use carcassonne_rules_runtime::core::tables::MarkerId;
use carcassonne_rules_runtime::core::{BitSet, Config, ModuleSet};
use carcassonne_rules_runtime::internals::{TABLES, Visible, visible};
use carcassonne_rules_runtime::{catalog, core::EditionId};

/// Where `pair` differs from combining `a` and `b` over `base`: `+` for what
/// shows only when both are selected, `-` for what only their pair hides.
fn surprises<const W: usize>(base: &BitSet<W>, a: &BitSet<W>, b: &BitSet<W>, pair: &BitSet<W>) -> Vec<(char, usize)> {
    (0..BitSet::<W>::CAPACITY)
        .filter_map(|n| {
            let expected =
                if base.contains(n) { a.contains(n) && b.contains(n) } else { a.contains(n) || b.contains(n) };
            match (pair.contains(n), expected) {
                (true, false) => Some(('+', n)),
                (false, true) => Some(('-', n)),
                _ => None,
            }
        })
        .collect()
}

fn describe(base: &Visible, a: &Visible, b: &Visible, pair: &Visible) -> Vec<String> {
    let mut out = Vec::new();
    let step = |n: usize| TABLES.steps.get(n).map_or("?", |s| s.id);
    for (sign, n) in surprises(&base.steps, &a.steps, &b.steps, &pair.steps) {
        out.push(format!("{sign}step {}", step(n)));
    }
    for (sign, n) in surprises(&base.repeats, &a.repeats, &b.repeats, &pair.repeats) {
        out.push(format!("{sign}repeat {}", step(n)));
    }
    for (sign, n) in surprises(&base.items, &a.items, &b.items, &pair.items) {
        out.push(format!("{sign}{}", TABLES.items.get(n).map_or("?", |i| i.id)));
    }
    for (sign, n) in surprises(&base.markers, &a.markers, &b.markers, &pair.markers) {
        let marker = TABLES.markers.get(n).copied().unwrap_or("?");
        let item = TABLES.items.iter().find(|i| i.markers.contains(&MarkerId(n as u16))).map_or("?", |i| i.id);
        out.push(format!("{sign}{marker} on {item}"));
    }
    out
}

#[test]
fn interacting_pairs_per_edition() {
    let catalog = catalog();
    let modules: Vec<_> = catalog.modules.iter().collect();
    let mut text = String::new();
    let mut total = 0;
    for (e, edition) in catalog.editions.iter().enumerate() {
        let cfg =
            |set: ModuleSet| Config { edition: EditionId(e as u8), variant: edition.default_variant, modules: set };
        let base = visible(&cfg(ModuleSet::EMPTY));
        let alone: Vec<Visible> = modules.iter().map(|m| visible(&cfg(ModuleSet::of(m.bit)))).collect();
        let mut lines = Vec::new();
        for (i, a) in modules.iter().enumerate() {
            for (j, b) in modules.iter().enumerate().skip(i + 1) {
                let pair = visible(&cfg(ModuleSet::of(a.bit).union(ModuleSet::of(b.bit))));
                let found = describe(&base, &alone[i], &alone[j], &pair);
                if !found.is_empty() {
                    lines.push(format!("{} + {}: {}", a.id, b.id, found.join(", ")));
                }
            }
        }
        total += lines.len();
        text.push_str(&format!("== {}: {} interacting pairs\n", edition.id, lines.len()));
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
    }
    assert!(total > 0, "modules interact: the messages with the wind roses, for one");
    insta::assert_snapshot!("interactions", text);
}
