//! carcassonne-rules: Carcassonne's order of play, from YAML rules to checked,
//! generated Rust.
//!
//! - [`generated`]: the bundled rules compiled to Rust (`turn_order`, `catalog`).
//! - [`interpret`]: the same turn order computed from a freshly checked model.
//! - [`driver`]: plays a turn through a [`driver::Handler`], recording a trace.
//! - [`render`]: text, Markdown and JSON output.
//! - [`wiki`]: reads the wiki page's class conditions, to check the rules against it.
//!
//! The compiler itself (load → check → order → codegen) is the
//! `carcassonne-rules-compiler` crate, re-exported as [`compiler`].

pub mod catalog;
pub mod driver;
pub mod generated;
pub mod interpret;
pub mod render;
pub mod turn;
pub mod wiki;

pub use carcassonne_rules_compiler as compiler;

use miette::{GraphicalReportHandler, GraphicalTheme};

/// Renders diagnostics the way the command line prints them.
pub fn render_diagnostics(problems: &[compiler::Diagnostic], color: bool) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_context_lines(1);
    let mut out = String::new();
    for problem in problems {
        if handler.render_report(&mut out, problem).is_err() {
            out.push_str(&format!("error: {problem}\n"));
        }
        out.push('\n');
    }
    out
}
