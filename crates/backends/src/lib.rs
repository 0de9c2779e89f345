//! What the carcassonne-rules compiler makes from the checked model, for
//! machines and for people: [`codegen`] writes the Rust dispatch and tables
//! the runtime includes, [`site`] the static page of the order of play,
//! [`schema`] the JSON Schemas of the rules files for editors (derived from the
//! front end's records), each escaping what it writes through [`escape`].
//! [`generated_files`] is every file `gen` keeps in the repository: the
//! dispatch, each language's tables and the schemas.

#![forbid(unsafe_code)]

pub mod codegen;
pub mod escape;
pub mod schema;
pub mod site;

use carcassonne_rules_compiler::translation::Translations;
use carcassonne_rules_compiler::{GENERATED_DIR, Rules};

/// The bundled rules' generated Rust dispatch and tables, relative to the
/// repository root: inside the runtime crate, whose package must hold it.
pub const GENERATED_CODE: &str = "crates/runtime/src/generated/turn_order.rs";

/// Every file `gen` writes, by its path relative to the repository root
/// (`/`-separated): the Rust dispatch and tables, one file of tables per
/// language of `translations` (each compiled in only under the runtime's
/// feature `lang-<tag>`), and the JSON Schemas of the rules files.
pub fn generated_files(rules: &Rules, translations: &Translations) -> Vec<(String, String)> {
    let (folder, file) = GENERATED_CODE.rsplit_once('/').unwrap_or(("", GENERATED_CODE));
    let languages = codegen::Languages::beside(file, &translations.locales, true);
    let mut files = vec![(GENERATED_CODE.to_string(), codegen::generate_with(rules, &languages))];
    // Each language's tables in the file the generated code includes.
    files.extend(
        languages
            .locales
            .iter()
            .map(|(locale, name)| (format!("{folder}/{name}"), codegen::generate_language(rules, locale))),
    );
    files.extend(
        schema::schemas(rules)
            .into_iter()
            .map(|f| (format!("{GENERATED_DIR}/{}/{}", schema::SCHEMA_DIR, f.name), f.contents)),
    );
    files
}
