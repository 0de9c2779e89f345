//! What a language costs an engine: a tiny engine (a binary that prints a
//! turn order's first step, in a language when asked and compiled in) built
//! in release mode outside this workspace — so that no feature of it leaks
//! in — with no language, with `lang-nl`, with `lang-ru` and with
//! `all-languages`. Without a feature the runtime holds no language (not a
//! byte of the Dutch tables is in its library or in the binary, and
//! `locale("nl")` is none); with one, that language and only it. Prints the
//! sizes of the runtime's rlib and of the binary in each build
//! (docs/performance.md records them).
//!
//! Slow (release builds of the runtime and its dependencies, the first time;
//! the engine and its builds are kept in `target/language-cost`), so ignored:
//! `cargo test -p carcassonne-rules-runtime --test language_cost -- --ignored --nocapture`.

// Helpers outside `#[test]` functions panic on a broken setup, as tests do.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The tiny engine's source: the first step's title of the base game in C2,
/// in the language its first argument names when the build has it.
const MAIN: &str = r#"
use carcassonne_rules_runtime::{config, generated::edition, languages, locale, turn_order, turn_order_in};

fn main() {
    let lang = std::env::args().nth(1).unwrap_or_default();
    let cfg = config(edition::C2);
    let order = match locale(&lang) {
        Some(table) => turn_order_in(&cfg, table),
        None => turn_order(&cfg),
    };
    let title = order.steps().next().map(|s| s.title.to_string()).unwrap_or_default();
    let tags: Vec<&str> = languages().iter().map(|l| l.lang).collect();
    println!("[{}] {}: {title}", tags.join(","), order.lang.as_deref().unwrap_or("en"));
}
"#;

/// Texts of each language's tables: a step title and a unit found in no
/// other file of the runtime.
const DUTCH: &str = "Begin van de beurt";
const RUSSIAN: &str = "Выкладывание квадрата";

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// The tiny engine's crate in `dir`, depending on this runtime by path.
fn engine(dir: &Path) {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    let manifest = format!(
        r#"[package]
name = "tiny-engine"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
carcassonne-rules-runtime = {{ path = {runtime:?} }}

[features]
lang-nl = ["carcassonne-rules-runtime/lang-nl"]
lang-ru = ["carcassonne-rules-runtime/lang-ru"]
all-languages = ["carcassonne-rules-runtime/all-languages"]

# What an engine ships: no symbols.
[profile.release]
strip = true

[workspace]
"#
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("manifest");
    std::fs::write(dir.join("src/main.rs"), MAIN).expect("main.rs");
    // The versions this workspace pins, so that the build needs no registry.
    std::fs::copy(runtime.join("../../Cargo.lock"), dir.join("Cargo.lock")).expect("Cargo.lock");
}

/// One build: the runtime's rlib and the binary.
struct Built {
    rlib: PathBuf,
    binary: PathBuf,
}

fn build(dir: &Path, target: &Path, features: &str) -> Built {
    let mut command = cargo();
    command.current_dir(dir).args(["build", "--release", "--offline", "--message-format=json-render-diagnostics"]);
    command.env("CARGO_TARGET_DIR", target);
    if !features.is_empty() {
        command.args(["--features", features]);
    }
    let out = command.output().expect("cargo build");
    assert!(out.status.success(), "{features}: {}", String::from_utf8_lossy(&out.stderr));
    let (mut rlib, mut binary) = (None, None);
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let name = message["target"]["name"].as_str().unwrap_or_default();
        let files = message["filenames"].as_array().into_iter().flatten().filter_map(|f| f.as_str());
        if name == "carcassonne_rules_runtime" {
            rlib = files.clone().find(|f| f.ends_with(".rlib")).map(PathBuf::from);
        }
        if name == "tiny-engine" {
            binary = message["executable"].as_str().map(PathBuf::from);
        }
    }
    Built { rlib: rlib.expect("the runtime's rlib"), binary: binary.expect("the binary") }
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).expect("a built file").len()
}

fn holds(path: &Path, text: &str) -> bool {
    let bytes = std::fs::read(path).expect("a built file");
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

fn run(binary: &Path, lang: &str) -> String {
    let out = Command::new(binary).arg(lang).output().expect("run the engine");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("utf-8").trim().to_string()
}

#[test]
#[ignore = "slow: release builds of a tiny engine outside the workspace"]
fn an_engine_grows_by_a_language_only_when_it_asks_for_it() {
    // Kept between runs, outside the workspace's own builds: only the
    // runtime and the engine are built again.
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/language-cost");
    let dir = target.join("tiny-engine");
    engine(&dir);
    let none = build(&dir, &target, "");
    let rlib_none = size(&none.rlib);
    let binary_none = size(&none.binary);
    assert!(!holds(&none.rlib, DUTCH) && !holds(&none.binary, DUTCH), "Dutch without lang-nl");
    assert!(!holds(&none.rlib, RUSSIAN) && !holds(&none.binary, RUSSIAN), "Russian without lang-ru");
    assert_eq!(run(&none.binary, "nl"), "[] en: Start of the turn", "no language: English");

    println!("build             runtime rlib (bytes)    engine binary (bytes)");
    println!("no language       {rlib_none:>20}    {binary_none:>21}");
    for (features, expected, has_dutch, has_russian) in [
        ("lang-nl", ("nl", "[nl] nl: Begin van de beurt"), true, false),
        ("lang-ru", ("ru", "[ru] ru: Начало хода"), false, true),
        ("all-languages", ("nl", "[nl,ru] nl: Begin van de beurt"), true, true),
    ] {
        let built = build(&dir, &target, features);
        assert_eq!(run(&built.binary, expected.0), expected.1, "{features}");
        assert_eq!(holds(&built.binary, DUTCH), has_dutch, "{features}: Dutch in the binary");
        assert_eq!(holds(&built.binary, RUSSIAN), has_russian, "{features}: Russian in the binary");
        let (rlib, binary) = (size(&built.rlib), size(&built.binary));
        println!(
            "{features:<17} {rlib:>20}    {binary:>21}   (+{} and +{})",
            rlib.saturating_sub(rlib_none),
            binary.saturating_sub(binary_none)
        );
        assert!(binary > binary_none, "{features}: the language's tables are in the binary");
    }
    // And without a feature again: the same binary as the first build.
    let again = build(&dir, &target, "");
    assert_eq!(size(&again.binary), binary_none, "a build without a language is the first one again");
}
