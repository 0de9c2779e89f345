//! The raw records handed to `check`, as serde reads them from a file's
//! tree, one record type per level of a rules file.
//!
//! Field order is the order serde lists the expected keys in when it finds
//! an unknown one; keep it as the rules README documents the keys. The
//! records are also the JSON Schemas of the files (`crate::schema`): each
//! doc comment is the description an editor shows for the key, and
//! `x-offer` names what the schema offers from the rules there ([`offer`]).

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::json;

use super::Spanned;
use crate::diagnostics::FileId;

/// The pattern of kebab-case ids (items, errata).
pub const KEBAB: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";
/// The pattern of snake_case ids (expansions, modules, derived flags).
pub const SNAKE: &str = "^[a-z0-9]+(_[a-z0-9]+)*$";

/// The `x-offer` values the records name, each filled in from the rules.
pub mod offer {
    /// A condition string: the names it starts with are offered, each
    /// described, and the description says what a condition is.
    pub const CONDITION: &str = "condition";
    /// An edition id (or, on an array, a list of them).
    pub const EDITIONS: &str = "editions";
    /// A rule variant's id.
    pub const VARIANT: &str = "variant";
    /// A phase id.
    pub const PHASE: &str = "phase";
    /// A step id, each offered with its title.
    pub const STEP: &str = "step";
    /// An expansion id, offered with its name; any snake_case id is accepted.
    pub const EXPANSION: &str = "expansion";
    /// A list of markers: their names offered, their form as a pattern.
    pub const MARKERS: &str = "markers";
    /// An item's effect: its form as a pattern naming the steps.
    pub const EFFECT: &str = "effect";
    /// A group of alternatives: the groups the items name are offered.
    pub const GROUP: &str = "group";
    /// The sections of a file's items: each section key a property.
    pub const SECTIONS: &str = "sections";
}

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
    /// `until_done`: "repeat actions 1 and 2 until …" — the item's sub-items
    /// are played, then the player is asked whether to play them again.
    #[schemars(extend("enum" = carcassonne_rules_core::ItemRepeat::NAMES))]
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
