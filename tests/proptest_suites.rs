//! Random tests cannot fail CI by chance: every proptest suite of the
//! workspace saves its failures to a file beside it (committed, replayed
//! first on every run), and CI runs them with one fixed seed. Long random
//! runs are the fuzz targets' (`fuzz/`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// Every `tests/*.rs` of the workspace's crates and of the command line.
fn test_files(root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("tests")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        dirs.push(entry.unwrap().path().join("tests"));
    }
    let mut files = Vec::new();
    for dir in dirs.iter().filter(|d| d.is_dir()) {
        for entry in std::fs::read_dir(dir).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    files.sort();
    files
}

#[test]
fn every_proptest_suite_saves_its_failures_to_a_committed_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = test_files(root);
    let suites: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("\nproptest! {"))
        .collect();
    assert!(suites.len() >= 4, "the suites: {suites:?}");
    for suite in &suites {
        let source = std::fs::read_to_string(suite).unwrap();
        for off in ["FileFailurePersistence::Off", "failure_persistence: None", "PROPTEST_DISABLE_FAILURE_PERSISTENCE"]
        {
            assert!(!source.contains(off), "{}: failures are not saved ({off})", suite.display());
        }
    }
    // Each saved file is the one proptest writes for a suite: beside it, named after it.
    for saved in files.iter().filter(|f| f.extension().is_some_and(|e| e == "proptest-regressions")) {
        let suite = saved.with_extension("rs");
        assert!(suites.contains(&&suite), "{} saves the failures of no suite", saved.display());
    }
    let compiler = root.join("crates/compiler/tests/properties.proptest-regressions");
    assert!(compiler.is_file(), "the compiler's suite's file is committed");
}

#[test]
fn ci_runs_the_property_tests_with_a_fixed_seed() {
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    let seed = ci.find("export PROPTEST_RNG_SEED=").expect("CI fixes proptest's seed");
    let value: String =
        ci[seed + "export PROPTEST_RNG_SEED=".len()..].chars().take_while(char::is_ascii_digit).collect();
    assert!(value.parse::<u64>().is_ok(), "a number: {value:?}");
    let tests = ci.find("\ncargo test --locked\n").expect("CI runs the tests (the README's command)");
    assert!(seed < tests, "the seed is set before the tests run");
    assert!(!ci.contains("PROPTEST_CASES"), "CI runs each suite's own number of cases");
}
