//! A real client no one here wrote: Neovim, headless, drives `carcassonne-rules
//! lsp` on a copy of the rules (tests/editor/nvim.lua). Skipped with a message
//! where `nvim` is absent, unless CARCASSONNE_EDITOR_TESTS=1 (CI), where that
//! fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the whole session may take.
const LIMIT: Duration = Duration::from_secs(240);

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
fn neovim_drives_every_feature_of_the_server() {
    let required = std::env::var("CARCASSONNE_EDITOR_TESTS").is_ok_and(|v| v == "1");
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(!required, "CARCASSONNE_EDITOR_TESTS=1 but nvim is not installed");
        eprintln!("skipped: nvim is not installed (apt-get install neovim)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").as_path(), &dir.path().join("rules"));
    let results = dir.path().join("results.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editor/nvim.lua");
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut nvim = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("RULES_ROOT", dir.path())
        .env("SERVER", env!("CARGO_BIN_EXE_carcassonne-rules"))
        .env("RESULTS", &results)
        // Neovim's own files (the LSP log among them) in the test's folder:
        // a CI machine's home may be missing or read-only.
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(log.reopen().unwrap())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    // Each check waits at most 20 s for the server; a Neovim that is still
    // running long after that is stuck (a prompt, a lost reply), and the test
    // says what it had done rather than hanging CI.
    let started = Instant::now();
    while nvim.try_wait().unwrap().is_none() {
        if started.elapsed() > LIMIT {
            nvim.kill().unwrap();
            nvim.wait().unwrap();
            panic!(
                "nvim did not finish in {LIMIT:?}; checks done: {:?}; its output: {}",
                std::fs::read_to_string(&results).unwrap_or_default(),
                std::fs::read_to_string(log.path()).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let found = std::fs::read_to_string(&results).unwrap_or_else(|_| {
        panic!("nvim wrote no results: {}", std::fs::read_to_string(log.path()).unwrap_or_default())
    });
    let lines: Vec<&str> = found.lines().collect();
    assert_eq!(lines.len(), 13, "{found}");
    assert!(lines.iter().all(|l| l.starts_with("ok ")), "{found}");
    eprintln!("{found}");
}
