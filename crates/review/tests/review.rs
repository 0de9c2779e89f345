//! `review` on planted edits of the bundled rules, each checked against
//! brute force: every selection over the modules the change involves is
//! run through the interpreter in both versions, and the change's counts,
//! its `where` condition and its example command must agree with what the
//! turn orders show. Revisions are read from a real git repository.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "../../compiler/tests/common/mod.rs"]
mod common;
#[path = "../../compiler/tests/cpu_time/mod.rs"]
mod cpu_time;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

use carcassonne_rules_compiler::compile_dir;
use carcassonne_rules_compiler::dsl::{self, Condition};
use carcassonne_rules_compiler::model::{Item, Rules};
use carcassonne_rules_core::{Entry, TurnOrder};
use carcassonne_rules_review::{self as review, Change, Format, Kind, Review};
use carcassonne_rules_tools::interpret;

const BUNDLED: &str = "../../rules";

fn compile(dir: &Path) -> Rules {
    compile_dir(dir).result.expect("rules compile")
}

/// A copy of the bundled rules with each `(file, from, to)` replacement made
/// (`from` must occur exactly once).
fn edited(edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    common::copy_dir(Path::new(BUNDLED), tmp.path());
    for (file, from, to) in edits {
        let path = tmp.path().join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.matches(from).count(), 1, "`{from}` once in {file}");
        std::fs::write(&path, text.replace(from, to)).expect("write");
    }
    tmp
}

fn review_dirs(base: &Path, head: &Path) -> (Rules, Rules, Review) {
    let (old, new) = (compile(base), compile(head));
    let review = review::review("base", &old, "head", &new).expect("within the budget");
    (old, new, review)
}

/// What a turn order shows, by item id.
struct Shown<'a> {
    items: HashMap<&'a str, (String, &'a Entry<'a>)>,
    lists: HashMap<String, Vec<&'a str>>,
    /// Each step with its repeat and choice.
    steps: HashMap<&'a str, (Option<carcassonne_rules_core::Repeat>, bool)>,
}

fn shown<'a>(order: &'a TurnOrder<'a>) -> Shown<'a> {
    fn walk<'a>(entries: &'a [Entry<'a>], parent: String, out: &mut Shown<'a>) {
        out.lists.insert(parent.clone(), entries.iter().map(Entry::id).collect());
        for e in entries {
            out.items.insert(e.id(), (parent.clone(), e));
            walk(&e.children, format!("item {}", e.id()), out);
        }
    }
    let mut out = Shown { items: HashMap::new(), lists: HashMap::new(), steps: HashMap::new() };
    for (section, entries) in order.sections.iter() {
        let name = section.name();
        walk(entries, format!("step {name}"), &mut out);
    }
    for phase in &order.phases {
        for step in &phase.steps {
            out.steps.insert(&step.id, (step.repeat, step.choose_one));
            walk(&step.items, format!("step {}", step.id), &mut out);
        }
    }
    out
}

/// Whether the turn orders `b` (base) and `h` (head) show `change`.
fn holds(change: &Change, b: &Shown, h: &Shown) -> bool {
    let parent_in = |s: &Shown, parent: &str| match parent.strip_prefix("item ") {
        Some(p) => s.items.contains_key(p),
        None => {
            parent.strip_prefix("step ").is_some_and(|st| s.steps.contains_key(st) || !st.starts_with(char::is_numeric))
        }
    };
    let Some(x) = change.item.as_deref() else {
        let step = change.step.as_str();
        return match change.kind {
            Kind::Shown => h.steps.contains_key(step) && !b.steps.contains_key(step),
            Kind::Hidden => b.steps.contains_key(step) && !h.steps.contains_key(step),
            Kind::Step => matches!((b.steps.get(step), h.steps.get(step)), (Some(o), Some(n)) if o != n),
            other => panic!("{other:?} of a step"),
        };
    };
    let (bx, hx) = (b.items.get(x), h.items.get(x));
    match change.kind {
        Kind::Shown => hx.is_some_and(|(p, _)| parent_in(b, p)) && bx.is_none(),
        Kind::Hidden => bx.is_some_and(|(p, _)| parent_in(h, p)) && hx.is_none(),
        Kind::Added => hx.is_some(),
        Kind::Removed => bx.is_some(),
        Kind::Renamed => {
            let from = change.detail.split('`').nth(1).expect("old id in the detail");
            hx.is_some() && b.items.contains_key(from) && !h.items.contains_key(from)
        }
        Kind::Text => matches!((bx, hx), (Some((_, o)), Some((_, n))) if o.text != n.text),
        Kind::Origin => {
            matches!((bx, hx), (Some((_, o)), Some((_, n))) if o.origin_id() != n.origin_id() || o.foreign != n.foreign)
        }
        Kind::Marker => {
            let label = change.marker.as_deref().expect("a marker");
            let has = |e: &Entry| e.markers.iter().any(|m| m == label);
            let now = change.detail.ends_with("now shows");
            matches!((bx, hx), (Some((_, o)), Some((_, n))) if has(n) == now && has(o) != now)
        }
        Kind::Moved => {
            let (Some((bp, _)), Some((hp, _))) = (bx, hx) else { return false };
            if bp != hp {
                return true;
            }
            let (bl, hl) = (&b.lists[bp], &h.lists[hp]);
            let pos = |l: &[&str], id: &str| l.iter().position(|i| *i == id);
            bl.iter().any(|y| {
                matches!((pos(bl, x), pos(bl, y), pos(hl, x), pos(hl, y)),
                    (Some(a), Some(b), Some(c), Some(d)) if (a < b) != (c < d))
            })
        }
        Kind::Step => panic!("no planted edit changes a step"),
    }
}

/// Whether the DSL condition `c` holds for the selection.
fn evaluate(c: &Condition, edition: &str, variant: &str, modules: &BTreeSet<String>) -> bool {
    match c {
        Condition::Bool(b) => *b,
        Condition::Name(n) => modules.contains(&n.text),
        Condition::Edition { equal, edition: e } => (e.text == edition) == *equal,
        Condition::Variant { equal, variant: v } => (v.text == variant) == *equal,
        Condition::Not(inner) => !evaluate(inner, edition, variant, modules),
        Condition::And(parts) => parts.iter().all(|p| evaluate(p, edition, variant, modules)),
        Condition::Or(parts) => parts.iter().any(|p| evaluate(p, edition, variant, modules)),
    }
}

/// The turn orders of a selection in both versions (modules a version lacks are left out).
fn orders<'r>(
    old: &'r Rules,
    new: &'r Rules,
    edition: &str,
    variant: Option<&str>,
    modules: &BTreeSet<String>,
) -> (TurnOrder<'r>, TurnOrder<'r>) {
    let order = |rules: &'r Rules| {
        let with: Vec<&str> =
            modules.iter().map(String::as_str).filter(|m| rules.catalog.module(m).is_some()).collect();
        let cfg = rules.catalog.config(edition, variant, &with.join(",")).expect("a valid selection");
        interpret::turn_order(rules, &cfg)
    };
    (order(old), order(new))
}

/// The modules of each edition, in either version.
fn edition_modules(old: &Rules, new: &Rules, edition: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for rules in [old, new] {
        for x in rules.catalog.expansions.iter().filter(|x| x.editions.iter().any(|e| e == edition)) {
            out.extend(x.modules.iter().map(|m| m.id.clone()));
        }
    }
    out
}

/// The modules that the conditions of `id`, its ancestors, its step, its
/// markers and (with `siblings`) its siblings' chains name, in `rules`.
fn involved(rules: &Rules, id: &str, siblings: bool, out: &mut BTreeSet<String>) {
    fn find<'a>(items: &'a [Item], id: &str, path: &mut Vec<&'a [Item]>, chain: &mut Vec<&'a Item>) -> bool {
        for item in items {
            chain.push(item);
            path.push(items);
            if item.id == id || find(&item.children, id, path, chain) {
                return true;
            }
            chain.pop();
            path.pop();
        }
        false
    }
    let name = |m: carcassonne_rules_core::ModuleId| rules.catalog.modules[usize::from(m.0)].id.clone();
    let mut lists: Vec<(&carcassonne_rules_compiler::model::Cond, &[Item])> = Vec::new();
    let tru = carcassonne_rules_compiler::model::Cond::True;
    for (_, items) in rules.sections.iter() {
        lists.push((&tru, items));
    }
    for step in rules.steps() {
        lists.push((&step.when, &step.items));
    }
    for (step_when, items) in lists {
        let (mut path, mut chain) = (Vec::new(), Vec::new());
        if !find(items, id, &mut path, &mut chain) {
            continue;
        }
        out.extend(step_when.modules(&rules.flags).into_iter().map(name));
        for item in &chain {
            out.extend(item.when.modules(&rules.flags).into_iter().map(name));
        }
        let me = chain.last().expect("found");
        for marker in &me.markers {
            out.extend(marker.when.modules(&rules.flags).into_iter().map(name));
        }
        if siblings {
            let list = path.last().expect("found");
            for sibling in list.iter() {
                if sibling.id != id {
                    involved(rules, &sibling.id, false, out);
                }
            }
        }
    }
}

/// Checks `change` against brute force over the modules it involves: its
/// exact counts and its `where` at every selection, and its example.
fn brute_force(old: &Rules, new: &Rules, change: &Change) {
    let mut modules = BTreeSet::new();
    if let Some(id) = &change.item {
        let base_id = match change.kind {
            Kind::Renamed => change.detail.split('`').nth(1).expect("old id").to_string(),
            _ => id.clone(),
        };
        involved(old, &base_id, change.kind == Kind::Moved, &mut modules);
        involved(new, id, change.kind == Kind::Moved, &mut modules);
    } else {
        for rules in [old, new] {
            let name = |m: carcassonne_rules_core::ModuleId| rules.catalog.modules[usize::from(m.0)].id.clone();
            for step in rules.steps().filter(|s| s.id == change.step) {
                modules.extend(step.when.modules(&rules.flags).into_iter().map(name));
                if let Some((_, when)) = &step.repeat {
                    modules.extend(when.modules(&rules.flags).into_iter().map(name));
                }
            }
        }
    }
    assert!(modules.len() <= 12, "{} modules to enumerate: {modules:?}", modules.len());
    let condition = dsl::condition(&change.condition).expect("`where` is a DSL condition");
    let variants: Vec<String> = new.catalog.variants.iter().map(|v| v.id.clone()).collect();
    for (edition, reported) in &change.selections {
        let of_edition = edition_modules(old, new, edition);
        let here: Vec<&String> = modules.iter().filter(|m| of_edition.contains(*m)).collect();
        let weight = 1u128 << (of_edition.len() - here.len());
        let mut count = 0u128;
        for variant in &variants {
            for mask in 0..1u32 << here.len() {
                let chosen: BTreeSet<String> =
                    here.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, m)| (*m).clone()).collect();
                let (b, h) = orders(old, new, edition, Some(variant), &chosen);
                let truth = holds(change, &shown(&b), &shown(&h));
                assert_eq!(
                    evaluate(&condition, edition, variant, &chosen),
                    truth,
                    "`{}` of {:?} {:?} at {edition} {variant} {chosen:?}",
                    change.condition,
                    change.kind,
                    change.item
                );
                count += u128::from(truth) * weight;
            }
        }
        assert_eq!(count, *reported, "{:?} {:?} in {edition}", change.kind, change.item);
    }
    check_example(old, new, change);
}

/// The change's example command, run against both versions, shows it.
fn check_example(old: &Rules, new: &Rules, change: &Change) {
    let example = change.example.as_deref().expect("an example");
    let words: Vec<&str> = example.split(' ').collect();
    assert_eq!(words[0], "order", "{example}");
    let arg = |name: &str| words.iter().position(|w| *w == name).map(|i| words[i + 1]);
    let modules: BTreeSet<String> =
        arg("--with").unwrap_or("").split(',').filter(|m| !m.is_empty()).map(str::to_string).collect();
    let (b, h) = orders(old, new, arg("--edition").expect("an edition"), arg("--variant"), &modules);
    assert!(holds(change, &shown(&b), &shown(&h)), "{example} does not show {:?} {:?}", change.kind, change.item);
}

fn summary(review: &Review) -> Vec<(Kind, Option<&str>)> {
    review.changes.iter().map(|c| (c.kind, c.item.as_deref())).collect()
}

fn count(change: &Change, edition: &str) -> u128 {
    change.selections.iter().find(|(e, _)| e == edition).map(|(_, n)| *n).expect("edition")
}

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";

#[test]
fn a_narrowed_condition_is_hidden_exactly_where_it_no_longer_holds() {
    let head = edited(&[(
        ABBEY,
        "    - id: mayor-deploy\n      when: mayor\n",
        "    - id: mayor-deploy\n      when: mayor and not barn\n",
    )]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Hidden, Some("mayor-deploy"))]);
    let change = &review.changes[0];
    assert_eq!(change.condition, "barn and mayor");
    assert_eq!(change.step, "2B-1");
    assert_eq!(change.editions(), ["C1", "C2"]);
    assert_eq!(change.example.as_deref(), Some("order --edition C1 --with barn,mayor"));
    // A quarter of the selections of an edition that has both modules.
    let c1 = edition_modules(&old, &new, "C1").len();
    assert_eq!(count(change, "C1"), 3u128 << (c1 - 2));
    brute_force(&old, &new, change);
}

#[test]
fn a_text_changed_in_one_edition_is_reported_there_only() {
    let head = edited(&[(
        ABBEY,
        "Wagon onto a feature (never a {C1: farm | C2, WE: field})",
        "Wagon onto a feature (never a {C1: farm | C2: meadow | WE: field})",
    )]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Text, Some("wagon-deploy"))]);
    let change = &review.changes[0];
    assert_eq!(change.editions(), ["C2"]);
    assert_eq!(change.condition, "edition == C2 and wagon");
    assert!(change.detail.contains("meadow"), "{}", change.detail);
    brute_force(&old, &new, change);
}

#[test]
fn an_item_moved_among_its_siblings_is_reported_where_both_show() {
    let barn = "    - id: barn-take-figure\n      when: barn\n      text: Every player adds the barn of their colour to their supply.\n";
    let mayor = "    - id: mayor-take-figure\n";
    let head = edited(&[(ABBEY, barn, ""), (ABBEY, mayor, &format!("{barn}{mayor}"))]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Moved, Some("barn-take-figure"))]);
    let change = &review.changes[0];
    assert_eq!(change.condition, "barn and (mayor or wagon)");
    brute_force(&old, &new, change);
}

#[test]
fn a_widened_derived_flag_is_reported_through_the_items_it_shows_and_hides() {
    let head = edited(&[(
        "modules.yaml",
        "tiles_in_supply: abbey or halflings or german_castles\n",
        "tiles_in_supply: abbey or halflings or german_castles or bazaars\n",
    )]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert!(!review.changes.is_empty());
    for change in &review.changes {
        // Items shown or hidden with the bazaars, where no tile was in the
        // supply already; and the bazaars now the origin of the item that
        // names the flag, where they come before the wetlands.
        match change.kind {
            Kind::Shown | Kind::Hidden => assert!(
                change.condition.contains("bazaars and ") && change.condition.contains("not abbey"),
                "{}",
                change.condition
            ),
            Kind::Origin => assert_eq!(
                (change.item.as_deref(), change.detail.as_str()),
                (Some("abbey-play-from-supply"), "origin: wetlands → bazaars")
            ),
            other => panic!("{other:?} {:?}", change.item),
        }
        brute_force(&old, &new, change);
    }
    // Nothing else changed: every item whose visibility differs somewhere is
    // reported, over every selection of the modules the flags name.
    let modules = [
        "bazaars",
        "wonders_of_humanity",
        "fortune_teller",
        "builder",
        "abbey",
        "halflings",
        "german_castles",
        "wetlands",
    ];
    for edition in ["C1", "C2", "WE"] {
        // A selection holds modules of its edition.
        let of_edition = edition_modules(&old, &new, edition);
        let modules: Vec<&str> = modules.iter().copied().filter(|m| of_edition.contains(*m)).collect();
        for mask in 0..1u32 << modules.len() {
            let chosen: BTreeSet<String> =
                modules.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, m)| m.to_string()).collect();
            let (b, h) = orders(&old, &new, edition, None, &chosen);
            let (b, h) = (shown(&b), shown(&h));
            let differ: BTreeSet<&str> = b
                .items
                .keys()
                .chain(h.items.keys())
                .filter(|id| b.items.contains_key(*id) != h.items.contains_key(*id))
                .copied()
                .collect();
            let reported: BTreeSet<&str> = review
                .changes
                .iter()
                .filter(|c| evaluate(&dsl::condition(&c.condition).unwrap(), edition, "hig", &chosen))
                .filter_map(|c| c.item.as_deref())
                .collect();
            // A sub-item hidden with its parent is the parent's change.
            let explained = |id: &str| {
                let parent = |s: &Shown| s.items.get(id).map(|(p, _)| p.trim_start_matches("item ").to_string());
                parent(&b).or(parent(&h)).is_some_and(|p| reported.contains(p.as_str()))
            };
            for id in &differ {
                assert!(
                    reported.contains(id) || explained(id),
                    "{id} differs at {edition} {chosen:?} but is not reported"
                );
            }
        }
    }
}

#[test]
fn a_marker_condition_changed_is_a_marker_change() {
    let head = edited(&[(
        ABBEY,
        "      before: return-meeples\n      markers: [\"TREE_TRAP when russian_promos\", \"LAKE_TRAP when russian_promos\"]",
        "      before: return-meeples\n      markers: [\"TREE_TRAP when russian_promos\", \"LAKE_TRAP when russian_promos and not barn\"]",
    )]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Marker, Some("wagon-move-after-scoring"))]);
    let change = &review.changes[0];
    assert_eq!(change.marker.as_deref(), Some("LAKE TRAP"));
    assert_eq!(change.detail, "marker LAKE TRAP no longer shows");
    brute_force(&old, &new, change);
}

#[test]
fn a_renamed_item_is_a_rename_and_nothing_else() {
    let head = edited(&[(ABBEY, "- id: barn-take-figure\n", "- id: barn-take-own-figure\n")]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Renamed, Some("barn-take-own-figure"))]);
    assert_eq!(review.changes[0].detail, "renamed from `barn-take-figure`");
    brute_force(&old, &new, &review.changes[0]);
}

#[test]
fn an_added_and_a_removed_item_are_reported_with_where_they_show() {
    let head = edited(&[(
        ABBEY,
        "    - id: barn-take-figure\n      when: barn\n      text: Every player adds the barn of their colour to their supply.\n",
        "    - id: barn-take-two-figures\n      when: barn and mayor\n      text: Every player adds two barns to their supply.\n",
    )]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(
        summary(&review),
        [(Kind::Added, Some("barn-take-two-figures")), (Kind::Removed, Some("barn-take-figure"))]
    );
    assert_eq!(review.changes[0].condition, "barn and mayor");
    for change in &review.changes {
        brute_force(&old, &new, change);
    }
}

#[test]
fn equivalent_rewrites_report_nothing() {
    let head = edited(&[
        // `or` regrouped, `and` reordered, `!=` spelt out as an `or`, reordered.
        (ABBEY, "when: abbey or mayor or wagon or barn", "when: abbey or (mayor or wagon) or barn"),
        ("expansions/princess-and-dragon.yaml", "when: dragon and edition == C1\n", "when: edition == C1 and dragon\n"),
        (
            "expansions/princess-and-dragon.yaml",
            "when: dragon and edition != C1\n",
            "when: dragon and (edition == WE or edition == C2)\n",
        ),
        // Keys reordered.
        (
            ABBEY,
            "    - id: abbey-take-tile\n      when: abbey\n      text: Give",
            "    - when: abbey\n      id: abbey-take-tile\n      text: Give",
        ),
        // Quotes added.
        (
            ABBEY,
            "    - id: mayor-take-figure\n      when: mayor\n",
            "    - id: \"mayor-take-figure\"\n      when: 'mayor'\n",
        ),
        // One wording per edition instead of a shared one.
        (ABBEY, "(never a {C1: farm | C2, WE: field})", "(never a {C1: farm | WE: field | C2: field})"),
        // A derived flag opened up.
        (
            "modules.yaml",
            "tiles_drawn_only: not tiles_not_drawn_considered",
            "tiles_drawn_only: not (mandatory_tiles or wetlands or tiles_in_supply)",
        ),
        // De Morgan.
        (
            ABBEY,
            "- id: wagon-protect-against-revolts\n          when: peasant_revolts\n",
            "- id: wagon-protect-against-revolts\n          when: not not peasant_revolts\n",
        ),
    ]);
    let (_, _, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), []);
    assert!(review::render(&review, Format::Text, false).contains("no change in any selection"));
}

#[test]
fn an_or_reordered_changes_the_origin_where_both_modules_are_selected() {
    // The origin is the first module the condition names whose part holds,
    // so `order` shows the difference: `review` reports it, and nothing else.
    let head = edited(&[("expansions/mage-and-witch.yaml", "when: mage or witch\n", "when: witch or mage\n")]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert!(!review.changes.is_empty());
    for change in &review.changes {
        assert_eq!(change.kind, Kind::Origin);
        assert!(change.condition.contains("mage and witch"), "{}", change.condition);
        brute_force(&old, &new, change);
    }
    assert_eq!(review.changes[0].item.as_deref(), Some("mage-witch-move"));
    assert_eq!(review.changes[0].detail, "origin: mage → witch");

    // The same shows where mage is named first but its part cannot hold
    // with witch: a candidate counts only where its part of the condition holds.
    let when = "when: (mage and not witch) or witch\n";
    let guarded = edited(&[("expansions/mage-and-witch.yaml", "when: mage or witch\n", when)]);
    let (old, new, guarded) = review_dirs(Path::new(BUNDLED), guarded.path());
    assert_eq!(summary(&guarded), summary(&review));
    for change in &guarded.changes {
        assert!(change.condition.contains("mage and witch"), "{}", change.condition);
        brute_force(&old, &new, change);
    }
}

#[test]
fn a_double_turn_block_that_ends_earlier_is_a_change_of_the_steps_it_leaves_out() {
    let head = edited(&[(
        "base.yaml",
        "double_turn: { from: 1B, to: 4A, when: builder }",
        "double_turn: { from: 1B, to: 3C, when: builder }",
    )]);
    let (old, new, review) = review_dirs(Path::new(BUNDLED), head.path());
    // 3D (RGG's dragon) and 4A leave the block.
    assert_eq!(summary(&review), [(Kind::Step, None), (Kind::Step, None)]);
    let steps: Vec<(&str, &str)> = review.changes.iter().map(|c| (c.step.as_str(), c.detail.as_str())).collect();
    assert_eq!(steps, [("3D", "repeat: double_turn → none"), ("4A", "repeat: double_turn → none")]);
    assert_eq!(review.changes[1].condition, "builder");
    for change in &review.changes {
        brute_force(&old, &new, change);
    }
}

#[test]
fn texts_from_the_rules_are_escaped_in_every_format() {
    // Markdown markup in a text is shown, not obeyed.
    let head = edited(&[(ABBEY, "text: An abbey tile\n", "text: \"An abbey tile <b>*x*</b> | `y`\"\n")]);
    let (_, _, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Text, Some("abbey-supply-abbey-tile"))]);
    let markdown = review::render(&review, Format::Markdown, false);
    assert!(markdown.contains("\\<b\\>\\*x\\*\\</b\\> \\| \\`y\\`"), "{markdown}");
    let json: serde_json::Value = serde_json::from_str(&review::render(&review, Format::Json, false)).expect("JSON");
    assert!(json["changes"][0]["detail"].as_str().expect("detail").contains("<b>*x*</b> | `y`"));

    // A YAML `\e` is an escape character, which a terminal would obey: the
    // head's rules are refused, located, and the version named.
    let head = edited(&[(ABBEY, "text: An abbey tile\n", "text: \"An abbey tile\\e[2J\"\n")]);
    let found = problems(review::command(BUNDLED, head.path(), Format::Text, false));
    assert!(found.contains("abbey-and-mayor.yaml:"), "{found}");
    assert!(found.contains("this is in the head version ("), "{found}");
    assert!(!found.contains('\x1b'), "{found}");

    // A version's name comes from the command line: a base folder whose
    // name holds an escape sequence is printed escaped, in the text and in
    // the help that names the version; JSON keeps it, escaped by JSON.
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().join("base\x1b[2J");
    common::copy_dir(Path::new(BUNDLED), &base);
    let base = base.to_str().expect("utf-8");
    for color in [false, true] {
        let (text, changed) = review::command(base, Path::new(BUNDLED), Format::Text, color).expect("review");
        assert!(!changed, "{text}");
        assert!(text.contains("base\\u{1b}[2J"), "{text}");
        assert!(!text.contains("\x1b[2J"), "{text}");
    }
    let (markdown, _) = review::command(base, Path::new(BUNDLED), Format::Markdown, false).expect("review");
    assert!(markdown.contains("base\\u{1b}[2J") && !markdown.contains('\x1b'), "{markdown}");
    let (json, _) = review::command(base, Path::new(BUNDLED), Format::Json, false).expect("review");
    assert!(!json.contains('\x1b'), "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["base"], base);
    let broken = format!("{base}/{ABBEY}");
    let good = std::fs::read_to_string(&broken).expect("read");
    std::fs::write(&broken, good.replace("when: mayor\n", "when: mayro\n")).expect("write");
    let found = problems(review::command(base, Path::new(BUNDLED), Format::Text, false));
    assert!(found.contains("this is in the base version (") && found.contains("base\\u{1b}[2J)"), "{found}");
}

#[test]
fn the_bundled_rules_against_themselves_change_nothing() {
    let (_, _, review) = review_dirs(Path::new(BUNDLED), Path::new(BUNDLED));
    assert!(review.changes.is_empty());
    // Every selection: per edition, three variants times the subsets of its modules.
    let rules = compile(Path::new(BUNDLED));
    for (edition, total) in &review.totals {
        assert_eq!(*total, 3u128 << edition_modules(&rules, &rules, edition).len());
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A repository whose first commit holds the bundled rules in `rules/`.
fn repository() -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("tempdir");
    git(repo.path(), &["init", "-q"]);
    common::copy_dir(Path::new(BUNDLED), &repo.path().join("rules"));
    git(repo.path(), &["add", "rules"]);
    git(repo.path(), &["commit", "-q", "-m", "rules"]);
    repo
}

#[test]
fn a_revision_is_read_from_git_without_touching_the_work_tree() {
    let repo = repository();
    let rules = repo.path().join("rules");
    let file = rules.join(ABBEY);
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replace(
        "    - id: mayor-deploy\n      when: mayor\n",
        "    - id: mayor-deploy\n      when: mayor and not barn\n",
    );
    std::fs::write(&file, &edited).unwrap();
    let status = git(repo.path(), &["status", "--porcelain"]);
    let (json, changed) = review::command("HEAD", &rules, Format::Json, false).expect("review runs");
    assert!(changed);
    // The work tree is as it was: still edited, nothing else.
    assert_eq!(git(repo.path(), &["status", "--porcelain"]), status);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(value["base"], "HEAD");
    let changes = value["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["kind"], "hidden");
    assert_eq!(changes[0]["item"], "mayor-deploy");
    assert_eq!(changes[0]["where"], "barn and mayor");
    assert_eq!(changes[0]["editions"], serde_json::json!(["C1", "C2"]));
    assert_eq!(changes[0]["selections"]["WE"], 0);
    // The same as against a folder holding the committed rules.
    let (old, new, by_dir) = review_dirs(Path::new(BUNDLED), &rules);
    let c1 = by_dir.changes[0].selections[0].1;
    assert_eq!(changes[0]["selections"]["C1"].to_string(), c1.to_string());
    brute_force(&old, &new, &by_dir.changes[0]);

    // Committed, the edit is the difference between HEAD~1 and HEAD.
    git(repo.path(), &["commit", "-q", "-am", "narrow"]);
    let (markdown, _) = review::command("HEAD~1", &rules, Format::Markdown, false).expect("review runs");
    assert!(markdown.contains("**hidden** `mayor-deploy`"), "{markdown}");
    assert!(markdown.lines().count() <= 15, "{markdown}");
    let (text, changed) = review::command("HEAD", &rules, Format::Text, false).expect("review runs");
    assert!(!changed, "{text}");
}

/// The 24 pairs `(a00 and b00) or …` of `check`'s bounds tests, as one
/// version of a repository's rules: `spoiler` adds the derived flags that
/// name every `a` before any `b` (placing them apart in the variable order),
/// and `when` replaces the pairs' condition.
fn pairs_version(dir: &Path, spoiler: bool, when: Option<&str>) {
    common::copy_dir(Path::new("../compiler/tests/fixtures/hostile-pairs"), dir);
    let modules = std::fs::read_to_string(dir.join("modules.yaml")).unwrap();
    let kept: Vec<&str> = modules.lines().filter(|l| spoiler || !l.starts_with("  every_")).collect();
    std::fs::write(dir.join("modules.yaml"), kept.join("\n") + "\n").unwrap();
    let path = dir.join("expansions/pairs.yaml");
    let pairs = std::fs::read_to_string(&path).unwrap();
    if let Some(when) = when {
        let line = pairs.lines().find(|l| l.starts_with("      when: (a00")).unwrap();
        std::fs::write(&path, pairs.replace(line, &format!("      when: {when}"))).unwrap();
    }
}

#[test]
fn a_condition_whose_comparison_multiplies_is_refused_at_it_in_its_version_within_the_budget() {
    if !cpu_time::alone() {
        return;
    }
    // Each version passes `check`, alone; compared, the pairs' condition is
    // built in the variables' order of both (the head's spoiler puts every
    // `a` before every `b`: 2^24 nodes), or the set where it changed is
    // the negation of the pairs, 2^24 terms to print. Unbounded, each runs
    // for minutes; the first was reported, silently wrong, once the work
    // of one operation ran out.
    let pairs = (false, None);
    let cases = [
        ("base", pairs, (true, Some("a00"))),
        ("base", pairs, (false, Some("true"))),
        ("head", (false, Some("true")), pairs),
        ("head", (true, Some("a00")), pairs),
    ];
    for (blamed, (base_spoiler, base_when), (head_spoiler, head_when)) in cases {
        let repo = tempfile::tempdir().unwrap();
        git(repo.path(), &["init", "-q"]);
        let rules = repo.path().join("rules");
        pairs_version(&rules, base_spoiler, base_when);
        assert!(compile_dir(&rules).result.is_ok(), "the base passes check");
        git(repo.path(), &["add", "rules"]);
        git(repo.path(), &["commit", "-q", "-m", "base"]);
        std::fs::remove_dir_all(&rules).unwrap();
        pairs_version(&rules, head_spoiler, head_when);
        assert!(compile_dir(&rules).result.is_ok(), "the head passes check");
        let started = cpu_time::process();
        let result = review::command("HEAD", &rules, Format::Json, false);
        let took = cpu_time::process() - started;
        let Err(found) = result else { panic!("{blamed}: expected a diagnostic, got {:?}", result.map(|r| r.0)) };
        let text = carcassonne_rules_compiler::diagnostics::render(&found, false);
        assert_eq!(found.len(), 1, "{text}");
        let location = found[0].location().expect("located");
        let file =
            if blamed == "base" { "HEAD:rules/expansions/pairs.yaml:5:13" } else { "rules/expansions/pairs.yaml:5:13" };
        assert!(location.ends_with(file), "{blamed}: {location}");
        assert!(text.contains("this condition is too complex to review"), "{text}");
        assert!(text.contains(&format!("this is in the {blamed} version")), "{text}");
        assert!(text.contains("review compares both versions within a budget"), "{text}");
        // As `check`'s bound (tests/bounds.rs): the debug build on a busy
        // 2-core machine; the release build takes a fraction of it.
        eprintln!("{blamed} blamed: {took:?} of CPU time");
        assert!(took < std::time::Duration::from_secs(12), "{blamed}: took {took:?} of CPU time");
    }
}

fn problems(result: Result<(String, bool), Vec<carcassonne_rules_compiler::Diagnostic>>) -> String {
    match result {
        Ok((out, _)) => panic!("expected diagnostics, got {out}"),
        Err(problems) => problems.iter().map(|d| format!("{d:?}\n")).collect(),
    }
}

#[test]
fn a_broken_base_names_its_version_and_its_files_as_git_does() {
    let repo = repository();
    let rules = repo.path().join("rules");
    let file = rules.join(ABBEY);
    let good = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, good.replace("when: mayor\n", "when: mayro\n")).unwrap();
    git(repo.path(), &["commit", "-q", "-am", "typo"]);
    std::fs::write(&file, &good).unwrap();
    let found = problems(review::command("HEAD", &rules, Format::Text, false));
    assert!(found.contains("this is in the base version (HEAD)"), "{found}");
    assert!(found.contains("HEAD:rules/expansions/abbey-and-mayor.yaml:"), "{found}");
    assert!(!found.contains("carcassonne-review-"), "{found}");
    // And the head, by its folder.
    std::fs::write(&file, good.replace("when: mayor\n", "when: mayro\n")).unwrap();
    let found = problems(review::command("HEAD", &rules, Format::Text, false));
    assert!(found.contains("this is in the head version ("), "{found}");
}

#[test]
fn revisions_with_links_or_unknown_names_are_refused() {
    let repo = repository();
    let rules = repo.path().join("rules");
    let found = problems(review::command("no-such-branch", &rules, Format::Text, false));
    assert!(found.contains("neither a folder nor a revision"), "{found}");
    let found = problems(review::command("--output=x", &rules, Format::Text, false));
    assert!(found.contains("not a revision name"), "{found}");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/passwd", rules.join("expansions/zz-link.yaml")).unwrap();
        git(repo.path(), &["add", "rules"]);
        git(repo.path(), &["commit", "-q", "-m", "link"]);
        std::fs::remove_file(rules.join("expansions/zz-link.yaml")).unwrap();
        let found = problems(review::command("HEAD", &rules, Format::Text, false));
        assert!(found.contains("`HEAD:rules/expansions/zz-link.yaml` is a symbolic link"), "{found}");
        // A name from the tree is quoted escaped.
        git(repo.path(), &["rm", "-q", "--cached", "rules/expansions/zz-link.yaml"]);
        std::os::unix::fs::symlink("/etc/passwd", rules.join("expansions/zz\x1b[2J.yaml")).unwrap();
        git(repo.path(), &["add", "rules"]);
        git(repo.path(), &["commit", "-q", "-m", "hostile link"]);
        let found = problems(review::command("HEAD", &rules, Format::Text, false));
        assert!(found.contains("`HEAD:rules/expansions/zz\\u{1b}[2J.yaml` is a symbolic link"), "{found}");
        assert!(!found.contains('\x1b'), "{found}");
    }
    // So is a revision's name (`:/TEXT` names a commit by its message).
    let found = problems(review::command(":/no such\x1b[2J", &rules, Format::Text, false));
    assert!(found.contains("`:/no such\\u{1b}[2J` is neither a folder nor a revision"), "{found}");
    assert!(!found.contains('\x1b'), "{found}");
}

#[test]
fn invisible_characters_are_shown_in_diagnostics_and_in_review() {
    // A key with a zero-width space reads `when` but is refused, and the
    // diagnostic shows the character.
    let head = edited(&[(
        ABBEY,
        "    - id: mayor-deploy\n      when: mayor\n",
        "    - id: mayor-deploy\n      when\u{200b}: mayor\n",
    )]);
    let rendered = carcassonne_rules_compiler::diagnostics::render(
        &match compile_dir(head.path()).result {
            Ok(_) => panic!("a key with a zero-width space is refused"),
            Err(problems) => problems,
        },
        false,
    );
    assert!(rendered.contains("when\\u{200b}") && !rendered.contains('\u{200b}'), "{rendered}");
    // A text holding one is refused, naming it.
    let head = edited(&[(ABBEY, "text: An abbey tile\n", "text: \"An abbey\u{2060} tile\"\n")]);
    let found = problems(review::command(BUNDLED, head.path(), Format::Text, false));
    assert!(found.contains("an invisible character (U+2060)"), "{found}");

    // A soft hyphen, the one a text may hold, is a change `review` shows.
    let head = edited(&[(ABBEY, "text: An abbey tile\n", "text: \"An ab\u{ad}bey tile\"\n")]);
    let (_, _, review) = review_dirs(Path::new(BUNDLED), head.path());
    assert_eq!(summary(&review), [(Kind::Text, Some("abbey-supply-abbey-tile"))]);
    for format in [Format::Text, Format::Markdown] {
        let out = review::render(&review, format, false);
        assert!(out.contains("An ab\\u{ad}bey tile"), "{out}");
        assert!(!out.contains('\u{ad}'), "{out}");
    }
}

#[test]
fn a_long_text_change_is_shown_where_it_differs() {
    let long = format!("An abbey tile {} end", "and so on ".repeat(20));
    let at = long.char_indices().nth(150).expect("150 characters").0;
    let changed = format!("{}X{}", &long[..at], &long[at + 1..]);
    let head_old = edited(&[(ABBEY, "text: An abbey tile\n", &format!("text: \"{long}\"\n"))]);
    let head_new = edited(&[(ABBEY, "text: An abbey tile\n", &format!("text: \"{changed}\"\n"))]);
    let (_, _, review) = review_dirs(head_old.path(), head_new.path());
    assert_eq!(summary(&review), [(Kind::Text, Some("abbey-supply-abbey-tile"))]);
    let detail = &review.changes[0].detail;
    let (before, after) = detail.split_once(" → ").expect("before → after");
    assert_ne!(before.split_once(": ").map(|x| x.1), after.into(), "the two sides differ: {detail}");
    assert!(after.contains('X') && !before.contains('X'), "{detail}");
}

#[test]
fn a_pull_request_comment_notifies_nobody_and_links_nowhere() {
    let head = edited(&[(
        ABBEY,
        "text: An abbey tile\n",
        "text: \"An abbey tile, ask @octocat or @org/team (#12, owner/repo#3, www.example.org)\"\n",
    )]);
    let (_, _, review) = review_dirs(Path::new(BUNDLED), head.path());
    let markdown = review::render(&review, Format::Markdown, false);
    for broken in
        ["@<!-- -->octocat", "@<!-- -->org/team", "#<!-- -->12", "owner/repo#<!-- -->3", "www<!-- -->.example.org"]
    {
        assert!(markdown.contains(broken), "{broken} in {markdown}");
    }
}

#[test]
fn a_key_with_a_look_alike_letter_is_shown_with_it_escaped() {
    // `whеn` with a Cyrillic `е` (U+0435) reads as `when`.
    let head = edited(&[(
        ABBEY,
        "    - id: mayor-deploy\n      when: mayor\n",
        "    - id: mayor-deploy\n      wh\u{435}n: mayor\n",
    )]);
    let Err(problems) = compile_dir(head.path()).result else { panic!("a look-alike key is refused") };
    let rendered = carcassonne_rules_compiler::diagnostics::render(&problems, false);
    assert!(rendered.contains("keys are ASCII, and this one is `wh\\u{435}n`"), "{rendered}");
}
