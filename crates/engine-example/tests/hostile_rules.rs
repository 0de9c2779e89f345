//! The engine's build script, as cargo built it, on rules whose one
//! condition's BDD doubles with every pair of modules it names (the
//! compiler's `tests/fixtures/hostile-pairs`, 24 pairs): the build fails
//! quickly with the located "too complex" diagnostic, instead of working
//! for a minute and 3 GB, and writes no generated code.

#![cfg(unix)]
// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

#[path = "../../compiler/tests/cpu_time/mod.rs"]
mod cpu_time;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The hostile rules, shared with the compiler's and the language server's tests.
const HOSTILE: &str = "../compiler/tests/fixtures/hostile-pairs";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
}

/// This crate's build script: cargo builds it before this test, into
/// `target/<profile>/build/<crate>-<hash>/build-script-build` (the newest,
/// where older builds left others).
fn build_script() -> PathBuf {
    let exe = std::env::current_exe().expect("test exe");
    let profile = exe.parent().and_then(Path::parent).expect("target/<profile>");
    std::fs::read_dir(profile.join("build"))
        .expect("build folder")
        .map(|e| e.expect("entry").path().join("build-script-build"))
        .filter(|p| {
            let dir = p.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
            dir.starts_with("carcassonne-rules-engine-example-") && p.is_file()
        })
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .expect("cargo built this crate's build script")
}

#[test]
fn the_build_script_refuses_a_condition_whose_cases_multiply_quickly_and_at_it() {
    let temp = tempfile::tempdir().expect("temp dir");
    let engine = temp.path().join("engine");
    copy_dir(Path::new(HOSTILE), &engine.join("rules"));
    let out = temp.path().join("out");
    std::fs::create_dir(&out).expect("OUT_DIR");
    // As cargo runs it: from the crate's root, with OUT_DIR set.
    let (output, took) = cpu_time::output(Command::new(build_script()).current_dir(&engine).env("OUT_DIR", &out));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the build must fail: {stderr}");
    assert!(stderr.contains("this condition is too complex to decide"), "{stderr}");
    assert!(stderr.contains("rules/expansions/pairs.yaml:5:13"), "located at the condition: {stderr}");
    assert!(stderr.contains("have 1 problem (shown above)"), "{stderr}");
    assert_eq!(std::fs::read_dir(&out).expect("out").count(), 0, "nothing generated");
    eprintln!("build script: {took:?} of CPU time");
    // The build script's compiler is a debug build: about 3 s on the 2-core
    // machine, 6 s before the BDD crate was optimised in it (docs/performance.md).
    assert!(took < Duration::from_secs(5), "took {took:?} of CPU time");
}
