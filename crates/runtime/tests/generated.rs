//! The generated code: fresh, and in agreement with the interpreter.

use std::path::Path;

use carcassonne_rules::catalog::Catalog;
use carcassonne_rules::compiler::{self, Rules};
use carcassonne_rules::turn::Config;
use carcassonne_rules::{generated, interpret};

fn bundled_rules() -> Rules {
    match compiler::compile_dir(Path::new("rules")).result {
        Ok(rules) => rules,
        Err(problems) => panic!("{}", carcassonne_rules::render_diagnostics(&problems, false)),
    }
}

/// The checked-in `generated/` must be what the rules generate today. Like
/// rust-analyzer's `ensure_file_contents`: outside CI a stale copy is rewritten
/// (so re-running passes), but the test still fails so the change is noticed.
#[test]
fn checked_in_code_is_fresh() {
    let fresh = compiler::codegen::generate(&bundled_rules());
    let path = Path::new("generated/turn_order.rs");
    let current = std::fs::read_to_string(path).unwrap_or_default();
    if current == fresh {
        return;
    }
    if std::env::var_os("CI").is_none() {
        std::fs::write(path, &fresh).expect("update generated/turn_order.rs");
        panic!("generated/turn_order.rs was stale and has been updated: review and commit it, then re-run");
    }
    panic!("generated/turn_order.rs is stale: run `cargo run -- gen` and commit the result");
}

#[test]
fn generation_is_deterministic() {
    let rules = bundled_rules();
    assert_eq!(compiler::codegen::generate(&rules), compiler::codegen::generate(&rules));
}

/// The four expansions of the first milestone.
const EXPANSIONS: [&str; 4] =
    ["abbey_and_mayor", "count_king_and_robber", "traders_and_builders", "princess_and_dragon"];

#[test]
fn interpreter_and_generated_code_agree() {
    let rules = bundled_rules();
    let catalog = Catalog::from_rules(&rules);
    assert_eq!(catalog, generated::catalog(), "the generated tables differ from the rules");

    let modules: Vec<usize> = catalog
        .expansions
        .iter()
        .filter(|x| EXPANSIONS.contains(&x.id.as_str()))
        .flat_map(|x| x.modules.iter().map(|m| m.bit))
        .collect();
    assert!(modules.len() >= 14, "the four expansions have at least 14 modules, found {}", modules.len());

    let mut selections = vec![0u128];
    for (i, &a) in modules.iter().enumerate() {
        selections.push(1 << a);
        for &b in &modules[i + 1..] {
            selections.push(1 << a | 1 << b);
        }
    }
    selections.push(modules.iter().fold(0, |set, m| set | 1 << m));

    // And random selections over every module, from a fixed seed.
    let every: Vec<usize> = catalog.modules().map(|m| m.bit).collect();
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..300 {
        selections.push(every.iter().filter(|_| rng.u8(..8) == 0).fold(0, |set, m| set | 1 << m));
    }

    let mut compared = 0;
    for edition in 0..rules.editions.len() {
        for variant in 0..rules.variants.len() {
            for &modules in &selections {
                let config = Config { edition, variant, modules };
                let expected = interpret::turn_order(&rules, &config);
                let actual = generated::turn_order(&config);
                assert_eq!(actual, expected, "edition {edition}, variant {variant}, modules {:?}", expected.modules);
                compared += 1;
            }
        }
    }
    println!("interpreter and generated code agree on {compared} selections");
}
