//! What the command line computes beyond the compiler and the runtime: the
//! unified diff of two turn orders (`diff`), shared with its benchmark.

#![forbid(unsafe_code)]

pub mod diff;
