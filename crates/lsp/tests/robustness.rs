//! Random edits of real rules files, and of translation files, replayed
//! through `didChange`: the server never panics and always answers; its
//! memory stays flat. Prints the time from an edit to its diagnostics
//! (p50/p95) and the RSS before and after.
//!
//! Wall time grows when the shared machine is busy; the CPU time of the
//! process (server and client) per edit is printed beside it.
//!
//! 300 edits by default; `CARCASSONNE_LSP_EDITS=10000` for the full run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Instant;

use common::{Client, edit};
use serde_json::json;

fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// CPU time (user and system) of the whole process so far: the server's
/// thread and the client's. Unlike wall time it does not grow when the
/// shared machine is busy.
fn process_cpu_time() -> std::time::Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; the clock id is a constant Linux knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID): {}", std::io::Error::last_os_error());
    std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[test]
fn random_edits_never_stop_the_server() {
    replay(
        "rules files",
        &["base.yaml", "modules.yaml", "expansions/abbey-and-mayor.yaml", "expansions/the-tower.yaml"],
    );
}

/// The same replay on translation files: an edit there compiles the rules
/// too (each from the cache) and checks every language again.
#[test]
fn random_edits_to_translations_never_stop_the_server() {
    replay(
        "translation files",
        &[
            "translations/nl/base.yaml",
            "translations/nl/expansions/abbey-and-mayor.yaml",
            "translations/ru/base.yaml",
            "translations/nl/program.yaml",
        ],
    );
}

/// Replays random edits of `files` (relative to the rules folder), then
/// puts them back and expects every one clean; prints the timings.
fn replay(what: &str, files: &[&str]) {
    let count: usize = std::env::var("CARCASSONNE_LSP_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(300);
    let mut client = Client::start(false);
    let originals: Vec<String> = files.iter().map(|f| client.text(f)).collect();
    let mut texts = originals.clone();
    for (file, text) in files.iter().zip(&texts) {
        client.open(file, text);
    }
    client.diagnostics_of(files[0]);
    let before = rss_kb();
    let mut rng = fastrand::Rng::with_seed(15);
    let mut times = Vec::with_capacity(count);
    let mut cpu_times = Vec::with_capacity(count);
    let mut answers = Vec::new();
    let mut whole = Vec::new();
    // How many files' diagnostics each edit publishes.
    let mut messages = Vec::with_capacity(count);
    for n in 0..count {
        let f = rng.usize(..files.len());
        // Every 20 edits a file starts again from its original, as an undo.
        texts[f] = if n % 20 == 19 { originals[f].clone() } else { edit(&mut rng, &texts[f]) };
        let (start, cpu_start, published) = (Instant::now(), process_cpu_time(), client.published);
        client.change(files[f], &texts[f]);
        client.diagnostics_of(files[f]);
        times.push(start.elapsed());
        cpu_times.push(process_cpu_time() - cpu_start);
        messages.push(client.published - published);
        if n % 7 == 0 {
            let at = rng.usize(..texts[f].len().max(1));
            let at = (0..=at).rev().find(|&i| texts[f].is_char_boundary(i)).unwrap_or(0);
            let line = texts[f][..at].matches('\n').count();
            for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition"] {
                let start = Instant::now();
                client.request(method, json!({ "textDocument": { "uri": client.uri(files[f]) }, "position": { "line": line, "character": rng.usize(..40) } }));
                answers.push(start.elapsed());
            }
            // The requests about the whole file (its DSL's tokens, its hints).
            let document = json!({ "uri": client.uri(files[f]) });
            let range = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 100_000, "character": 0 } });
            for (method, params) in [
                ("textDocument/semanticTokens/full", json!({ "textDocument": document })),
                ("textDocument/inlayHint", json!({ "textDocument": document, "range": range })),
            ] {
                let start = Instant::now();
                client.request(method, params);
                whole.push(start.elapsed());
            }
        }
    }
    for (file, text) in files.iter().zip(&originals) {
        client.change(file, text);
    }
    for &file in files {
        assert_eq!(client.diagnostics_of(file), Vec::<serde_json::Value>::new(), "{file} clean again");
    }
    let after = rss_kb();
    let pct = |times: &mut Vec<std::time::Duration>, p: usize| {
        times.sort();
        times[(times.len() * p / 100).min(times.len() - 1)]
    };
    let mean = messages.iter().sum::<usize>() as f64 / messages.len().max(1) as f64;
    let most = messages.iter().max().copied().unwrap_or(0);
    eprintln!(
        "{count} edits of {what}: diagnostics published per edit {mean:.2} files on average, {most} at most, \
         {} edits none",
        messages.iter().filter(|&&m| m == 0).count()
    );
    eprintln!(
        "{count} edits of {what}: edit → diagnostics p50 {:?}, p95 {:?} (CPU time p50 {:?}, p95 {:?}); \
         completion/hover/definition p50 {:?}, p95 {:?}; \
         semantic tokens/inlay hints of a file p50 {:?}, p95 {:?}; RSS {before} kB before, {after} kB after",
        pct(&mut times, 50),
        pct(&mut times, 95),
        pct(&mut cpu_times, 50),
        pct(&mut cpu_times, 95),
        pct(&mut answers, 50),
        pct(&mut answers, 95),
        pct(&mut whole, 50),
        pct(&mut whole, 95),
    );
}
