//! Mistakes in the rules become diagnostics that point at the YAML: one per
//! problem, with file, line and column, and help where we can tell.

// Helpers outside `#[test]` functions panic on a broken fixture, as tests do.
#![allow(clippy::expect_used)]

mod common;

use std::path::Path;

use carcassonne_rules_compiler::{self as compiler, Diagnostic};

const FIXTURE: &str = "tests/fixtures/minimal";
/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";

/// A copy of the fixture rules with `file`'s text passed through `edit`.
fn rules_with(file: &str, edit: impl FnOnce(String) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(FIXTURE), dir.path());
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the edit of {file} changed nothing");
    std::fs::write(&path, edited).expect("write edited file");
    dir
}

fn problems(dir: &Path) -> Vec<Diagnostic> {
    match compiler::compile_dir(dir).result {
        Ok(_) => panic!("the rules in {} checked without problems", dir.display()),
        Err(problems) => problems,
    }
}

/// The single problem of a rules folder that should have exactly one.
fn only_problem(dir: &Path) -> Diagnostic {
    let mut all = problems(dir);
    assert_eq!(all.len(), 1, "{}", compiler::diagnostics::render(&all, false));
    all.remove(0)
}

fn location_in(d: &Diagnostic, file: &str) -> (usize, usize) {
    let location = d.location().unwrap_or_else(|| panic!("no location in {d:?}"));
    let (path, line_col) = location.split_at(location.find(".yaml:").expect("a yaml file") + 5);
    assert!(path.ends_with(file), "{location} is not in {file}");
    let mut parts = line_col[1..].split(':').map(|n| n.parse::<usize>().expect("number"));
    (parts.next().expect("line"), parts.next().expect("column"))
}

#[test]
fn fixture_checks_clean() {
    let compiled = compiler::compile_dir(Path::new(FIXTURE));
    assert!(compiled.result.is_ok());
}

#[test]
fn typo_in_a_module_name_points_at_the_name_and_suggests_the_right_one() {
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| {
        t.replace("ROBBERS when peasant_revolts", "ROBBERS when peasant_refolts")
    });
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "unknown module or flag `peasant_refolts`");
    // Line 8 is `markers: [ROBBERS when peasant_refolts]`; the name starts at column 30.
    assert_eq!(location_in(&d, "abbey-and-mayor.yaml"), (8, 30));
    assert_eq!(d.help_text(), Some("did you mean `peasant_revolts`?"));
}

#[test]
fn quoted_scalars_still_point_inside_the_string() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("when: princess", "when: \"princes or dragon\"")
    });
    let d = only_problem(dir.path());
    assert_eq!(location_in(&d, "princess-and-dragon.yaml"), (5, 14));
    assert_eq!(d.help_text(), Some("did you mean `princess`?"));
}

#[test]
fn dsl_syntax_errors_point_at_the_column() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("when: dragon", "when: dragon and and princess")
    });
    let d = only_problem(dir.path());
    assert!(d.message().starts_with("invalid condition"), "{}", d.message());
    // `dragon and ` is 11 characters after `when: ` at column 13.
    assert_eq!(location_in(&d, "princess-and-dragon.yaml"), (10, 24));
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| {
        t.replace("when: tiles_in_supply", "when: tiles_in_suply")
            .replace("[ROBBERS when", "[ROBBER when")
            .replace("foreign: [WE]", "foreign: [W]")
            .replace("before: draw-tile", "before: draw-tiles")
    });
    let all = problems(dir.path());
    let messages: Vec<&str> = all.iter().map(|d| d.message()).collect();
    assert_eq!(messages.len(), 4, "{messages:?}");
    assert!(messages.contains(&"unknown module or flag `tiles_in_suply`"));
    assert!(messages.contains(&"unknown marker `ROBBER`"));
    assert!(messages.contains(&"unknown edition `W`"));
    assert!(messages.contains(&"unknown item `draw-tiles`"));
    let helps: Vec<Option<&str>> = all.iter().map(|d| d.help_text()).collect();
    assert!(helps.contains(&Some("did you mean `tiles_in_supply`?")));
    assert!(helps.contains(&Some("did you mean `ROBBERS`?")));
    assert!(helps.contains(&Some("did you mean `draw-tile`?")));
}

#[test]
fn duplicate_ids_name_both_places() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("id: dragon-move", "id: princess-remove-knight")
    });
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "duplicate item id `princess-remove-knight`");
    assert_eq!(location_in(&d, "princess-and-dragon.yaml").0, 9);
}

#[test]
fn ordering_cycles_are_reported() {
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| {
        t.replace("before: draw-tile", "after: abbey-second")
            + "    - id: abbey-second\n      when: abbey\n      after: abbey-play-from-supply\n      text: Second.\n"
    });
    let all = problems(dir.path());
    assert!(!all.is_empty());
    assert!(all.iter().all(|d| d.message().contains("ordering cycle")), "{all:?}");
}

#[test]
fn contradictory_constraints_are_reported() {
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| {
        t.replace("before: draw-tile", "after: show-tile\n      before: draw-tile")
    });
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "`abbey-play-from-supply` cannot be both after `show-tile` and before `draw-tile`");
}

#[test]
fn references_must_stay_in_the_step() {
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| t.replace("before: draw-tile", "before: place-tile"));
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "`place-tile` is in `1C`, not in `1B`");
}

#[test]
fn conditions_that_can_never_hold() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("when: princess", "when: princess and not princess")
    });
    assert_eq!(only_problem(dir.path()).message(), "the condition of `princess-remove-knight` can never hold");

    // 2D exists only with the dragon: an item there without it is never shown.
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| t.replace("when: dragon", "when: not dragon"));
    assert_eq!(only_problem(dir.path()).message(), "item `dragon-move` can never be shown");
}

#[test]
fn text_variants_must_name_known_editions_once() {
    let dir = rules_with("base.yaml", |t| t.replace("{C1: follower | C2, WE: meeple}", "{C1: follower | C3: meeple}"));
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "unknown edition `C3`");
    // Not `C1`, which the variants name already.
    assert_eq!(d.help_text(), Some("did you mean `C2`?"));

    let dir =
        rules_with("base.yaml", |t| t.replace("{C1: follower | C2, WE: meeple}", "{C1: follower | C1, WE: meeple}"));
    assert_eq!(only_problem(dir.path()).message(), "edition `C1` is named twice in these variants");

    let dir = rules_with("base.yaml", |t| t.replace("{C1: follower | C2, WE: meeple}", "{: follower}"));
    assert!(only_problem(dir.path()).message().starts_with("invalid text"));
}

#[test]
fn unknown_steps_and_expansions() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| t.replace("  2D:", "  2E:"));
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "unknown step or section `2E`");
    assert_eq!(d.help_text(), Some("did you mean `2D`?"));

    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| t.replace("skip 2B-1, 2B-2", "skip 2B-1, 2B-3"));
    assert_eq!(only_problem(dir.path()).message(), "unknown step `2B-3`");

    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("expansion: princess_and_dragon", "expansion: princess_and_dragons")
    });
    let d = only_problem(dir.path());
    assert_eq!(d.help_text(), Some("did you mean `princess_and_dragon`?"));
}

#[test]
fn expansion_items_need_a_condition() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| t.replace("      when: princess\n", ""));
    assert_eq!(only_problem(dir.path()).message(), "item `princess-remove-knight` of an expansion has no condition");
}

#[test]
fn yaml_type_errors_are_located() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("text: Move the dragon.", "text: [Move the dragon.]")
    });
    let d = only_problem(dir.path());
    assert!(d.message().starts_with("invalid YAML"), "{}", d.message());
    assert_eq!(location_in(&d, "princess-and-dragon.yaml"), (11, 13));

    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| {
        t.replace("text: Move the dragon.", "txt: Move the dragon.")
    });
    let d = only_problem(dir.path());
    assert_eq!(location_in(&d, "princess-and-dragon.yaml"), (11, 7));
}

#[test]
fn derived_flags_may_not_loop() {
    let dir = rules_with("modules.yaml", |t| {
        t.replace("tiles_in_supply: abbey", "tiles_in_supply: abbey or more_tiles\n  more_tiles: tiles_in_supply")
    });
    let all = problems(dir.path());
    assert!(all.iter().any(|d| d.message().contains("defined in terms of itself")), "{all:?}");
}

#[test]
fn missing_folder_is_a_diagnostic_not_a_panic() {
    let d = only_problem(Path::new("no/such/rules"));
    assert!(d.message().contains("not found"));
}

#[test]
fn the_model_does_not_depend_on_file_names_or_order() {
    let mut original = compiler::compile_dir(Path::new(BUNDLED)).result.expect("bundled rules check");
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(BUNDLED), dir.path());
    // Rename the expansion files so that they list in reverse order.
    let expansions = dir.path().join("expansions");
    let mut names: Vec<_> =
        std::fs::read_dir(&expansions).expect("expansions").map(|e| e.expect("entry").file_name()).collect();
    names.sort();
    for (i, name) in names.iter().enumerate() {
        let renamed = format!("{:03}-{}", names.len() - i, name.to_string_lossy());
        std::fs::rename(expansions.join(name), expansions.join(renamed)).expect("rename");
    }
    let mut shuffled = compiler::compile_dir(dir.path()).result.expect("renamed rules check");
    assert_ne!(original.inputs, shuffled.inputs, "the files were renamed");
    (original.inputs, shuffled.inputs) = (Vec::new(), Vec::new());
    // Where things were written depends on the files, of course.
    forget_spans(&mut original);
    forget_spans(&mut shuffled);
    assert_eq!(original, shuffled);
}

/// The model with every span (and reference span) set to one place.
fn forget_spans(rules: &mut compiler::Rules) {
    use compiler::model::{Anchored, Item, Span, WhyEnd};
    const HERE: Span = Span { file: compiler::diagnostics::FileId(0), start: 0, len: 0 };
    fn items(list: &mut [Item]) {
        for item in list {
            let spans = &mut item.spans;
            spans.id = HERE;
            spans.text = HERE;
            spans.when = spans.when.map(|_| HERE);
            spans.one_of = spans.one_of.map(|_| HERE);
            spans.effect = spans.effect.map(|_| HERE);
            spans.otherwise = spans.otherwise.map(|_| HERE);
            spans.must = spans.must.map(|_| HERE);
            spans.actor = spans.actor.map(|_| HERE);
            spans.none_of.iter_mut().for_each(|(_, span)| *span = HERE);
            spans.forbid.iter_mut().for_each(|(_, span)| *span = HERE);
            spans.foreign.iter_mut().for_each(|(_, span)| *span = HERE);
            item.markers.iter_mut().for_each(|m| m.span = HERE);
            if let Some((_, span)) = &mut item.placed.under {
                *span = HERE;
            }
            match &mut item.placed.anchor {
                Anchored::After(_, span)
                | Anchored::Before(_, span)
                | Anchored::Above(_, span)
                | Anchored::End(WhyEnd::AboveElsewhere { span, .. }) => *span = HERE,
                Anchored::End(WhyEnd::FirstInFile) => {}
            }
            items(&mut item.children);
        }
    }
    rules.flags.iter_mut().for_each(|f| f.span = HERE);
    for step in rules.phases.iter_mut().flat_map(|p| &mut p.steps) {
        step.span = HERE;
        items(&mut step.items);
    }
    for (_, list) in rules.sections.iter_mut() {
        items(list);
    }
}

#[test]
fn a_contradiction_naming_twenty_modules_is_rejected_where_it_is_written() {
    // Every module selected and not every module selected: no selection
    // satisfies it, which only an exact decision procedure can tell at 20
    // modules (trying selections one by one stopped at 16).
    let modules = [
        "inns",
        "cathedrals",
        "big_follower",
        "traders",
        "builder",
        "pig",
        "dragon",
        "fairy",
        "princess",
        "magic_portal",
        "tower",
        "abbey",
        "mayor",
        "wagon",
        "barn",
        "count_of_carcassonne",
        "king_and_robber",
        "shrines",
        "river_ii",
        "pig_herd",
    ];
    let all = modules.join(" and ");
    let when = format!("{all} and not ({all})");
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(Path::new(BUNDLED), dir.path());
    let path = dir.path().join("expansions/the-tower.yaml");
    let text = std::fs::read_to_string(&path).expect("the tower's rules");
    let anchor = "  1C:\n";
    assert!(text.contains(anchor), "the tower's rules changed");
    let added = format!("{anchor}    - id: tower-never\n      when: {when}\n      text: Never.\n");
    std::fs::write(&path, text.replacen(anchor, &added, 1)).expect("write");
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "the condition of `tower-never` can never hold");
    assert_eq!(location_in(&d, "expansions/the-tower.yaml"), (22, 13));
}

#[test]
fn ids_must_have_the_right_case() {
    let dir = rules_with("expansions/princess-and-dragon.yaml", |t| t.replace("id: dragon-move", "id: Dragon_Move"));
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "item id `Dragon_Move` is not kebab-case");
    assert_eq!(d.help_text(), Some("write `dragon-move`"));

    let dir = rules_with("modules.yaml", |t| {
        t.replace("{ id: dragon, name: Dragon }", "{ id: Dragon-Figure, name: Dragon }")
    });
    let all = problems(dir.path());
    assert!(all.iter().any(|d| d.message() == "module id `Dragon-Figure` is not snake_case"), "{all:?}");
}

#[test]
fn an_edition_named_twice_is_refused_as_the_schemas_refuse_it() {
    // `foreign` and an expansion's `editions` are `uniqueItems` in the schemas.
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| t.replace("foreign: [WE]", "foreign: [WE, WE]"));
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "edition `WE` named twice in `foreign`");
    // Line 9 is `      foreign: [WE, WE]`: the second `WE` is at column 21.
    assert_eq!(location_in(&d, "abbey-and-mayor.yaml"), (9, 21));
    assert_eq!(d.places().len(), 2, "the first `WE` is shown too");
    assert!(d.help_text().is_some_and(|h| h.contains("each edition once")));

    let dir = rules_with("modules.yaml", |t| t.replacen("editions: [C1, C2]", "editions: [C1, C2, C1]", 1));
    let d = only_problem(dir.path());
    assert_eq!(d.message(), "edition `C1` named twice in `editions`");
    assert_eq!(location_in(&d, "modules.yaml"), (5, 24));
}

#[test]
fn a_compile_that_reuses_the_files_read_before_is_the_compile_without() {
    let dir = Path::new(BUNDLED);
    let mut cache = compiler::Cache::default();
    // The rules files and their translations.
    let (good, refused) = compiler::syntax::read_folder(dir);
    assert!(refused.is_empty() && good.contains_key("translations/nl/base.yaml"));
    let abbey = "expansions/abbey-and-mayor.yaml";
    let dutch = "translations/nl/base.yaml";
    let with = |name: &str, text: String| {
        let mut texts = good.clone();
        texts.insert(name.to_string(), text);
        texts
    };
    // Clean; a file not YAML; a check error; a byte-order mark; clean again.
    let steps = [
        good.clone(),
        with(abbey, good[abbey].replacen("items:", "items: [", 1)),
        with(abbey, good[abbey].replacen("when: abbey\n", "when: abey\n", 1)),
        with("base.yaml", format!("\u{feff}{}", good["base.yaml"])),
        with("base.yaml", format!("\u{feff}{}", good["base.yaml"]).replacen("id: draw-tile", "id: draw-tile2", 1)),
        good.clone(),
        // A translation outdated, then refused, with the rules unchanged.
        with(dutch, good[dutch].replacen("from: \"Draw a tile\"", "from: \"Draw one tile\"", 1)),
        with(dutch, good[dutch].replacen("text: \"Een tegel trekken\"", "text: \"Een tegel\u{7} trekken\"", 1)),
        // The English changed under its translations.
        with("base.yaml", good["base.yaml"].replacen("title: Draw a tile }", "title: Draw one tile }", 1)),
        good.clone(),
    ];
    for (n, texts) in steps.iter().enumerate() {
        let cached = compiler::compile_files_cached(dir, texts, &mut cache);
        let cold = compiler::compile_files(dir, texts);
        assert_eq!(cached.unread, cold.unread, "step {n}");
        match (&cached.result, &cold.result) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "step {n}"),
            (Err(a), Err(b)) => {
                assert!(!a.is_empty(), "step {n}");
                assert_eq!(
                    compiler::diagnostics::render(a, false),
                    compiler::diagnostics::render(b, false),
                    "step {n}"
                );
            }
            _ => panic!("step {n}: one compile checked, the other did not"),
        }
        assert_eq!(
            compiler::diagnostics::render(&cached.translation_problems, false),
            compiler::diagnostics::render(&cold.translation_problems, false),
            "step {n}"
        );
        let statistics = |c: &compiler::Compiled| {
            let t = &c.translations;
            t.locales.iter().map(|l| l.statistics(&t.units)).collect::<Vec<_>>()
        };
        assert_eq!(statistics(&cached), statistics(&cold), "step {n}");
        assert_eq!(cached.result.is_ok(), [0, 3, 5, 6, 7, 8, 9].contains(&n), "step {n}");
        // Rules that do not check have their translations left unchecked.
        assert_eq!(!cached.translation_problems.is_empty(), [6, 7, 8].contains(&n), "step {n}");
    }
}

/// Each misspelt name's fix, applied to the file it names, mends the rules:
/// the fix is the compiler's own edit (the misspelt name's range and the
/// name to write), not something read back out of the message.
#[test]
fn the_fix_of_a_misspelt_name_mends_the_rules() {
    const ABBEY: &str = "expansions/abbey-and-mayor.yaml";
    let replace = |name: &str| format!("Replace with `{name}`");
    let cases = [
        ("ROBBERS when peasant_revolts", "ROBBERS when peasant_refolts", "peasant_revolts", replace("peasant_revolts")),
        ("ROBBERS when", "ROBERS when", "ROBBERS", replace("ROBBERS")),
        ("before: draw-tile", "before: draw-tiel", "draw-tile", replace("draw-tile")),
        ("  1B:", "  1b:", "1B", replace("1B")),
        ("expansion: abbey_and_mayor", "expansion: abbey_and_mayr", "abbey_and_mayor", replace("abbey_and_mayor")),
        // A misspelt key: the reader names the keys the mapping takes.
        ("before: draw-tile", "befor: draw-tile", "before", replace("before")),
        // An unknown edition beside others: not one of those, which would
        // make it named twice.
        (
            "text: You may play your abbey instead of drawing.",
            "text: \"You may play {C1: your | C3, WE: the} abbey.\"",
            "C2",
            replace("C2"),
        ),
        ("foreign: [WE]", "foreign: [WE, C3]", "C1", replace("C1")),
        // An unclosed parenthesis: closed at the end of the condition.
        ("when: tiles_in_supply", "when: (tiles_in_supply or abbey", ")", "Close the parenthesis".to_string()),
    ];
    for (right, wrong, name, title) in cases {
        let dir = rules_with(ABBEY, |t| t.replacen(right, wrong, 1));
        let compiled = compiler::compile_dir(dir.path());
        let problems = compiled.result.err().unwrap_or_else(|| panic!("{wrong} checked"));
        assert_eq!(problems.len(), 1, "{wrong}: {problems:?}");
        let fixes = problems[0].fixes();
        assert_eq!(fixes.len(), 1, "{wrong}: {problems:?}");
        let fix = &fixes[0];
        assert_eq!((fix.replacement.as_str(), fix.title.as_str()), (name, title.as_str()));
        let path = compiled.sources.name(fix.span.file).to_string();
        assert!(path.ends_with(ABBEY), "{wrong}: the fix is in {path}");
        let mut text = compiled.sources.text(fix.span.file).to_string();
        text.replace_range(fix.span.start..fix.span.start + fix.span.len, &fix.replacement);
        std::fs::write(&path, text).expect("write the fixed file");
        assert!(compiler::compile_dir(dir.path()).result.is_ok(), "{wrong}: the fix did not mend it");
    }
}

/// A problem about a file as a whole names the file as data.
#[test]
fn a_missing_file_is_named_by_its_problem() {
    let dir = rules_with("modules.yaml", |_| String::new());
    std::fs::remove_file(dir.path().join("modules.yaml")).expect("remove");
    let d = only_problem(dir.path());
    assert!(d.places().is_empty(), "{d:?}");
    assert_eq!(d.file(), Some(dir.path().join("modules.yaml").display().to_string().as_str()), "{d:?}");
}

/// Words of the rules file in a YAML diagnostic reach the terminal only
/// as escapes: a key the records do not have (its control characters
/// escaped inside a quoted key) and the parser's refusal of a raw one.
#[test]
fn a_hostile_key_reaches_the_terminal_escaped() {
    use carcassonne_rules_core::escape::terminal::is_unsafe;
    for (key, shown) in [
        (r#""x\e[2J\u202e""#, r"unknown field `x\u{1b}[2J\u{202e}`"),
        ("y\u{9b}31m\u{200b}", r"unexpected character: `\u{9b}'"),
    ] {
        let dir = rules_with("base.yaml", |text| format!("{key}: 1\n{text}"));
        let out = compiler::diagnostics::render(&problems(dir.path()), false);
        assert!(!out.chars().any(|c| is_unsafe(c) && c != '\n'), "{out:?}");
        assert!(out.contains(shown), "{out}");
    }
}

/// The rules files take the first ids, in reading order, the translation
/// files the ids after them: every span of the rules names its file by its
/// place in `inputs`.
#[test]
fn every_span_of_the_rules_names_its_rules_file() {
    let compiled = compiler::compile_dir(Path::new(BUNDLED));
    let rules = compiled.result.as_ref().expect("the bundled rules check");
    assert!(compiled.sources.len() > rules.inputs.len(), "the translation files come after");
    let mut seen = std::collections::BTreeSet::new();
    for item in rules.items() {
        let file = item.spans.id.file;
        let input = rules.inputs.get(file.0).expect("a rules file");
        assert!(
            compiled.sources.name(file).ends_with(input.as_str()),
            "{} is not {input}",
            compiled.sources.name(file)
        );
        seen.insert(input);
    }
    assert!(seen.len() > rules.inputs.len() / 2, "items from {} of {} files", seen.len(), rules.inputs.len());
}

#[test]
fn editor_backups_and_auto_saves_are_not_read_as_rules_files() {
    let dir = rules_with("expansions/abbey-and-mayor.yaml", |t| {
        t.replacen("when: tiles_in_supply\n", "when: tiles_in_suply\n", 1)
    });
    let expansions = dir.path().join("expansions");
    // Emacs's backup and auto-save of a broken version: neither is read.
    std::fs::copy(expansions.join("abbey-and-mayor.yaml"), expansions.join("abbey-and-mayor.yaml~")).expect("copy");
    std::fs::copy(expansions.join("abbey-and-mayor.yaml"), expansions.join("#abbey-and-mayor.yaml#")).expect("copy");
    std::fs::write(
        dir.path().join("expansions/abbey-and-mayor.yaml"),
        std::fs::read_to_string(Path::new(FIXTURE).join("expansions/abbey-and-mayor.yaml")).expect("read"),
    )
    .expect("write");
    let checked = compiler::compile_dir(dir.path()).result;
    assert!(checked.is_ok(), "{:?}", checked.err());
    let (texts, refused) = compiler::syntax::read_folder(dir.path());
    assert!(refused.is_empty() && texts.keys().all(|k| !k.ends_with('~') && !k.ends_with('#')), "{texts:?}");
    // Any other name is still refused.
    std::fs::write(expansions.join("notes.txt"), "x").expect("write");
    let d = only_problem(dir.path());
    assert_eq!(d.code().id(), "not-a-rules-file");
}
