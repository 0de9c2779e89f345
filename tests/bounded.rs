//! Bounded everywhere (issue 36, SECURITY.md): any rules folder of at most
//! 8 MiB is checked, built, explained, exported and served in at most 2 s
//! and 512 MB of memory per command, or refused with a located diagnostic.
//!
//! Each adversarial shape of `adversarial/` is given to every command that
//! reads a rules folder, run as a child whose wall time, CPU time and peak
//! resident memory (`wait4`'s rusage) the test measures. The bound is for
//! the release binary: `.ci/run` builds it and runs
//!
//! ```sh
//! cargo build --release --locked
//! cargo test --locked --test bounded -- --ignored --nocapture
//! ```
//!
//! (`CARCASSONNE_BINARY=path` measures another release build: `.ci/run`
//! gives it the one its packaging test installs; with
//! `CARCASSONNE_MEASURE_ONLY=1` the test prints the table without asserting,
//! for a build from before a change.) It is not part of the debug `cargo
//! test`: the shapes at a tenth of their size, in the debug binary, took a
//! minute and a half there.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod adversarial;
mod measure;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use adversarial::{SHAPES, Size, Target};

/// The bound of SECURITY.md, per command.
const SECONDS: Duration = Duration::from_secs(2);
const MEMORY: u64 = 512 << 20;
/// The size of the rules folders the bound is for.
const FOLDER: u64 = 8 << 20;

/// The commands, each given the workspace (the rules are its `rules/`),
/// a scratch folder for its output and the shape's target: its arguments
/// and what it reads on stdin.
type Args = (Vec<String>, Vec<u8>);
type Make = fn(&Path, &Path, &Target) -> Args;
const COMMANDS: &[(&str, Make)] = &[
    ("check", |ws, _, _| (args(&["check", "--rules"], ws, &[]), Vec::new())),
    ("gen", |ws, out, _| {
        (args(&["gen", "--rules"], ws, &["--out", &out.join("gen").display().to_string()]), Vec::new())
    }),
    ("explain", |ws, _, t| {
        let with = if t.with.is_empty() { vec![] } else { vec!["--with", t.with.as_str()] };
        let mut rest = vec![t.item.as_str(), "--edition", "C2"];
        rest.extend(with);
        (args(&["explain", "--rules"], ws, &rest), Vec::new())
    }),
    ("order", |ws, _, t| {
        let mut rest = vec!["--edition", "C2"];
        if !t.with.is_empty() {
            rest.extend(["--with", t.with.as_str()]);
        }
        (args(&["order", "--rules"], ws, &rest), Vec::new())
    }),
    ("wiki", |ws, out, _| {
        (args(&["wiki", "--rules"], ws, &["--out", &out.join("page.wiki").display().to_string()]), Vec::new())
    }),
    ("site", |ws, out, _| {
        (args(&["site", "--rules"], ws, &["--out", &out.join("site").display().to_string()]), Vec::new())
    }),
    ("translations", |ws, _, _| (args(&["translations", "--rules"], ws, &[]), Vec::new())),
    ("lsp", |ws, _, t| (vec!["lsp".to_string()], lsp_session(ws, t))),
];

fn args(first: &[&str], ws: &Path, rest: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = first.iter().map(|s| s.to_string()).collect();
    out.push(ws.join("rules").display().to_string());
    out.extend(rest.iter().map(|s| s.to_string()));
    out
}

fn frame(body: serde_json::Value) -> Vec<u8> {
    let body = body.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// An editor's session: start in the workspace, open the shape's file, and
/// shut down. The server answers each message in turn, so the file's
/// diagnostics are published before the shutdown is read.
fn lsp_session(ws: &Path, target: &Target) -> Vec<u8> {
    let root = format!("file://{}", ws.display());
    let path = ws.join("rules").join(&target.file);
    let text = std::fs::read_to_string(&path).expect("read the file");
    let uri = format!("file://{}", path.display());
    let mut bytes = frame(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": root, "capabilities": {}}}));
    bytes.extend(frame(serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})));
    bytes.extend(frame(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})));
    bytes.extend(frame(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})));
    bytes.extend(frame(serde_json::json!({"jsonrpc": "2.0", "method": "exit"})));
    bytes
}

fn folder_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .expect("read a folder")
        .map(|e| {
            let e = e.expect("an entry");
            if e.file_type().expect("a type").is_dir() {
                folder_size(&e.path())
            } else {
                e.metadata().expect("size").len()
            }
        })
        .sum()
}

/// Whether the run kept the bound's promise on its output: it ran to the
/// end, or refused with a diagnostic that says where (`file:line:col`).
fn ended_well(command: &str, run: &measure::Measured) -> Result<(), String> {
    if let Some(why) = run.killed {
        return Err(format!("killed at {why}"));
    }
    let stderr = String::from_utf8_lossy(&run.stderr);
    match run.status.code() {
        Some(0) if command == "lsp" => {
            // The shutdown answered: the server read and analysed the
            // opened file before it (it publishes only what changed, so a
            // clean file may get no diagnostics at all).
            let stdout = String::from_utf8_lossy(&run.stdout_tail);
            if stdout.contains(r#""id":2,"result":null"#) || stdout.contains(r#""result":null,"id":2"#) {
                Ok(())
            } else {
                Err(format!("the server did not answer the shutdown: {}", stdout.chars().take(300).collect::<String>()))
            }
        }
        Some(0) => Ok(()),
        Some(1) if located(&stderr) => Ok(()),
        other => Err(format!("exit {other:?}, not located: {}", stderr.chars().take(600).collect::<String>())),
    }
}

/// A diagnostic's place: `[file.yaml:line:col]`.
fn located(stderr: &str) -> bool {
    stderr.split(".yaml:").skip(1).any(|rest| {
        let mut parts = rest.splitn(3, ':');
        let number = |p: Option<&str>| p.is_some_and(|p| p.chars().take_while(char::is_ascii_digit).count() > 0);
        number(parts.next()) && number(parts.next())
    })
}

/// Builds every shape at `size` and runs every command on it with `binary`;
/// the failures of the bound (wall time and CPU time within `seconds`, peak
/// memory within `memory`), and the table of what was measured.
fn run_all(binary: &Path, size: &Size, seconds: Duration, memory: u64) -> Vec<String> {
    let mut failures = Vec::new();
    eprintln!("| shape | command | wall s | CPU s | peak MB | output KB | exit |");
    eprintln!("| --- | --- | ---: | ---: | ---: | ---: | --- |");
    for shape in SHAPES {
        let ws = tempfile::tempdir().expect("temp dir");
        let rules = ws.path().join("rules");
        let target = (shape.build)(&rules, size);
        let bytes = folder_size(&rules);
        assert!(bytes <= FOLDER, "{}: {bytes} bytes, over the 8 MiB the bound is for", shape.name);
        for (command, make) in COMMANDS {
            let out = tempfile::tempdir().expect("temp dir");
            let (args, stdin) = make(ws.path(), out.path(), &target);
            // Twice the bound, and four times the memory, tell a slow run
            // from a runaway one; the cap keeps a runaway from the machine.
            let run = measure::measure(
                Command::new(binary).args(&args).current_dir(ws.path()).env("NO_COLOR", "1"),
                stdin,
                (seconds * 15).max(Duration::from_secs(30)),
                memory * 4,
            );
            let outcome = ended_well(command, &run);
            eprintln!(
                "| {} | {command} | {:.2} | {:.2} | {} | {} | {} |",
                shape.name.split(':').next().unwrap_or_default(),
                run.wall.as_secs_f64(),
                run.cpu.as_secs_f64(),
                run.max_rss >> 20,
                (run.stdout_len + run.stderr_len) >> 10,
                match (&outcome, run.killed) {
                    (_, Some(why)) => format!("killed at {why}"),
                    // A refusal's first line: what it refused.
                    _ => match String::from_utf8_lossy(&run.stderr).lines().find(|l| !l.trim().is_empty()) {
                        Some(first) if run.status.code() != Some(0) => {
                            format!(
                                "{} {}",
                                run.status.code().unwrap_or(-1),
                                first.chars().take(70).collect::<String>()
                            )
                        }
                        _ => format!("{}", run.status.code().unwrap_or(-1)),
                    },
                },
            );
            let mut problems = Vec::new();
            if let Err(why) = outcome {
                problems.push(why);
            }
            // CPU time is what the command does; wall time also holds what
            // else the shared machine runs, so it has room for that.
            if run.cpu > seconds {
                problems.push(format!("{:?} of CPU time", run.cpu));
            }
            if run.wall > seconds * 3 {
                problems.push(format!("{:?} of wall time", run.wall));
            }
            if run.max_rss > memory {
                problems.push(format!("{} MB at its peak", run.max_rss >> 20));
            }
            if !problems.is_empty() {
                failures.push(format!("{} / {command}: {}", shape.name, problems.join("; ")));
            }
        }
    }
    failures
}

/// The release binary beside the debug one this test was built with.
fn release_binary() -> PathBuf {
    let debug = PathBuf::from(env!("CARGO_BIN_EXE_carcassonne-rules"));
    let target = debug.parent().and_then(Path::parent).expect("the target folder");
    target.join("release").join(debug.file_name().expect("a name"))
}

#[test]
#[ignore = "needs a release build: `cargo build --release --locked` first; .ci/run runs it"]
fn every_command_on_every_adversarial_shape_keeps_the_bound() {
    let binary = std::env::var_os("CARCASSONNE_BINARY").map_or_else(release_binary, PathBuf::from);
    assert!(binary.is_file(), "{} is missing: run `cargo build --release --locked` first", binary.display());
    let failures = run_all(&binary, &Size::FULL, SECONDS, MEMORY);
    if std::env::var_os("CARCASSONNE_MEASURE_ONLY").is_some() {
        eprintln!("past the bound:\n{}", failures.join("\n"));
    } else {
        assert!(failures.is_empty(), "past the bound:\n{}", failures.join("\n"));
    }
}

/// Writes every shape at full size into `$CARCASSONNE_SHAPES_OUT/<shape>/rules`,
/// to run a command on one by hand (docs/performance.md).
#[test]
#[ignore = "writes the shapes where CARCASSONNE_SHAPES_OUT says"]
fn write_the_shapes() {
    let out = PathBuf::from(std::env::var_os("CARCASSONNE_SHAPES_OUT").expect("CARCASSONNE_SHAPES_OUT"));
    for shape in SHAPES {
        let name = shape.name.split(':').next().unwrap_or_default();
        let rules = out.join(name).join("rules");
        assert!(!rules.exists(), "{} exists already", rules.display());
        let target = (shape.build)(&rules, &Size::FULL);
        eprintln!("{name}: {} ({}; explain {})", rules.display(), target.file, target.item);
    }
}

/// The wiki export charges the run's budget for each node of a condition
/// it expands: an item naming a flag of 3,000 pairs 1,000 times, which
/// `check` decides in a moment, is refused at the item within seconds even
/// in the debug build (the release build took over 20 s to refuse it, the
/// flag expanded at each of its 1,000 mentions).
#[test]
fn the_wiki_export_refuses_a_big_flag_named_many_times_at_its_item() {
    let ws = tempfile::tempdir().expect("temp dir");
    let rules = ws.path().join("rules");
    let shape = SHAPES.iter().find(|s| s.name.starts_with("origins")).expect("the shape");
    let target = (shape.build)(&rules, &Size::FULL);
    let out = tempfile::tempdir().expect("temp dir");
    let (args, stdin) = (COMMANDS.iter().find(|(c, _)| *c == "wiki").expect("wiki").1)(ws.path(), out.path(), &target);
    let run = measure::measure(
        Command::new(env!("CARGO_BIN_EXE_carcassonne-rules")).args(&args),
        stdin,
        Duration::from_secs(120),
        MEMORY * 4,
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("too-complex"), "{stderr}");
    assert!(stderr.contains(&format!("{}:", target.file)) && located(&stderr), "{stderr}");
    eprintln!("refused in {:?} of CPU time, {} MB at its peak", run.cpu, run.max_rss >> 20);
    assert!(run.cpu < SECONDS * 5, "{:?}", run.cpu);
    assert!(run.max_rss < MEMORY, "{} MB", run.max_rss >> 20);
}
