//! One escaper per language the compiler writes, each tested with the nasty
//! cases: [`rust`] (string literals, comments, identifiers from ids), [`html`]
//! (text, attribute values, comments) and [`js`] (string literals, comments,
//! identifiers from ids). Terminal and Markdown output, which the runtime
//! writes too, are escaped by the core crate's [`terminal`] and [`markdown`];
//! wiki source by the wiki crate's `escape`, beside the export that writes it.
//!
//! `check` refuses most hostile strings, but every emitter escapes what it
//! writes all the same: a hand-built model skips `check`, and the next emitter
//! might forget.

pub mod html;
pub mod js;
pub mod rust;

pub use carcassonne_rules_core::escape::{markdown, terminal};
