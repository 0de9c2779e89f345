//! Shared code of the fuzz targets: the invariants each input must keep.

pub mod invariants;
