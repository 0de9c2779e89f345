//! The turn order as reviewed text. Full snapshots of the base game and of
//! everything together per edition; for each expansion one file with, per
//! edition it exists in, what the expansion and each of its modules change
//! in that edition's base game. A one-line edit of a base item touches only
//! the full snapshots; an edit of a module's item touches its expansion's file
//! (and the "everything" ones).
//!
//! Every snapshot is compared even when an earlier one fails, so one run of
//! `cargo insta test` records every change.

// Helpers outside `#[test]` functions panic on a bad selection, as tests do.
#![allow(clippy::expect_used)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use carcassonne_rules_runtime::core::{Entry, Repeat, Section as Outside, TurnOrder};
use carcassonne_rules_runtime::{catalog, render, turn_order};
use similar::{ChangeTag, TextDiff};

fn order(edition: &str, with: &str) -> TurnOrder<'static> {
    let config = catalog().config(edition, None, with).expect("a valid selection");
    turn_order(&config)
}

/// Asserts every snapshot, then fails once, naming all that differ.
fn assert_all(snapshots: Vec<(String, String)>) {
    let failed: Vec<String> = snapshots
        .into_iter()
        .filter_map(|(name, text)| {
            let name2 = name.clone();
            catch_unwind(AssertUnwindSafe(move || insta::assert_snapshot!(name2, text))).err().map(|_| name)
        })
        .collect();
    assert!(failed.is_empty(), "{} snapshot(s) differ: {}", failed.len(), failed.join(", "));
}

#[test]
fn base_game_and_everything_per_edition() {
    let catalog = catalog();
    let everything: Vec<&str> = catalog.expansions.iter().map(|x| x.id.as_str()).collect();
    let mut snapshots = Vec::new();
    for edition in &catalog.editions {
        snapshots.push((format!("order_{}_base", edition.id), render::text(&order(&edition.id, ""))));
        let all = order(&edition.id, &everything.join(","));
        snapshots.push((format!("order_{}_everything", edition.id), render::text(&all)));
    }
    assert_all(snapshots);
}

#[test]
fn each_expansion_and_module_against_the_base_game() {
    let catalog = catalog();
    let mut snapshots = Vec::new();
    for expansion in &catalog.expansions {
        let mut text = format!("What {} ({}) changes in the base game.\n", expansion.name, expansion.id);
        for edition in &expansion.editions {
            let base = lines(&order(edition, ""));
            let mut selections = vec![expansion.id.as_str()];
            if expansion.modules.len() > 1 {
                selections.extend(expansion.modules.iter().map(|m| m.id.as_str()));
            }
            for with in selections {
                text.push_str(&format!("\n== {edition} with {with} ==\n"));
                text.push_str(&diff(&base, &lines(&order(edition, with))));
            }
        }
        snapshots.push((format!("expansion_{}", expansion.id), text));
    }
    assert_all(snapshots);
}

/// A section of the turn order as diffable lines: its header, then one line
/// per item (`parent > child: text [MARKER] (origin)`).
struct Section {
    /// `step 1B`, `setup`: what the two turn orders' sections are matched by.
    key: String,
    /// The key with the step's title, repeat and choice.
    header: String,
    items: Vec<Line>,
}

/// One item: its id path (the context shown around a change) and its full line.
struct Line {
    id: String,
    full: String,
}

fn lines(order: &TurnOrder) -> Vec<Section> {
    let mut sections = Vec::new();
    let mut section = |key: String, header: String, entries: &[Entry]| {
        let mut items = Vec::new();
        item_lines(entries, "", &mut items);
        sections.push(Section { key, header, items });
    };
    for (name, outside) in [("notes", Outside::Notes), ("setup", Outside::Setup), ("any time", Outside::AnyTime)] {
        section(name.into(), name.into(), order.section(outside));
    }
    for step in order.steps() {
        let repeat = match step.repeat {
            None => "",
            Some(Repeat::DoubleTurn) => ", once or twice (double turn)",
            Some(Repeat::PerFeature) => ", once per completed feature",
        };
        let choose = if step.choose_one { ", choose one" } else { "" };
        let key = format!("step {}", step.id);
        section(key.clone(), format!("{key}: {}{repeat}{choose}", step.title), &step.items);
    }
    section("final scoring".into(), "final scoring".into(), order.section(Outside::FinalScoring));
    sections
}

fn item_lines(entries: &[Entry], parent: &str, out: &mut Vec<Line>) {
    for entry in entries {
        let id = if parent.is_empty() { entry.id().to_string() } else { format!("{parent} > {}", entry.id()) };
        let mut full = format!("{id}: {}", entry.text.trim());
        for marker in &entry.markers {
            full.push_str(&format!(" [{marker}]"));
        }
        if entry.foreign {
            full.push_str(" (from another edition)");
        }
        if let Some(effect) = entry.effect.map(|e| e.named(entry.catalog)) {
            full.push_str(&format!(" {{{effect:?}}}"));
        }
        full.push_str(&format!(" ({})", entry.origin_id()));
        out.push(Line { id: id.clone(), full });
        item_lines(&entry.children, &id, out);
    }
}

/// The changed lines of each section, with the ids of the unchanged items next
/// to them as context; `(no change)` when nothing differs.
fn diff(base: &[Section], with: &[Section]) -> String {
    let mut out = String::new();
    let keys = {
        let mut all: Vec<&str> = with.iter().map(|s| s.key.as_str()).collect();
        for (i, s) in base.iter().enumerate() {
            if !all.contains(&s.key.as_str()) {
                all.insert(i.min(all.len()), &s.key);
            }
        }
        all
    };
    for key in keys {
        let old = base.iter().find(|s| s.key == key);
        let new = with.iter().find(|s| s.key == key);
        let hunk = match (old, new) {
            (Some(a), Some(b)) if a.header != b.header => {
                [format!("- {}", a.header), format!("+ {}", b.header)].into_iter().chain(changed(a, b)).collect()
            }
            (Some(a), Some(b)) => changed(a, b),
            (Some(a), None) => whole('-', "(step left out)", a),
            (None, Some(b)) => whole('+', &format!("(step added) {}", b.header), b),
            (None, None) => Vec::new(),
        };
        if !hunk.is_empty() {
            out.push_str(&format!("@@ {key}\n"));
            for line in hunk {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    if out.is_empty() { "(no change)\n".to_string() } else { out }
}

/// A section that only one side has, line by line.
fn whole(sign: char, note: &str, section: &Section) -> Vec<String> {
    let line = |l: &Line| if sign == '-' { l.id.clone() } else { l.full.clone() };
    std::iter::once(format!("{sign} {note}"))
        .chain(section.items.iter().map(|l| format!("{sign} {}", line(l))))
        .collect()
}

fn changed(old: &Section, new: &Section) -> Vec<String> {
    let old_lines: Vec<&str> = old.items.iter().map(|l| l.full.as_str()).collect();
    let new_lines: Vec<&str> = new.items.iter().map(|l| l.full.as_str()).collect();
    let diff = TextDiff::from_slices(&old_lines, &new_lines);
    let changes: Vec<(ChangeTag, Option<usize>, Option<usize>)> =
        diff.iter_all_changes().map(|c| (c.tag(), c.old_index(), c.new_index())).collect();
    let near_change = |i: usize| {
        let tag = |j: usize| changes.get(j).map(|c| c.0);
        tag(i.wrapping_sub(1)).is_some_and(|t| t != ChangeTag::Equal)
            || tag(i + 1).is_some_and(|t| t != ChangeTag::Equal)
    };
    let mut out = Vec::new();
    for (i, &(tag, old_index, new_index)) in changes.iter().enumerate() {
        match tag {
            // A removed item is named by its id alone: a base item's wording
            // then shows only in the full snapshots.
            ChangeTag::Delete => out.push(format!("- {}", old.items[old_index.unwrap_or(0)].id)),
            ChangeTag::Insert => {
                let line = &new.items[new_index.unwrap_or(0)];
                // An item that only moved is named by its id alone, as removals are.
                let moved = old.items.iter().any(|o| o.full == line.full);
                out.push(if moved { format!("+ {} (moved)", line.id) } else { format!("+ {}", line.full) });
            }
            ChangeTag::Equal if near_change(i) => out.push(format!("  {}", new.items[new_index.unwrap_or(0)].id)),
            ChangeTag::Equal => {}
        }
    }
    out
}
