//! Reading the rules folder: YAML files into raw, spanned records.
//!
//! Nothing here knows what a name means; `check` does that. One concern a
//! file: [`tree`] parses a file's YAML into a spanned tree, [`de`] reads
//! records from it ([`Spanned`] strings), `records.rs` are the records
//! (and the patterns and offers of their JSON Schemas), `load.rs` reads a
//! folder or an editor's texts into them (and caches them for the language
//! server), `safe_read.rs` reads the disk through the guarded reader, and
//! `diagnose.rs` says why a file does not read. This file says which files
//! are rules files and which of their strings are DSL.

pub use load::{Failed, ParseCache, RawRules, load_dir, load_files, load_files_cached, read_folder, read_yaml};
pub(crate) use load::{read_source, translation_names};
pub(crate) use records::entries;
pub use records::{
    KEBAB, RawBaseFile, RawDoubleTurn, RawEdition, RawEditionsFile, RawExpansion, RawExpansionFile, RawItem, RawMarker,
    RawModule, RawModulesFile, RawPhase, RawSections, RawStep, RawVariant, SNAKE, offer,
};
pub(crate) use safe_read::add_source;
pub use safe_read::{MAX_FILE_BYTES, read_file};
pub use spanned::Spanned;

pub mod de;
mod diagnose;
mod load;
mod records;
mod safe_read;
mod spanned;
pub mod tree;

/// Editions and rule variants, in the rules folder.
pub const EDITIONS_FILE: &str = "editions.yaml";
/// Expansions, their modules and the derived flags, in the rules folder.
pub const MODULES_FILE: &str = "modules.yaml";
/// The phases, steps and items of the base game, in the rules folder.
pub const BASE_FILE: &str = "base.yaml";
/// The folder of one-file-per-expansion items, in the rules folder.
pub const EXPANSIONS_DIR: &str = "expansions";

/// The file an expansion's items are expected in, relative to the rules
/// folder: its id in kebab-case (`expansions/abbey-and-mayor.yaml`). The
/// file's `expansion:` says which expansion it holds; this is the name
/// `check` suggests and the language server takes a file's expansion from.
pub fn expansion_file(id: &str) -> String {
    format!("{EXPANSIONS_DIR}/{}.yaml", id.replace('_', "-"))
}

/// What a DSL string holds, by where it stands in a rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DslKind {
    /// `when:` of an item, a step or the double-turn block, or a derived
    /// flag's definition.
    Condition,
    /// An entry of `markers:` (`ROBBERS when robbers`).
    Marker,
    /// A step's `repeat:` (`per_feature`).
    Repeat,
    /// An item's `text:`, with its edition variants.
    Text,
    /// A derived flag's name (a key of `derived:` in `modules.yaml`).
    FlagName,
}

/// Which scalars of the records hold DSL strings: the one table of it.
/// `under` is the key the scalar's container is the value of (for the
/// mappings in a sequence, the sequence's key).
pub fn dsl_kind(file: &str, under: Option<&str>, slot: tree::Slot<'_>) -> Option<DslKind> {
    use tree::Slot;
    let derived = file == MODULES_FILE && under == Some("derived");
    match slot {
        Slot::Key => derived.then_some(DslKind::FlagName),
        Slot::Value("id") => None,
        Slot::Value("when") => Some(DslKind::Condition),
        Slot::Value("repeat") => Some(DslKind::Repeat),
        Slot::Value("text") => Some(DslKind::Text),
        Slot::Value(_) => derived.then_some(DslKind::Condition),
        Slot::Entry => (under == Some("markers")).then_some(DslKind::Marker),
    }
}

/// One DSL string of a rules file, where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct DslString<'t> {
    /// What it holds.
    pub kind: DslKind,
    /// The scalar: its value, quoting and span.
    pub node: &'t tree::Node,
    /// Its value, quotes and escapes resolved.
    pub value: &'t str,
    /// Where the value stands verbatim in the file, if it does.
    pub verbatim: Option<usize>,
    /// Written without quotes.
    pub plain: bool,
    /// The `id:` of the mapping that holds it (an item or a step).
    pub owner: Option<&'t str>,
}

/// Every DSL string of the tree of the rules file `file`, in the order written.
pub fn dsl_strings<'t>(file: &str, tree: &'t tree::Node) -> Vec<DslString<'t>> {
    tree.scalars()
        .into_iter()
        .filter_map(|v| {
            let kind = dsl_kind(file, v.under, v.slot)?;
            let tree::Value::Scalar(scalar) = &v.node.value else { return None };
            Some(DslString {
                kind,
                node: v.node,
                value: &scalar.value,
                verbatim: scalar.verbatim,
                plain: scalar.plain,
                owner: v.owner,
            })
        })
        .collect()
}

/// What a rules file holds, by its place in the rules folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesFile {
    /// [`EDITIONS_FILE`].
    Editions,
    /// [`MODULES_FILE`].
    Modules,
    /// [`BASE_FILE`].
    Base,
    /// A `.yaml` (or `.yml`) file directly inside [`EXPANSIONS_DIR`].
    Expansion,
}

/// Which rules file `relative` (a path relative to the rules folder,
/// `/`-separated) is, if it is one: the one place that says which files are
/// rules files. (Whether an expansion file's name is accepted is
/// [`crate::lexicon::accepts_file_name`]'s to say, and reported when it is read.)
pub fn rules_file(relative: &str) -> Option<RulesFile> {
    match relative {
        EDITIONS_FILE => Some(RulesFile::Editions),
        MODULES_FILE => Some(RulesFile::Modules),
        BASE_FILE => Some(RulesFile::Base),
        _ => {
            let name = relative.strip_prefix(EXPANSIONS_DIR)?.strip_prefix('/')?;
            let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
            (yaml && !name.contains('/')).then_some(RulesFile::Expansion)
        }
    }
}

/// Whether the file name `name` is an editor's backup (`abbey.yaml~`) or
/// auto-save (`#abbey.yaml#`): never a rules file, and skipped where the
/// rules folder is listed, as hidden files are (the language server says so
/// at the file).
pub fn editor_backup(name: &std::ffi::OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    bytes.ends_with(b"~") || (bytes.len() > 1 && bytes.starts_with(b"#") && bytes.ends_with(b"#"))
}

/// Whether `relative` (a path relative to the rules folder, `/`-separated)
/// is a translation file: `translations/languages.yaml`, or a file of a
/// language's folder that mirrors a rules file, or its `program.yaml` or
/// `glossary.yaml`.
pub fn translation_file(relative: &str) -> bool {
    let Some(rest) = relative.strip_prefix("translations/") else { return false };
    if rest == "languages.yaml" {
        return true;
    }
    let Some((lang, file)) = rest.split_once('/') else { return false };
    !lang.is_empty()
        && !lang.starts_with('.')
        && (file == "program.yaml" || file == "glossary.yaml" || rules_file(file).is_some())
}
