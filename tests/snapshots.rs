//! The turn order of every combination that matters, as reviewed text: a rule
//! change shows up as a diff in each combination it touches.

use carcassonne_rules::catalog::Catalog;
use carcassonne_rules::{generated, render};

/// The expansions of the first milestone, in box order.
const EXPANSIONS: [&str; 4] = [
    "traders_and_builders",
    "princess_and_dragon",
    "abbey_and_mayor",
    "count_king_and_robber",
];

fn snapshot(catalog: &Catalog, edition: &str, with: &str) {
    let config = catalog.config(edition, None, with).expect("a valid selection");
    let text = render::text(&generated::turn_order(&config));
    let name = if with.is_empty() {
        format!("order_{edition}_base")
    } else {
        format!("order_{edition}_{}", with.replace(',', "+"))
    };
    insta::assert_snapshot!(name, text);
}

#[test]
fn base_game_per_edition() {
    let catalog = generated::catalog();
    for edition in &catalog.editions {
        snapshot(&catalog, edition, "");
    }
}

#[test]
fn each_expansion_and_each_of_its_modules_alone() {
    let catalog = generated::catalog();
    for id in EXPANSIONS {
        let expansion = catalog
            .expansions
            .iter()
            .find(|x| x.id == id)
            .expect("expansion in the registry");
        for edition in &expansion.editions {
            snapshot(&catalog, edition, id);
            for module in &expansion.modules {
                snapshot(&catalog, edition, &module.id);
            }
        }
    }
}

#[test]
fn the_four_expansions_together() {
    let catalog = generated::catalog();
    for edition in &catalog.editions {
        snapshot(&catalog, edition, &EXPANSIONS.join(","));
    }
}
