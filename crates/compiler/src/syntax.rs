//! Reading the rules folder: YAML files into raw, spanned records.
//!
//! Nothing here knows what a name means; `check` does that.

use crate::codes::Code;
use std::collections::BTreeMap;
use std::path::Path;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::json;

use carcassonne_rules_core::escape::terminal::quoted;

use crate::diagnostics::{Diagnostic, FileId, Sources, Span};
use crate::lexicon;
use crate::read::Refused;
use crate::schema::{KEBAB, SNAKE, offer};

pub use spanned::Spanned;

pub mod de;
mod spanned;
pub mod tree;

// ---- the raw records handed to `check`, as serde reads them -----------------
//
// Field order is the order serde lists the expected keys in when it finds an
// unknown one; keep it as the rules README documents the keys. The records
// are also the JSON Schemas of the files (`schema`): each doc comment is the
// description an editor shows for the key, and `x-offer` names what the
// schema offers from the rules there (`schema::offer`).

/// The editions of Carcassonne and the publishers' rule variants.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEditionsFile {
    /// The editions the order of play distinguishes.
    pub editions: Vec<RawEdition>,
    /// The publishers' rule variants (conditions test them with `variant == rgg`).
    #[serde(default)]
    pub variants: Vec<RawVariant>,
}

/// An edition.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(inline)]
pub struct RawEdition {
    /// Short id, used in conditions and text variants (`C1`).
    pub id: Spanned<String>,
    /// Full name, for people.
    pub name: Spanned<String>,
    /// The publisher's rules played unless `--variant` says otherwise.
    #[schemars(extend("x-offer" = offer::VARIANT))]
    pub variant: Option<Spanned<String>>,
}

/// A publisher's rules.
// `hig`, `zmg`, `rgg`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(inline)]
pub struct RawVariant {
    /// Short id, used in `variant == …` tests.
    pub id: Spanned<String>,
    /// The publisher.
    pub name: Spanned<String>,
}

/// The registry: every expansion, its modules and editions, and the derived flags.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawModulesFile {
    /// Every expansion the order of play knows.
    pub expansions: Vec<RawExpansion>,
    /// Derived flags: named conditions, usable in conditions like a module id
    /// (`tiles_in_supply: abbey or halflings or german_castles`).
    // Read as each name with its defining condition, in file order.
    #[serde(default, deserialize_with = "entries")]
    #[schemars(schema_with = "derived_flags")]
    pub derived: Vec<(Spanned<String>, Spanned<String>)>,
}

/// An expansion (a product): its editions and modules. The order of the list
/// breaks ties between items anchored to the same place (earlier expansion
/// first).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "expansion")]
pub struct RawExpansion {
    /// snake_case id, accepted by `--with`, and named by its expansion file.
    #[schemars(extend("pattern" = SNAKE))]
    pub id: Spanned<String>,
    /// The name printed on the box.
    pub name: Spanned<String>,
    /// The editions the expansion was published for.
    #[schemars(extend("x-offer" = offer::EDITIONS, "uniqueItems" = true))]
    pub editions: Vec<Spanned<String>>,
    /// Its modules.
    pub modules: Vec<RawModule>,
}

/// A module: one part of the expansion that can be played on its own (a
/// selector flag of the wiki page).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "module")]
pub struct RawModule {
    /// The snake_case of the wiki's selector key (`WondersOfHumanity` →
    /// `wonders_of_humanity`).
    // Used in conditions and `--with`.
    #[schemars(extend("pattern" = SNAKE))]
    pub id: Spanned<String>,
    /// What the module is, for people.
    pub name: Spanned<String>,
    /// `false` for a module the wiki's Order of Play page has no selector
    /// for: the conformance check leaves it out.
    #[serde(rename = "wiki", default = "yes")]
    pub on_wiki_page: bool,
}

fn yes() -> bool {
    true
}

/// The phases and steps of a turn, and the base game's items.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBaseFile {
    /// The four phases of a turn.
    // In playing order.
    pub phases: Vec<RawPhase>,
    /// The steps a double turn plays a second time.
    pub double_turn: Option<RawDoubleTurn>,
    /// The items, by section: notes, setup, any_time, a step id, final_scoring.
    #[serde(default, rename = "items", deserialize_with = "entries")]
    #[schemars(schema_with = "sections::<false>")]
    pub sections: RawSections,
    /// The markers an item may carry (`markers: [ROBBERS when robbers]`),
    /// each with what it tells the player.
    #[serde(default)]
    pub markers: Vec<RawMarker>,
}

/// A marker the rules know: a word in capitals on an item that points the
/// player at an expansion's own rule (`ROBBERS`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "marker")]
pub struct RawMarker {
    /// The marker as items write it: capitals and `_` (`ROBBER_CHOICE`);
    /// shown with spaces (`ROBBER CHOICE`), or in its translation.
    #[schemars(extend("pattern" = "^[A-Z][A-Z_]*$"))]
    pub id: Spanned<String>,
    /// What it tells the player where it shows.
    pub meaning: Spanned<String>,
}

/// The steps a double turn (the builder) plays once more, `from` to `to` in
/// turn order; a step of the block keeps its own repeat (3B, once per
/// completed feature).
// Written `double_turn: { from: 1B, to: 4A, when: builder }`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "double_turn")]
pub struct RawDoubleTurn {
    /// The block's first step (`1B`).
    #[schemars(extend("x-offer" = offer::STEP))]
    pub from: Spanned<String>,
    /// The block's last step (`4A`).
    #[schemars(extend("x-offer" = offer::STEP))]
    pub to: Spanned<String>,
    /// Where the selection has double turns (`builder`).
    #[schemars(extend("x-offer" = offer::CONDITION))]
    pub when: Option<Spanned<String>>,
}

/// A phase of the turn and its steps.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "phase")]
pub struct RawPhase {
    /// The phase's number.
    #[schemars(extend("x-offer" = offer::PHASE))]
    pub id: Spanned<String>,
    /// The phase's heading.
    pub title: Spanned<String>,
    /// Its steps, in playing order.
    pub steps: Vec<RawStep>,
}

/// A step of the phase; items attach to it by its id.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "step")]
pub struct RawStep {
    /// The step's id (`1B`, `2B-1`).
    // Also the key of its items' section.
    #[schemars(extend("x-offer" = offer::STEP))]
    pub id: Spanned<String>,
    /// The step's heading.
    pub title: Spanned<String>,
    /// The step exists only where this holds (2D needs the dragon).
    #[schemars(extend("x-offer" = offer::CONDITION))]
    pub when: Option<Spanned<String>>,
    /// `per_feature` (once per completed feature, 3B), optionally followed by
    /// `when CONDITION`. The double turn is the block `double_turn:`, not a
    /// step's repeat.
    #[schemars(extend("pattern" = "^per_feature( when .+)?$", "examples" = ["per_feature"]))]
    pub repeat: Option<Spanned<String>>,
    /// The player does exactly one of the step's items (2B-1, 2B-2).
    #[serde(default)]
    pub choose_one: bool,
    /// With `choose_one`: the player may also do none of the step's items
    /// (2B-1: deploying is optional).
    pub may_pass: Option<Spanned<bool>>,
}

/// The items one expansion brings, by section.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawExpansionFile {
    /// The id of the expansion in modules.yaml whose items this file holds.
    #[schemars(extend("x-offer" = offer::EXPANSION))]
    pub expansion: Spanned<String>,
    /// The items, by section: notes, setup, any_time, a step id, final_scoring.
    #[serde(default, rename = "items", deserialize_with = "entries")]
    #[schemars(schema_with = "sections::<true>")]
    pub sections: RawSections,
}

impl RawExpansionFile {
    /// The file, for diagnostics about it as a whole.
    pub fn file(&self) -> FileId {
        self.expansion.span.file
    }
}

/// One rule of the turn order.
// rules/README.md tells each key.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "item")]
pub struct RawItem {
    /// Unique kebab-case id, across all files (`abbey-play-from-supply`); the
    /// target of `after`, `before` and `under`.
    #[schemars(extend("pattern" = KEBAB))]
    pub id: Spanned<String>,
    /// The rule, in English, in our own words. Wording that differs by
    /// edition: `Place a {C1: follower | C2, WE: meeple} on the tile.`
    pub text: Spanned<String>,
    /// When the item shows (with its parent's and its step's conditions).
    /// Required on the top-level items of an expansion file; children inherit
    /// their parent's.
    #[schemars(extend("x-offer" = offer::CONDITION))]
    pub when: Option<Spanned<String>>,
    /// Markers shown on the item: a name, an optional quoted argument, an
    /// optional condition (`MESSAGES "#1B" when messages and edition == C1`).
    #[serde(default)]
    #[schemars(extend("x-offer" = offer::MARKERS))]
    pub markers: Vec<Spanned<String>>,
    /// Editions in which the item comes from another edition (the wiki's
    /// markC1/markC2/markWE); children inherit it.
    #[serde(default)]
    #[schemars(extend("x-offer" = offer::EDITIONS, "uniqueItems" = true))]
    pub foreign: Vec<Spanned<String>>,
    /// Id of a sibling item this one must follow. (`carcassonne-rules lsp`
    /// completes the ids it may name.)
    #[schemars(extend("pattern" = KEBAB))]
    pub after: Option<Spanned<String>>,
    /// Id of a sibling item this one must precede. (`carcassonne-rules lsp`
    /// completes the ids it may name.)
    #[schemars(extend("pattern" = KEBAB))]
    pub before: Option<Spanned<String>>,
    /// Id of an item (any file, same section) this one becomes a child of.
    /// (`carcassonne-rules lsp` completes the ids it may name.)
    #[schemars(extend("pattern" = KEBAB))]
    pub under: Option<Spanned<String>>,
    /// What carrying the item out does to the turn: `skip 2B-1, 2B-2`, `go
    /// back to 1B`, `double turn`, `next feature` or `forbid ITEM, …` (`for
    /// the turn`).
    #[schemars(extend("x-offer" = offer::EFFECT, "examples" = ["double turn", "go back to 1B", "skip 2B-1, 2B-2", "next feature", "forbid phantom-deploy-flier"]))]
    pub effect: Option<Spanned<String>>,
    /// What the item is when a turn is played: `action` (the default),
    /// `condition` (its sub-items and effect apply only when it holds),
    /// `group` (a heading: never asked) or `note` (read, never played).
    #[schemars(extend("enum" = ["action", "condition", "group", "note"]))]
    pub role: Option<Spanned<String>>,
    /// "You may": the player may decline the action (with `choose_one`: take
    /// none of the options).
    pub optional: Option<Spanned<bool>>,
    /// The sub-items are options: the player takes one of them, and only that
    /// one is played.
    pub choose_one: Option<Spanned<bool>>,
    /// "Only once" during the whole turn, both parts of a double turn counted
    /// (`any_time`).
    pub once: Option<Spanned<bool>>,
    /// What happens when the parent action was not done (its last sub-item):
    /// played only then; the other sub-items only when it was done.
    pub otherwise: Option<Spanned<bool>>,
    /// "You must": an action that cannot be declined once it is reached.
    pub must: Option<Spanned<bool>>,
    /// Who carries the item out, when not the active player: `left`, `each`,
    /// `each_from_left`, `owner` or `scorers`; sub-items inherit it.
    #[schemars(extend("enum" = ["active", "left", "each", "each_from_left", "owner", "scorers"]))]
    pub actor: Option<Spanned<String>>,
    /// `per_thing`: "for each tree and each meeple" — an optional action
    /// played again, once per thing, until the player declines it.
    #[schemars(extend("enum" = ["per_thing"]))]
    pub repeat: Option<Spanned<String>>,
    /// "If you did none of the above": ids of earlier items of the same step;
    /// the item is played only when none of them was done in this pass of the
    /// step.
    #[serde(default)]
    pub none_of: Vec<Spanned<String>>,
    /// A group of alternatives: of the items that name the same group, at
    /// most one shows for any selection (`carcassonne-rules verify` proves
    /// it).
    #[schemars(extend("x-offer" = offer::GROUP))]
    pub one_of: Option<Spanned<String>>,
    /// Sub-items, in order.
    #[serde(default)]
    pub children: Vec<RawItem>,
}

/// The items of one file, by section key (`1B`, `setup`, …), in file order.
pub type RawSections = Vec<(Spanned<String>, Vec<RawItem>)>;

/// The schema of `items:`, a mapping from section key to a list of items:
/// `x-offer` makes each section of the rules a key. `WHEN`: the top-level
/// items (those of an expansion file) need a condition.
fn sections<const WHEN: bool>(generator: &mut SchemaGenerator) -> Schema {
    let item = generator.subschema_for::<RawItem>();
    let top_level = if WHEN {
        json!({
            "description": "A top-level item of an expansion file: it needs `when`.",
            "allOf": [item, { "required": ["when"] }],
        })
    } else {
        item.to_value()
    };
    generator.definitions_mut().insert("top_level_item".into(), top_level);
    json_schema!({
        "type": "object",
        "additionalProperties": { "type": "array", "items": { "$ref": "#/definitions/top_level_item" } },
        "x-offer": offer::SECTIONS,
    })
}

/// The schema of `derived:`, a mapping from flag name to condition.
fn derived_flags(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "propertyNames": { "pattern": SNAKE },
        "additionalProperties": { "description": "What the flag stands for.", "x-offer": offer::CONDITION },
    })
}

/// A YAML mapping as its entries in file order. The reader itself refuses a
/// key written twice in one mapping.
pub(crate) fn entries<'de, D, K, V>(deserializer: D) -> Result<Vec<(K, V)>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: Deserialize<'de>,
    V: Deserialize<'de>,
{
    struct Entries<K, V>(std::marker::PhantomData<(K, V)>);
    impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> serde::de::Visitor<'de> for Entries<K, V> {
        type Value = Vec<(K, V)>;
        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("a map")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
            while let Some(entry) = map.next_entry()? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_map(Entries(std::marker::PhantomData))
}

/// Everything read from a rules folder. Files that failed to parse are absent
/// (their diagnostics are in `problems`).
#[derive(Debug, Default)]
pub struct RawRules {
    /// From `editions.yaml`.
    pub editions: Vec<RawEdition>,
    /// The rule variants, from `editions.yaml`.
    pub variants: Vec<RawVariant>,
    /// From `modules.yaml`.
    pub expansions: Vec<RawExpansion>,
    /// Derived flags of `modules.yaml`: each name with its defining condition.
    pub derived: Vec<(Spanned<String>, Spanned<String>)>,
    /// The turn's skeleton, from `base.yaml`.
    pub phases: Vec<RawPhase>,
    /// The double-turn block of `base.yaml`, if it declares one.
    pub double_turn: Option<RawDoubleTurn>,
    /// The markers `base.yaml` declares.
    pub markers: Vec<RawMarker>,
    /// `base.yaml`, if it was read.
    pub base_file: Option<FileId>,
    /// The items of `base.yaml`, by section.
    pub base_sections: RawSections,
    /// The files of `expansions/`, in name order.
    pub expansion_files: Vec<RawExpansionFile>,
    /// The files read, relative to the rules folder (`/`-separated), in reading order.
    pub inputs: Vec<String>,
    /// Which files could not be read: what follows only from their absence is
    /// not reported again.
    pub failed: Failed,
    /// The files that could not be read or parsed, relative to the rules folder.
    pub unread: Vec<String>,
}

/// The rules files that could not be read or parsed.
#[derive(Debug, Default, Clone, Copy)]
pub struct Failed {
    /// `editions.yaml`: edition and variant names cannot be checked.
    pub editions: bool,
    /// `modules.yaml`: module, expansion and flag names cannot be checked.
    pub modules: bool,
    /// `base.yaml`: step and section names cannot be checked.
    pub base: bool,
    /// Some expansion file: references to items cannot be checked, nor which
    /// expansions have a file.
    pub expansion: bool,
}

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
/// [`lexicon::accepts_file_name`]'s to say, and reported when it is read.)
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
/// language's folder that mirrors a rules file, or its `program.yaml`.
pub fn translation_file(relative: &str) -> bool {
    let Some(rest) = relative.strip_prefix("translations/") else { return false };
    if rest == "languages.yaml" {
        return true;
    }
    let Some((lang, file)) = rest.split_once('/') else { return false };
    !lang.is_empty() && !lang.starts_with('.') && (file == "program.yaml" || rules_file(file).is_some())
}

/// Reads every rules file under `dir`. Files are visited in name order so the
/// outcome never depends on the file system's listing order.
pub fn load_dir(dir: &Path, sources: &mut Sources, problems: &mut Vec<Diagnostic>) -> RawRules {
    let mut raw = RawRules::default();
    if !dir.is_dir() {
        let problem = if dir.exists() {
            Diagnostic::global(Code::RulesFolder, format!("`{}` is not a folder", dir.display()))
                .with_help("--rules takes the rules folder, the one that holds base.yaml")
        } else {
            Diagnostic::global(Code::RulesFolder, format!("rules folder `{}` not found", dir.display()))
                .with_help("run from the repository root, or pass --rules DIR")
        };
        problems.push(problem);
        raw.failed = Failed { editions: true, modules: true, base: true, expansion: true };
        return raw;
    }
    if [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().all(|f| !dir.join(f).exists()) {
        problems.push(
            Diagnostic::global(Code::RulesFolder, format!("`{}` holds no rules", dir.display()))
                .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/"),
        );
        raw.failed = Failed { editions: true, modules: true, base: true, expansion: true };
        return raw;
    }
    load(dir, &DiskFiles { dir }, None, sources, problems)
}

/// Reads the rules from `files` (path relative to the rules folder,
/// `/`-separated → text) instead of the disk: an editor's buffers. Diagnostics
/// name each file as `dir` joined with its path.
pub fn load_files(
    dir: &Path,
    files: &BTreeMap<String, String>,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawRules {
    if [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().all(|f| !files.contains_key(*f)) {
        problems.push(
            Diagnostic::global(Code::RulesFolder, format!("`{}` holds no rules", dir.display()))
                .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/"),
        );
        return RawRules {
            failed: Failed { editions: true, modules: true, base: true, expansion: true },
            ..RawRules::default()
        };
    }
    load(dir, &MemoryFiles { dir, files }, None, sources, problems)
}

/// As [`load_files`], reusing what `cache` holds: a file whose text is the
/// one last deserialized under its name is not read again.
pub fn load_files_cached(
    dir: &Path,
    files: &BTreeMap<String, String>,
    cache: &mut ParseCache,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawRules {
    if [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().all(|f| !files.contains_key(*f)) {
        return load_files(dir, files, sources, problems);
    }
    load(dir, &MemoryFiles { dir, files }, Some(cache), sources, problems)
}

/// Rules files as last deserialized, by their path relative to the rules
/// folder: the text, the file id its spans carry, and what it gave (one entry
/// a file, so it stays as small as the rules). The language server compiles
/// on every keystroke, and reading the YAML is most of a compile; only the
/// files that changed are read again. A file that does not deserialize is
/// not kept.
#[derive(Default)]
pub struct ParseCache {
    files: std::collections::HashMap<String, Cached>,
}

/// One file as last read: its text, its id, its tree and its records.
struct Cached {
    text: String,
    file: FileId,
    tree: tree::Node,
    records: Box<dyn std::any::Any>,
}

impl ParseCache {
    fn get<T: Clone + 'static>(&self, name: &str, file: FileId, text: &str) -> Option<T> {
        let cached = self.files.get(name)?;
        (cached.text == text && cached.file == file).then(|| cached.records.downcast_ref::<T>().cloned()).flatten()
    }

    fn put<T: Clone + 'static>(&mut self, name: &str, file: FileId, text: String, read: Read<T>) {
        let records = Box::new(read.records);
        self.files.insert(name.to_string(), Cached { text, file, tree: read.tree, records });
    }

    /// The tree of the file `name` (relative to the rules folder) if `text`
    /// is the text last read under that name: what `check` read, for the
    /// questions an editor asks, so a clean file is parsed once.
    pub fn tree(&self, name: &str, text: &str) -> Option<&tree::Node> {
        self.files.get(name).filter(|cached| cached.text == text).map(|cached| &cached.tree)
    }
}

/// Where the rules files come from: a folder, or texts held in memory.
trait RulesFiles {
    /// The text of the file at `rel` (relative to the rules folder).
    fn read(&self, rel: &str) -> Result<String, Diagnostic>;
    /// The names of the entries of `expansions/`, in any order.
    fn expansion_names(&self) -> Result<Vec<std::ffi::OsString>, Diagnostic>;
}

struct DiskFiles<'a> {
    dir: &'a Path,
}

impl RulesFiles for DiskFiles<'_> {
    fn read(&self, rel: &str) -> Result<String, Diagnostic> {
        read_text(&self.dir.join(rel))
    }

    fn expansion_names(&self) -> Result<Vec<std::ffi::OsString>, Diagnostic> {
        list_folder(&self.dir.join(EXPANSIONS_DIR))
    }
}

struct MemoryFiles<'a> {
    dir: &'a Path,
    files: &'a BTreeMap<String, String>,
}

impl RulesFiles for MemoryFiles<'_> {
    fn read(&self, rel: &str) -> Result<String, Diagnostic> {
        self.files.get(rel).cloned().ok_or_else(|| {
            Diagnostic::about_file(
                Code::MissingFile,
                self.dir.join(rel).display().to_string(),
                format!("`{}` is missing", self.dir.join(rel).display()),
            )
            .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/")
        })
    }

    fn expansion_names(&self) -> Result<Vec<std::ffi::OsString>, Diagnostic> {
        let prefix = format!("{EXPANSIONS_DIR}/");
        Ok(self
            .files
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|name| !name.contains('/'))
            .map(std::ffi::OsString::from)
            .collect())
    }
}

/// Reads every rules file from `files`, in name order.
fn load(
    dir: &Path,
    files: &dyn RulesFiles,
    cache: Option<&mut ParseCache>,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawRules {
    let mut raw = RawRules::default();
    let mut loader = Loader { dir, files, cache, sources, problems, inputs: Vec::new(), unread: Vec::new() };

    let editions = loader.read::<RawEditionsFile>(Path::new(EDITIONS_FILE));
    raw.failed.editions = editions.is_none();
    if let Some((_, file)) = editions {
        raw.editions = file.editions;
        raw.variants = file.variants;
    }
    let modules = loader.read::<RawModulesFile>(Path::new(MODULES_FILE));
    raw.failed.modules = modules.is_none();
    if let Some((_, file)) = modules {
        raw.expansions = file.expansions;
        raw.derived = file.derived;
    }
    let base = loader.read::<RawBaseFile>(Path::new(BASE_FILE));
    raw.failed.base = base.is_none();
    if let Some((id, file)) = base {
        raw.base_file = Some(id);
        raw.phases = file.phases;
        raw.double_turn = file.double_turn;
        raw.base_sections = file.sections;
        raw.markers = file.markers;
    }

    let expansions_dir = dir.join(EXPANSIONS_DIR);
    let mut names = match files.expansion_names() {
        Ok(names) => names,
        Err(problem) => {
            loader.problems.push(problem);
            raw.failed.expansion = true;
            Vec::new()
        }
    };
    names.sort();
    // Hidden files (editor swap files, `.DS_Store`) and editors' backups are not rules.
    for name in names.into_iter().filter(|n| !n.as_encoded_bytes().starts_with(b".") && !editor_backup(n)) {
        let Some(name) = name.to_str().filter(|n| lexicon::accepts_file_name(n)) else {
            let lossy = name.to_string_lossy();
            let shown_name = quoted(&format!("{}/{lossy}", expansions_dir.display()));
            let help = if lossy.ends_with(".yaml") || lossy.ends_with(".yml") {
                format!(
                    "expansion files are named `{}`, such as `abbey-and-mayor.yaml`: rename it",
                    lexicon::RULES_FILE_PATTERN
                )
            } else {
                "rules files end in `.yaml`; rename it, or move it out of the rules folder".to_string()
            };
            loader.problems.push(
                Diagnostic::global(Code::NotARulesFile, format!("`{shown_name}` is not a rules file")).with_help(help),
            );
            raw.failed.expansion = true;
            continue;
        };
        let rel = Path::new(EXPANSIONS_DIR).join(name);
        match loader.read::<RawExpansionFile>(&rel) {
            Some((_, file)) => raw.expansion_files.push(file),
            None => raw.failed.expansion = true,
        }
    }
    raw.inputs = loader.inputs;
    raw.unread = loader.unread;
    raw
}

/// The rules files of the folder `dir` as [`load_dir`] would read them, for
/// a reader of its own (the language server): every text by its path
/// relative to the folder (`base.yaml`, `expansions/abbey.yaml`), and a
/// diagnostic for each one the checked reader refuses (a link, a FIFO, a
/// device, a file over [`MAX_FILE_BYTES`], a linked `expansions/`). A
/// missing file is neither: compiling the texts says it is missing.
pub fn read_folder(dir: &Path) -> (BTreeMap<String, String>, Vec<Diagnostic>) {
    let mut texts = BTreeMap::new();
    let mut refused = Vec::new();
    let mut names: Vec<String> = [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().map(|n| n.to_string()).collect();
    match list_folder(&dir.join(EXPANSIONS_DIR)) {
        Ok(found) => names.extend(
            found
                .iter()
                .filter_map(|n| n.to_str())
                .filter(|n| !n.starts_with('.') && !editor_backup(std::ffi::OsStr::new(n)))
                .map(|n| format!("{EXPANSIONS_DIR}/{n}")),
        ),
        Err(problem) => refused.push(problem),
    }
    names.extend(translation_names(dir, &mut refused));
    for rel in names {
        match read_file(dir, &rel) {
            Ok(Some(text)) => {
                texts.insert(rel, text);
            }
            Ok(None) => {}
            Err(problem) => refused.push(problem),
        }
    }
    (texts, refused)
}

/// The translation files of the folder `dir`, as [`read_folder`] reads them:
/// `translations/languages.yaml` and each language folder's files (one level
/// of `expansions/` in it), by their path relative to `dir`.
pub(crate) fn translation_names(dir: &Path, refused: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut names = vec!["translations/languages.yaml".to_string()];
    let mut folders = vec!["translations".to_string()];
    while let Some(folder) = folders.pop() {
        let found = match list_folder(&dir.join(&folder)) {
            Ok(found) => found,
            Err(problem) => {
                refused.push(problem);
                continue;
            }
        };
        for name in found.iter().filter_map(|n| n.to_str()).filter(|n| !n.starts_with('.')) {
            let rel = format!("{folder}/{name}");
            if translation_file(&rel) {
                names.push(rel);
            } else if folder.matches('/').count() < 2 && dir.join(&rel).is_dir() {
                folders.push(rel);
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The text of the rules file `rel` of the folder `dir`, through the checked
/// reader; `None` when there is no such file.
pub fn read_file(dir: &Path, rel: &str) -> Result<Option<String>, Diagnostic> {
    let path = dir.join(rel);
    match std::fs::symlink_metadata(&path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_text(&path).map(Some),
    }
}

/// The names in the folder `dir`, which may be missing (no names) but must
/// be a folder of its own, not a symbolic link to one elsewhere.
fn list_folder(dir: &Path) -> Result<Vec<std::ffi::OsString>, Diagnostic> {
    let shown_dir = quoted(&dir.display().to_string());
    match std::fs::symlink_metadata(dir) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(Diagnostic::global(Code::RulesFolder, format!("`{shown_dir}` is a symbolic link"))
                .with_help(SYMLINK_HELP));
        }
        _ => {}
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|err| Diagnostic::global(Code::RulesFolder, format!("cannot list `{shown_dir}`: {err}")))?;
    Ok(entries.filter_map(Result::ok).map(|e| e.file_name()).collect())
}

/// Why a symbolic link is refused, and what to do instead.
const SYMLINK_HELP: &str = "rules files are read only as regular files inside the rules folder, never through a \
     symbolic link (it could point anywhere): replace the link with a copy of its file";

/// The largest rules file read, in bytes: far beyond any real one (the
/// largest bundled file is about 50 KB), and small enough to read at once.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// Reads and deserializes one YAML file, keeping its text in `sources`; a file
/// that cannot be read or does not fit `T` is a diagnostic at the mistake,
/// which names the file `name`. Only regular files are read, never through a
/// symbolic link, and at most [`MAX_FILE_BYTES`] of them, so a FIFO, a device,
/// a link out of the rules folder or a huge file cannot hang the compiler,
/// leak what it points at or exhaust memory.
pub fn read_yaml<T: for<'de> Deserialize<'de>>(
    path: &Path,
    name: &str,
    sources: &mut Sources,
) -> Result<(FileId, T), Diagnostic> {
    parse_yaml(read_text(path)?, path, name, sources)
}

fn parse_yaml<T: for<'de> Deserialize<'de>>(
    text: String,
    path: &Path,
    name: &str,
    sources: &mut Sources,
) -> Result<(FileId, T), Diagnostic> {
    let file = add_source(text, path, sources);
    deserialize(file, path, name, sources).map(|read| (file, read.records))
}

/// A file's records and the tree they were read from.
struct Read<T> {
    records: T,
    tree: tree::Node,
}

/// Keeps the text of the file at `path` in `sources`.
pub(crate) fn add_source(text: String, path: &Path, sources: &mut Sources) -> FileId {
    sources.add(path.display().to_string(), without_bom(text))
}

/// A file's text without its byte-order mark, which is not part of the YAML.
pub(crate) fn without_bom(text: String) -> String {
    text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text)
}

/// Deserializes `file` of `sources`, the text of the file at `path`.
fn deserialize<T: for<'de> Deserialize<'de>>(
    file: FileId,
    path: &Path,
    name: &str,
    sources: &Sources,
) -> Result<Read<T>, Diagnostic> {
    let content = sources.text(file);
    // The YAML reader takes only `\n` and `\r\n` as line ends: with old Mac
    // line ends the whole file would read as its first line.
    let bytes = content.as_bytes();
    if let Some(at) = (0..bytes.len()).find(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
        // No snippet: a terminal would print the lone `\r` as a jump to the
        // start of the line.
        let (line, col) = crate::diagnostics::line_col(content, at);
        let shown = path.display();
        return Err(Diagnostic::about_file(
            Code::NotText,
            path.display().to_string(),
            format!("`{shown}` has a carriage return without a line feed at {shown}:{line}:{col}"),
        )
        .with_help("save the file with Unix (`\\n`) or Windows (`\\r\\n`) line ends"));
    }
    if content.lines().all(|line| line.trim().is_empty() || line.trim_start().starts_with('#')) {
        return Err(Diagnostic::about_file(
            Code::NotText,
            path.display().to_string(),
            format!("`{}` is empty", path.display()),
        )
        .with_help(format!("{name} must hold a YAML mapping; rules/README.md shows what it contains")));
    }
    let parse = tree::parse_strict(content);
    let read = de::from_tree::<T>(&parse.tree, file);
    match (parse.error, read) {
        (None, Ok(records)) => Ok(Read { records, tree: parse.tree }),
        (None, Err(err)) => Err(record_error(&err, name, file, sources)),
        // What parsed before the error was read as the file is read, in
        // order: a value that does not fit before the error is the first
        // mistake. A key missing or unknown is more likely the error's doing
        // (a line out of place drops the keys below it from their mapping).
        (Some(stop), Err(err)) if !misread(&err) && err.at.as_ref().is_some_and(|at| at.start < stop.at) => {
            Err(record_error(&err, name, file, sources))
        }
        (Some(stop), _) => Err(parse_error(&stop, name, file, sources)),
    }
}

/// Whether the record's error is a key missing or unknown, which a line out
/// of place further down also causes.
fn misread(err: &de::Error) -> bool {
    matches!(err.kind, de::ErrorKind::MissingKey(_) | de::ErrorKind::UnknownKey { .. })
}

/// Why reading the file stopped, as a diagnostic at the place.
fn parse_error(stop: &tree::ParseError, name: &str, file: FileId, sources: &Sources) -> Diagnostic {
    use tree::ParseErrorKind as K;
    let (code, help) = match &stop.kind {
        K::Syntax(words) => return syntax_error_at(stop.at, words, name, file, sources),
        K::TooManyNodes => (
            Code::FileTooLong,
            format!(
                "the YAML reader stops at {} nodes per file, about 35,000 items: this file is too big",
                tree::MAX_NODES
            ),
        ),
        K::TooDeep => (
            Code::FileTooLong,
            "rules files nest a few levels deep (an item's children, their children): look for brackets that never \
             close"
                .to_string(),
        ),
        K::SecondDocument => (
            Code::InvalidYaml,
            "a rules file is one YAML document: remove the `---` above this line, or move what follows it into a \
             file of its own"
                .to_string(),
        ),
    };
    let place = stop_place(sources.text(file), stop.at, file);
    Diagnostic::at(code, sources, place, format!("invalid YAML in {name}"), stop.kind.to_string()).with_help(help)
}

/// The parser's refusal at byte `at` of `file`, with help on the line's
/// indentation where it differs from the line above.
fn syntax_error_at(at: usize, message: &str, name: &str, file: FileId, sources: &Sources) -> Diagnostic {
    let text = sources.text(file);
    let place = stop_place(text, at, file);
    let d = Diagnostic::at(Code::InvalidYaml, sources, place, format!("invalid YAML in {name}"), message);
    // A tab or a quote is what is wrong, whatever the line's indentation.
    let lower = message.to_lowercase();
    let specific = lower.contains("tabs") || lower.contains("quoted scalar");
    let help = if specific { parser_help(&lower) } else { indentation_help(text, at) };
    match help.or_else(|| parser_help(&lower)) {
        Some(help) => d.with_help(help),
        None => d,
    }
}

/// Where reading stopped at byte `at` of `text`: a quote, a bracket or a
/// control character alone, else the word there.
fn stop_place(text: &str, at: usize, file: FileId) -> Span {
    let len = match text[at..].chars().next() {
        Some(c) if "\"'[]{}".contains(c) || (c.is_control() && !c.is_whitespace()) => c.len_utf8(),
        _ => text[at..].find(|c: char| c.is_whitespace() || ":,\"'[]{}".contains(c)).unwrap_or(text.len() - at),
    };
    Span { file, start: at, len: len.max(1) }
}

/// "This line is indented 5 spaces, the keys above 6", when the line of byte
/// `at` starts further in or out than the keys of the line above it.
fn indentation_help(text: &str, at: usize) -> Option<String> {
    let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let this = indent(text[line_start..].lines().next().unwrap_or(""));
    let above = text[..line_start].lines().rev().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))?;
    // The keys of `- id: …` start after the dash.
    let keys = indent(above) + if above.trim_start().starts_with("- ") { 2 } else { 0 };
    (this != keys).then(|| {
        format!(
            "this line is indented {this} spaces and the keys of the line above {keys}: the keys of one mapping \
             line up"
        )
    })
}

/// A file's text, if it is a regular file (not a link) of at most
/// [`MAX_FILE_BYTES`] in UTF-8, through the guarded reader.
fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let shown_path = quoted(&path.display().to_string());
    let problem = |code, message: String| Diagnostic::about_file(code, path.display().to_string(), message);
    crate::read::text(path, MAX_FILE_BYTES).map_err(|refused| match refused {
        Refused::Missing => problem(Code::MissingFile, format!("`{shown_path}` is missing"))
            .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/"),
        Refused::Link => {
            problem(Code::UnreadableFile, format!("`{shown_path}` is a symbolic link")).with_help(SYMLINK_HELP)
        }
        Refused::Folder | Refused::NotRegular => {
            let what = if matches!(refused, Refused::Folder) {
                "a folder"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            problem(Code::UnreadableFile, format!("`{shown_path}` is {what}"))
                .with_help("the rules folder holds YAML files only; remove it or move it elsewhere")
        }
        Refused::Changed => problem(Code::UnreadableFile, format!("`{shown_path}` changed while it was being opened"))
            .with_help("run the command again once nothing else writes into the rules folder"),
        Refused::TooLong => problem(
            Code::FileTooLong,
            format!("`{shown_path}` is longer than {MAX_FILE_BYTES} bytes, the most a rules file may hold"),
        )
        .with_help("split it, or check that it is the file you meant"),
        Refused::NotUtf8 { before } => {
            let (line, col) = crate::diagnostics::line_col(&before, before.len());
            problem(Code::NotText, format!("`{shown_path}` is not UTF-8: invalid byte at {shown_path}:{line}:{col}"))
                .with_help("save the file as UTF-8")
        }
        Refused::Io(err) => problem(Code::UnreadableFile, format!("cannot read `{shown_path}`: {err}")),
    })
}

/// Help for an unknown key that holds a character outside ASCII (every key
/// is ASCII): the key with each such character written as `\u{…}`, so that
/// `whеn` with a Cyrillic `е`, which reads as `when`, is seen.
fn unknown_key(key: &str) -> Option<String> {
    if key.is_ascii() {
        return None;
    }
    let shown: String =
        key.chars().map(|c| if c.is_ascii() { c.to_string() } else { format!("\\u{{{:x}}}", u32::from(c)) }).collect();
    Some(format!("keys are ASCII, and this one is `{shown}`: retype it"))
}

/// Help for the YAML parser's errors, which carry only their words: the
/// common traps of indentation and quoting.
fn parser_help(lower: &str) -> Option<String> {
    let help = if lower.contains("tabs") {
        "YAML indents with spaces only: replace the tab with spaces"
    } else if lower.contains("mapping values are not allowed") {
        "check this line's indentation; and a value containing `: ` must be quoted, such as a text with edition \
         variants: text: \"Place a {C1: follower | C2: meeple}.\""
    } else if lower.contains("quoted scalar") {
        "a quoted value runs on to its closing quote: look for an unclosed quote above"
    } else {
        return None;
    };
    Some(help.to_string())
}

/// A value that does not fit its record as a diagnostic at the value, its
/// code, help and fix from the error's kind.
fn record_error(err: &de::Error, name: &str, file: FileId, sources: &Sources) -> Diagnostic {
    use de::ErrorKind as K;
    let message = err.kind.to_string();
    let Some(at) = &err.at else {
        return Diagnostic::global(Code::InvalidYaml, format!("invalid YAML in {name}: {message}"));
    };
    let code = match &err.kind {
        K::UnknownKey { .. } => Code::UnknownKey,
        K::MissingKey(_) => Code::MissingKey,
        K::DuplicateKey(_) => Code::DuplicateKey,
        K::Expected(_) | K::InvalidBoolean | K::Null | K::Alias | K::Other(_) => Code::InvalidValue,
    };
    let place = Span { file, start: at.start, len: at.len().max(1) };
    let mut d = Diagnostic::at(code, sources, place, format!("invalid YAML in {name}"), &message);
    let help = match &err.kind {
        K::UnknownKey { key, .. } => unknown_key(key),
        K::MissingKey(_) => {
            Some("add it; if it is there, check its indentation: a key indented differently belongs elsewhere".into())
        }
        K::DuplicateKey(_) => Some("a key may appear once per mapping: remove one of them".into()),
        K::Null => Some("write the text here, or leave the key out where it may be left out".into()),
        K::Alias => Some(
            "write the value out here; a condition that many items share can be a derived flag in modules.yaml".into(),
        ),
        K::Expected(_) | K::InvalidBoolean | K::Other(_) => None,
    };
    if let Some(help) = help {
        d = d.with_help(help);
    }
    // The key an unknown one was likely meant to be (`afer` → `after`).
    if let K::UnknownKey { key, expected } = &err.kind
        && let Some(key) = carcassonne_rules_core::suggest::did_you_mean(key, expected.iter().copied())
    {
        d = d.with_suggestion(place, key);
    }
    d
}

struct Loader<'a> {
    dir: &'a Path,
    files: &'a dyn RulesFiles,
    cache: Option<&'a mut ParseCache>,
    sources: &'a mut Sources,
    problems: &'a mut Vec<Diagnostic>,
    inputs: Vec<String>,
    unread: Vec<String>,
}

impl Loader<'_> {
    /// Reads and deserializes one file; reports and returns `None` on failure.
    fn read<T: for<'de> Deserialize<'de> + Clone + 'static>(&mut self, rel: &Path) -> Option<(FileId, T)> {
        let name = rel.iter().map(|part| part.to_string_lossy()).collect::<Vec<_>>().join("/");
        let read = self
            .files
            .read(&name)
            .and_then(|text| self.parse(text, rel, &name))
            .map_err(|d| self.problems.push(d))
            .ok();
        if read.is_none() {
            self.unread.push(name.clone());
        }
        self.inputs.push(name);
        read
    }

    /// [`parse_yaml`], unless the cache holds what this very text, as this
    /// very file, gives.
    fn parse<T: for<'de> Deserialize<'de> + Clone + 'static>(
        &mut self,
        text: String,
        rel: &Path,
        name: &str,
    ) -> Result<(FileId, T), Diagnostic> {
        let path = self.dir.join(rel);
        let file = add_source(text, &path, self.sources);
        read_source(file, &path, name, self.sources, self.cache.as_deref_mut()).map(|records| (file, records))
    }
}

/// Deserializes `file` of `sources` (the text of the file at `path`, named
/// `name` relative to the rules folder), unless `cache` holds what this very
/// text, as this very file, gives; what is read goes into the cache.
pub(crate) fn read_source<T: for<'de> Deserialize<'de> + Clone + 'static>(
    file: FileId,
    path: &Path,
    name: &str,
    sources: &Sources,
    cache: Option<&mut ParseCache>,
) -> Result<T, Diagnostic> {
    let Some(cache) = cache else { return deserialize(file, path, name, sources).map(|read| read.records) };
    if let Some(value) = cache.get::<T>(name, file, sources.text(file)) {
        return Ok(value);
    }
    let read = deserialize::<T>(file, path, name, sources)?;
    let records = read.records.clone();
    cache.put(name, file, sources.text(file).to_string(), read);
    Ok(records)
}
