//! A real client no one here wrote: Neovim, headless, set up by
//! `editors/nvim/carcassonne-rules.lua` as a user would, drives
//! `carcassonne-rules lsp` on a copy of the rules (tests/editor/nvim.lua), on
//! each Neovim of `CARCASSONNE_NVIM`; a second session adds
//! `editors/nvim/yamlls.lua`, yaml-language-server beside it
//! (tests/editor/nvim_yamlls.lua). They need Neovim and yaml-language-server:
//! `cargo test` reports them as ignored, `cargo test --test editor_nvim --
//! --ignored` (as `.ci/run` does) runs them, failing where one is missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "editor/session.rs"]
mod session;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How long the whole session may take.
const LIMIT: Duration = Duration::from_secs(240);

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
#[ignore = "needs Neovim (apt-get install neovim); .ci/run runs it with --ignored"]
fn neovim_drives_every_feature_of_the_server() {
    for nvim in binaries() {
        let version = session::version(&nvim, "apt-get install neovim");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editor/nvim.lua");
        let mut editor = Command::new(&nvim);
        editor.args(["--headless", "--clean", "-n", "-c"]).arg(format!("luafile {}", script.display()));
        let found = session::run(editor, "editors/nvim/carcassonne-rules.lua", LIMIT);
        session::assert_all_ok(&version, &found, 27);
    }
}

/// yaml-language-server: `CARCASSONNE_YAMLLS` (CI installs a pinned one
/// outside the repository), or `yaml-language-server` from `PATH`.
fn yamlls() -> PathBuf {
    std::env::var_os("CARCASSONNE_YAMLLS").map_or_else(|| PathBuf::from("yaml-language-server"), PathBuf::from)
}

#[test]
#[ignore = "needs Neovim and yaml-language-server (npm i -g yaml-language-server); .ci/run runs it with --ignored"]
fn neovim_runs_both_servers_without_their_completions_clashing() {
    let yamlls = yamlls();
    session::version(&yamlls, "npm i -g yaml-language-server");
    for nvim in binaries() {
        let version = session::version(&nvim, "apt-get install neovim");
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let script = manifest.join("tests/editor/nvim_yamlls.lua");
        let mut editor = Command::new(&nvim);
        editor
            .args(["--headless", "--clean", "-n", "-c"])
            .arg(format!("luafile {}", script.display()))
            .env("YAMLLS", &yamlls)
            .env("YAMLLS_CONFIG", manifest.join("editors/nvim/yamlls.lua"));
        let found = session::run(editor, "editors/nvim/carcassonne-rules.lua", LIMIT);
        session::assert_all_ok(&version, &found, 7);
    }
}
