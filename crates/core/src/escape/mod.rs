//! Escaping for the outputs every crate writes: the terminal and Markdown.
//!
//! Rules files are untrusted: a name or text may hold anything, even where
//! `check` refuses it, since the next emitter or a hand-built model may skip
//! `check`. So every string printed into one of these languages goes through
//! its escaper here, one tested function per language. The compiler's own
//! outputs (Rust, HTML, JavaScript, wiki source) have theirs in
//! `carcassonne_rules_compiler::escape`.

pub mod markdown;
pub mod terminal;
