//! Bad input, case by case: each case is a copy of the bundled rules with one
//! mistake (or a small rules folder of its own). Each must give the number of
//! diagnostics it should — one, for a single mistake — located where a place
//! exists, without a panic and within a second. The rendered diagnostics of
//! every case are one reviewed snapshot (`corpus.snap`).
//!
//! Big inputs (a 50 MB file, a 10 MB scalar, 40,000 items) are made by the
//! test, not committed.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod common;
mod cpu_time;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::Duration;

use carcassonne_rules_compiler::{compile_dir, diagnostics};

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";
/// No case may use more CPU time (debug build) than this many times what
/// checking the bundled rules takes on the same machine, nor less than a
/// second. CPU time of the test's thread, not wall time: a busy machine must
/// not fail the test; relative to the bundled rules, a slower one must not
/// either. The largest case has 40,000 items (refused when the YAML reader
/// reaches its limit of nodes); work quadratic in them would be 1.6 × 10^9
/// steps, far above the bound even at a nanosecond a step (it takes about
/// 14 times the bundled rules on a 2-core machine, 1.3 s), and
/// `checking_takes_time_linear_in_the_items` bounds the growth itself.
const TIMES_THE_BUNDLED: u32 = 20;

/// The bound of a case on this machine: see [`TIMES_THE_BUNDLED`].
fn limit() -> Duration {
    let mut runs: Vec<Duration> = (0..3)
        .map(|_| {
            let started = cpu_time::thread();
            let _ = compile_dir(Path::new(BUNDLED));
            cpu_time::thread() - started
        })
        .collect();
    runs.sort();
    (runs[1] * TIMES_THE_BUNDLED).max(Duration::from_secs(1))
}

/// What a case must give.
enum Expect {
    /// The rules check: the input is odd but fine (a BOM, CRLF line ends).
    Ok,
    /// This many diagnostics, each with a `file:line:col`.
    Located(usize),
    /// This many diagnostics that concern a file or folder as a whole.
    Whole(usize),
}

struct Case {
    name: &'static str,
    expect: Expect,
    setup: fn(&Path),
}

fn edit(dir: &Path, file: &str, change: impl FnOnce(String) -> String) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("file to edit");
    let changed = change(text.clone());
    assert_ne!(changed, text, "the edit of {file} changed nothing");
    std::fs::write(&path, changed).expect("write");
}

/// Replaces the first `from` in `file` with `to`.
fn replace(dir: &Path, file: &str, from: &str, to: &str) {
    edit(dir, file, |t| t.replacen(from, to, 1));
}

fn write(dir: &Path, file: &str, bytes: impl AsRef<[u8]>) {
    std::fs::write(dir.join(file), bytes).expect("write");
}

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";
const DRAGON: &str = "expansions/princess-and-dragon.yaml";

fn cases() -> Vec<Case> {
    use Expect::*;
    vec![
        // ---- YAML syntax ----
        Case {
            name: "tab indentation",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "\n  - id: \"2\"", "\n\t- id: \"2\""),
        },
        Case {
            name: "unclosed quote",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "title: Place a tile", "title: \"Place a tile"),
        },
        Case {
            name: "over-indented key",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "      when: abbey\n", "        when: abbey\n"),
        },
        Case {
            name: "under-indented key",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "      when: mayor\n", "     when: mayor\n"),
        },
        Case {
            name: "duplicate key",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "      when: mayor\n", "      when: mayor\n      when: wagon\n"),
        },
        Case {
            name: "unquoted text with variants",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    ABBEY,
                    "text: Every player adds the mayor",
                    "text: Every {C1: follower | C2: meeple} adds the mayor",
                )
            },
        },
        Case {
            // Found by the `rules` fuzz target: the reader points just past the
            // end of the file, and the label there did not render (no location).
            name: "file ending inside a quoted text",
            expect: Located(1),
            setup: |d| edit(d, ABBEY, |t| format!("{t}    - id: unfinished\n      text: \"Once you have")),
        },
        Case {
            // The fuzz target's crash, minimized: two bytes.
            name: "carriage return and NUL",
            expect: Whole(1),
            setup: |d| write(d, ABBEY, "\r\0"),
        },
        Case { name: "NUL byte", expect: Located(1), setup: |d| replace(d, ABBEY, "when: mayor", "when: may\0or") },
        Case {
            name: "invalid UTF-8",
            expect: Whole(1),
            setup: |d| {
                let mut bytes = std::fs::read(d.join(ABBEY)).expect("read");
                bytes.extend_from_slice(b"\n# \xff\xfe\n");
                write(d, ABBEY, bytes);
            },
        },
        Case { name: "byte-order mark", expect: Ok, setup: |d| edit(d, ABBEY, |t| format!("\u{feff}{t}")) },
        Case {
            name: "CRLF line endings",
            expect: Ok,
            setup: |d| {
                edit(d, ABBEY, |t| t.replace('\n', "\r\n"));
                edit(d, "base.yaml", |t| t.replace('\n', "\r\n"));
            },
        },
        Case {
            // Old Mac line ends: the YAML reader would take the whole file for
            // its first line (a comment), so the file is refused as it is.
            name: "lone carriage returns as line ends",
            expect: Whole(1),
            setup: |d| edit(d, ABBEY, |t| t.replace('\n', "\r").replacen("when: mayor", "when: mayorr", 1)),
        },
        Case {
            name: "recursive alias",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "      when: mayor\n", "      when: &a [*a]\n"),
        },
        Case {
            name: "billion laughs",
            expect: Located(1),
            setup: |d| {
                let mut bomb = String::from("expansion: abbey_and_mayor\nlol0: &l0 [lol]\n");
                for i in 1..10 {
                    let refs = vec![format!("*l{}", i - 1); 10].join(", ");
                    bomb.push_str(&format!("lol{i}: &l{i} [{refs}]\n"));
                }
                write(d, ABBEY, bomb);
            },
        },
        Case {
            name: "5,000-deep flow brackets",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    ABBEY,
                    "      when: mayor\n",
                    &format!("      when: {}{}\n", "[".repeat(5000), "]".repeat(5000)),
                );
            },
        },
        Case {
            name: "50 MB file",
            expect: Whole(1),
            setup: |d| {
                edit(d, ABBEY, |t| format!("{t}\n# {}\n", "x".repeat(50 << 20)));
            },
        },
        Case {
            name: "10 MB scalar",
            expect: Whole(1),
            setup: |d| {
                replace(d, ABBEY, "      when: mayor\n", &format!("      when: {}\n", "m".repeat(10 << 20)));
            },
        },
        Case {
            name: "1 MB unknown name",
            expect: Located(1),
            setup: |d| {
                replace(d, ABBEY, "      when: mayor\n", &format!("      when: {}\n", "m".repeat(1 << 20)));
            },
        },
        Case {
            name: "40,000 items in one file",
            expect: Located(1),
            setup: |d| {
                let mut big = String::from("expansion: abbey_and_mayor\nitems:\n  setup:\n");
                for i in 0..40_000 {
                    big.push_str(&format!("    - {{ id: item-{i}, when: abbey, text: t }}\n"));
                }
                write(d, ABBEY, big);
            },
        },
        // ---- files and folders ----
        Case { name: "empty file", expect: Whole(1), setup: |d| write(d, "base.yaml", "") },
        Case { name: "comment-only file", expect: Whole(1), setup: |d| write(d, "editions.yaml", "# nothing yet\n") },
        Case {
            name: "empty rules folder",
            expect: Whole(1),
            setup: |d| {
                std::fs::remove_dir_all(d).expect("empty the folder");
                std::fs::create_dir(d).expect("recreate it");
            },
        },
        Case {
            name: "missing base.yaml",
            expect: Whole(1),
            setup: |d| std::fs::remove_file(d.join("base.yaml")).expect("rm"),
        },
        Case {
            name: "missing modules.yaml",
            expect: Whole(1),
            setup: |d| std::fs::remove_file(d.join("modules.yaml")).expect("rm"),
        },
        Case {
            name: "file with another extension",
            expect: Whole(1),
            setup: |d| {
                std::fs::rename(d.join(ABBEY), d.join("expansions/abbey-and-mayor.YAML")).expect("rename");
            },
        },
        Case {
            name: "deleted expansion file",
            expect: Located(1),
            setup: |d| std::fs::remove_file(d.join(ABBEY)).expect("rm"),
        },
        Case {
            name: "folder named like a rules file",
            expect: Whole(1),
            setup: |d| {
                std::fs::create_dir(d.join("expansions/extra.yaml")).expect("mkdir");
            },
        },
        #[cfg(unix)]
        Case {
            name: "FIFO",
            expect: Whole(1),
            setup: |d| {
                let fifo = d.join("expansions/pipe.yaml");
                let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
                assert!(made.success());
            },
        },
        #[cfg(unix)]
        Case {
            name: "symbolic link to /dev/zero",
            expect: Whole(1),
            setup: |d| {
                std::os::unix::fs::symlink("/dev/zero", d.join("expansions/zero.yaml")).expect("symlink");
            },
        },
        #[cfg(unix)]
        Case {
            name: "dangling symbolic link",
            expect: Whole(1),
            setup: |d| {
                std::os::unix::fs::symlink("/no/such/file.yaml", d.join("expansions/gone.yaml")).expect("symlink");
            },
        },
        #[cfg(unix)]
        Case {
            // Followed, the link made `check` print the process environment
            // (CI secrets) in its diagnostic.
            name: "symbolic link to /proc/self/environ",
            expect: Whole(1),
            setup: |d| {
                std::os::unix::fs::symlink("/proc/self/environ", d.join("expansions/env.yaml")).expect("symlink");
            },
        },
        #[cfg(unix)]
        Case {
            name: "symbolic link to a rules file outside the folder",
            expect: Whole(1),
            setup: |d| {
                let outside = d.with_file_name("outside.yaml");
                std::fs::rename(d.join(ABBEY), &outside).expect("move out");
                std::os::unix::fs::symlink(&outside, d.join(ABBEY)).expect("symlink");
            },
        },
        #[cfg(unix)]
        Case {
            name: "expansions folder that is a symbolic link",
            expect: Whole(1),
            setup: |d| {
                let outside = d.with_file_name("elsewhere");
                std::fs::rename(d.join("expansions"), &outside).expect("move out");
                std::os::unix::fs::symlink(&outside, d.join("expansions")).expect("symlink");
            },
        },
        Case {
            name: "newline in a file name",
            expect: Whole(1),
            setup: |d| {
                std::fs::rename(d.join(ABBEY), d.join("expansions/abbey-and-mayor\n#[no_mangle].yaml")).expect("rename")
            },
        },
        Case {
            // The page's header comments printed input file names unescaped.
            name: "markup as a file name",
            expect: Whole(1),
            setup: |d| {
                std::fs::rename(d.join(ABBEY), d.join("expansions/x--><img src=x onerror=alert(1)><!--.yaml"))
                    .expect("rename")
            },
        },
        Case {
            name: "snake_case file name",
            expect: Whole(1),
            setup: |d| std::fs::rename(d.join(ABBEY), d.join("expansions/abbey_and_mayor.yaml")).expect("rename"),
        },
        // ---- what strings may hold ----
        Case {
            // A newline ended the `///` comment codegen writes before the
            // module's constant: the rest became code run on every build.
            name: "newline in a module name (code injection)",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    "modules.yaml",
                    "{ id: mayor, name: Mayor }",
                    r#"{ id: mayor, name: "Mayor\n#[unsafe(no_mangle)] pub extern \"C\" fn zz() {}\n//" }"#,
                )
            },
        },
        Case {
            name: "quote in an edition id",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    "editions.yaml",
                    "  - { id: WE,",
                    "  - { id: \"X\\\"); fn zz() {} //\", name: Hostile }\n  - { id: WE,",
                )
            },
        },
        Case {
            name: "U+202E in an expansion name",
            expect: Located(1),
            setup: |d| replace(d, "modules.yaml", "name: Abbey & Mayor", "name: \"Abbey \\u202E& Mayor\""),
        },
        Case {
            name: "OSC and ESC sequences in a text",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    ABBEY,
                    "text: Every player adds the mayor of their colour to their supply.",
                    "text: \"\\e]52;c;cm0gLXJmIH4=\\a\\e[2JEvery player adds the mayor to their supply.\"",
                )
            },
        },
        Case {
            name: "C1 control in a step title",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "title: Start of the turn", "title: \"Start\\N of the turn\""),
        },
        Case {
            name: "tab in a marker's argument",
            expect: Located(1),
            setup: |d| replace(d, "expansions/the-messages.yaml", "'MESSAGES \"#1B\"'", "\"MESSAGES \\\"#1\\tB\\\"\""),
        },
        Case {
            // Constants are upper-cased: the two would be one in generated code.
            name: "item ids that differ only in case",
            expect: Located(2),
            setup: |d| replace(d, ABBEY, "id: mayor-take-figure", "id: Abbey-Take-Tile"),
        },
        Case {
            name: "module named like a keyword",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    "modules.yaml",
                    "{ id: barn, name: Barn }",
                    "{ id: barn, name: Barn }\n      - { id: not, name: Not }",
                )
            },
        },
        Case {
            name: "lower-case edition id",
            expect: Located(1),
            setup: |d| replace(d, "editions.yaml", "  - { id: WE,", "  - { id: x1, name: Lower }\n  - { id: WE,"),
        },
        // ---- structure ----
        Case {
            name: "wrong type: list for text",
            expect: Located(1),
            setup: |d| {
                replace(d, ABBEY, "text: Every player adds the mayor of their colour to their supply.", "text: [a, b]")
            },
        },
        Case {
            name: "wrong type: string for choose_one",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "choose_one: true", "choose_one: sometimes"),
        },
        Case {
            name: "unknown item key",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "      when: mayor\n", "      when: mayor\n      colour: red\n"),
        },
        Case {
            name: "unknown top-level key",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "expansion: abbey_and_mayor\n", "expansion: abbey_and_mayor\nversion: 2\n"),
        },
        Case {
            name: "missing text",
            expect: Located(1),
            setup: |d| {
                replace(d, ABBEY, "      text: Every player adds the mayor of their colour to their supply.\n", "")
            },
        },
        // ---- unknown names ----
        Case {
            name: "unknown module in a condition",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "when: mayor", "when: mayr"),
        },
        Case {
            name: "unknown flag in a marker",
            expect: Located(1),
            setup: |d| replace(d, "expansions/20th-anniversary.yaml", "ROBBERS when robbers", "ROBBERS when robbbers"),
        },
        Case {
            name: "expansion named in a condition",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "when: mayor", "when: abbey_and_mayor"),
        },
        Case {
            name: "unknown edition in a text variant",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "{C1: follower | C2, WE: meeple}", "{C1: follower | C3, WE: meeple}"),
        },
        Case {
            name: "edition named twice in a variant",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "{C1: follower | C2, WE: meeple}", "{C1: follower | C2, C1: meeple}"),
        },
        Case {
            name: "unknown edition in foreign",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "foreign: [WE]", "foreign: [W]"),
        },
        Case {
            name: "unknown rule variant",
            expect: Located(1),
            setup: |d| replace(d, "editions.yaml", "variant: hig }", "variant: hgi }"),
        },
        Case {
            name: "unknown marker",
            expect: Located(1),
            setup: |d| replace(d, "expansions/20th-anniversary.yaml", "ROBBERS when robbers", "ROBBER when robbers"),
        },
        Case {
            name: "unknown step in an effect",
            expect: Located(1),
            setup: |d| replace(d, DRAGON, "effect: skip 2B-1, 2B-2", "effect: skip 2B-1, 2B-3"),
        },
        Case {
            name: "unknown item in after",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "before: draw-tile", "before: draw-tiles"),
        },
        Case {
            name: "unknown expansion in a file",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "expansion: abbey_and_mayor", "expansion: abbey_and_mayr"),
        },
        Case {
            name: "unknown step as a section",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "\n  1B:\n", "\n  1X:\n"),
        },
        // ---- the DSL ----
        Case {
            name: "dangling and",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "when: mayor", "when: mayor and"),
        },
        Case {
            name: "unbalanced parenthesis",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "when: mayor", "when: (mayor or wagon"),
        },
        Case {
            name: "unclosed variant",
            expect: Located(1),
            setup: |d| replace(d, "base.yaml", "{C1: follower | C2, WE: meeple}", "{C1: follower | C2, WE: meeple"),
        },
        Case {
            name: "10,000-deep parentheses",
            expect: Located(1),
            setup: |d| {
                replace(d, ABBEY, "when: mayor", &format!("when: {}mayor{}", "(".repeat(10_000), ")".repeat(10_000)));
            },
        },
        Case {
            name: "100,000 nots before an unknown name",
            expect: Located(1),
            setup: |d| {
                replace(d, ABBEY, "when: mayor", &format!("when: {}mayr", "not ".repeat(100_000)));
            },
        },
        Case {
            // Trying every selection of its 16 modules took 23 s (debug build),
            // so `check` used to leave it to `verify`; its BDD decides it at once.
            name: "30 KB condition that can never hold",
            expect: Located(1),
            setup: |d| {
                let modules: Vec<&str> = "inns cathedrals big_follower traders builder pig dragon fairy princess \
                                          magic_portal tower abbey mayor wagon barn count_of_carcassonne"
                    .split_whitespace()
                    .collect();
                let never: Vec<String> = (0..1000).map(|i| format!("({0} and not {0})", modules[i % 16])).collect();
                replace(d, ABBEY, "when: mayor\n", &format!("when: {}\n", never.join(" or ")));
            },
        },
        Case {
            name: "condition that can never hold",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "when: mayor", "when: mayor and not mayor"),
        },
        Case {
            name: "child that contradicts its parent",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    ABBEY,
                    "          when: abbey\n          text: An abbey tile",
                    "          when: not (tiles_in_supply or wetlands)\n          text: An abbey tile",
                );
            },
        },
        // ---- ids, registry and placement ----
        Case {
            name: "duplicate item id",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "id: mayor-take-figure", "id: abbey-take-tile"),
        },
        Case {
            name: "item id not kebab-case",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "id: mayor-take-figure", "id: Mayor_Take_Figure"),
        },
        Case {
            name: "module in two expansions",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    "modules.yaml",
                    "{ id: wagon, name: Wagon }",
                    "{ id: wagon, name: Wagon }\n      - { id: pig, name: Another pig }",
                )
            },
        },
        Case {
            name: "derived flag defined by itself",
            expect: Located(1),
            setup: |d| replace(d, "modules.yaml", "tiles_in_supply: abbey or", "tiles_in_supply: tiles_in_supply or"),
        },
        Case {
            // Resolving a flag recursed once per flag it builds on: 20,000
            // defined each in terms of the next overflowed the stack.
            name: "derived flags chained 20,000 deep",
            expect: Located(1),
            setup: |d| {
                let chain: String = (0..20_000).map(|i| format!("  chain_{i}: chain_{}\n", i + 1)).collect();
                replace(d, "modules.yaml", "\nderived:\n", &format!("\nderived:\n{chain}  chain_20000: abbey\n"));
            },
        },
        Case {
            // Each defined from the one before: resolving is shallow, but every
            // evaluation would recurse through the whole chain.
            name: "derived flags chained 20,000 deep, in order",
            expect: Located(1),
            setup: |d| {
                let chain: String = (1..20_000).map(|i| format!("  chain_{i}: chain_{}\n", i - 1)).collect();
                replace(d, "modules.yaml", "\nderived:\n", &format!("\nderived:\n  chain_0: abbey\n{chain}"));
            },
        },
        Case {
            // A flag naming the one before twice doubles it: conditions are
            // evaluated with flags expanded, so `when: laugh_40` never finished.
            name: "derived flags that double 40 times",
            expect: Located(1),
            setup: |d| {
                let laughs: String =
                    (1..=40).map(|i| format!("  laugh_{i}: laugh_{0} and laugh_{0}\n", i - 1)).collect();
                replace(d, "modules.yaml", "\nderived:\n", &format!("\nderived:\n  laugh_0: abbey\n{laughs}"));
                replace(d, ABBEY, "when: mayor", "when: laugh_40");
            },
        },
        Case {
            name: "ordering cycle",
            expect: Located(2),
            setup: |d| {
                replace(d, ABBEY, "      when: mayor\n", "      when: mayor\n      after: barn-take-figure\n");
                replace(d, ABBEY, "      when: barn\n", "      when: barn\n      after: mayor-take-figure\n");
            },
        },
        Case {
            name: "after and before that contradict",
            expect: Located(1),
            setup: |d| {
                replace(
                    d,
                    ABBEY,
                    "      when: barn\n",
                    "      when: barn\n      after: abbey-take-tile\n      before: abbey-and-mayor-new-tiles\n",
                );
            },
        },
        Case {
            name: "reference into another step",
            expect: Located(1),
            setup: |d| replace(d, ABBEY, "before: draw-tile", "before: place-tile"),
        },
        Case {
            name: "duplicate step",
            expect: Located(1),
            setup: |d| {
                replace(d, "base.yaml", "      - { id: 1C,", "      - { id: 1B, title: Draw again }\n      - { id: 1C,")
            },
        },
        Case {
            name: "more modules than a set holds",
            expect: Located(1),
            setup: |d| {
                let modules: String =
                    (0..180).map(|i| format!("      - {{ id: extra_{i:03}, name: Extra {i} }}\n")).collect();
                replace(
                    d,
                    "modules.yaml",
                    "\nderived:",
                    &format!(
                        "\n  - id: the_extras\n    name: Extras\n    editions: [C2]\n    modules:\n{modules}\nderived:"
                    ),
                );
                write(d, "expansions/the-extras.yaml", "expansion: the_extras\n");
            },
        },
    ]
}

/// The rendered diagnostics, with the temporary folder shown as `rules`.
fn rendered(problems: &[diagnostics::Diagnostic], dir: &Path) -> String {
    diagnostics::render(problems, false).replace(&dir.display().to_string(), "rules")
}

#[test]
fn every_bad_input_gets_its_located_diagnostics_quickly_and_without_a_panic() {
    let mut snapshot = String::new();
    let mut failures = Vec::new();
    let limit = limit();
    for case in cases() {
        let temp = tempfile::tempdir().expect("temp dir");
        let dir = temp.path().join("rules");
        common::copy_dir(Path::new(BUNDLED), &dir);
        (case.setup)(&dir);
        let started = cpu_time::thread();
        let outcome = catch_unwind(AssertUnwindSafe(|| compile_dir(&dir).result));
        let took = cpu_time::thread() - started;
        let verdict = match outcome {
            Err(_) => Err("panicked".to_string()),
            Ok(result) => {
                let problems = result.err().unwrap_or_default();
                let text = rendered(&problems, &dir);
                snapshot.push_str(&format!(
                    "==== {}\n{}",
                    case.name,
                    if text.is_empty() { "(checks)\n" } else { &text }
                ));
                let located = problems.iter().filter(|p| p.location().is_some()).count();
                match case.expect {
                    Expect::Ok if problems.is_empty() => Ok(()),
                    Expect::Located(n) if problems.len() == n && located == n => Ok(()),
                    Expect::Whole(n) if problems.len() == n => Ok(()),
                    _ => Err(format!("{} problems, {located} located:\n{text}", problems.len())),
                }
            }
        };
        match verdict {
            Err(why) => failures.push(format!("{}: {why}", case.name)),
            Ok(()) if took > limit => {
                failures.push(format!("{}: took {took:?} of CPU time (at most {limit:?})", case.name))
            }
            Ok(()) => {}
        }
    }
    let count = cases().len();
    assert!(count >= 50, "the corpus has {count} cases");
    insta::assert_snapshot!("corpus", snapshot);
    assert!(failures.is_empty(), "{} of {count} cases failed:\n{}", failures.len(), failures.join("\n"));
}

/// The bundled rules with `count` more items in one file.
fn with_items(dir: &Path, count: usize) {
    common::copy_dir(Path::new(BUNDLED), dir);
    let mut big = String::from("expansion: abbey_and_mayor\nitems:\n  setup:\n");
    for i in 0..count {
        big.push_str(&format!("    - {{ id: item-{i}, when: abbey, text: t }}\n"));
    }
    write(dir, ABBEY, big);
}

#[test]
fn checking_takes_time_linear_in_the_items() {
    // The median of three runs at 5,000, 10,000 and 20,000 items (40,000
    // meet the YAML reader's limit of nodes a file): each
    // doubling must take less than three times as long (twice is linear,
    // four times quadratic), on any machine, however fast.
    let took: Vec<Duration> = [5_000, 10_000, 20_000]
        .into_iter()
        .map(|count| {
            let temp = tempfile::tempdir().expect("temp dir");
            let dir = temp.path().join("rules");
            with_items(&dir, count);
            let mut runs: Vec<Duration> = (0..3)
                .map(|_| {
                    let started = cpu_time::thread();
                    let _ = compile_dir(&dir);
                    cpu_time::thread() - started
                })
                .collect();
            runs.sort();
            runs[1]
        })
        .collect();
    eprintln!("CPU time at 5k, 10k, 20k items: {took:?}");
    for pair in took.windows(2) {
        assert!(pair[1] < pair[0] * 3, "doubling the items took {:?} after {:?}", pair[1], pair[0]);
    }
}
