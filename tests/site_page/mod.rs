//! Writing the page with the command line and reading its files, shared by
//! the page's tests (`tests/site.rs`) and the browser's
//! (`crates/browser-tests/tests/site.rs`). Each names the binary and the
//! repository as `binary()` and `repo()` at its root.

// Each test file uses part of this.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use super::common::copy_dir;
use super::{binary, repo};

/// Writes the page into a fresh folder with the command line.
pub fn build_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = Command::new(binary())
        .current_dir(repo())
        .args(["site", "--out"])
        .arg(dir.path())
        .output()
        .expect("run the binary");
    assert!(out.status.success(), "site failed: {}", String::from_utf8_lossy(&out.stderr));
    dir
}

pub fn read_dir(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("read site")
        .map(|e| {
            let e = e.expect("entry");
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).expect("read file"))
        })
        .collect();
    files.sort();
    files
}

/// The minimal fixture's rules (no publisher variants), edited by `edits`
/// of `(file, from, to)` and with `remove` taken out.
pub fn fixture(edits: &[(&str, &str, &str)], remove: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(&repo().join("crates/compiler/tests/fixtures/minimal"), dir.path());
    for (file, from, to) in edits {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).expect("read the fixture");
        assert!(text.contains(from), "`{from}` in {file}");
        std::fs::write(&path, text.replace(from, to)).expect("write the fixture");
    }
    for gone in remove {
        std::fs::remove_dir_all(dir.path().join(gone)).expect("remove from the fixture");
    }
    dir
}

/// The page of `rules`, as the command line writes it.
pub fn build_site_of(rules: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = Command::new(binary())
        .args(["site", "--rules"])
        .arg(rules)
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("run the binary");
    assert!(out.status.success(), "site failed: {}", String::from_utf8_lossy(&out.stderr));
    dir
}
