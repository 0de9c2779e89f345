//! A real client no one here wrote: Neovim, headless, set up by
//! `editors/nvim/carcassonne-rules.lua` as a user would, drives
//! `carcassonne-rules lsp` on a copy of the rules (tests/editor/nvim.lua), on
//! each Neovim of `CARCASSONNE_NVIM`. Skipped with a message where `nvim` is
//! absent, unless CARCASSONNE_EDITOR_TESTS=1 (CI), where that fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
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

/// The Neovim binaries to run the suite on: `CARCASSONNE_NVIM`, a list of
/// paths as `PATH` writes them (CI: Debian's and the current stable), or
/// `nvim` from `PATH`.
fn binaries() -> Vec<PathBuf> {
    match std::env::var_os("CARCASSONNE_NVIM") {
        Some(list) => std::env::split_paths(&list).collect(),
        None => vec![PathBuf::from("nvim")],
    }
}

#[test]
fn neovim_drives_every_feature_of_the_server() {
    let required = std::env::var("CARCASSONNE_EDITOR_TESTS").is_ok_and(|v| v == "1");
    for nvim in binaries() {
        let version = match Command::new(&nvim).arg("--version").output() {
            Ok(out) => String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string(),
            Err(e) => {
                assert!(!required, "CARCASSONNE_EDITOR_TESTS=1 but {} does not run: {e}", nvim.display());
                eprintln!("skipped: {} is not installed (apt-get install neovim)", nvim.display());
                continue;
            }
        };
        let found = session(&nvim);
        let lines: Vec<&str> = found.lines().collect();
        assert_eq!(lines.len(), 16, "{version}:\n{found}");
        assert!(lines.iter().all(|l| l.starts_with("ok ")), "{version}:\n{found}");
        eprintln!("{version}:\n{found}");
    }
}

/// Runs the suite in `nvim` on a fresh copy of the rules: what it wrote.
fn session(nvim: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&manifest.join("rules"), &dir.path().join("rules"));
    let elsewhere = dir.path().join("elsewhere/config.yaml");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::write(&elsewhere, "key: value\n").unwrap();
    let results = dir.path().join("results.txt");
    let script = manifest.join("tests/editor/nvim.lua");
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("RULES_ROOT", dir.path())
        .env("SERVER", env!("CARGO_BIN_EXE_carcassonne-rules"))
        .env("CONFIG", manifest.join("editors/nvim/carcassonne-rules.lua"))
        .env("ELSEWHERE", &elsewhere)
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
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "{} did not finish in {LIMIT:?}; checks done: {:?}; its output: {}",
                nvim.display(),
                std::fs::read_to_string(&results).unwrap_or_default(),
                std::fs::read_to_string(log.path()).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::read_to_string(&results).unwrap_or_else(|_| {
        panic!("{} wrote no results: {}", nvim.display(), std::fs::read_to_string(log.path()).unwrap_or_default())
    })
}
