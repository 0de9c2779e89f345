//! What the carcassonne-rules compiler makes from the checked model, for
//! machines and for people: [`codegen`] writes the Rust dispatch and tables
//! the runtime includes, [`site`] the static page of the order of play, each
//! escaping what it writes through [`escape`]. [`generated_files`] is every
//! file `gen` keeps in the repository: the dispatch and the JSON Schemas of
//! the rules files (which the front end derives from its records).

#![forbid(unsafe_code)]

pub mod codegen;
pub mod escape;
pub mod site;

use carcassonne_rules_compiler::{GENERATED_DIR, Rules, schema};

/// The bundled rules' generated Rust dispatch and tables, relative to the
/// repository root: inside the runtime crate, whose package must hold it.
pub const GENERATED_CODE: &str = "crates/runtime/src/generated/turn_order.rs";

/// Every file `gen` writes, by its path relative to the repository root
/// (`/`-separated): the Rust dispatch and tables, and the JSON Schemas of the
/// rules files.
pub fn generated_files(rules: &Rules) -> Vec<(String, String)> {
    let mut files = vec![(GENERATED_CODE.to_string(), codegen::generate(rules))];
    files.extend(
        schema::schemas(rules)
            .into_iter()
            .map(|f| (format!("{GENERATED_DIR}/{}/{}", schema::SCHEMA_DIR, f.name), f.contents)),
    );
    files
}
