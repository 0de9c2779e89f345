//! The order-of-play page (`carcassonne-rules site`): written deterministically
//! and self-contained, every item on it once in every language, every
//! condition number with its predicate, and "Play a turn" only on a page of
//! the bundled rules. The page in a real, headless Chromium is tested in
//! `crates/browser-tests`, a package `cargo test` leaves out (`.ci/run` runs it).

#![allow(clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

// The compiler's test helpers (copying a rules folder), shared as a file.
#[path = "../crates/compiler/tests/common/mod.rs"]
mod common;
use common::copy_dir;
mod site_page;
use site_page::{build_site, build_site_of, fixture, read_dir};

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_carcassonne-rules"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_page_is_deterministic_and_self_contained() {
    let (a, b) = (build_site(), build_site());
    let files = read_dir(a.path());
    assert_eq!(files, read_dir(b.path()), "two runs wrote different pages");
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "app.js",
            "carcassonne-rules.js",
            "index.html",
            "index.nl.html",
            "index.ru.html",
            "rules.js",
            "style.css",
            "wasm.js"
        ]
    );
    let file = |name: &str| &files.iter().find(|(n, _)| n == name).expect("the page's file").1;
    // The runtime, as js/ has it: the module before its glue, both before the page's scripts.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["wasm.js", "carcassonne-rules.js"] {
        assert_eq!(file(name), &std::fs::read(repo.join("js").join(name)).expect("read js/"), "{name}");
    }
    for (name, bytes) in &files {
        let text = std::str::from_utf8(bytes).expect("UTF-8");
        for external in ["http:", "https:", "src=\"//", "href=\"//", "url(", "@import", "type=\"module\""] {
            assert!(!text.contains(external), "{name} has `{external}`: the page must work offline from file://");
        }
        assert!(!text.contains('\r'), "{name} has a carriage return");
    }
    let html = std::str::from_utf8(file("index.html")).expect("UTF-8");
    let scripts: Vec<&str> =
        html.split("<script src=\"").skip(1).map(|rest| rest.split('"').next().unwrap_or_default()).collect();
    assert_eq!(scripts, ["wasm.js", "carcassonne-rules.js", "rules.js", "app.js"]);
    // Every item of the rules is on the page once, whatever the selection.
    let compiled = carcassonne_rules_compiler::compile_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"));
    let rules = compiled.result.map_err(|p| format!("{p:?}")).expect("the bundled rules check");
    for item in rules.items() {
        assert_eq!(html.matches(&format!(" data-id=\"{}\"", item.id)).count(), 1, "{}", item.id);
    }
    // Every condition number the page uses has its compiled predicate.
    // Each language's page has every item once too, and the same conditions.
    for page in [file("index.nl.html"), file("index.ru.html")] {
        let page = std::str::from_utf8(page).expect("UTF-8");
        for item in rules.items() {
            assert_eq!(page.matches(&format!(" data-id=\"{}\"", item.id)).count(), 1, "{}", item.id);
        }
        let conditions = |html: &str| {
            html.split(" data-c=\"")
                .skip(1)
                .map(|r| r.split('"').next().unwrap_or_default().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(conditions(page), conditions(html), "a language's page numbers its conditions otherwise");
    }
    let js = std::str::from_utf8(file("rules.js")).expect("UTF-8");
    let predicates = js.matches("(e, v, m) =>").count();
    let used: BTreeSet<usize> = html
        .split(" data-c=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().and_then(|n| n.parse().ok()).expect("a number"))
        .collect();
    // Origin candidates name conditions too (`data-o="6 12:3"`).
    let in_origins = html.split(" data-o=\"").skip(1).flat_map(|rest| {
        let list = rest.split('"').next().unwrap_or_default();
        list.split(' ').filter_map(|c| c.split_once(':')).map(|(_, n)| n.parse::<usize>().expect("a number"))
    });
    let used: BTreeSet<usize> = used.into_iter().chain(in_origins).collect();
    assert_eq!(used, (0..predicates).collect(), "condition numbers and predicates differ");
}

/// The module plays the bundled rules: a page of other rules does not carry
/// it, and has no "Play a turn"; a copy of the bundled rules does.
#[test]
fn only_a_page_of_the_bundled_rules_plays_a_turn() {
    let other = build_site_of(fixture(&[], &[]).path());
    let names: Vec<String> = read_dir(other.path()).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["app.js", "index.html", "index.nl.html", "rules.js", "style.css"]);
    let html = std::fs::read_to_string(other.path().join("index.html")).expect("read");
    assert!(!html.contains("play-start") && !html.contains("wasm.js"), "the fixture's page plays a turn");
    let copy = tempfile::tempdir().expect("temp dir");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), copy.path());
    let names: Vec<String> = read_dir(build_site_of(copy.path()).path()).into_iter().map(|(n, _)| n).collect();
    assert!(names.iter().any(|n| n == "wasm.js"), "{names:?}");
    // One rules file changed by a byte is other rules.
    let base = copy.path().join("base.yaml");
    let text = std::fs::read_to_string(&base).expect("read");
    std::fs::write(&base, text.replace("Place the tile.", "Place the tile!")).expect("write");
    let names: Vec<String> = read_dir(build_site_of(copy.path()).path()).into_iter().map(|(n, _)| n).collect();
    assert!(!names.iter().any(|n| n == "wasm.js"), "{names:?}");
}
