//! `diff` stays a correct unified diff, and fast, on turn orders 100 times
//! the size of the bundled rules': `patch` applied to the first rendering
//! with the diff gives the second.

// Helpers outside `#[test]` functions panic when a tool misbehaves, as tests do.
#![allow(clippy::expect_used)]

use std::process::Command;
use std::time::{Duration, Instant};

use carcassonne_rules::diff::unified;
use carcassonne_rules_runtime::render::text_with_ids;

#[path = "fixtures/repeated.rs"]
mod repeated;

/// Applies `diff` to `a` with the real `patch`, and returns the result.
fn patched(a: &str, diff: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let (file, patch) = (dir.path().join("a.txt"), dir.path().join("a.diff"));
    std::fs::write(&file, a).expect("write");
    std::fs::write(&patch, diff).expect("write");
    let run = Command::new("patch").arg("--quiet").arg(&file).arg(&patch).output().expect("run patch");
    assert!(run.status.success(), "patch refused the diff: {}", String::from_utf8_lossy(&run.stdout));
    std::fs::read_to_string(&file).expect("read")
}

#[test]
fn the_diff_of_100_times_the_bundled_rules_is_correct_and_quick() {
    let (everything, base) = (repeated::bundled("C2", true), repeated::bundled("C1", false));
    for times in [1, 100] {
        let a = text_with_ids(&repeated::repeated(&base, times));
        let b = text_with_ids(&repeated::repeated(&everything, times));
        let started = Instant::now();
        let diff = unified(&a, &b, false);
        let took = started.elapsed();
        eprintln!(
            "{times}×: {} and {} lines, diff of {} lines in {took:?}",
            a.lines().count(),
            b.lines().count(),
            diff.lines().count()
        );
        // Release: about 0.1 s at 100× (crates/benches/benches/diff.rs); a debug build on a
        // busy machine gets ample room, Myers alone took 4.9 s in release.
        assert!(took < Duration::from_secs(5), "{times}×: {took:?}");
        assert_eq!(patched(&a, &diff), b, "{times}×");
        assert!(
            diff.lines().filter(|l| l.starts_with('+') && !l.starts_with("+++")).count()
                >= b.lines().count() - a.lines().count()
        );
    }
}

#[test]
fn equal_renderings_have_an_empty_diff_and_small_changes_a_small_one() {
    let everything = text_with_ids(&repeated::repeated(&repeated::bundled("WE", true), 10));
    assert_eq!(unified(&everything, &everything, false), "");
    let line = everything.lines().nth(500).expect("a line").to_string();
    let changed = everything.replacen(&line, &format!("{line} (changed)"), 1);
    let diff = unified(&everything, &changed, false);
    assert_eq!(diff.lines().filter(|l| l.starts_with('-') && !l.starts_with("---")).count(), 1, "{diff}");
    assert_eq!(patched(&everything, &diff), changed);
}
