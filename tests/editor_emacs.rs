//! A real client no one here wrote: Emacs, in batch mode, with Debian's eglot
//! and yaml-mode, set up by `editors/emacs/carcassonne-rules.el` as a user
//! would, drives `carcassonne-rules lsp` on a copy of the rules
//! (tests/editor/emacs.el). Skipped with a message where `emacs` is absent,
//! unless CARCASSONNE_EDITOR_TESTS=1 (CI), where that fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the whole session may take.
const LIMIT: Duration = Duration::from_secs(180);

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn emacs_eglot_drives_the_server() {
    let required = std::env::var("CARCASSONNE_EDITOR_TESTS").is_ok_and(|v| v == "1");
    let version = match Command::new("emacs").arg("--version").output() {
        Ok(out) => String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string(),
        Err(e) => {
            assert!(!required, "CARCASSONNE_EDITOR_TESTS=1 but emacs does not run: {e}");
            eprintln!("skipped: emacs is not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode)");
            return;
        }
    };
    let found = session();
    let lines: Vec<&str> = found.lines().collect();
    assert_eq!(lines.len(), 9, "{version}:\n{found}");
    assert!(lines.iter().all(|l| l.starts_with("ok ")), "{version}:\n{found}");
    eprintln!("{version}:\n{found}");
}

/// Runs the suite in Emacs on a fresh copy of the rules: what it wrote.
fn session() -> String {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&manifest.join("rules"), &dir.path().join("rules"));
    let elsewhere = dir.path().join("elsewhere/config.yaml");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::write(&elsewhere, "key: value\n").unwrap();
    let results = dir.path().join("results.txt");
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new("emacs")
        .args(["--batch", "-Q", "-l"])
        .arg(manifest.join("tests/editor/emacs.el"))
        .env("RULES_ROOT", dir.path())
        .env("SERVER", env!("CARGO_BIN_EXE_carcassonne-rules"))
        .env("CONFIG", manifest.join("editors/emacs/carcassonne-rules.el"))
        .env("ELSEWHERE", &elsewhere)
        .env("RESULTS", &results)
        // Emacs's own files in the test's folder: a CI machine's home may be
        // missing or read-only.
        .env("HOME", dir.path().join("home"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(log.reopen().unwrap())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    // Each check waits at most 20 s for the server; an Emacs that is still
    // running long after that is stuck (a prompt, a lost reply), and the test
    // says what it had done rather than hanging CI.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "emacs did not finish in {LIMIT:?}; checks done: {:?}; its output: {}",
                std::fs::read_to_string(&results).unwrap_or_default(),
                std::fs::read_to_string(log.path()).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::read_to_string(&results).unwrap_or_else(|_| {
        panic!("emacs wrote no results: {}", std::fs::read_to_string(log.path()).unwrap_or_default())
    })
}
