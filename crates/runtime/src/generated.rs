//! The bundled rules compiled to Rust, with the API
//! [`include_rules!`](crate::include_rules) gives any compiled rules: the typed ids
//! ([`edition`], [`variant`], [`module`], [`step`], [`item`], [`marker`]),
//! [`LANGUAGES`] and [`RULES`].
//!
//! With the `compile-rules` feature (the repository's own builds), `build.rs`
//! compiles `rules/` into `OUT_DIR`; without it (an engine's build, and every
//! build from a package) the checked-in copy `src/generated/turn_order.rs` is
//! used, which `gen --check` keeps equal to what `rules/` compiles to. Each
//! language's tables are a file beside it (`turn_order_lang_nl.rs`), which the
//! code includes only under the language's feature (`lang-nl`).

// Nothing a rules file says may become unsafe code (`#[no_mangle]`, `#[link_section]`,
// `unsafe` blocks); the crate forbids it too, and an `allow` cannot lift a `forbid`.
#![forbid(unsafe_code)]

#[cfg(feature = "compile-rules")]
crate::include_rules!();
#[cfg(not(feature = "compile-rules"))]
crate::include_rules!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/generated/turn_order.rs"));
