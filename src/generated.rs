//! The bundled rules compiled to Rust. `build.rs` generates this from `rules/`
//! into `OUT_DIR`; `generated/turn_order.rs` is the checked-in copy that makes
//! every rule change a reviewable diff (a test keeps the two equal).

// Tables and helpers are used or not depending on the rules.
#![allow(dead_code, unused_imports)]

include!(concat!(env!("OUT_DIR"), "/turn_order.rs"));
