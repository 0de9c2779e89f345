//! The flow of a turn: each flow the runtime could not play is refused by
//! `check`, at the key that says it (file:line:col), with help. Every case is
//! planted in a copy of the small fixture rules; the bundled rules carry the
//! annotated flow into the model.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

mod common;

use std::path::Path;

use carcassonne_rules_compiler::diagnostics::line_col;
use carcassonne_rules_compiler::model::{Item, Rules};
use carcassonne_rules_compiler::{self as compiler, Diagnostic};
use carcassonne_rules_core::{Effect, Repeat, Role};

const FIXTURE: &str = "tests/fixtures/minimal";
const BUNDLED: &str = "../../rules";

/// A planted mistake: the file, the text replaced, its replacement, and the
/// part of the replacement the diagnostic must point at.
struct Plant {
    file: &'static str,
    from: &'static str,
    to: &'static str,
    at: &'static str,
}

/// The one problem of the fixture with `plants` made, and where the first
/// plant's `at` stands in its edited file (line and column, from 1).
fn refused(plants: &[Plant]) -> (Diagnostic, (usize, usize)) {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(FIXTURE), dir.path());
    let mut expected = None;
    for plant in plants {
        let path = dir.path().join(plant.file);
        let text = std::fs::read_to_string(&path).expect("fixture file");
        assert!(text.contains(plant.from), "{} has no {:?}", plant.file, plant.from);
        let edited = text.replacen(plant.from, plant.to, 1);
        std::fs::write(&path, &edited).expect("write");
        if expected.is_none() {
            let start = edited.find(plant.to).expect("planted");
            let offset = start + plant.to.find(plant.at).expect("`at` inside the replacement");
            expected = Some((plant.file, line_col(&edited, offset)));
        }
    }
    let problems = match compiler::compile_dir(dir.path()).result {
        Ok(_) => panic!("the planted flow checked"),
        Err(problems) => problems,
    };
    assert_eq!(problems.len(), 1, "{problems:?}");
    let d = problems.into_iter().next().expect("one");
    let (file, at) = expected.expect("a plant");
    let location = d.location().expect("located");
    assert!(location.contains(file), "{location} is not in {file}");
    (d, at)
}

/// The diagnostic's line and column.
fn at(d: &Diagnostic) -> (usize, usize) {
    let location = d.location().expect("located");
    let mut parts = location.rsplit(':').map(|n| n.parse::<usize>().expect("number"));
    let col = parts.next().expect("column");
    (parts.next().expect("line"), col)
}

/// The fixture with each `(from, to)` replaced once in its base.yaml, compiled.
fn accepted(edits: &[(&str, &str)]) -> Result<Rules, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(FIXTURE), dir.path());
    let path = dir.path().join(BASE);
    let mut text = std::fs::read_to_string(&path).expect("base.yaml");
    for (from, to) in edits {
        assert!(text.contains(from), "base.yaml has no {from:?}");
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&path, text).expect("write");
    compiler::compile_dir(dir.path()).result
}

fn plant(file: &'static str, from: &'static str, to: &'static str, at: &'static str) -> Plant {
    Plant { file, from, to, at }
}

const PRINCESS: &str = "expansions/princess-and-dragon.yaml";
const BUILDER: &str = "expansions/traders-and-builders.yaml";
const BASE: &str = "base.yaml";

#[test]
fn a_go_back_to_a_later_step_is_refused() {
    let (d, expected) = refused(&[plant(PRINCESS, "effect: skip 2B-1, 2B-2", "effect: go back to 2B-1", "go back")]);
    assert_eq!(d.message(), "`princess-remove-knight` goes back to `2B-1`, a later step");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("write `skip 2B-1`")), "{d:?}");
}

#[test]
fn a_go_back_to_a_step_some_games_lack_is_refused_with_such_a_game() {
    // 2D exists only with the dragon; the builder's item shows without it.
    let (d, expected) = refused(&[plant(BUILDER, "effect: double turn", "effect: go back to 2D", "go back")]);
    assert_eq!(d.message(), "`builder-double-turn` goes back to `2D`, which some games where it shows do not have");
    assert_eq!(at(&d), expected);
    let help = d.help_text().expect("help");
    assert!(help.contains("carcassonne-rules order --edition") && help.contains("--with builder"), "{help}");
    assert!(!help.contains("dragon"), "{help}");
}

#[test]
fn a_go_back_out_of_the_double_turn_block_is_refused() {
    let (d, expected) = refused(&[plant(BASE, "effect: go back to 1B", "effect: go back to 1A", "go back")]);
    assert_eq!(d.message(), "`place-tile` goes back to `1A`, out of the double-turn block");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("--with builder")), "{d:?}");
}

#[test]
fn a_skip_of_an_earlier_step_is_refused() {
    let (d, expected) = refused(&[plant(PRINCESS, "effect: skip 2B-1, 2B-2", "effect: skip 1B", "skip")]);
    assert_eq!(d.message(), "`princess-remove-knight` skips `1B`, an earlier step");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("go back to 1B")), "{d:?}");
}

#[test]
fn a_skip_that_swallows_a_double_turn_is_refused_naming_both() {
    let (d, expected) = refused(&[plant(PRINCESS, "effect: skip 2B-1, 2B-2", "effect: skip 2B-1, 4B", "skip")]);
    assert_eq!(d.message(), "`princess-remove-knight` skips `4B`, where a double turn is earned");
    assert_eq!(at(&d), expected);
    assert_eq!(d.places().len(), 2, "the skip and the double turn: {:?}", d.places());
    assert_eq!(d.places()[1].1, "the double turn it would swallow");
    let help = d.help_text().expect("help");
    assert!(help.contains("builder") && help.contains("princess"), "{help}");
}

#[test]
fn a_double_turn_without_a_block_is_refused() {
    let (d, expected) = refused(&[
        plant(BUILDER, "effect: double turn", "effect: double turn", "double turn"),
        plant(BASE, "double_turn: { from: 1B, to: 4A, when: builder }\n", "", ""),
    ]);
    assert_eq!(d.message(), "`builder-double-turn` earns a double turn, but the rules have no double-turn block");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("double_turn: { from: 1B, to: 4A")), "{d:?}");
}

#[test]
fn a_double_turn_where_the_block_does_not_exist_is_refused() {
    let (d, expected) = refused(&[
        plant(BUILDER, "effect: double turn", "effect: double turn", "double turn"),
        plant(BASE, "when: builder }", "when: builder and princess }", ""),
    ]);
    assert_eq!(d.message(), "`builder-double-turn` earns a double turn where the rules have none");
    assert_eq!(at(&d), expected);
    assert_eq!(d.places()[1].1, "the block's condition");
    assert!(d.help_text().is_some_and(|h| h.contains("--with builder") && !h.contains("princess")), "{d:?}");
}

#[test]
fn a_double_turn_inside_the_block_is_refused() {
    let (d, expected) = refused(&[plant(
        BUILDER,
        "  4B:\n    - id: builder-double-turn",
        "  4A:\n    - id: builder-double-turn",
        "4A",
    )]);
    assert_eq!(d.message(), "`builder-double-turn` earns a double turn in `4A`, not after the block");
    // The diagnostic points at the effect, below the planted section key.
    assert!(at(&d).0 > expected.0, "{d:?}");
    assert_eq!(
        d.help_text(),
        Some("a double turn is earned after the block's last step `4A`, which it then plays again")
    );
}

#[test]
fn an_effect_outside_the_steps_is_refused() {
    let (d, expected) = refused(&[plant(
        BASE,
        "items:\n",
        "items:\n  any_time:\n    - id: any-time-skip\n      text: Skip.\n      effect: skip 2B-1\n",
        "skip 2B-1",
    )]);
    assert_eq!(d.message(), "`any-time-skip` changes the course of the turn from `any_time`");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("move the item into a step")), "{d:?}");
}

#[test]
fn an_effect_on_a_note_or_a_group_is_refused() {
    for role in ["note", "group"] {
        let to = if role == "note" {
            "effect: go back to 1B\n      role: note\n"
        } else {
            "effect: go back to 1B\n      role: group\n"
        };
        let (d, expected) = refused(&[plant(BASE, "effect: go back to 1B\n", to, "go back")]);
        assert_eq!(d.message(), format!("{role} `place-tile` has an effect"));
        assert_eq!(at(&d), expected);
        assert!(d.help_text().is_some(), "{d:?}");
    }
}

#[test]
fn a_choice_without_options_is_refused() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Draw a tile.", "text: Draw a tile.\n      choose_one: true", "true")]);
    assert_eq!(d.message(), "`draw-tile` chooses one of its sub-items, but has none");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("children")), "{d:?}");
}

#[test]
fn a_note_offers_no_choice() {
    let (d, expected) = refused(&[plant(
        BASE,
        "text: \"Deploy a {C1: follower | C2, WE: meeple}.\"",
        "text: \"Deploy a {C1: follower | C2, WE: meeple}.\"\n      role: note\n      choose_one: true",
        "true",
    )]);
    assert_eq!(d.message(), "note `deploy-meeple` offers a choice");
    assert_eq!(at(&d), expected);
}

#[test]
fn only_once_is_for_any_time_items() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      once: true", "true")]);
    assert_eq!(d.message(), "`show-tile` is done only once, but it is in `1B`");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some(), "{d:?}");
}

#[test]
fn a_condition_is_not_optional() {
    let (d, expected) = refused(&[plant(
        BASE,
        "text: Show the tile.",
        "text: Show the tile.\n      role: condition\n      optional: true",
        "true",
    )]);
    assert_eq!(d.message(), "condition `show-tile` cannot be optional");
    assert_eq!(at(&d), expected);
    assert_eq!(d.help_text(), Some("a condition holds or not; the player may decline an action"));
}

#[test]
fn an_unknown_role_is_refused_with_the_nearest() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      role: conditon", "conditon")]);
    assert_eq!(d.message(), "unknown role `conditon`");
    assert_eq!(at(&d), expected);
    assert_eq!(d.help_text(), Some("did you mean `condition`?"));
}

#[test]
fn a_step_may_be_passed_only_when_it_is_a_choice() {
    let (d, expected) = refused(&[plant(
        BASE,
        "{ id: 2B-2, title: Move wood (phase 2) }",
        "{ id: 2B-2, title: Move wood (phase 2), may_pass: true }",
        "true",
    )]);
    assert_eq!(d.message(), "step `2B-2` may be passed but is not a choice");
    assert_eq!(at(&d), expected);
}

#[test]
fn a_step_marked_double_turn_beside_the_block_is_refused() {
    let (d, expected) = refused(&[plant(
        BASE,
        "{ id: 1C, title: Place the tile }",
        "{ id: 1C, title: Place the tile, repeat: double_turn when builder }",
        "double_turn when",
    )]);
    assert_eq!(d.message(), "a step is marked `double_turn` beside the double-turn block");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("remove this `repeat`")), "{d:?}");
}

/// The fixture written as before the block: each step of it marked.
fn marked_steps(dir: &Path, second_condition: &str) {
    let path = dir.join(BASE);
    let mut text = std::fs::read_to_string(&path).expect("base.yaml");
    text = text.replacen("double_turn: { from: 1B, to: 4A, when: builder }\n", "", 1);
    for (i, step) in ["1B", "1C", "2B-1", "2B-2", "2D", "3A", "4A"].iter().enumerate() {
        let when = if i == 1 { second_condition } else { "builder" };
        let at = text.find(&format!("{{ id: {step}, ")).expect("the step");
        let end = at + text[at..].find(" }").expect("its end");
        text.insert_str(end, &format!(", repeat: double_turn when {when}"));
    }
    std::fs::write(&path, text).expect("write");
}

#[test]
fn an_older_folders_marks_are_read_as_the_block_they_span() {
    let new = compiler::compile_dir(Path::new(FIXTURE)).result.expect("fixture checks");
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(FIXTURE), dir.path());
    marked_steps(dir.path(), "builder");
    let old = compiler::compile_dir(dir.path()).result.expect("the marked fixture checks");
    let bounds = |r: &Rules| r.double_turn.as_ref().map(|b| (b.first, b.last, b.when.clone()));
    assert_eq!(bounds(&old), bounds(&new));
    let repeats = |r: &Rules| r.steps().map(|s| (s.id.clone(), s.repeat.clone())).collect::<Vec<_>>();
    assert_eq!(repeats(&old), repeats(&new));

    // Marks under different conditions make no one block.
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(FIXTURE), dir.path());
    marked_steps(dir.path(), "builder and dragon");
    let problems = compiler::compile_dir(dir.path()).result.expect_err("refused");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].message(), "the steps marked `double_turn` repeat under different conditions");
}

#[test]
fn the_block_names_known_steps_in_order_that_exist_wherever_it_does() {
    let (d, expected) = refused(&[plant(BASE, "from: 1B", "from: 1Z", "1Z")]);
    assert_eq!(d.message(), "unknown step `1Z`");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.starts_with("did you mean")), "{d:?}");

    let (d, expected) = refused(&[plant(BASE, "from: 1B, to: 4A", "from: 4A, to: 1B", "1B")]);
    assert_eq!(d.message(), "the double-turn block ends at `1B`, before it starts");
    assert_eq!(at(&d), expected);

    // 2D exists only with the dragon, the block wherever the builder is.
    let (d, expected) =
        refused(&[plant(BASE, "from: 1B, to: 4A, when: builder", "from: 2D, to: 4A, when: builder", "builder")]);
    assert_eq!(d.message(), "the double-turn block's `from` step `2D` does not exist in every game with double turns");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("--with builder")), "{d:?}");
}

// ---- the bundled rules' flow ----------------------------------------------

fn bundled() -> Rules {
    compiler::compile_dir(Path::new(BUNDLED)).result.expect("bundled rules check")
}

fn find<'r>(rules: &'r Rules, id: &str) -> &'r Item {
    rules.items().into_iter().find(|i| i.id == id).unwrap_or_else(|| panic!("no item {id}"))
}

#[test]
fn the_bundled_block_is_1b_to_4a_and_3b_keeps_its_own_repeat() {
    let rules = bundled();
    let block = rules.double_turn.as_ref().expect("a block");
    let id = |n| rules.steps().find(|s| s.number == n).map(|s| s.id.as_str());
    assert_eq!((id(block.first), id(block.last)), (Some("1B"), Some("4A")));
    for step in rules.steps() {
        let repeat = step.repeat.as_ref().map(|(r, _)| *r);
        let expected = match step.id.as_str() {
            "3B" => Some(Repeat::PerFeature),
            "1A" | "4B" => None,
            _ => Some(Repeat::DoubleTurn),
        };
        assert_eq!(repeat, expected, "step {}", step.id);
    }
}

#[test]
fn the_bundled_flow_says_what_the_page_says() {
    let rules = bundled();
    // "you may do exactly one of": deploying is a choice the player may pass.
    let step = |id: &str| rules.steps().find(|s| s.id == id).expect("step");
    assert!(step("2B-1").choose_one && step("2B-1").may_pass);
    assert!(step("2B-2").choose_one && step("2B-2").may_pass);
    // The go-back applies only when the tile has no legal spot.
    let no_spot = find(&rules, "place-tile-no-legal-spot");
    assert_eq!(
        (no_spot.flow.role, no_spot.effect.as_ref()),
        (Role::Condition, Some(&Effect::GoBack(step("1B").number)))
    );
    assert_eq!(find(&rules, "place-tile").effect, None);
    // "If the tile shows a magic symbol": its sub-items apply only when it holds.
    assert_eq!(find(&rules, "mage-witch-move").flow.role, Role::Condition);
    // La Porxada: you may choose one of two actions.
    let porxada = find(&rules, "porxada-choose-action").flow;
    assert!(porxada.optional && porxada.choose_one);
    // "Only once" (any_time), under a heading.
    assert_eq!(find(&rules, "any-time-only-once").flow.role, Role::Group);
    assert!(find(&rules, "tower-ransom").flow.once && find(&rules, "tower-ransom").flow.optional);
    assert_eq!(find(&rules, "feature-complete-note").flow.role, Role::Note);
    // The builder's double turn is earned when its condition holds.
    let builder = find(&rules, "builder-double-turn");
    assert_eq!((builder.flow.role, builder.effect.as_ref()), (Role::Condition, Some(&Effect::DoubleTurn)));
    // The princess's skip applies when the player takes the knight away.
    assert!(find(&rules, "princess-remove-knight").flow.optional);
}

#[test]
fn an_otherwise_branch_needs_an_action_above_it() {
    // At the top of a step: no action to be not done.
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      otherwise: true", "true")]);
    assert_eq!(d.message(), "`show-tile` is what happens when its parent is not done, but it has no parent");
    assert_eq!(at(&d), expected);
    // Under a condition, whose sub-items play when it holds.
    let under = "text: Score the feature.\n      role: condition\n      children:\n        - id: if-not\n          text: t\n          otherwise: true";
    let (d, expected) = refused(&[plant(BASE, "text: Score the feature.", under, "true")]);
    assert_eq!(
        d.message(),
        "`if-not` is what happens when `score-feature` is not done, but `score-feature` is not an action"
    );
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some(), "{d:?}");
    // On a note.
    let note = "text: Score the feature.\n      children:\n        - id: if-not\n          text: t\n          role: note\n          otherwise: true";
    let (d, expected) = refused(&[plant(BASE, "text: Score the feature.", note, "true")]);
    assert_eq!(d.message(), "note `if-not` is what happens when its parent is not done");
    assert_eq!(at(&d), expected);
}

#[test]
fn an_action_has_one_otherwise_branch() {
    let two = "text: Score the feature.\n      children:\n        - id: if-not\n          text: t\n          otherwise: true\n        - id: if-not-either\n          text: t\n          otherwise: true";
    let (d, expected) = refused(&[plant(BASE, "text: Score the feature.", two, "true\n")]);
    assert_eq!(d.message(), "`score-feature` has a second `otherwise` sub-item, `if-not-either`");
    // The second one's key.
    assert_eq!(at(&d).0, expected.0 + 3);
    assert!(d.help_text().is_some_and(|h| h.contains("group")), "{d:?}");
}

#[test]
fn the_bundled_rules_place_the_tile_or_go_back_only_when_it_cannot_be() {
    let rules = compiler::compile_dir(Path::new(BUNDLED)).result.expect("the bundled rules check");
    let place = find(&rules, "place-tile");
    let otherwise: Vec<&str> = place.children.iter().filter(|c| c.flow.otherwise).map(|c| c.id.as_str()).collect();
    assert_eq!(otherwise, ["place-tile-no-legal-spot"]);
    assert_eq!(place.flow.role, Role::Action);
}

/// Each item of `items` (and below) that writes a flow key, with its step
/// and its keys as `docs/flow.md` spells them.
fn written_flows(rules: &Rules) -> Vec<(String, String, String)> {
    fn walk(rules: &Rules, items: &[Item], step: &str, out: &mut Vec<(String, String, String)>) {
        for item in items {
            let f = item.flow;
            let mut keys: Vec<String> = [("must", f.must), ("optional", f.optional), ("choose_one", f.choose_one)]
                .into_iter()
                .chain([
                    ("once", f.once),
                    ("otherwise", f.otherwise),
                    ("repeat: per_thing", f.per_thing()),
                    ("repeat: until_done", f.until_done()),
                ])
                .filter(|(_, set)| *set)
                .map(|(key, _)| key.to_string())
                .collect();
            if item.spans.actor.is_some() {
                keys.push(format!("actor: {}", f.actor.name()));
            }
            if !item.spans.none_of.is_empty() {
                let names: Vec<&str> = item.spans.none_of.iter().map(|(name, _)| name.as_str()).collect();
                keys.push(format!("none_of: {}", names.join(", ")));
            }
            if let Some(effect) = &item.effect {
                keys.push(format!("effect: {}", effect.named(&rules.catalog)));
            }
            if !keys.is_empty() {
                let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                out.push((item.id.clone(), step.to_string(), keys.join(", ")));
            }
            walk(rules, &item.children, step, out);
        }
    }
    let mut out = Vec::new();
    for step in rules.steps() {
        walk(rules, &step.items, &step.id, &mut out);
    }
    for section in carcassonne_rules_core::Section::ALL {
        walk(rules, rules.section(section), section.name(), &mut out);
    }
    out
}

#[test]
fn docs_flow_md_lists_every_item_that_writes_a_flow_key_as_the_rules_write_it() {
    let rules = bundled();
    let doc = std::fs::read_to_string("../../docs/flow.md").expect("docs/flow.md");
    // The table's rows: | `item` | step | flow | the page says |
    let listed: Vec<(String, String, String)> = doc
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.strip_prefix("| `")?.split(" | ").collect();
            let [item, step, flow, quote] = cells[..] else { panic!("a row of four cells: {line}") };
            assert!(quote.trim_end_matches(" |").len() > 2, "{item}: the page's words are missing");
            Some((item.trim_end_matches('`').to_string(), step.to_string(), flow.to_string()))
        })
        .collect();
    let mut written = written_flows(&rules);
    assert!(written.len() > 50, "{} items with flow keys: the walk found nothing", written.len());
    let mut listed_sorted = listed.clone();
    listed_sorted.sort();
    written.sort();
    for (item, step, flow) in &written {
        let row = listed_sorted.iter().find(|(i, ..)| i == item);
        assert_eq!(row, Some(&(item.clone(), step.clone(), flow.clone())), "docs/flow.md's row of `{item}`");
    }
    for (item, ..) in &listed_sorted {
        assert!(written.iter().any(|(i, ..)| i == item), "docs/flow.md lists `{item}`, which writes no flow key");
    }
    assert_eq!(listed.len(), written.len(), "docs/flow.md lists an item twice");
}

#[test]
fn a_must_is_refused_where_it_could_be_declined_or_is_never_done() {
    let (d, expected) = refused(&[plant(
        BASE,
        "text: Show the tile.",
        "text: Show the tile.\n      role: condition\n      must: true",
        "true",
    )]);
    assert_eq!(d.message(), "condition `show-tile` cannot be a must");
    assert_eq!(at(&d), expected);
    let (d, expected) = refused(&[plant(
        BASE,
        "text: Show the tile.",
        "text: Show the tile.\n      must: true\n      optional: true",
        "true",
    )]);
    assert_eq!(d.message(), "`show-tile` is both optional and a must");
    assert_eq!(at(&d), expected);
    // An action with an `otherwise` branch may not be carried out.
    let branch = "text: Score the feature.\n      must: true\n      children:\n        - id: if-not\n          text: t\n          otherwise: true";
    let (d, expected) = refused(&[plant(BASE, "text: Score the feature.", branch, "true")]);
    assert_eq!(d.message(), "`score-feature` is a must, but has an `otherwise` branch, `if-not`");
    assert_eq!(at(&d), expected);
    assert_eq!(d.places().len(), 2, "the must and the branch: {:?}", d.places());
}

#[test]
fn an_unknown_actor_is_refused_with_the_nearest_one() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      actor: each_from_lefft", "each")]);
    assert_eq!(d.message(), "unknown actor `each_from_lefft`");
    assert_eq!(at(&d), expected);
    assert_eq!(d.fixes().first().map(|f| f.replacement.as_str()), Some("each_from_left"), "{d:?}");
}

#[test]
fn an_actor_is_inherited_by_sub_items_until_one_names_its_own() {
    let rules = bundled();
    let count = find(&rules, "count-move-from-city");
    assert_eq!(count.flow.actor, carcassonne_rules_core::Actor::EachFromLeft);
    // A sub-item that names none takes its parent's; one that names `active` hands it back.
    let mut checked = 0;
    for item in rules.items() {
        for child in item.children.iter().filter(|c| c.spans.actor.is_none()) {
            assert_eq!(child.flow.actor, item.flow.actor, "`{}` under `{}`", child.id, item.id);
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} sub-items checked");
    let back = find(&rules, "wagon-protect-against-revolts");
    assert_eq!(back.flow.actor, carcassonne_rules_core::Actor::Active);
}

#[test]
fn none_of_names_earlier_items_of_its_step() {
    // A later item.
    let (d, expected) =
        refused(&[plant(BASE, "text: Draw a tile.", "text: Draw a tile.\n      none_of: [show-tile]", "show-tile]")]);
    assert_eq!(d.message(), "`draw-tile` is played when `show-tile` was not done, but `show-tile` comes after it");
    assert_eq!(at(&d), expected);
    // An item of another step.
    let (d, expected) = refused(&[plant(
        BASE,
        "text: Show the tile.",
        "text: Show the tile.\n      none_of: [place-tile]",
        "place-tile]",
    )]);
    assert_eq!(d.message(), "`place-tile` is in `1C`, not in `1B`");
    assert_eq!(at(&d), expected);
    // An unknown one, with the nearest id.
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      none_of: [draw-tiles]", "draw")]);
    assert_eq!(d.message(), "unknown item `draw-tiles`");
    assert_eq!(at(&d), expected);
    assert_eq!(d.fixes().first().map(|f| f.replacement.as_str()), Some("draw-tile"), "{d:?}");
}

#[test]
fn next_feature_is_refused_outside_a_per_feature_step() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      effect: next feature", "next")]);
    assert_eq!(d.message(), "`show-tile` goes on to the next feature, but `1B` is not played per feature");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some(), "{d:?}");
    // In 3B it is taken.
    let rules = accepted(&[("text: Score the feature.", "text: Score the feature.\n      effect: next feature")])
        .expect("next feature in 3B checks");
    assert_eq!(find(&rules, "score-feature").effect, Some(Effect::NextFeature));
}

#[test]
fn a_required_choice_that_some_games_leave_without_options_is_refused() {
    let planted = "text: Score the feature.\n      choose_one: true\n      children:\n        - id: score-dragon\n          when: dragon\n          text: t";
    let (d, expected) = refused(&[plant(BASE, "text: Score the feature.", planted, "text")]);
    assert_eq!(d.message(), "`score-feature` must take one of its options, but some games where it shows offer none");
    // At the item's id, the line above its text.
    assert_eq!(at(&d).0, expected.0 - 1);
    let help = d.help_text().expect("help");
    assert!(help.contains("optional") && help.contains("carcassonne-rules order"), "{help}");
    assert!(!help.contains("dragon"), "{help}");
    // Optional, it may offer none.
    let optional = planted.replace("choose_one: true", "choose_one: true\n      optional: true");
    assert!(accepted(&[("text: Score the feature.", &optional)]).is_ok(), "an optional choice may offer none");
}

#[test]
fn forbid_names_items_that_can_still_come() {
    // An item before it.
    let (d, expected) = refused(&[plant(
        BASE,
        "text: Score the feature.",
        "text: Score the feature.\n      effect: forbid draw-tile",
        "draw-tile",
    )]);
    assert_eq!(d.message(), "`score-feature` forbids `draw-tile`, which comes before it");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("later")), "{d:?}");
    // An unknown one, with the nearest id.
    let (d, expected) =
        refused(&[plant(BASE, "text: Draw a tile.", "text: Draw a tile.\n      effect: forbid show-tiles", "show")]);
    assert_eq!(d.message(), "unknown item `show-tiles`");
    assert_eq!(at(&d), expected);
    assert_eq!(d.fixes().first().map(|f| f.replacement.as_str()), Some("show-tile"), "{d:?}");
    // One that never shows with it.
    let (d, expected) = refused(&[
        plant(
            BASE,
            "text: Draw a tile.",
            "text: Draw a tile.\n      when: not dragon\n      effect: forbid score-feature",
            "score-feature",
        ),
        plant(BASE, "    - id: score-feature\n", "    - id: score-feature\n      when: dragon\n", "dragon"),
    ]);
    assert_eq!(d.message(), "`draw-tile` forbids `score-feature`, which never shows with it");
    assert_eq!(at(&d), expected);
}

#[test]
fn forbid_for_the_turn_reaches_the_double_turn_block_and_later_items_are_taken() {
    // Later in the part; and, for the turn, an earlier item of the block.
    let rules = accepted(&[
        ("text: Draw a tile.", "text: Draw a tile.\n      effect: forbid show-tile"),
        ("text: Score the feature.", "text: Score the feature.\n      effect: forbid draw-tile for the turn"),
    ])
    .expect("both forbids check");
    let named = |id: &str| match &find(&rules, id).effect {
        Some(Effect::Forbid { items, turn }) => {
            (items.iter().map(|&i| rules.catalog.item_name(i).to_string()).collect::<Vec<_>>(), *turn)
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(named("draw-tile"), (vec!["show-tile".to_string()], false));
    assert_eq!(named("score-feature"), (vec!["draw-tile".to_string()], true));
}

#[test]
fn the_phantom_may_use_the_flier_unless_it_was_used_in_2b_1() {
    let rules = bundled();
    let flier = find(&rules, "flier-use");
    let Some(Effect::Forbid { items, turn: false }) = &flier.effect else { panic!("{:?}", flier.effect) };
    let names: Vec<&str> = items.iter().map(|&i| rules.catalog.item_name(i)).collect();
    assert_eq!(names, ["phantom-deploy-flier"]);
    assert!(find(&rules, "phantom-deploy-flier").flow.optional);
}

#[test]
fn an_obligation_at_any_time_is_met_once() {
    let planted =
        "items:\n  any_time:\n    - id: spread\n      text: t\n      role: condition\n      must: true\n  1B:";
    let (d, expected) = refused(&[plant(BASE, "items:\n  1B:", planted, "true")]);
    assert_eq!(d.message(), "`spread` is an obligation at any time, but not `once`");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("once: true")), "{d:?}");
    // Once, a condition may be one: the bundled plague's.
    let rules = bundled();
    let spread = find(&rules, "plague-spread");
    assert!(spread.flow.must && spread.flow.once && spread.flow.role == Role::Condition);
}

#[test]
fn a_repetition_per_thing_is_an_optional_action_of_a_step() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      repeat: per_thing", "per_thing")]);
    assert_eq!(d.message(), "`show-tile` repeats per thing, but is not optional");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("optional")), "{d:?}");
    let (d, expected) = refused(&[plant(
        BASE,
        "text: Show the tile.",
        "text: Show the tile.\n      optional: true\n      repeat: per_feature",
        "per_feature",
    )]);
    assert_eq!(d.message(), "unknown repeat `per_feature` of an item");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("`per_thing`")), "{d:?}");
    // Not one inside another.
    let nested = "text: Score the feature.\n      optional: true\n      repeat: per_thing\n      children:\n        - id: score-each\n          text: t\n          optional: true\n          repeat: per_thing";
    let (d, _) = refused(&[plant(BASE, "text: Score the feature.", nested, "per_thing")]);
    assert_eq!(d.message(), "`score-each` repeats per thing inside `score-feature`, which repeats per thing");
    let rules = bundled();
    assert!(find(&rules, "fruit-tree-harvest-or-sell").flow.per_thing());
}

#[test]
fn a_repetition_until_done_is_an_item_of_a_step_with_sub_items() {
    let (d, expected) =
        refused(&[plant(BASE, "text: Show the tile.", "text: Show the tile.\n      repeat: until_done", "until_done")]);
    assert_eq!(d.message(), "`show-tile` repeats its sub-items until done, but has none");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("children")), "{d:?}");
    // A choice repeats per thing.
    let choice = "text: Score the feature.\n      choose_one: true\n      repeat: until_done\n      children:\n        - { id: score-road, text: t }\n        - { id: score-city, text: t }";
    let (d, expected) = refused(&[plant(BASE, "text: Score the feature.", choice, "until_done")]);
    assert_eq!(d.message(), "`score-feature` is a choice that repeats until done");
    assert_eq!(at(&d), expected);
    assert!(d.help_text().is_some_and(|h| h.contains("per_thing")), "{d:?}");
    // Nor inside a repetition.
    let nested = "text: Score the feature.\n      optional: true\n      repeat: per_thing\n      children:\n        - id: score-each\n          text: t\n          repeat: until_done\n          children:\n            - { id: score-once, text: t }";
    let (d, _) = refused(&[plant(BASE, "text: Score the feature.", nested, "per_thing")]);
    assert_eq!(d.message(), "`score-each` repeats until done inside `score-feature`, which repeats per thing");
    // The bundled 1st edition's bazaar with the builder, a condition.
    let rules = bundled();
    let bazaar = find(&rules, "builder-bazaar-c1");
    assert!(bazaar.flow.until_done() && bazaar.flow.role == Role::Condition);
}
