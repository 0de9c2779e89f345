//! What the editor tests share: a real editor runs its suite on a fresh copy
//! of the rules, with its own files in the test's folder, and is killed if it
//! runs past a limit, the test saying which checks it had done.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The first line `editor --version` prints; a failure when it does not run
/// (the editor tests are `#[ignore]`d, run where the editors are installed).
pub fn version(editor: &Path, install: &str) -> String {
    match Command::new(editor).arg("--version").output() {
        Ok(out) => String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string(),
        Err(e) => panic!("{} does not run ({install}): {e}", editor.display()),
    }
}

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

/// Runs `editor` (its arguments given) on a fresh copy of the rules and their
/// schemas, set up by `config` (a file of `editors/`), and returns what its
/// suite wrote: a line per check. The suite reads where things are from the environment.
pub fn run(mut editor: Command, config: &str, limit: Duration) -> String {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&manifest.join("rules"), &dir.path().join("rules"));
    // The schemas the rules files' first lines name, where those lines find them.
    copy_dir(&manifest.join("generated/schemas"), &dir.path().join("generated/schemas"));
    let elsewhere = dir.path().join("elsewhere/config.yaml");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::write(&elsewhere, "key: value\n").unwrap();
    let results = dir.path().join("results.txt");
    let log = tempfile::NamedTempFile::new().unwrap();
    let name = editor.get_program().to_string_lossy().into_owned();
    let in_dir = |sub: &str| -> PathBuf { dir.path().join(sub) };
    let mut child = editor
        .env("RULES_ROOT", dir.path())
        .env("SERVER", env!("CARGO_BIN_EXE_carcassonne-rules"))
        .env("CONFIG", manifest.join(config))
        .env("ELSEWHERE", &elsewhere)
        .env("RESULTS", &results)
        // The editor's own files (an LSP log among them) in the test's
        // folder: a CI machine's home may be missing or read-only.
        .env("HOME", in_dir("home"))
        .env("XDG_CONFIG_HOME", in_dir("config"))
        .env("XDG_DATA_HOME", in_dir("data"))
        .env("XDG_STATE_HOME", in_dir("state"))
        .env("XDG_CACHE_HOME", in_dir("cache"))
        .stdin(Stdio::null())
        .stdout(log.reopen().unwrap())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    // Each check waits at most 20 s for the server; an editor still running
    // long after that is stuck (a prompt, a lost reply), and the test says
    // what it had done rather than hanging CI.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "{name} did not finish in {limit:?}; checks done: {:?}; its output: {}",
                std::fs::read_to_string(&results).unwrap_or_default(),
                std::fs::read_to_string(log.path()).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::read_to_string(&results).unwrap_or_else(|_| {
        panic!("{name} wrote no results: {}", std::fs::read_to_string(log.path()).unwrap_or_default())
    })
}

/// Asserts that the suite wrote `checks` lines, each `ok …`, and shows them.
pub fn assert_all_ok(version: &str, found: &str, checks: usize) {
    let lines: Vec<&str> = found.lines().collect();
    assert_eq!(lines.len(), checks, "{version}:\n{found}");
    assert!(lines.iter().all(|l| l.starts_with("ok ")), "{version}:\n{found}");
    eprintln!("{version}:\n{found}");
}
