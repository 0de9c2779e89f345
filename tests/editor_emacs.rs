//! A real client no one here wrote: Emacs, in batch mode, with Debian's eglot
//! and yaml-mode, set up by `editors/emacs/carcassonne-rules.el` as a user
//! would, drives `carcassonne-rules lsp` on a copy of the rules
//! (tests/editor/emacs.el). It needs Emacs: `cargo test` reports it as
//! ignored, `cargo test --test editor_emacs -- --ignored` (as `.ci/run` does)
//! runs it, failing where Emacs is missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "editor/session.rs"]
mod session;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long the whole session may take.
const LIMIT: Duration = Duration::from_secs(180);

#[test]
#[ignore = "needs Emacs with eglot and yaml-mode (apt-get install emacs-nox elpa-eglot elpa-yaml-mode); .ci/run runs it with --ignored"]
fn emacs_eglot_drives_the_server() {
    let emacs = Path::new("emacs");
    let version = session::version(emacs, "apt-get install emacs-nox elpa-eglot elpa-yaml-mode");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editor/emacs.el");
    let mut editor = Command::new(emacs);
    editor.args(["--batch", "-Q", "-l"]).arg(suite);
    let found = session::run(editor, "editors/emacs/carcassonne-rules.el", LIMIT);
    session::assert_all_ok(&version, &found, 15);
}
