//! Checks the carcassonne-rules against the wiki's "Order of Play" page.
//!
//! The page shows or hides its items with CSS classes; [`wiki`] reads its
//! markup the way a browser shows it and compares, for a selection, each
//! section's visible top-level items (how many, from which modules, in which
//! order) with the rules' turn order. [`errata`] reads `errata.yaml`: how to
//! read the page's irregular class names, and the deliberate differences
//! between the page and the rules, each with its reason.
//!
//! The binary `carcassonne-conformance` runs the comparison over many
//! selections and prints the differences and a tally.

#![forbid(unsafe_code)]

pub mod errata;
pub mod wiki;

pub use errata::Errata;
pub use wiki::nested::{NestedTally, compare_nested};
pub use wiki::{Page, SectionComparison, Selection, Tally, Verdict};
