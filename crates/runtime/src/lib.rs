//! The bundled Carcassonne rules, compiled to Rust, and what runs them — or
//! runs an engine's own rules, compiled the same way.
//!
//! The API an engine uses:
//!
//! - [`generated`]: the bundled rules' typed ids (`edition::C2`,
//!   `module::BUILDER`, `step::S1B`, `item::DRAW_TILE`, …) and
//!   [`generated::RULES`].
//! - [`Rules`]: a compiled rule set — its [`catalog`](Rules::catalog), a
//!   selection built from typed ids ([`config`](Rules::config), then
//!   [`Config::with`](core::Config::with)), and a selection's
//!   [`turn_order`](Rules::turn_order).
//! - [`include_rules!`]: an engine's own rules, compiled in its `build.rs` by
//!   `carcassonne-rules-build`, with the same API as [`generated`].
//! - [`turn`]: a resumable turn, played one answer at a time and saved and
//!   restored between any two (serde); [`trace`]: what happened in it;
//!   [`history`]: a turn's answers replayed, to verify a saved turn and undo.
//! - `wire` (feature `json`): the `play` contract's JSON — answers,
//!   prompts, output and the saved state — one format for every engine.
//! - [`driver`]: plays a whole turn through a [`driver::Handler`], a loop
//!   over [`turn`].
//! - [`core`]: the shared types (`Config`, `TurnOrder`, `Entry`, the ids).
//! - `render` (feature `render`, and `json` for JSON): text, Markdown and
//!   JSON output, for a command line; an engine needs none of it.
//! - Languages (features `lang-nl`, `lang-ru`, `all-languages`): each one's
//!   tables are compiled in only under its feature; [`locale()`] finds one,
//!   and [`Rules::translated_turn_order`] gives a turn order in it (its
//!   texts, titles, marker labels and words, as [`LangTable`]s hold them).
//!
//! [`catalog()`], [`config()`], [`turn_order()`], [`languages()`] and
//! [`locale()`] are the bundled rules' [`Rules`] methods as functions.
//!
//! This crate does not depend on the compiler: rules arrive as generated
//! code, and the shared types come from `carcassonne-rules-core`.

#![forbid(unsafe_code)]

pub mod driver;
pub mod generated;
pub mod history;
#[cfg(feature = "render")]
pub mod render;
mod resolve;
mod rules;
pub mod trace;
pub mod turn;
#[cfg(feature = "json")]
pub mod wire;

pub use carcassonne_rules_core as core;
pub use carcassonne_rules_core::LangTable;
use carcassonne_rules_core::{Catalog, Config, EditionId, TurnOrder};
pub use rules::Rules;

/// What [`include_rules!`] expands to needs from this crate. Not part of the
/// API: it changes with the generated code.
#[doc(hidden)]
pub mod __private {
    pub use std::sync::LazyLock;

    pub use crate::resolve::turn_order;
}

/// The generated tables and dispatch of the bundled rules, for this
/// repository's tests and benchmarks (feature `internals`). Not part of the
/// API: it changes whenever the code generator does.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::generated::compiled::{TABLES, Visible, visible};
}

/// The editions, variants, expansions and modules of the bundled rules.
pub fn catalog() -> &'static Catalog {
    generated::RULES.catalog()
}

/// `edition` of the bundled rules under its default variant, with no module:
/// `config(edition::C2).with(module::BUILDER)`.
pub fn config(edition: EditionId) -> Config {
    generated::RULES.config(edition)
}

/// The turn order of `cfg` under the bundled rules, borrowing their tables.
pub fn turn_order(cfg: &Config) -> TurnOrder<'static> {
    generated::RULES.turn_order(cfg)
}

/// The languages of the bundled rules compiled into this build, in
/// `languages.yaml`'s order: those the features `lang-nl`, `lang-ru` (or
/// `all-languages`) ask for, none without them.
pub fn languages() -> &'static [&'static LangTable] {
    generated::RULES.languages()
}

/// The bundled rules' language `tag` (`nl`), if its feature compiled it in:
/// `turn_order_in(&cfg, locale("nl")?)`.
pub fn locale(tag: &str) -> Option<&'static LangTable> {
    generated::RULES.locale(tag)
}

/// The turn order of `cfg` under the bundled rules, in the language `lang`.
pub fn turn_order_in(cfg: &Config, lang: &LangTable) -> TurnOrder<'static> {
    generated::RULES.translated_turn_order(cfg, lang)
}
