//! The turn order of every combination that matters, as reviewed text: a rule
//! change shows up as a diff in each combination it touches.

use carcassonne_rules::catalog::Catalog;
use carcassonne_rules::{generated, render};

/// The expansions of the first milestone, in box order.
const FIRST_FOUR: [&str; 4] =
    ["traders_and_builders", "princess_and_dragon", "abbey_and_mayor", "count_king_and_robber"];

fn snapshot(catalog: &Catalog, edition: &str, with: &str, name: &str) {
    let config = catalog.config(edition, None, with).expect("a valid selection");
    let text = render::text(&generated::turn_order(&config));
    insta::assert_snapshot!(format!("order_{edition}_{name}"), text);
}

#[test]
fn base_game_per_edition() {
    let catalog = generated::catalog();
    for edition in &catalog.editions {
        snapshot(&catalog, edition, "", "base");
    }
}

/// Every expansion alone and each of its modules alone, in the editions the
/// expansion exists in.
#[test]
fn each_expansion_and_each_module_alone() {
    let catalog = generated::catalog();
    for expansion in &catalog.expansions {
        for edition in &expansion.editions {
            snapshot(&catalog, edition, &expansion.id, &expansion.id);
            if expansion.modules.len() > 1 {
                for module in &expansion.modules {
                    snapshot(&catalog, edition, &module.id, &module.id);
                }
            }
        }
    }
}

#[test]
fn the_first_four_expansions_together() {
    let catalog = generated::catalog();
    for edition in &catalog.editions {
        snapshot(&catalog, edition, &FIRST_FOUR.join(","), "first_four");
    }
}

#[test]
fn everything_per_edition() {
    let catalog = generated::catalog();
    let all: Vec<&str> = catalog.expansions.iter().map(|x| x.id.as_str()).collect();
    for edition in &catalog.editions {
        snapshot(&catalog, edition, &all.join(","), "everything");
    }
}
