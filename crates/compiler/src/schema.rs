//! JSON Schemas of the rules files, for rule authors' editors: with a YAML
//! language server (VS Code's YAML extension, Neovim's and Helix's
//! yaml-language-server), a file that names its schema on its first line
//! (`# yaml-language-server: $schema=../generated/schemas/base.schema.json`)
//! gets completion of keys, section names, step ids, module and marker names
//! (each with what it is), hover documentation of every key, and unknown keys
//! flagged as the author types. Item ids are left to the language server,
//! which offers only those an item may name.
//!
//! The schemas are generated from the checked rules, like the Rust code: the
//! ids they offer are the rules' own, so `gen` writes them and `gen --check`
//! fails when they are stale. They check the shape of a file; conditions,
//! texts, markers' conditions and effects stay DSL strings, which the compiler
//! checks (a schema only offers their names and a pattern).
//!
//! The JSON is written by a small writer of its own (keys in the order given
//! here, two-space indentation), so the output does not depend on how a JSON
//! library orders object keys.

use carcassonne_rules_core::escape::markdown::{code, inline};

use crate::model::{MARKERS, Rules};

/// The folder of the schemas inside the generated folder.
pub const SCHEMA_DIR: &str = "schemas";

/// The schema of `editions.yaml`.
pub const EDITIONS: &str = "editions.schema.json";
/// The schema of `modules.yaml`.
pub const MODULES: &str = "modules.schema.json";
/// The schema of `base.yaml`.
pub const BASE: &str = "base.schema.json";
/// The schema of each file of `expansions/`.
pub const EXPANSION: &str = "expansion.schema.json";

/// One generated schema: its file name in [`SCHEMA_DIR`] and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaFile {
    /// `base.schema.json`, …
    pub name: &'static str,
    /// The schema, as pretty-printed JSON ending with a newline.
    pub contents: String,
}

/// The schema a rules file follows, by its path relative to the rules folder
/// (`/`-separated): `base.yaml` → [`BASE`], `expansions/x.yaml` → [`EXPANSION`].
pub fn schema_for(relative: &str) -> Option<&'static str> {
    match relative {
        "editions.yaml" => Some(EDITIONS),
        "modules.yaml" => Some(MODULES),
        "base.yaml" => Some(BASE),
        _ if relative.starts_with("expansions/") && (relative.ends_with(".yaml") || relative.ends_with(".yml")) => {
            Some(EXPANSION)
        }
        _ => None,
    }
}

/// The schemas of every rules file kind. (The wiki crate writes the schema of
/// its errata with the builders below.)
pub fn schemas(rules: &Rules) -> Vec<SchemaFile> {
    let s = Schemas { rules };
    [(EDITIONS, s.editions()), (MODULES, s.modules()), (BASE, s.base()), (EXPANSION, s.expansion())]
        .into_iter()
        .map(|(name, schema)| schema_file(name, &schema))
        .collect()
}

/// A schema written as its file: pretty-printed, ending with a newline.
pub fn schema_file(name: &'static str, schema: &Json) -> SchemaFile {
    let mut contents = String::new();
    schema.write(&mut contents, 0);
    contents.push('\n');
    SchemaFile { name, contents }
}

/// A condition string, described, offering the names a condition starts with.
pub fn condition(rules: &Rules, description: &str) -> Json {
    Schemas { rules }.condition(description)
}

// ---- a minimal JSON value, written in the order it is built --------------------

/// Lists of names are wrapped at this column.
const WIDTH: usize = 100;

/// A JSON value; objects keep their keys in the order given.
pub enum Json {
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object.
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn write(&self, out: &mut String, indent: usize) {
        let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
        match self {
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => out.push_str(&n.to_string()),
            Json::Str(s) => string(out, s),
            Json::Arr(items) if items.is_empty() => out.push_str("[]"),
            Json::Obj(entries) if entries.is_empty() => out.push_str("{}"),
            Json::Arr(items) if items.iter().all(|i| matches!(i, Json::Str(_) | Json::Int(_) | Json::Bool(_))) => {
                // Lists of names: as many to a line as fit.
                let words: Vec<String> = items
                    .iter()
                    .map(|i| {
                        let mut word = String::new();
                        i.write(&mut word, 0);
                        word
                    })
                    .collect();
                let inline = words.join(", ");
                if indent + inline.len() + 2 <= WIDTH {
                    out.push_str(&format!("[{inline}]"));
                    return;
                }
                out.push('[');
                let mut line = 0;
                for (i, word) in words.iter().enumerate() {
                    if i == 0 || line + word.len() + 2 > WIDTH {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        pad(out, indent + 2);
                        line = indent + 2;
                    } else {
                        out.push_str(", ");
                        line += 2;
                    }
                    out.push_str(word);
                    line += word.len();
                }
                out.push('\n');
                pad(out, indent);
                out.push(']');
            }
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    pad(out, indent + 2);
                    item.write(out, indent + 2);
                }
                out.push('\n');
                pad(out, indent);
                out.push(']');
            }
            Json::Obj(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    pad(out, indent + 2);
                    string(out, key);
                    out.push_str(": ");
                    value.write(out, indent + 2);
                }
                out.push('\n');
                pad(out, indent);
                out.push('}');
            }
        }
    }
}

/// A JSON string literal.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A JSON string.
pub fn str(s: impl Into<String>) -> Json {
    Json::Str(s.into())
}

/// A JSON object with these entries, in order.
pub fn obj<K: Into<String>>(entries: Vec<(K, Json)>) -> Json {
    Json::Obj(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

/// A JSON array of strings.
pub fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Json {
    Json::Arr(items.into_iter().map(|s| str(s.as_ref())).collect())
}

/// `{"description": …, "type": "string"}` with more entries.
pub fn typed(kind: &str, description: &str, more: Vec<(&str, Json)>) -> Json {
    let mut entries = vec![("description", str(description)), ("type", str(kind))];
    entries.extend(more);
    obj(entries)
}

/// An array whose elements follow `items`.
pub fn array_of(description: &str, items: Json) -> Json {
    typed("array", description, vec![("items", items)])
}

/// An object with these properties and no others.
pub fn closed<K: Into<String>>(description: &str, required: &[&str], properties: Vec<(K, Json)>) -> Json {
    let mut entries = vec![("description", str(description)), ("type", str("object"))];
    if !required.is_empty() {
        entries.push(("required", strings(required)));
    }
    entries.push(("properties", obj(properties)));
    entries.push(("additionalProperties", Json::Bool(false)));
    obj(entries)
}

/// A string offered from `values` by completion, though any string of the
/// right form (`pattern`, if given) is accepted: for ids a file may be about to
/// define, and for DSL strings that start with a name.
pub fn offered(description: &str, values: Vec<String>, pattern: Option<&str>) -> Json {
    let mut free = vec![("type", str("string"))];
    if let Some(p) = pattern {
        free.push(("pattern", str(p)));
    }
    obj(vec![
        ("description", str(description)),
        ("anyOf", Json::Arr(vec![obj(vec![("enum", strings(values))]), obj(free)])),
    ])
}

/// Like [`offered`], each value with a Markdown description that an editor
/// shows beside it in completion (`markdownEnumDescriptions`, which VS Code's
/// and Red Hat's YAML language servers read).
fn described(description: &str, values: Vec<(String, String)>, pattern: Option<&str>) -> Json {
    let (ids, descriptions): (Vec<String>, Vec<String>) = values.into_iter().unzip();
    let named = obj(vec![("enum", strings(ids)), ("markdownEnumDescriptions", strings(descriptions))]);
    let mut free = vec![("type", str("string"))];
    if let Some(p) = pattern {
        free.push(("pattern", str(p)));
    }
    obj(vec![("description", str(description)), ("anyOf", Json::Arr(vec![named, obj(free)]))])
}

/// A reference to a definition of the same document.
pub fn reference(name: &str) -> Json {
    obj(vec![("$ref", str(format!("#/definitions/{name}")))])
}

/// A whole schema document.
pub fn document(title: &str, description: &str, body: Json, definitions: Vec<(&str, Json)>) -> Json {
    let Json::Obj(mut entries) = body else { return body };
    let mut head = vec![
        ("$schema".to_string(), str("http://json-schema.org/draft-07/schema#")),
        ("title".to_string(), str(title)),
        ("description".to_string(), str(description)),
    ];
    entries.retain(|(k, _)| k != "description");
    head.extend(entries);
    if !definitions.is_empty() {
        head.push(("definitions".to_string(), obj(definitions)));
    }
    Json::Obj(head)
}

/// The pattern of kebab-case ids (items, errata).
pub const KEBAB: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";
const SNAKE: &str = "^[a-z0-9]+(_[a-z0-9]+)*$";
/// What every schema's description ends with.
pub const GENERATED: &str = "Generated by `carcassonne-rules gen` from the rules; do not edit.";

// ---- the schemas --------------------------------------------------------------

struct Schemas<'r> {
    rules: &'r Rules,
}

impl Schemas<'_> {
    fn edition_ids(&self) -> Vec<String> {
        self.rules.catalog.editions.iter().map(|e| e.id.clone()).collect()
    }

    fn step_ids(&self) -> Vec<String> {
        self.rules.steps().map(|s| s.id.clone()).collect()
    }

    /// Module and derived-flag ids, the names a condition starts with, each
    /// with what it is.
    fn condition_names(&self) -> Vec<(String, String)> {
        let rules = self.rules;
        let mut names: Vec<(String, String)> = Vec::new();
        for expansion in &rules.catalog.expansions {
            for module in &expansion.modules {
                let about = format!("**{}**, a module of *{}*", inline(&module.name), inline(&expansion.name));
                names.push((module.id.clone(), about));
            }
        }
        names.sort();
        for flag in &rules.flags {
            names.push((flag.id.clone(), format!("derived flag: {}", code(&rules.dsl(&flag.when).to_string()))));
        }
        names.push(("edition".to_string(), "`edition == C1`: the game's edition".to_string()));
        names.push(("variant".to_string(), "`variant == rgg`: the publisher's rules".to_string()));
        names.push(("not".to_string(), "`not …`: the opposite".to_string()));
        names
    }

    fn condition(&self, description: &str) -> Json {
        let editions = self.edition_ids().join(", ");
        let variants: Vec<&str> = self.rules.catalog.variants.iter().map(|v| v.id.as_str()).collect();
        let text = format!(
            "{description} A condition (checked by the compiler): module and derived-flag ids joined by `and`, `or`, \
             `not` and parentheses; `edition == C1` (editions: {editions}); `variant == rgg` (publishers' rules: {}).",
            variants.join(", ")
        );
        described(&text, self.condition_names(), None)
    }

    /// The groups of alternatives the items name.
    fn groups(&self) -> Vec<String> {
        let mut groups: Vec<String> = Vec::new();
        for group in self.rules.items().into_iter().filter_map(|i| i.one_of.as_ref()) {
            if !groups.contains(group) {
                groups.push(group.clone());
            }
        }
        groups
    }

    /// Every item key, described; `top_level_when`: the top-level items of an
    /// expansion file need a condition.
    fn item_definitions(&self, top_level_when: bool) -> Vec<(&'static str, Json)> {
        let editions = self.edition_ids();
        let steps = self.step_ids();
        let step = format!("({})", steps.join("|"));
        let effect = format!("^(skip {step}(, {step})*|go back to {step}|double turn)$");
        let marker = format!("^({})( \"[^\"]*\")?( when .+)?$", MARKERS.join("|"));
        // No enum of the item ids: hundreds of them made every hover and
        // message of these keys thousands of characters long, and most are
        // not siblings the item may name. The language server completes them.
        let reference = |what: &str| {
            let what = format!("{what} (`carcassonne-rules lsp` completes the ids it may name.)");
            typed("string", &what, vec![("pattern", str(KEBAB))])
        };
        let item = closed(
            "One rule of the turn order.",
            &["id", "text"],
            vec![
                (
                    "id",
                    typed(
                        "string",
                        "Unique kebab-case id, across all files (`abbey-play-from-supply`); the target of `after`, \
                         `before` and `under`.",
                        vec![("pattern", str(KEBAB))],
                    ),
                ),
                (
                    "text",
                    typed(
                        "string",
                        "The rule, in English, in our own words. Wording that differs by edition: \
                         `Place a {C1: follower | C2, WE: meeple} on the tile.`",
                        vec![],
                    ),
                ),
                (
                    "when",
                    self.condition(
                        "When the item shows (with its parent's and its step's conditions). Required on the \
                         top-level items of an expansion file; children inherit their parent's.",
                    ),
                ),
                (
                    "markers",
                    array_of(
                        "Markers shown on the item: a name, an optional quoted argument, an optional condition \
                         (`MESSAGES \"#1B\" when messages and edition == C1`).",
                        offered(
                            &format!("A marker: {}.", MARKERS.join(", ")),
                            MARKERS.iter().map(|m| m.to_string()).collect(),
                            Some(&marker),
                        ),
                    ),
                ),
                (
                    "foreign",
                    typed(
                        "array",
                        "Editions in which the item comes from another edition (the wiki's markC1/markC2/markWE); \
                         children inherit it.",
                        vec![("items", obj(vec![("enum", strings(&editions))])), ("uniqueItems", Json::Bool(true))],
                    ),
                ),
                ("after", reference("Id of a sibling item this one must follow.")),
                ("before", reference("Id of a sibling item this one must precede.")),
                ("under", reference("Id of an item (any file, same section) this one becomes a child of.")),
                (
                    "effect",
                    typed(
                        "string",
                        "What carrying the item out does to the turn: `skip 2B-1, 2B-2`, `go back to 1B` or \
                         `double turn`.",
                        vec![
                            ("pattern", str(effect)),
                            ("examples", strings(["double turn", "go back to 1B", "skip 2B-1, 2B-2"])),
                        ],
                    ),
                ),
                (
                    "role",
                    obj(vec![
                        (
                            "description",
                            str("What the item is when a turn is played: `action` (the default), `condition` (its \
                                 sub-items and effect apply only when it holds), `group` (a heading: never asked) or \
                                 `note` (read, never played)."),
                        ),
                        ("enum", strings(["action", "condition", "group", "note"])),
                    ]),
                ),
                (
                    "optional",
                    typed(
                        "boolean",
                        "\"You may\": the player may decline the action (with `choose_one`: take none of the options).",
                        vec![],
                    ),
                ),
                (
                    "choose_one",
                    typed(
                        "boolean",
                        "The sub-items are options: the player takes one of them, and only that one is played.",
                        vec![],
                    ),
                ),
                (
                    "once",
                    typed(
                        "boolean",
                        "\"Only once\" during the whole turn, both parts of a double turn counted (`any_time`).",
                        vec![],
                    ),
                ),
                (
                    "one_of",
                    offered(
                        "A group of alternatives: of the items that name the same group, at most one shows for any \
                         selection (`carcassonne-rules verify` proves it).",
                        self.groups(),
                        None,
                    ),
                ),
                ("children", array_of("Sub-items, in order.", self::reference("item"))),
            ],
        );
        let mut definitions = vec![("item", item)];
        definitions.push((
            "top_level_item",
            if top_level_when {
                obj(vec![
                    ("description", str("A top-level item of an expansion file: it needs `when`.")),
                    ("allOf", Json::Arr(vec![self::reference("item"), obj(vec![("required", strings(["when"]))])])),
                ])
            } else {
                self::reference("item")
            },
        ));
        definitions
    }

    /// `items:` by section: notes, setup, any_time, the steps, final_scoring.
    fn sections(&self) -> Json {
        let rules = self.rules;
        let list = |description: String| array_of(&description, reference("top_level_item"));
        let mut properties = vec![
            ("notes".to_string(), list("Notes that depend on the selection (how to read the markers, …).".to_string())),
            ("setup".to_string(), list("Preparing the game.".to_string())),
            ("any_time".to_string(), list("At any time during your turn.".to_string())),
        ];
        for phase in &rules.phases {
            for step in &phase.steps {
                let description = format!("Step {}: {} (phase {}: {}).", step.id, step.title, phase.id, phase.title);
                properties.push((step.id.clone(), list(description)));
            }
        }
        properties.push(("final_scoring".to_string(), list("Scoring at the end of the game.".to_string())));
        closed("The items, by section: notes, setup, any_time, a step id, final_scoring.", &[], properties)
    }

    fn editions(&self) -> Json {
        let variants: Vec<String> = self.rules.catalog.variants.iter().map(|v| v.id.clone()).collect();
        let body = closed(
            "",
            &["editions"],
            vec![
                (
                    "editions",
                    array_of(
                        "The editions the order of play distinguishes.",
                        closed(
                            "An edition.",
                            &["id", "name"],
                            vec![
                                (
                                    "id",
                                    typed("string", "Short id, used in conditions and text variants (`C1`).", vec![]),
                                ),
                                ("name", typed("string", "Full name, for people.", vec![])),
                                (
                                    "variant",
                                    obj(vec![
                                        (
                                            "description",
                                            str("The publisher's rules played unless `--variant` says otherwise."),
                                        ),
                                        ("enum", strings(&variants)),
                                    ]),
                                ),
                            ],
                        ),
                    ),
                ),
                (
                    "variants",
                    array_of(
                        "The publishers' rule variants (conditions test them with `variant == rgg`).",
                        closed(
                            "A publisher's rules.",
                            &["id", "name"],
                            vec![
                                ("id", typed("string", "Short id, used in `variant == …` tests.", vec![])),
                                ("name", typed("string", "The publisher.", vec![])),
                            ],
                        ),
                    ),
                ),
            ],
        );
        document(
            "editions.yaml",
            &format!("The editions of Carcassonne and the publishers' rule variants. {GENERATED}"),
            body,
            vec![],
        )
    }

    fn modules(&self) -> Json {
        let module = closed(
            "A module: one part of the expansion that can be played on its own (a selector flag of the wiki page).",
            &["id", "name"],
            vec![
                (
                    "id",
                    typed(
                        "string",
                        "The snake_case of the wiki's selector key (`WondersOfHumanity` → `wonders_of_humanity`).",
                        vec![("pattern", str(SNAKE))],
                    ),
                ),
                ("name", typed("string", "What the module is, for people.", vec![])),
                (
                    "wiki",
                    typed(
                        "boolean",
                        "`false` for a module the wiki's Order of Play page has no selector for: the conformance \
                         check leaves it out.",
                        vec![],
                    ),
                ),
            ],
        );
        let expansion = closed(
            "An expansion (a product): its editions and modules. The order of the list breaks ties between items \
             anchored to the same place (earlier expansion first).",
            &["id", "name", "editions", "modules"],
            vec![
                (
                    "id",
                    typed(
                        "string",
                        "snake_case id, accepted by `--with`, and named by its expansion file.",
                        vec![("pattern", str(SNAKE))],
                    ),
                ),
                ("name", typed("string", "The name printed on the box.", vec![])),
                (
                    "editions",
                    typed(
                        "array",
                        "The editions the expansion was published for.",
                        vec![
                            ("items", obj(vec![("enum", strings(self.edition_ids()))])),
                            ("uniqueItems", Json::Bool(true)),
                        ],
                    ),
                ),
                ("modules", array_of("Its modules.", reference("module"))),
            ],
        );
        let body = closed(
            "",
            &["expansions"],
            vec![
                ("expansions", array_of("Every expansion the order of play knows.", reference("expansion"))),
                (
                    "derived",
                    obj(vec![
                        (
                            "description",
                            str("Derived flags: named conditions, usable in conditions like a module id \
                                 (`tiles_in_supply: abbey or halflings or german_castles`)."),
                        ),
                        ("type", str("object")),
                        ("propertyNames", obj(vec![("pattern", str(SNAKE))])),
                        ("additionalProperties", self.condition("What the flag stands for.")),
                    ]),
                ),
            ],
        );
        document(
            "modules.yaml",
            &format!("The registry: every expansion, its modules and editions, and the derived flags. {GENERATED}"),
            body,
            vec![("expansion", expansion), ("module", module)],
        )
    }

    fn base(&self) -> Json {
        let rules = self.rules;
        let phase_ids: Vec<String> = rules.phases.iter().map(|p| p.id.clone()).collect();
        let step = closed(
            "A step of the phase; items attach to it by its id.",
            &["id", "title"],
            vec![
                (
                    "id",
                    obj(vec![
                        ("description", str("The step's id (`1B`, `2B-1`).")),
                        ("enum", strings(self.step_ids())),
                        (
                            "markdownEnumDescriptions",
                            strings(self.rules.steps().map(|s| inline(&s.title).into_owned())),
                        ),
                    ]),
                ),
                ("title", typed("string", "The step's heading.", vec![])),
                ("when", self.condition("The step exists only where this holds (2D needs the dragon).")),
                (
                    "repeat",
                    typed(
                        "string",
                        "`per_feature` (once per completed feature, 3B), optionally followed by `when CONDITION`. \
                         The double turn is the block `double_turn:`, not a step's repeat.",
                        vec![("pattern", str("^per_feature( when .+)?$")), ("examples", strings(["per_feature"]))],
                    ),
                ),
                (
                    "choose_one",
                    typed("boolean", "The player does exactly one of the step's items (2B-1, 2B-2).", vec![]),
                ),
                (
                    "may_pass",
                    typed(
                        "boolean",
                        "With `choose_one`: the player may also do none of the step's items (2B-1: deploying is \
                         optional).",
                        vec![],
                    ),
                ),
            ],
        );
        let step_ids = self.step_ids();
        let block_step = |description: &str| obj(vec![("description", str(description)), ("enum", strings(&step_ids))]);
        let double_turn = closed(
            "The steps a double turn (the builder) plays once more, `from` to `to` in turn order; a step of \
             the block keeps its own repeat (3B, once per completed feature).",
            &["from", "to"],
            vec![
                ("from", block_step("The block's first step (`1B`).")),
                ("to", block_step("The block's last step (`4A`).")),
                ("when", self.condition("Where the selection has double turns (`builder`).")),
            ],
        );
        let phase = closed(
            "A phase of the turn and its steps.",
            &["id", "title", "steps"],
            vec![
                ("id", obj(vec![("description", str("The phase's number.")), ("enum", strings(&phase_ids))])),
                ("title", typed("string", "The phase's heading.", vec![])),
                ("steps", array_of("Its steps, in playing order.", reference("step"))),
            ],
        );
        let body = closed(
            "",
            &["phases"],
            vec![
                ("phases", array_of("The four phases of a turn.", reference("phase"))),
                ("double_turn", reference("double_turn")),
                ("items", self.sections()),
            ],
        );
        let mut definitions = vec![("phase", phase), ("step", step), ("double_turn", double_turn)];
        definitions.extend(self.item_definitions(false));
        document(
            "base.yaml",
            &format!("The phases and steps of a turn, and the base game's items. {GENERATED}"),
            body,
            definitions,
        )
    }

    fn expansion(&self) -> Json {
        let expansions: Vec<(String, String)> =
            self.rules.catalog.expansions.iter().map(|x| (x.id.clone(), format!("**{}**", inline(&x.name)))).collect();
        let body = closed(
            "",
            &["expansion"],
            vec![
                (
                    "expansion",
                    // Offered by name, though any snake_case id is accepted: an
                    // expansion just added to modules.yaml is no error before
                    // `gen` runs again (`check` refuses an unknown one).
                    described(
                        "The id of the expansion in modules.yaml whose items this file holds.",
                        expansions,
                        Some(SNAKE),
                    ),
                ),
                ("items", self.sections()),
            ],
        );
        document(
            "expansion file",
            &format!("The items one expansion brings, by section. {GENERATED}"),
            body,
            self.item_definitions(true),
        )
    }
}
