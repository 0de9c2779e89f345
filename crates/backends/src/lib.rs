//! What the carcassonne-rules compiler makes from the checked model, for
//! machines and for people: [`codegen`] writes the Rust dispatch and tables
//! the runtime includes, [`site`] the static page of the order of play, each
//! escaping what it writes through [`escape`]. [`generated_files`] is every
//! file `gen` keeps in the repository: the dispatch, each language's tables
//! and the JSON Schemas of the rules files (which the front end derives from
//! its records).

#![forbid(unsafe_code)]

pub mod codegen;
pub mod escape;
pub mod site;

use carcassonne_rules_compiler::translation::Translations;
use carcassonne_rules_compiler::{GENERATED_DIR, Rules, schema};

/// The bundled rules' generated Rust dispatch and tables, relative to the
/// repository root: inside the runtime crate, whose package must hold it.
pub const GENERATED_CODE: &str = "crates/runtime/src/generated/turn_order.rs";

/// The file of the language `lang`'s tables beside [`GENERATED_CODE`]
/// (`crates/runtime/src/generated/turn_order_lang_nl.rs`), relative to the
/// repository root.
pub fn generated_language_code(lang: &str) -> String {
    let (folder, file) = GENERATED_CODE.rsplit_once('/').unwrap_or(("", GENERATED_CODE));
    format!("{folder}/{}", codegen::language_file(file, lang))
}

/// Every file `gen` writes, by its path relative to the repository root
/// (`/`-separated): the Rust dispatch and tables, one file of tables per
/// language of `translations` (each compiled in only under the runtime's
/// feature `lang-<tag>`), and the JSON Schemas of the rules files.
pub fn generated_files(rules: &Rules, translations: &Translations) -> Vec<(String, String)> {
    let (_, file) = GENERATED_CODE.rsplit_once('/').unwrap_or(("", GENERATED_CODE));
    let languages = codegen::Languages::beside(file, &translations.locales, true);
    let mut files = vec![(GENERATED_CODE.to_string(), codegen::generate_with(rules, &languages))];
    files.extend(
        translations
            .locales
            .iter()
            .map(|locale| (generated_language_code(&locale.lang), codegen::generate_language(rules, locale))),
    );
    files.extend(
        schema::schemas(rules)
            .into_iter()
            .map(|f| (format!("{GENERATED_DIR}/{}/{}", schema::SCHEMA_DIR, f.name), f.contents)),
    );
    files
}
