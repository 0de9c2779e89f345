//! One escaper per language the compiler writes, each tested with the nasty
//! cases: [`rust`] (string literals, comments, identifiers from ids), [`html`]
//! (text, attribute values, comments), [`js`] (string literals, comments,
//! identifiers from ids) and [`wiki`] (text as a whole, attribute values, ids
//! used as class words). Terminal and Markdown output, which the runtime
//! writes too, are escaped by the core crate's [`terminal`] and [`markdown`].
//!
//! `check` refuses most hostile strings, but every emitter escapes what it
//! writes all the same: a hand-built model skips `check`, and the next emitter
//! might forget.

pub mod html;
pub mod js;
pub mod rust;
pub mod wiki;

pub use carcassonne_rules_core::escape::{markdown, terminal};
