//! Bad input, case by case: each case is the bundled rules with one mistake
//! (or a rules folder of its own). Each must give the number of diagnostics it
//! should — one, for a single mistake — located where a place exists, without
//! a panic and within a bounded CPU time; its rendered diagnostics are its own
//! reviewed snapshot, named after the case.
//!
//! Most cases are data: a file under `corpus/pass/` (the rules still check) or
//! `corpus/fail/<pass>/` (the pass that reports the mistake), holding the edits
//! made to the bundled rules in memory and what they must give. The build
//! script writes one test per file (see `build.rs`). The cases that need code
//! — big generated inputs, or the disk itself (bytes that are not UTF-8,
//! links, FIFOs, folders) — are the tests of the `code` module below.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

mod common;
mod cpu_time;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use carcassonne_rules_compiler::{Compiled, compile_dir, compile_files, diagnostics};
use serde::Deserialize;

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";
/// The case files.
const CASES: &str = "tests/corpus";
const ABBEY: &str = "expansions/abbey-and-mayor.yaml";
/// The folder the rules held in memory are shown as.
const SHOWN: &str = "rules";
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

/// The bound of a case on this machine: see [`TIMES_THE_BUNDLED`]. Measured
/// once for all the tests of this file.
fn limit() -> Duration {
    static LIMIT: OnceLock<Duration> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        // A case runs alone in a child process, given the parent's limit.
        if let Some(nanos) = std::env::var(LIMIT_VARIABLE).ok().and_then(|n| n.parse().ok()) {
            return Duration::from_nanos(nanos);
        }
        let mut runs: Vec<Duration> = (0..3)
            .map(|_| {
                let started = cpu_time::thread();
                let _ = compile_dir(Path::new(BUNDLED));
                cpu_time::thread() - started
            })
            .collect();
        runs.sort();
        (runs[1] * TIMES_THE_BUNDLED).max(Duration::from_secs(1))
    })
}

/// The variable that hands [`limit`] to a case run alone.
const LIMIT_VARIABLE: &str = "CARCASSONNE_CORPUS_LIMIT_NANOS";

/// Whether the calling case runs alone in its process, its CPU time then the
/// work's: see `cpu_time::alone`.
fn alone() -> bool {
    cpu_time::alone_with(&[(LIMIT_VARIABLE, limit().as_nanos().to_string())])
}

/// The bundled rules files, by path relative to the rules folder, read once.
fn bundled() -> BTreeMap<String, String> {
    static FILES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    FILES
        .get_or_init(|| {
            let mut files = BTreeMap::new();
            for name in ["editions.yaml", "modules.yaml", "base.yaml"] {
                files.insert(name.to_string(), read(&Path::new(BUNDLED).join(name)));
            }
            for entry in std::fs::read_dir(Path::new(BUNDLED).join("expansions")).expect("bundled expansions") {
                let name = entry.expect("entry").file_name().into_string().expect("UTF-8 name");
                files.insert(format!("expansions/{name}"), read(&Path::new(BUNDLED).join("expansions").join(&name)));
            }
            files
        })
        .clone()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("bundled rules file")
}

/// What a case must give.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Expect {
    /// The rules check: the input is odd but fine (a BOM, CRLF line ends).
    Ok,
    /// This many diagnostics, each with a `file:line:col`.
    Located(usize),
    /// This many diagnostics that concern a file or folder as a whole.
    Whole(usize),
}

/// A case file: the edits made to the bundled rules, in order, and what the
/// edited rules must give.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    edits: Vec<Edit>,
    expect: Expect,
}

/// One edit of one rules file (`file`, relative to the rules folder).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Edit {
    /// The first `from` becomes `to`.
    Replace { file: String, from: String, to: String },
    /// Every `from` becomes `to`.
    ReplaceEvery { file: String, from: String, to: String },
    /// `text` is added at the end.
    Append { file: String, text: String },
    /// `text` is added at the start.
    Prepend { file: String, text: String },
    /// The file holds `text` instead.
    Write { file: String, text: String },
    /// The file is gone.
    Remove { file: String },
    /// The file is named `to` instead.
    Rename { file: String, to: String },
}

impl Edit {
    fn apply(self, files: &mut BTreeMap<String, String>) {
        match self {
            Edit::Replace { file, from, to } => edit(files, &file, |t| t.replacen(&from, &to, 1)),
            Edit::ReplaceEvery { file, from, to } => edit(files, &file, |t| t.replace(&from, &to)),
            Edit::Append { file, text } => edit(files, &file, |t| format!("{t}{text}")),
            Edit::Prepend { file, text } => edit(files, &file, |t| format!("{text}{t}")),
            Edit::Write { file, text } => write(files, &file, text),
            Edit::Remove { file } => {
                files.remove(&file).expect("the file to remove");
            }
            Edit::Rename { file, to } => {
                let text = files.remove(&file).expect("the file to rename");
                files.insert(to, text);
            }
        }
    }
}

/// Runs the case file `case` (relative to [`CASES`]): the tests the build
/// script writes call this.
fn run_file(case: &str) {
    let path = Path::new(CASES).join(case);
    let text = std::fs::read_to_string(&path).expect("case file");
    let parsed: CaseFile =
        serde_saphyr::from_str(&text).unwrap_or_else(|err| panic!("{}: not a case file: {err}", path.display()));
    let mut files = bundled();
    for change in parsed.edits {
        change.apply(&mut files);
    }
    let name = path.file_stem().expect("case name").to_string_lossy().into_owned();
    in_memory(&name, parsed.expect, files);
}

fn edit(files: &mut BTreeMap<String, String>, file: &str, change: impl FnOnce(&str) -> String) {
    let text = files.get_mut(file).unwrap_or_else(|| panic!("no file {file} to edit"));
    let changed = change(text);
    assert_ne!(&changed, text, "the edit of {file} changed nothing");
    *text = changed;
}

/// Replaces the first `from` in `file` with `to`.
fn replace(files: &mut BTreeMap<String, String>, file: &str, from: &str, to: &str) {
    edit(files, file, |t| t.replacen(from, to, 1));
}

fn write(files: &mut BTreeMap<String, String>, file: &str, text: String) {
    files.insert(file.to_string(), text);
}

/// Checks the rules `files`, held in memory, against `expect`.
fn in_memory(name: &str, expect: Expect, files: BTreeMap<String, String>) {
    if !alone() {
        return;
    }
    verify(name, expect, |_| compile_files(Path::new(SHOWN), &files), Path::new(SHOWN));
}

/// Checks a copy of the bundled rules on disk, changed by `setup`, against
/// `expect`: for the cases about the disk itself.
fn on_disk(name: &str, expect: Expect, setup: impl FnOnce(&Path)) {
    if !alone() {
        return;
    }
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    common::copy_dir(Path::new(BUNDLED), &dir);
    setup(&dir);
    verify(name, expect, compile_dir, &dir);
}

/// Compiles with `compile` (timed, a panic caught), then asserts the count of
/// diagnostics, where they are, the CPU time and the rendered output (the
/// snapshot `name`, with the rules folder `dir` shown as `rules`).
fn verify(name: &str, expect: Expect, compile: impl FnOnce(&Path) -> Compiled, dir: &Path) {
    let limit = limit();
    let started = cpu_time::process();
    let outcome = catch_unwind(AssertUnwindSafe(|| compile(dir).result));
    let took = cpu_time::process() - started;
    let problems = outcome.unwrap_or_else(|_| panic!("{name}: panicked")).err().unwrap_or_default();
    let text = diagnostics::render(&problems, false).replace(&dir.display().to_string(), SHOWN);
    let located = problems.iter().filter(|p| p.location().is_some()).count();
    let as_expected = match expect {
        Expect::Ok => problems.is_empty(),
        Expect::Located(n) => problems.len() == n && located == n,
        Expect::Whole(n) => problems.len() == n,
    };
    let rendered = if text.is_empty() { "(checks)\n".to_string() } else { text.clone() };
    insta::assert_snapshot!(name, rendered);
    assert!(as_expected, "{name}: {} problems, {located} located:\n{text}", problems.len());
    assert!(took <= limit, "{name}: took {took:?} of CPU time (at most {limit:?})");
}

include!(concat!(env!("OUT_DIR"), "/corpus_cases.rs"));

/// The cases that need code: big generated inputs, and the disk itself.
mod code {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::Expect::*;
    use super::{bundled, in_memory, on_disk, replace, write};

    use super::ABBEY;

    fn write_disk(dir: &Path, file: &str, bytes: impl AsRef<[u8]>) {
        std::fs::write(dir.join(file), bytes).expect("write");
    }

    /// The bundled rules in memory, changed by `change`.
    fn edited(change: impl FnOnce(&mut BTreeMap<String, String>)) -> BTreeMap<String, String> {
        let mut files = bundled();
        change(&mut files);
        files
    }

    /// Reading the files: what only the disk can hold, and sizes.
    mod files {
        use super::*;

        #[test]
        fn invalid_utf_8() {
            on_disk("invalid-utf-8", Whole(1), |d| {
                let mut bytes = std::fs::read(d.join(ABBEY)).expect("read");
                bytes.extend_from_slice(b"\n# \xff\xfe\n");
                write_disk(d, ABBEY, bytes);
            });
        }

        #[test]
        fn file_of_50_mb() {
            on_disk("50-mb-file", Whole(1), |d| {
                let text = std::fs::read_to_string(d.join(ABBEY)).expect("read");
                write_disk(d, ABBEY, format!("{text}\n# {}\n", "x".repeat(50 << 20)));
            });
        }

        #[test]
        fn scalar_of_10_mb() {
            on_disk("10-mb-scalar", Whole(1), |d| {
                let text = std::fs::read_to_string(d.join(ABBEY)).expect("read");
                let changed =
                    text.replacen("      when: mayor\n", &format!("      when: {}\n", "m".repeat(10 << 20)), 1);
                assert_ne!(changed, text);
                write_disk(d, ABBEY, changed);
            });
        }

        #[test]
        fn empty_rules_folder() {
            on_disk("empty-rules-folder", Whole(1), |d| {
                std::fs::remove_dir_all(d).expect("empty the folder");
                std::fs::create_dir(d).expect("recreate it");
            });
        }

        #[test]
        fn folder_named_like_a_rules_file() {
            on_disk("folder-named-like-a-rules-file", Whole(1), |d| {
                std::fs::create_dir(d.join("expansions/extra.yaml")).expect("mkdir");
            });
        }

        #[cfg(unix)]
        #[test]
        fn fifo() {
            on_disk("fifo", Whole(1), |d| {
                let fifo = d.join("expansions/pipe.yaml");
                let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
                assert!(made.success());
            });
        }

        #[cfg(unix)]
        #[test]
        fn symbolic_link_to_dev_zero() {
            on_disk("symbolic-link-to-dev-zero", Whole(1), |d| {
                std::os::unix::fs::symlink("/dev/zero", d.join("expansions/zero.yaml")).expect("symlink");
            });
        }

        #[cfg(unix)]
        #[test]
        fn dangling_symbolic_link() {
            on_disk("dangling-symbolic-link", Whole(1), |d| {
                std::os::unix::fs::symlink("/no/such/file.yaml", d.join("expansions/gone.yaml")).expect("symlink");
            });
        }

        /// Followed, the link made `check` print the process environment (CI
        /// secrets) in its diagnostic.
        #[cfg(unix)]
        #[test]
        fn symbolic_link_to_proc_self_environ() {
            on_disk("symbolic-link-to-proc-self-environ", Whole(1), |d| {
                std::os::unix::fs::symlink("/proc/self/environ", d.join("expansions/env.yaml")).expect("symlink");
            });
        }

        #[cfg(unix)]
        #[test]
        fn symbolic_link_to_a_rules_file_outside_the_folder() {
            on_disk("symbolic-link-to-a-rules-file-outside-the-folder", Whole(1), |d| {
                let outside = d.with_file_name("outside.yaml");
                std::fs::rename(d.join(ABBEY), &outside).expect("move out");
                std::os::unix::fs::symlink(&outside, d.join(ABBEY)).expect("symlink");
            });
        }

        #[cfg(unix)]
        #[test]
        fn expansions_folder_that_is_a_symbolic_link() {
            on_disk("expansions-folder-that-is-a-symbolic-link", Whole(1), |d| {
                let outside = d.with_file_name("elsewhere");
                std::fs::rename(d.join("expansions"), &outside).expect("move out");
                std::os::unix::fs::symlink(&outside, d.join("expansions")).expect("symlink");
            });
        }
    }

    /// Deserializing the YAML: inputs too big to write out.
    mod yaml {
        use super::*;

        #[test]
        fn flow_brackets_5000_deep() {
            let deep = format!("      when: {}{}\n", "[".repeat(5000), "]".repeat(5000));
            in_memory(
                "5-000-deep-flow-brackets",
                Located(1),
                edited(|f| replace(f, ABBEY, "      when: mayor\n", &deep)),
            );
        }

        #[test]
        fn unknown_name_of_1_mb() {
            let long = format!("      when: {}\n", "m".repeat(1 << 20));
            in_memory("1-mb-unknown-name", Located(1), edited(|f| replace(f, ABBEY, "      when: mayor\n", &long)));
        }

        #[test]
        fn items_40000_in_one_file() {
            let mut big = String::from("expansion: abbey_and_mayor\nitems:\n  setup:\n");
            for i in 0..40_000 {
                big.push_str(&format!("    - {{ id: item-{i}, when: abbey, text: t }}\n"));
            }
            in_memory("40-000-items-in-one-file", Located(1), edited(|f| write(f, ABBEY, big)));
        }
    }

    /// Parsing the DSL: deep and long expressions.
    mod dsl {
        use super::*;

        #[test]
        fn parentheses_10000_deep() {
            let deep = format!("when: {}mayor{}", "(".repeat(10_000), ")".repeat(10_000));
            in_memory("10-000-deep-parentheses", Located(1), edited(|f| replace(f, ABBEY, "when: mayor", &deep)));
        }

        #[test]
        fn nots_100000_before_an_unknown_name() {
            let nots = format!("when: {}mayr", "not ".repeat(100_000));
            in_memory(
                "100-000-nots-before-an-unknown-name",
                Located(1),
                edited(|f| replace(f, ABBEY, "when: mayor", &nots)),
            );
        }
    }

    /// Checking the rules: big conditions, flags and registries.
    mod check {
        use super::*;

        /// Trying every selection of its 16 modules took 23 s (debug build),
        /// so `check` used to leave it to `verify`; its BDD decides it at once.
        #[test]
        fn condition_of_30_kb_that_can_never_hold() {
            let modules: Vec<&str> = "inns cathedrals big_follower traders builder pig dragon fairy princess \
                                      magic_portal tower abbey mayor wagon barn count_of_carcassonne"
                .split_whitespace()
                .collect();
            let never: Vec<String> = (0..1000).map(|i| format!("({0} and not {0})", modules[i % 16])).collect();
            let when = format!("when: {}\n", never.join(" or "));
            in_memory(
                "30-kb-condition-that-can-never-hold",
                Located(1),
                edited(|f| replace(f, ABBEY, "when: mayor\n", &when)),
            );
        }

        /// Resolving a flag recursed once per flag it builds on: 20,000
        /// defined each in terms of the next overflowed the stack.
        #[test]
        fn derived_flags_chained_20000_deep() {
            let chain: String = (0..20_000).map(|i| format!("  chain_{i}: chain_{}\n", i + 1)).collect();
            let derived = format!("\nderived:\n{chain}  chain_20000: abbey\n");
            in_memory(
                "derived-flags-chained-20-000-deep",
                Located(1),
                edited(|f| replace(f, "modules.yaml", "\nderived:\n", &derived)),
            );
        }

        /// Each defined from the one before: resolving is shallow, but every
        /// evaluation would recurse through the whole chain.
        #[test]
        fn derived_flags_chained_20000_deep_in_order() {
            let chain: String = (1..20_000).map(|i| format!("  chain_{i}: chain_{}\n", i - 1)).collect();
            let derived = format!("\nderived:\n  chain_0: abbey\n{chain}");
            in_memory(
                "derived-flags-chained-20-000-deep-in-order",
                Located(1),
                edited(|f| replace(f, "modules.yaml", "\nderived:\n", &derived)),
            );
        }

        /// A flag naming the one before twice doubles it: conditions are
        /// evaluated with flags expanded, so `when: laugh_40` never finished.
        #[test]
        fn derived_flags_that_double_40_times() {
            let laughs: String = (1..=40).map(|i| format!("  laugh_{i}: laugh_{0} and laugh_{0}\n", i - 1)).collect();
            let derived = format!("\nderived:\n  laugh_0: abbey\n{laughs}");
            let files = edited(|f| {
                replace(f, "modules.yaml", "\nderived:\n", &derived);
                replace(f, ABBEY, "when: mayor", "when: laugh_40");
            });
            in_memory("derived-flags-that-double-40-times", Located(1), files);
        }

        #[test]
        fn more_modules_than_a_set_holds() {
            let modules: String =
                (0..180).map(|i| format!("      - {{ id: extra_{i:03}, name: Extra {i} }}\n")).collect();
            let extras = format!(
                "\n  - id: the_extras\n    name: Extras\n    editions: [C2]\n    modules:\n{modules}\nderived:"
            );
            let files = edited(|f| {
                replace(f, "modules.yaml", "\nderived:", &extras);
                write(f, "expansions/the-extras.yaml", "expansion: the_extras\n".to_string());
            });
            in_memory("more-modules-than-a-set-holds", Located(1), files);
        }
    }
}

#[test]
fn the_corpus_has_at_least_50_case_files() {
    fn count(dir: &Path) -> usize {
        let entries = std::fs::read_dir(dir).expect("corpus folder").map(|e| e.expect("entry").path());
        entries
            .map(|p| if p.is_dir() { count(&p) } else { usize::from(p.extension().is_some_and(|e| e == "yaml")) })
            .sum()
    }
    let files = count(Path::new(CASES));
    assert!(files >= 50, "the corpus has {files} case files");
}

/// The bundled rules with `count` more items in one file.
fn with_items(dir: &Path, count: usize) {
    common::copy_dir(Path::new(BUNDLED), dir);
    let mut big = String::from("expansion: abbey_and_mayor\nitems:\n  setup:\n");
    for i in 0..count {
        big.push_str(&format!("    - {{ id: item-{i}, when: abbey, text: t }}\n"));
    }
    std::fs::write(dir.join(ABBEY), big).expect("write");
}

#[test]
fn checking_takes_time_linear_in_the_items() {
    if !cpu_time::alone() {
        return;
    }
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
                    let started = cpu_time::process();
                    let _ = compile_dir(&dir);
                    cpu_time::process() - started
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
