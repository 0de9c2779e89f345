//! The bundled rules compiled to Rust. `build.rs` generates this from `rules/`
//! into `OUT_DIR`; `generated/turn_order.rs` is the checked-in copy that makes
//! every rule change a reviewable diff (a test keeps the two equal).

// Tables, helpers and `cfg` are used or not depending on the rules.
#![allow(dead_code, unused_imports, unused_variables)]
// Every item is pushed under its own guard, also the first: uniform code, small diffs.
#![allow(clippy::vec_init_then_push)]

include!(concat!(env!("OUT_DIR"), "/turn_order.rs"));
