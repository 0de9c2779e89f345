//! Shared code of the fuzz targets: the invariants each input must keep.

#![forbid(unsafe_code)]

pub mod invariants;
pub mod outputs;
