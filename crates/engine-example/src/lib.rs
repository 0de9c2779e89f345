//! A game engine with rules of its own: Traders & Builders' builder and a fan
//! expansion, The Windmills, compiled from `rules/` by `build.rs` and run with
//! the runtime's resolver and driver, like the bundled rules.

#![forbid(unsafe_code)]

/// This engine's compiled rules: their typed ids and [`rules::RULES`].
pub mod rules {
    carcassonne_rules_runtime::include_rules!();
}
