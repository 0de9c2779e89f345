//! The commands, one file each: its clap arguments and its `run`. `shared`
//! holds what several commands use (a selection, printing), `bundled` the
//! rules built into the binary and where a command's rules come from.

pub mod bundled;
pub mod check;
pub mod completions;
pub mod diff;
pub mod explain;
pub mod r#gen;
pub mod lsp;
pub mod man;
pub mod modules;
pub mod order;
pub mod play;
pub mod review;
pub mod shared;
pub mod site;
pub mod translations;
pub mod verify;
pub mod wiki;
