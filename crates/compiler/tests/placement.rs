//! What the model says about an item's placement (and `explain` prints) is
//! where the turn order puts it: for every bundled item in every edition, in
//! a selection that shows it, and for an item written after one that `under`
//! moved away.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::path::Path;

use carcassonne_rules_compiler::logic::Logic;
use carcassonne_rules_compiler::model::{Anchored, Cond, Item, Placed, Rules, WhyEnd};
use carcassonne_rules_compiler::{self as compiler};
use carcassonne_rules_core::{Config, EditionId, Entry, ModuleSet, TurnOrder, VariantId};
use carcassonne_rules_tools::explain;
use carcassonne_rules_tools::interpret;

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";

/// Where an item sits in the model: its list (its parent's children or its
/// section's top level), its parent, and the conditions that must hold for
/// it to show (its step's, its ancestors' and its own).
struct Place<'r> {
    item: &'r Item,
    section: String,
    parent: Option<String>,
    list: Vec<String>,
    shows: Vec<&'r Cond>,
}

fn places(rules: &Rules) -> HashMap<String, Place<'_>> {
    fn walk<'r>(
        items: &'r [Item],
        section: &str,
        parent: Option<&str>,
        shows: &[&'r Cond],
        out: &mut HashMap<String, Place<'r>>,
    ) {
        let list: Vec<String> = items.iter().map(|i| i.id.clone()).collect();
        for item in items {
            let mut mine = shows.to_vec();
            mine.push(&item.when);
            out.insert(
                item.id.clone(),
                Place {
                    item,
                    section: section.to_string(),
                    parent: parent.map(str::to_string),
                    list: list.clone(),
                    shows: mine.clone(),
                },
            );
            walk(&item.children, section, Some(&item.id), &mine, out);
        }
    }
    let mut out = HashMap::new();
    for (section, items) in rules.sections.iter() {
        let name = section.name();
        walk(items, name, None, &[], &mut out);
    }
    for step in rules.steps() {
        walk(&step.items, &step.id, None, &[&step.when], &mut out);
    }
    out
}

/// The list holding `id` in a turn order: its section or step, its parent
/// and the ids of the list, in order.
fn locate(order: &TurnOrder, id: &str) -> Option<(String, Option<String>, Vec<String>)> {
    fn find(entries: &[Entry], id: &str, parent: Option<&str>) -> Option<(Option<String>, Vec<String>)> {
        if entries.iter().any(|e| e.id() == id) {
            return Some((parent.map(str::to_string), entries.iter().map(|e| e.id().to_string()).collect()));
        }
        entries.iter().find_map(|e| find(&e.children, id, Some(e.id())))
    }
    let sections = order.sections.iter().map(|(section, entries)| (section.name(), entries.as_slice()));
    let steps = order.phases.iter().flat_map(|p| &p.steps).map(|s| (s.id.as_ref(), s.items.as_slice()));
    sections.chain(steps).find_map(|(section, entries)| {
        find(entries, id, None).map(|(parent, list)| (section.to_string(), parent, list))
    })
}

/// The item a placement hangs off: the sibling of `after`, `before` or the
/// item above it, or itself for one at the end of its list.
fn root<'p>(id: &'p str, places: &'p HashMap<String, Place<'_>>) -> &'p str {
    let mut at = id;
    for _ in 0..places.len() {
        match &places[at].item.placed.anchor {
            Anchored::After(x, _) | Anchored::Before(x, _) | Anchored::Above(x, _) => at = x,
            Anchored::End(_) => return at,
        }
    }
    panic!("the anchors of `{id}` loop")
}

/// Checks the model's placement of `id` against the turn order of `cfg`.
fn agrees(id: &str, cfg: &Config, rules: &Rules, places: &HashMap<String, Place<'_>>) {
    let place = &places[id];
    let order = interpret::turn_order(rules, cfg);
    let (section, parent, list) = locate(&order, id).unwrap_or_else(|| panic!("`{id}` does not show"));
    assert_eq!(section, place.section, "`{id}`'s section");
    let Placed { under, anchor } = &place.item.placed;
    if let Some((target, _)) = under {
        assert_eq!(parent.as_ref(), Some(target), "`{id}` is placed under `{target}`");
    }
    assert_eq!(parent, place.parent, "`{id}`'s parent");
    let at = |x: &str| list.iter().position(|y| y == x);
    let me = at(id).expect("in its list");
    match anchor {
        Anchored::After(x, _) | Anchored::Above(x, _) => {
            if let Some(x) = at(x) {
                assert!(x < me, "`{id}` comes after its anchor in {list:?}");
            }
            assert!(place.list.contains(&anchor_id(anchor).to_string()), "`{id}`'s anchor is a sibling");
        }
        Anchored::Before(x, _) => {
            if let Some(x) = at(x) {
                assert!(x > me, "`{id}` comes before its anchor in {list:?}");
            }
            assert!(place.list.contains(&anchor_id(anchor).to_string()), "`{id}`'s anchor is a sibling");
        }
        Anchored::End(why) => {
            // What follows it hangs off it, or off a later end of the list.
            let full = |x: &str| place.list.iter().position(|y| y == x).expect("a sibling");
            for later in &list[me + 1..] {
                let r = root(later, places);
                assert!(r == id || full(r) > full(id), "`{later}` follows `{id}`, at the end of its list");
            }
            if let WhyEnd::AboveElsewhere { id: above, parent: there, .. } = why {
                assert_eq!(&places[above].parent, there, "where `{above}`, above `{id}`, went");
                assert_ne!(there, &place.parent, "`{above}` is in another list than `{id}`");
            }
        }
    }
}

fn anchor_id(anchor: &Anchored) -> &str {
    match anchor {
        Anchored::After(x, _) | Anchored::Before(x, _) | Anchored::Above(x, _) => x,
        Anchored::End(_) => "",
    }
}

#[test]
fn every_bundled_items_placement_is_where_the_turn_order_puts_it() {
    let rules = compiler::compile_dir(Path::new(BUNDLED)).result.unwrap_or_else(|_| panic!("bundled rules check"));
    let places = places(&rules);
    let logic = Logic::new(&rules);
    let mut checked = 0;
    for item in rules.items() {
        let place = &places[&item.id];
        let shows = place.shows.iter().fold(logic.everything().clone(), |acc, c| acc.and(&logic.cond(c)));
        let anchor = places.get(anchor_id(&item.placed.anchor));
        for e in 0..rules.catalog.editions.len() {
            let here = shows.and(&logic.edition(EditionId(e as u8)));
            // Where possible, a selection that shows its anchor too.
            let with_anchor = anchor
                .map_or_else(|| here.clone(), |a| a.shows.iter().fold(here.clone(), |acc, c| acc.and(&logic.cond(c))));
            let Some(cfg) = logic.witness(&with_anchor).or_else(|| logic.witness(&here)) else { continue };
            agrees(&item.id, &cfg, &rules, &places);
            checked += 1;
        }
    }
    assert!(checked > 3 * 400, "{checked} placements checked");
}

#[test]
fn an_item_after_one_moved_under_another_goes_last_at_the_top_level_and_explain_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(BUNDLED), dir.path());
    let path = dir.path().join("expansions/the-tower.yaml");
    let text = std::fs::read_to_string(&path).expect("the tower's rules");
    let moved = "      text: On a tile with a tower, you may have to push the tower aside a little to make room for the bridge.\n";
    assert!(text.contains(moved), "the tower's rules changed");
    let added = "    - id: tower-after-the-moved-one\n      when: tower\n      text: Something to do with the tower.\n";
    std::fs::write(&path, text.replacen(moved, &format!("{moved}{added}"), 1)).expect("write");
    let compiled = compiler::compile_dir(dir.path());
    let rules = compiled.result.unwrap_or_else(|p| panic!("{}", compiler::diagnostics::render(&p, false)));
    let places = places(&rules);

    let id = "tower-after-the-moved-one";
    assert_eq!(places["tower-bridge-shift-tower"].parent.as_deref(), Some("bridges-build"));
    assert_eq!(places[id].parent, None, "it stays at the top level of 1C");
    let tower = rules.catalog.module("tower").expect("the tower module").bit;
    let bridges = rules.catalog.module("bridges").expect("the bridges module").bit;
    let cfg = Config { edition: EditionId(1), variant: VariantId(0), modules: ModuleSet::from_iter([tower, bridges]) };
    agrees(id, &cfg, &rules, &places);
    let order = interpret::turn_order(&rules, &cfg);
    let (_, _, list) = locate(&order, id).expect("shown");
    assert_eq!(list.last().map(String::as_str), Some(id), "last at the top level of 1C: {list:?}");

    let text = explain::explain(&rules, &compiled.sources, id, &cfg).expect("explained");
    let placed = text.lines().find(|l| l.trim_start().starts_with("placed:")).expect("a placement");
    assert_eq!(
        placed.trim(),
        "placed: at the end of the top level of step 1C, in file order (the base game's first): \
         `tower-bridge-shift-tower`, the item above it in its file, is under `bridges-build`",
    );
}
