//! An output never replaces a file its owner made read-only: `wiki --out`,
//! `play --save` (one file through a temporary renamed over it) and `site
//! --out` (a set of files, each renamed over its target) refuse before
//! writing anything, and the file keeps its bytes, its mode and its inode.
//! The tests run as root, where permission bits stop no write: the refusal
//! reads the bits, so it holds for root too.

#![cfg(unix)]
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const KEPT: &str = "written by hand, kept read-only\n";

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .args(args)
        .output()
        .expect("run the binary")
}

/// `path` holding [`KEPT`], mode 0444.
fn read_only(path: &Path) {
    std::fs::write(path, KEPT).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).unwrap();
}

/// The run failed naming the read-only file, which is as it was, and the
/// folder holds nothing else (no temporary, no hidden folder).
fn refused(run: &Output, path: &Path, inode: u64) {
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "it wrote: {stderr}");
    assert!(stderr.contains("is read-only: refusing to replace it"), "{stderr}");
    assert!(stderr.contains(&path.file_name().unwrap().to_string_lossy().to_string()), "{stderr}");
    assert_eq!(std::fs::read_to_string(path).unwrap(), KEPT);
    let meta = std::fs::metadata(path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o444);
    assert_eq!(meta.ino(), inode, "the same file, not a new one");
    let mut left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, [path.file_name().unwrap().to_string_lossy().into_owned()], "only the file is left");
}

#[test]
fn wiki_out_refuses_a_read_only_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("order.wikitext");
    read_only(&out);
    let inode = std::fs::metadata(&out).unwrap().ino();
    refused(&cli(&["wiki", "--out", out.to_str().unwrap()]), &out, inode);
    // Writable again, it is replaced.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).unwrap();
    let run = cli(&["wiki", "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().contains("{{RulesPlacingTile|"));
}

#[test]
fn play_save_refuses_a_read_only_file() {
    let dir = tempfile::tempdir().unwrap();
    let answers = tempfile::NamedTempFile::new().unwrap();
    let state = dir.path().join("turn.json");
    read_only(&state);
    let inode = std::fs::metadata(&state).unwrap().ino();
    let run = cli(&[
        "play",
        "--edition",
        "C2",
        "--format",
        "json",
        "--answers",
        answers.path().to_str().unwrap(),
        "--save",
        state.to_str().unwrap(),
    ]);
    refused(&run, &state, inode);
}

#[test]
fn site_out_refuses_a_read_only_page_file_before_writing_any() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    std::fs::create_dir(&out).unwrap();
    let page = out.join("index.html");
    read_only(&page);
    let inode = std::fs::metadata(&page).unwrap().ino();
    refused(&cli(&["site", "--out", out.to_str().unwrap()]), &page, inode);
}
