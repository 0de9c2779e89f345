//! The bundled Carcassonne rules, compiled to Rust, and what runs them.
//!
//! - [`generated`]: the rules' dispatch and static tables, generated from
//!   `rules/` by the compiler at build time.
//! - [`turn_order`]: a selection's turn order, resolved from the dispatch's
//!   [`Visible`](generated::Visible) set and the tables.
//! - [`turn`]: a resumable turn, played one answer at a time and saved and
//!   restored between any two (serde); [`trace`]: what happened in it.
//! - [`driver`]: plays a whole turn through a [`driver::Handler`].
//! - [`render`]: text, Markdown and JSON output.
//!
//! This crate does not depend on the compiler: the rules arrive as generated
//! code, and the shared types come from `carcassonne-rules-core`.

#![forbid(unsafe_code)]

pub mod driver;
pub mod generated;
pub mod render;
mod resolve;
pub mod trace;
pub mod turn;

use std::sync::LazyLock;

pub use carcassonne_rules_core as core;
use carcassonne_rules_core::{Catalog, Config, TurnOrder};

static CATALOG: LazyLock<Catalog> = LazyLock::new(generated::catalog);

/// The editions, variants, expansions and modules of the bundled rules.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// The turn order of `cfg` under the bundled rules, borrowing their tables.
pub fn turn_order(cfg: &Config) -> TurnOrder<'static> {
    resolve::turn_order(&generated::TABLES, catalog(), &generated::visible(cfg), cfg)
}
