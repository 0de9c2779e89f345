//! The JSON Schema of `errata.yaml`, written by `carcassonne-rules gen` into
//! `generated/schemas/` beside the rules files' schemas, with the compiler's
//! schema builders: the sections, items and condition names it offers are the
//! rules' own.

use carcassonne_rules_compiler::model::{Item, Rules};
use carcassonne_rules_compiler::schema::{
    GENERATED, Json, KEBAB, SchemaFile, array_of, closed, condition, document, obj, offered, reference, schema_file,
    str, strings, typed,
};

/// The schema's file name in the generated schemas' folder.
pub const NAME: &str = "errata.schema.json";

/// The schema of `errata.yaml` for `rules`.
pub fn schema(rules: &Rules) -> SchemaFile {
    let sections: Vec<String> =
        ["notes", "any_time"].into_iter().map(String::from).chain(rules.steps().map(|s| s.id.clone())).collect();
    let top_level: Vec<String> = rules
        .notes
        .iter()
        .chain(&rules.any_time)
        .chain(rules.steps().flat_map(|s| &s.items))
        .map(|i: &Item| i.id.clone())
        .collect();
    let reading = closed(
        "How to read a page class name that cannot be read mechanically.",
        &["class", "means", "why"],
        vec![
            (
                "class",
                typed(
                    "string",
                    "The class as the page writes it (`showPeasantRefolts`).",
                    vec![("pattern", str("^show"))],
                ),
            ),
            ("means", condition(rules, "When an element with the class shows.")),
            ("why", typed("string", "Why the class reads so.", vec![])),
        ],
    );
    let difference = closed(
        "A deliberate difference between the page and the rules: page items (by line) the rules leave out, \
         rule items the page does not show at the top level, or whole sections where `when` holds.",
        &["id", "page", "rules", "why"],
        vec![
            (
                "id",
                typed(
                    "string",
                    "kebab-case id, unique in the file; the comparison names it.",
                    vec![("pattern", str(KEBAB))],
                ),
            ),
            ("page", typed("string", "What the page does.", vec![])),
            ("rules", typed("string", "What the rules do.", vec![])),
            ("why", typed("string", "Why they differ.", vec![])),
            (
                "steps",
                typed(
                    "array",
                    "Sections that may differ as a whole: notes, any_time or a step id.",
                    vec![("items", obj(vec![("enum", strings(&sections))]))],
                ),
            ),
            ("when", condition(rules, "Where the difference applies (always, without it).")),
            (
                "page_lines",
                typed(
                    "array",
                    "1-based lines of page items that the rules leave out.",
                    vec![("items", obj(vec![("type", str("integer")), ("minimum", Json::Int(1))]))],
                ),
            ),
            (
                "items",
                array_of(
                    "Ids of rule items that the page does not show at the top level.",
                    offered("A top-level item id.", top_level, Some(KEBAB)),
                ),
            ),
            (
                "nested_lines",
                typed(
                    "array",
                    "1-based lines of page sub-items, inline spans and step placeholders whose nested \
                     comparison with the rules this erratum explains.",
                    vec![("items", obj(vec![("type", str("integer")), ("minimum", Json::Int(1))]))],
                ),
            ),
            (
                "mark_lines",
                typed(
                    "array",
                    "1-based lines of page items and spans whose foreign marks differ from the rules' as this \
                     erratum says.",
                    vec![("items", obj(vec![("type", str("integer")), ("minimum", Json::Int(1))]))],
                ),
            ),
            (
                "repair_lines",
                typed(
                    "array",
                    "1-based lines where the page reader repairs broken markup, as this erratum says.",
                    vec![("items", obj(vec![("type", str("integer")), ("minimum", Json::Int(1))]))],
                ),
            ),
            (
                "ignored_start_tags",
                array_of(
                    "Start tags the page reader skips, so that the end tags meant for them close the elements \
                     around them (a duplicated block whose first copy is never closed).",
                    closed(
                        "The start tags of one kind at one page line.",
                        &["line", "tag"],
                        vec![
                            (
                                "line",
                                typed("integer", "1-based line in the page source.", vec![("minimum", Json::Int(1))]),
                            ),
                            (
                                "tag",
                                typed(
                                    "string",
                                    "The tag's name.",
                                    vec![("enum", strings(["div", "span", "ul", "ol", "li"]))],
                                ),
                            ),
                        ],
                    ),
                ),
            ),
        ],
    );
    let body = closed(
        "",
        &[],
        vec![
            ("classes", array_of("Readings of page class names.", reference("class_reading"))),
            ("differences", array_of("Deliberate differences from the page.", reference("difference"))),
        ],
    );
    let document = document(
        "errata.yaml",
        &format!(
            "Where the rules read or differ from the wiki's Order of Play page on purpose (the conformance \
             tool's errata). {GENERATED}"
        ),
        body,
        vec![("class_reading", reading), ("difference", difference)],
    );
    schema_file(NAME, &document)
}
