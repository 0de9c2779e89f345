//! The bundled rules compiled to Rust. With the `compile-rules` feature (the
//! workspace's builds), `build.rs` generates this from `rules/` into
//! `OUT_DIR`; without it (an engine's build), the checked-in copy in
//! `generated/turn_order.rs` at the repository root is used, which `gen
//! --check` keeps equal to what `rules/` compiles to.

// Constants name every edition, module and item, whether the rules test them or not.
#![allow(dead_code)]
// Nothing a rules file says may become unsafe code (`#[no_mangle]`, `#[link_section]`,
// `unsafe` blocks); the crate forbids it too, and an `allow` cannot lift a `forbid`.
#![forbid(unsafe_code)]

#[cfg(feature = "compile-rules")]
include!(concat!(env!("OUT_DIR"), "/turn_order.rs"));
#[cfg(not(feature = "compile-rules"))]
include!("../../../generated/turn_order.rs");
