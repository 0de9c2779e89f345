//! The bundled rules compiled to Rust. `build.rs` generates this from `rules/`
//! into `OUT_DIR`; `generated/turn_order.rs` at the repository root is the
//! checked-in copy that makes every rule change a reviewable diff.

// Constants name every edition, module and item, whether the rules test them or not.
#![allow(dead_code)]

include!(concat!(env!("OUT_DIR"), "/turn_order.rs"));
