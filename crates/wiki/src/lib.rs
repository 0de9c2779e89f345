//! Everything the carcassonne-rules know about WikiCarpedia's "Order of Play"
//! page, on top of the compiler's model (the compiler knows nothing of it).
//!
//! - [`export`] writes the rules as the page's wiki source, its text through
//!   [`escape`];
//! - [`page`] reads the page's markup the way a browser shows it and compares,
//!   for a selection, each section's visible top-level items (how many, from
//!   which modules, in which order) with the rules' turn order, and
//!   [`page::nested`] everything below the top level;
//! - [`errata`] reads `errata.yaml`: how to read the page's irregular class
//!   names, and the deliberate differences between the page and the rules,
//!   each with its reason; [`errata::schema`] is its JSON Schema;
//! - [`keys`] is the one mapping between module ids and the page's selector
//!   keys, both ways;
//! - [`measure`] measures how near an export's form is to the page's: the
//!   class tokens both use, and the skeleton of boxes and steps.
//!
//! The binary `carcassonne-conformance` runs the comparison over many
//! selections and prints the differences and a tally.

#![forbid(unsafe_code)]

pub mod errata;
pub mod escape;
pub mod export;
pub mod keys;
pub mod measure;
pub mod page;

pub use errata::Errata;
pub use page::nested::{NestedTally, compare_nested};
pub use page::{Page, SectionComparison, Selection, Tally, Verdict};

/// The files of the wiki crate that `carcassonne-rules gen` writes, by path
/// relative to the repository root: the errata's schema, beside the rules
/// files' schemas.
pub fn generated_files(rules: &carcassonne_rules_compiler::Rules) -> Vec<(String, String)> {
    use carcassonne_rules_backends::schema::SCHEMA_DIR;
    use carcassonne_rules_compiler::GENERATED_DIR;
    let schema = errata::schema::schema(rules);
    vec![(format!("{GENERATED_DIR}/{SCHEMA_DIR}/{}", schema.name), schema.contents)]
}
