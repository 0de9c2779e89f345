//! `carcassonne-rules wiki --out FILE`: the order of play as wiki source. What
//! the file says is proven by the round trip through the page reader
//! (`crates/wiki/tests/export.rs`); here, the command's contract.

// Helpers outside `#[test]` functions panic on a broken setup, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run the binary")
}

#[test]
fn wiki_writes_the_page_source_of_the_bundled_rules() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("order.wikitext");
    let run = cli(&["wiki", "--out", out.to_str().expect("utf-8")]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&out).expect("the export");
    for expected in [
        "{{RulesPlacingTile|",
        "'''Step 1B: Draw a tile'''",
        "<li class=\"showTilesInSupplyOrWetlands markWE\" id=\"abbey-play-from-supply\">",
        "wica-repeat-block",
        "wica-repeat-step",
        "data-publishers=\"rgg\"",
    ] {
        assert!(text.contains(expected), "no {expected}");
    }
    // The same twice over: the export is deterministic.
    let again = dir.path().join("again.wikitext");
    assert!(cli(&["wiki", "--out", again.to_str().expect("utf-8")]).status.success());
    assert_eq!(std::fs::read(&out).expect("first"), std::fs::read(&again).expect("second"));
}

#[test]
fn wiki_on_broken_rules_writes_nothing() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/compiler/tests/fixtures/minimal");
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("rules");
    for entry in ["editions.yaml", "modules.yaml", "base.yaml"] {
        std::fs::create_dir_all(&copy).expect("mkdir");
        std::fs::copy(rules.join(entry), copy.join(entry)).expect("copy");
    }
    let base = std::fs::read_to_string(copy.join("base.yaml")).expect("base");
    std::fs::write(copy.join("base.yaml"), base.replacen("Show the tile.", "Show the {tile.", 1)).expect("break it");
    let out = dir.path().join("order.wikitext");
    let run = cli(&["--rules", copy.to_str().expect("utf-8"), "wiki", "--out", out.to_str().expect("utf-8")]);
    assert_eq!(run.status.code(), Some(1));
    assert!(!out.exists(), "nothing is written from broken rules");
}

/// Where there is no `rules/` folder (an installed binary's usual case),
/// `site`, `wiki` and `check` run on the bundled rules built into the binary,
/// and write what they write from the repository's `rules/`.
#[test]
fn site_wiki_and_check_run_the_bundled_rules_outside_the_repository() {
    let repo = tempfile::tempdir().expect("temp dir");
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let run = |dir: &Path, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
            .current_dir(dir)
            .args(args)
            .output()
            .expect("run the binary");
        assert!(out.status.success(), "{args:?} in {}: {}", dir.display(), String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert!(!elsewhere.path().join("rules").exists());
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, out) in [(here, repo.path()), (elsewhere.path(), elsewhere.path())] {
        let wiki = out.join("order.wikitext");
        run(dir, &["wiki", "--out", wiki.to_str().expect("utf-8")]);
        run(dir, &["site", "--out", out.join("site").to_str().expect("utf-8")]);
    }
    for file in ["order.wikitext", "site/index.html", "site/rules.js", "site/app.js"] {
        let (a, b) = (repo.path().join(file), elsewhere.path().join(file));
        assert_eq!(std::fs::read(&a).expect("from rules/"), std::fs::read(&b).expect("bundled"), "{file}");
    }
    let checked = run(elsewhere.path(), &["check"]);
    assert!(checked.starts_with("the bundled rules: 3 editions,"), "{checked}");
    assert_eq!(checked.split_once(':').map(|p| p.1), run(here, &["check"]).split_once(':').map(|p| p.1));
}
