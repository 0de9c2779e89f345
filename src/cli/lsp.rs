//! `lsp`: the language server on stdin/stdout, for the rules folder of the
//! workspace the editor opens (the server itself is `crates/lsp`).

use carcassonne_rules_compiler::Diagnostic;
use carcassonne_rules_compiler::codes::Code;
use clap::Args;

use super::shared::Outcome;

/// `lsp` takes no options: the editor names the workspace.
#[derive(Args)]
pub struct LspArgs {}

pub fn run(_: &LspArgs) -> Outcome {
    carcassonne_rules_lsp::stdio()
        .map_err(|e| vec![Diagnostic::global(Code::Io, format!("the language server stopped: {e}"))])
}
