//! A recorded session: 1,000 seeded random edits of the bundled rules, the
//! edits a rule author makes (characters typed and deleted, lines deleted,
//! duplicated and swapped, a known id or key typed, now and then an undo),
//! each sent as `didChange` to an open document. After each edit the
//! session records the diagnostics of the edited file (and how many the
//! other files have), and completion, hover and definition at one position
//! in it (the edit's cursor or a random place). The recording,
//! `tests/recorded/session.txt`, is checked in: the test replays the session
//! and fails at the first line that differs. It replays the two halves at
//! once, each against a server of its own (see `run`).
//!
//! The recording has one line per answer, each starting with the edit's
//! number, and the line the questions are asked on (`‸` at the place);
//! positions are 0-based lines and UTF-16 columns, as the protocol has them; URIs are relative to the rules folder; completion lists are
//! cut to their first 15 labels (in the order an editor shows them, by
//! `sortText`), with their count; diagnostics past the first 20 of a file
//! are counted only.
//!
//! ```text
//! cargo test -p carcassonne-rules-lsp --test recorded                       # compare
//! CARCASSONNE_RECORD=1 cargo test -p carcassonne-rules-lsp --test recorded  # rewrite the recording
//! CARCASSONNE_LSP_SERVER=/path/to/carcassonne-rules cargo test -p carcassonne-rules-lsp --test recorded
//! ```
//!
//! `CARCASSONNE_RECORD_TEXTS=96,383` writes the edited file as it is after
//! edits 96 and 383 beside it, to look at. The last command runs the
//! session against `<binary> lsp` over stdio instead of the server in
//! process. On a mismatch the session as it ran is written to
//! `recorded-session.txt` in Cargo's target tmp folder (the message says
//! where), for a whole diff.
//!
//! # Compared once with the server before the syntax tree (076c05c)
//!
//! The same session run against the server at 076c05c (the last before the
//! server read files through `syntax::tree`), its binary over stdio:
//!
//! ```text
//! git worktree add /work/wt/old076 076c05c && (cd /work/wt/old076 && cargo build --bin carcassonne-rules)
//! CARCASSONNE_LSP_SERVER=/work/wt/old076/target/debug/carcassonne-rules \
//!     cargo test -p carcassonne-rules-lsp --test recorded    # fails; the session is in target/tmp
//! python3 crates/lsp/tests/recorded/classify.py target/tmp/recorded-session.txt \
//!     crates/lsp/tests/recorded/session.txt [--show CLASS N]
//! ```
//!
//! The edits were the same (every `edit` line, text hash included); this
//! server's own binary over stdio gave the checked-in recording exactly.
//! 221 of the 1,000 edits differ in some answer. Hover (153 answered),
//! definition (161 found) and the other files' diagnostic counts: no
//! difference. No completion `kind` and no order of the same labels changed.
//!
//! classify.py sorts each difference by what changed, where the cursor is
//! (indentation, key, value, comment) and whether a YAML syntax error is
//! above it; the rows below group its classes, each sample looked at:
//!
//! | answer | edits | what | judged |
//! | --- | ---: | --- | --- |
//! | diagnostics | 101 | `unknown-key` (75) or `missing-key` (26) now `invalid-yaml` at the parser's refusal, on a later line (91) or the same one, with indentation help (e883b13) | intended |
//! | diagnostics | 4 | `invalid-yaml` now `invalid-value`, same place and message (688c4a6) | intended |
//! | completion | 60 | none now with the cursor in the indentation (43) or on the key (17) of a `when:`/`under:`/`after:` line (56), `items:` (3) or a derived flag (1); the old server offered the key's values there | intended (the place is a key) |
//! | completion | 8 | none now in a comment (conditions were offered) | intended |
//! | completion | 26 | step and section ids now offered on or before a step or section key (`  1C:`, `any_time:`) | intended |
//! | completion | 1 | conditions now offered in a flow mapping's `repeat:` | intended |
//! | completion | 2 | an `after:` now offers the children of the item its `under:` names (was the step's items; cfda550) | intended |
//! | completion | 3 | markers no longer offered first on the `markers` key or inside a marker already written | acceptable |
//! | completion | 24 | none now in a `when:`/`under:`/`after:`/`before:` value the old server completed: 21 below a YAML syntax error higher in the file, 3 where the YAML around the cursor is itself broken (`when:a barn`, a refused line) | **regression** (the 21) |
//! | completion | 7 | a wrong list below a YAML syntax error, all in `the-tower.yaml`: item ids in a `when:` value (edit 383) or on a `role:` key (384), conditions or markers inside or before a `text:` (143, 290, 664, 668) or before `optional:` (665), where the old server offered conditions or nothing | **regression** |
//!
//! The regressions are the tree's: below a YAML syntax error (a stray `- id:`
//! at the top level, an unclosed `{`) the tree has no node, or a wrong one,
//! for the rest of the file, where the old server read each line by itself.
//! E.g. edit 565, `base.yaml` with `- id: w` on line 63: at 105:15
//! (`      after: 2D‸`, in 3A's `determine-completed`) the old server offered
//! its 4 siblings, this one nothing; edit 383, `the-tower.yaml` with an
//! unclosed `{` opening line 32: at 83:16 (`          when: ‸`, a new line
//! in `tower-phantom-black-tower`) the old server offered the 101 modules and
//! flags, this one 6 item ids (lines and columns 0-based, as recorded).
//!
//! The table is the comparison as first run. Since then the tree mends what
//! follows an error (`syntax::tree::parse`: a `[` or `{` left open is closed
//! on its own line, any other error's line blanked from the error on, then
//! read again, at most 4 times), and the recording was rewritten: 21 of the
//! 28 regressed edits now answer as the old server did (565 and 383 among
//! them); 7 still do not (279, 396, 651, 766, 848, 912: none offered; 143:
//! another list), each below an error about the structure above it
//! ("expected mapping start", a key indented under the wrong parent), which
//! blanking one line does not undo. The mending changed 16 other answers
//! from what the old server gave: 14 now offer the text-variant snippets in
//! a `text:` below an error, as both servers do in a file without one; one
//! in the indentation now offers nothing (as in the table's third row); one
//! list has 103 names instead of 101. Against the old server 876 of the
//! 1,000 completions are now the same (869 before the mending); hover and
//! definition still all are.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{Client, Transport};
use serde_json::Value;

/// The number of edits of the session.
const EDITS: usize = 1000;
/// The seed of the session's random choices.
const SEED: u64 = 0x0ca2_ca55;
/// The documents opened and edited, relative to the rules folder.
const FILES: [&str; 8] = [
    "base.yaml",
    "modules.yaml",
    "editions.yaml",
    "expansions/abbey-and-mayor.yaml",
    "expansions/the-tower.yaml",
    "expansions/princess-and-dragon.yaml",
    "expansions/inns-and-cathedrals.yaml",
    "expansions/the-fortune-teller.yaml",
];
/// The keys an author types on a new line.
const KEYS: [&str; 9] =
    ["when: ", "after: ", "before: ", "under: ", "effect: ", "- id: ", "foreign: [", "role: ", "text: "];
/// Words of conditions and values typed besides the ids.
const KEYWORDS: [&str; 12] = [
    "and ",
    "or ",
    "not ",
    "edition == ",
    "variant == ",
    "go back to ",
    "optional: true",
    "children:",
    "note",
    "group",
    "per_feature",
    "(",
];
/// Labels of a completion list recorded.
const LABELS: usize = 15;
/// Diagnostics of a file recorded one by one.
const DIAGNOSTICS: usize = 20;

fn recording() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recorded/session.txt")
}

/// Every id of the bundled rules (items, steps, modules, expansions,
/// editions, variants), in the order of the files sorted by path.
fn known_ids() -> Vec<String> {
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    files(&common::bundled_rules(), &mut paths);
    paths.sort();
    let (mut ids, mut seen) = (Vec::new(), HashSet::new());
    for path in paths {
        let text = std::fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices("id: ") {
            let id: String = text[at + 4..]
                .trim_start_matches('"')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            if !id.is_empty() && seen.insert(id.clone()) {
                ids.push(id);
            }
        }
    }
    ids
}

/// FNV-1a of a text: the recording shows each edit's result by it, so that
/// two runs are seen to edit alike.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// 0-based line and UTF-16 column of byte `at` of `text`.
fn position(text: &str, at: usize) -> (usize, usize) {
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..at].encode_utf16().count())
}

/// Line `line` of `text` with `‸` at UTF-16 column `column`: where the
/// questions are asked.
fn marked(text: &str, line: usize, column: usize) -> String {
    let spans = lines(text);
    let the_line = spans.get(line).map_or("", |&(start, end)| text[start..end].trim_end_matches('\n'));
    let (mut units, mut at) = (0, the_line.len());
    for (i, c) in the_line.char_indices() {
        if units >= column {
            at = i;
            break;
        }
        units += c.len_utf16();
    }
    format!("{}‸{}", &the_line[..at], &the_line[at..])
}

/// A char boundary of `text` in `..=text.len()`.
fn boundary(rng: &mut fastrand::Rng, text: &str) -> usize {
    let mut at = rng.usize(..=text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte ranges of `text`'s lines, each with its `\n`.
fn lines(text: &str) -> Vec<(usize, usize)> {
    let mut start = 0;
    text.split_inclusive('\n')
        .map(|line| {
            let range = (start, start + line.len());
            start += line.len();
            range
        })
        .collect()
}

/// One edit of a file.
struct Edit {
    text: String,
    what: String,
    /// Where the author's cursor is after it (a byte offset).
    cursor: usize,
}

/// A random edit of `text` (not an undo).
fn edit(rng: &mut fastrand::Rng, text: &str, ids: &[String]) -> Edit {
    let spans = lines(text);
    if spans.is_empty() {
        return Edit { text: "x".into(), what: "type 'x' in the empty file".into(), cursor: 1 };
    }
    let here = |at: usize| {
        let (line, column) = position(text, at);
        format!("{line}:{column}")
    };
    let splice = |at: usize, end: usize, with: &str| format!("{}{with}{}", &text[..at], &text[end..]);
    match rng.u8(..16) {
        // A character typed.
        0..=2 => {
            let at = boundary(rng, text);
            let c = rng.choice([':', ' ', '-', '"', '{', '}', '[', '|', '\n', 'a', 's', 'é', '(', ')', '#']).unwrap();
            Edit {
                text: splice(at, at, &c.to_string()),
                what: format!("type {c:?} at {}", here(at)),
                cursor: at + c.len_utf8(),
            }
        }
        // A character deleted (backspace).
        3..=4 => {
            let mut at = boundary(rng, text);
            if at == text.len() {
                at = text[..at].char_indices().next_back().map_or(0, |(i, _)| i);
            }
            let c = text[at..].chars().next().expect("a character at a boundary of a text that has one");
            Edit { text: splice(at, at + c.len_utf8(), ""), what: format!("delete {c:?} at {}", here(at)), cursor: at }
        }
        // A line deleted, duplicated, or swapped with the next.
        5 => {
            let i = rng.usize(..spans.len());
            let (start, end) = spans[i];
            Edit { text: splice(start, end, ""), what: format!("delete line {i}"), cursor: start }
        }
        6 => {
            let i = rng.usize(..spans.len());
            let (start, end) = spans[i];
            let mut line = text[start..end].to_string();
            if !line.ends_with('\n') {
                line.push('\n');
            }
            Edit { text: splice(start, start, &line), what: format!("duplicate line {i}"), cursor: start + line.len() }
        }
        7 => {
            if spans.len() < 2 {
                return edit(rng, text, ids);
            }
            let i = rng.usize(..spans.len() - 1);
            let (a, b) = (&text[spans[i].0..spans[i].1], &text[spans[i + 1].0..spans[i + 1].1]);
            // `a` ends with its `\n`; `b` does not if it is the last line.
            let swapped =
                if b.ends_with('\n') { format!("{b}{a}") } else { format!("{b}\n{}", a.trim_end_matches('\n')) };
            Edit {
                text: splice(spans[i].0, spans[i + 1].1, &swapped),
                what: format!("swap lines {i} and {}", i + 1),
                cursor: spans[i].0,
            }
        }
        // An id or a word typed, whole or its first letters.
        8..=11 => {
            let word = if rng.u8(..3) == 0 {
                rng.choice(KEYWORDS).unwrap().to_string()
            } else {
                rng.choice(ids).unwrap().clone()
            };
            let typed: String = if rng.bool() {
                word.clone()
            } else {
                word.chars().take(rng.usize(1..=word.chars().count())).collect()
            };
            // At a random place, or after the last word of a line.
            let at = if rng.bool() {
                boundary(rng, text)
            } else {
                let (start, end) = spans[rng.usize(..spans.len())];
                start + text[start..end].trim_end().len()
            };
            let typed = if rng.bool() && !text[..at].ends_with(' ') { format!(" {typed}") } else { typed };
            Edit {
                text: splice(at, at, &typed),
                what: format!("type {typed:?} at {}", here(at)),
                cursor: at + typed.len(),
            }
        }
        // A new line below another, as indented, with a key and perhaps the
        // first letters of an id.
        _ => {
            let i = rng.usize(..spans.len());
            let (start, end) = spans[i];
            let line = &text[start..end];
            let indent = line.len() - line.trim_start_matches(' ').len();
            let indent = indent + if line.trim_start().starts_with("- ") { 2 } else { 0 };
            let key = rng.choice(KEYS).unwrap();
            let id = rng.choice(ids).unwrap();
            let begun: String = id.chars().take(rng.usize(..=id.chars().count().min(4))).collect();
            let new = format!("{}{key}{begun}", " ".repeat(indent));
            let insert = if line.ends_with('\n') { format!("{new}\n") } else { format!("\n{new}") };
            let at = end;
            let cursor = if line.ends_with('\n') { at + new.len() } else { at + insert.len() };
            Edit { text: splice(at, at, &insert), what: format!("new line after {i}: {new:?}"), cursor }
        }
    }
}

/// The files' texts and the session's random choices: the author edits
/// one file a few times, then (mostly) undoes it all and goes to another.
struct Session {
    rng: fastrand::Rng,
    ids: Vec<String>,
    originals: Vec<String>,
    texts: Vec<String>,
    /// The texts each file had before its edits since its original, for undo.
    undo: Vec<Vec<String>>,
    /// The file being edited, and how many edits are left before the author
    /// leaves it.
    file: usize,
    left: usize,
}

/// The first byte where two texts differ: where an undo leaves the cursor.
fn first_difference(a: &str, b: &str) -> usize {
    let same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    (0..=same).rev().find(|&at| b.is_char_boundary(at)).unwrap_or(0)
}

impl Session {
    fn new(client: &Client) -> Session {
        let originals: Vec<String> = FILES.iter().map(|f| client.text(f)).collect();
        Session {
            rng: fastrand::Rng::with_seed(SEED),
            ids: known_ids(),
            texts: originals.clone(),
            undo: vec![Vec::new(); FILES.len()],
            originals,
            file: 0,
            left: 0,
        }
    }

    /// The next edit: its file's index, what it was and the cursor after it.
    fn next(&mut self) -> (usize, String, usize) {
        if self.left == 0 {
            let done = self.file;
            self.file = self.rng.usize(..FILES.len());
            self.left = self.rng.usize(1..=6);
            // Four times in five the file left is undone back to its original.
            if !self.undo[done].is_empty() && self.rng.u8(..5) != 0 {
                let before = std::mem::replace(&mut self.texts[done], self.originals[done].clone());
                let what = format!("undo all {} edits", self.undo[done].len());
                self.undo[done].clear();
                return (done, what, first_difference(&before, &self.texts[done]));
            }
        }
        self.left -= 1;
        let f = self.file;
        let undo = &mut self.undo[f];
        if !undo.is_empty() && self.rng.u8(..6) == 0 {
            let n = self.rng.usize(1..=undo.len().min(2));
            let back = undo.len() - n;
            let before = std::mem::replace(&mut self.texts[f], undo[back].clone());
            undo.truncate(back);
            return (f, format!("undo {n}"), first_difference(&before, &self.texts[f]));
        }
        let edit = edit(&mut self.rng, &self.texts[f], &self.ids);
        undo.push(std::mem::replace(&mut self.texts[f], edit.text));
        (f, edit.what, edit.cursor)
    }
}

/// `s` quoted and escaped on one line, the rules folder's path and URI as `$RULES`.
fn quote(s: &str, client: &Client) -> String {
    let rules = client.dir.path().join("rules");
    let s = s.replace(&client.uri(""), "$RULES/").replace(&rules.display().to_string(), "$RULES");
    serde_json::to_string(&s).unwrap()
}

fn range(r: &Value) -> String {
    let at = |p: &Value| format!("{}:{}", p["line"], p["character"]);
    format!("{}-{}", at(&r["start"]), at(&r["end"]))
}

/// The protocol's name of a completion kind.
fn kind(k: &Value) -> String {
    const KINDS: [&str; 25] = [
        "text",
        "method",
        "function",
        "constructor",
        "field",
        "variable",
        "class",
        "interface",
        "module",
        "property",
        "unit",
        "value",
        "enum",
        "keyword",
        "snippet",
        "color",
        "file",
        "reference",
        "folder",
        "enum-member",
        "constant",
        "struct",
        "event",
        "operator",
        "type-parameter",
    ];
    match k.as_u64() {
        Some(n @ 1..=25) => KINDS[n as usize - 1].to_string(),
        Some(n) => n.to_string(),
        None => "-".into(),
    }
}

fn severity(s: &Value) -> &'static str {
    match s.as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "information",
        Some(4) => "hint",
        _ => "-",
    }
}

fn diagnostic(d: &Value, client: &Client) -> String {
    let code = match &d["code"] {
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        other => other.to_string(),
    };
    let message = quote(d["message"].as_str().unwrap_or_default(), client);
    format!("{} {} {code} {message}", range(&d["range"]), severity(&d["severity"]))
}

fn completion(answer: &Value) -> String {
    let items = match answer {
        Value::Array(items) => items.clone(),
        Value::Object(list) => list.get("items").and_then(Value::as_array).cloned().unwrap_or_default(),
        _ => return "none".into(),
    };
    if items.is_empty() {
        return "0".into();
    }
    let mut items: Vec<&Value> = items.iter().collect();
    let sort_key = |i: &Value| i["sortText"].as_str().or(i["label"].as_str()).unwrap_or_default().to_string();
    items.sort_by_key(|i| sort_key(i));
    let shown: Vec<String> = items
        .iter()
        .take(LABELS)
        .map(|i| format!("{} ({})", i["label"].as_str().unwrap_or_default(), kind(&i["kind"])))
        .collect();
    let more = if items.len() > LABELS { ", …" } else { "" };
    format!("{}: {}{more}", items.len(), shown.join(", "))
}

fn hover(answer: &Value, client: &Client) -> String {
    fn text(contents: &Value) -> String {
        match contents {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts.iter().map(text).collect::<Vec<_>>().join("\n---\n"),
            Value::Object(o) => o.get("value").and_then(Value::as_str).unwrap_or_default().to_string(),
            _ => String::new(),
        }
    }
    match answer {
        Value::Null => "none".into(),
        answer => quote(&text(&answer["contents"]), client),
    }
}

fn definition(answer: &Value, client: &Client) -> String {
    let root = client.uri("");
    let location = |l: &Value| {
        let uri = l["uri"].as_str().or(l["targetUri"].as_str()).unwrap_or_default();
        let uri = uri.strip_prefix(&root).map_or_else(|| quote(uri, client), str::to_string);
        let r = if l["range"].is_null() { &l["targetSelectionRange"] } else { &l["range"] };
        format!("{uri} {}", range(r))
    };
    match answer {
        Value::Null => "none".into(),
        Value::Array(all) if all.is_empty() => "none".into(),
        Value::Array(all) => all.iter().map(location).collect::<Vec<_>>().join(", "),
        one => location(one),
    }
}

/// CPU time (user and system) of the whole process so far.
fn process_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; the clock id is a constant Linux knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID): {}", std::io::Error::last_os_error());
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Runs the session and returns its recording: its two halves at once, each
/// against a server of its own, so that it takes half the time on two cores.
/// The edits and the places asked about come from the session's own random
/// numbers, never from the answers, so the second half's server opens the
/// files as the first half left them; a server whose answers depended on the
/// edits before (a stale cache) would fail the comparison there.
fn run(transport: &Transport) -> String {
    let halves = [1..=EDITS / 2, EDITS / 2 + 1..=EDITS];
    std::thread::scope(|scope| {
        let running: Vec<_> = halves.map(|edits| scope.spawn(move || run_edits(transport, edits))).into();
        running.into_iter().map(|half| half.join().unwrap()).collect()
    })
}

/// The recording of `edits`, the session played up to their first without a server.
fn run_edits(transport: &Transport, edits: std::ops::RangeInclusive<usize>) -> String {
    let mut client = Client::start_on(transport, false);
    let mut session = Session::new(&client);
    let mut out = String::new();
    // The edits whose file to write out, to look at (`CARCASSONNE_RECORD_TEXTS=96,383`).
    let texts: Vec<usize> = std::env::var("CARCASSONNE_RECORD_TEXTS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    for n in 1..=*edits.end() {
        let before = session.texts.clone();
        let (f, what, cursor) = session.next();
        let (file, text) = (FILES[f], session.texts[f].clone());
        // At the cursor, or at a random column of a random line.
        let (line, column) = if session.rng.bool() {
            position(&text, cursor)
        } else {
            let spans = lines(&text);
            let line = session.rng.usize(..spans.len().max(1));
            let width = spans.get(line).map_or(0, |&(s, e)| text[s..e].trim_end_matches('\n').encode_utf16().count());
            (line, session.rng.usize(..=width))
        };
        if n < *edits.start() {
            continue;
        }
        if n == *edits.start() {
            for (file, text) in FILES.iter().zip(&before) {
                client.open(file, text);
            }
        }
        client.change(file, &text);
        if texts.contains(&n) {
            let to = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("recorded-{n:04}.yaml"));
            std::fs::write(&to, &text).unwrap();
            eprintln!("edit {n}: {file} as edited is in {}", to.display());
        }
        writeln!(out, "{n:04} edit {file}: {what} → {:016x}", fnv(&text)).unwrap();
        writeln!(out, "{n:04} at {line}:{column}: {}", quote(&marked(&text, line, column), &client)).unwrap();
        let at = client.at(file, line, column);
        // The server analyses the edit before it answers: the diagnostics
        // are in by the first answer.
        let answers = [
            ("completion", completion(&client.request("textDocument/completion", at.clone()))),
            ("hover", hover(&client.request("textDocument/hover", at.clone()), &client)),
            ("definition", definition(&client.request("textDocument/definition", at), &client)),
        ];
        let uri = client.uri(file);
        let mine = client.diagnostics.get(&uri).cloned().unwrap_or_default();
        writeln!(out, "{n:04} diagnostics: {}", mine.len()).unwrap();
        for d in mine.iter().take(DIAGNOSTICS) {
            writeln!(out, "{n:04}   {}", diagnostic(d, &client)).unwrap();
        }
        let mut elsewhere: Vec<(String, usize)> = client
            .diagnostics
            .iter()
            .filter(|(u, d)| **u != uri && !d.is_empty())
            .map(|(u, d)| (u.strip_prefix(&client.uri("")).unwrap_or(u).to_string(), d.len()))
            .collect();
        elsewhere.sort();
        let elsewhere: Vec<String> = elsewhere.iter().map(|(f, n)| format!("{f} {n}")).collect();
        writeln!(out, "{n:04} elsewhere: {}", if elsewhere.is_empty() { "none".into() } else { elsewhere.join(", ") })
            .unwrap();
        for (request, answer) in answers {
            writeln!(out, "{n:04} {request} {line}:{column}: {answer}").unwrap();
        }
    }
    out
}

#[test]
fn a_recorded_session_of_random_edits_is_answered_as_recorded() {
    let transport = Transport::from_env();
    let (start, cpu) = (Instant::now(), process_cpu_time());
    let actual = run(&transport);
    // The CPU time is the test's and, in process, the server's; the wall
    // time grows when the shared machine is busy.
    eprintln!(
        "{EDITS} edits on {transport:?} in {:.1?} (CPU time of this process {:.1?})",
        start.elapsed(),
        process_cpu_time() - cpu
    );
    let path = recording();
    if std::env::var_os("CARCASSONNE_RECORD").is_some_and(|v| !v.is_empty()) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        eprintln!("rewrote {}", path.display());
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if actual == expected {
        return;
    }
    let ran = Path::new(env!("CARGO_TARGET_TMPDIR")).join("recorded-session.txt");
    std::fs::write(&ran, &actual).unwrap();
    let (old, new): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let first = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(old.len().min(new.len()));
    // The edit's number and the answer's name start the line.
    let differing = new.get(first).or(old.get(first)).copied().unwrap_or_default();
    let mut words = differing.split_whitespace();
    let (edit, answer) = (words.next().unwrap_or("?"), words.next().unwrap_or("?"));
    let mut report = format!(
        "the session's answers differ from {} from its line {} on (edit {edit}, {answer}):\n",
        path.display(),
        first + 1
    );
    let from = first.saturating_sub(2);
    for (mark, side) in [("- recorded", &old), ("+ now", &new)] {
        writeln!(report, "{mark}:").unwrap();
        for line in side.iter().skip(from).take(8) {
            writeln!(report, "    {line}").unwrap();
        }
    }
    let differ = old.iter().zip(&new).filter(|(a, b)| a != b).count() + old.len().abs_diff(new.len());
    write!(
        report,
        "lines differing in all: {differ} (of {} recorded, {} now). The whole session as it ran: {}\n\
         `diff {} {}` shows every change; if they are intended, rewrite the recording with\n\
         CARCASSONNE_RECORD=1 cargo test -p carcassonne-rules-lsp --test recorded",
        old.len(),
        new.len(),
        ran.display(),
        path.display(),
        ran.display()
    )
    .unwrap();
    panic!("{report}");
}
