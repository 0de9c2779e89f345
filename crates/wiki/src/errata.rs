//! `errata.yaml`: where the rules read or differ from the wiki page on purpose.
//!
//! Two lists. `classes` says how to read page class names that cannot be read
//! mechanically (`showWoFOrFestivalOrAbbotOrRussianPromos`), each with the
//! condition it means. `differences` are deliberate differences between the
//! page and the rules: page items (by source line) the rules leave out, rule
//! items (by id) the page does not show at the top level, or whole sections,
//! for the selections where `when` holds; page sub-items, inline spans and
//! placeholders (by line) whose nested comparison differs; items and spans
//! (by line) whose foreign marks differ; the lines where the page reader
//! repairs broken markup; and start tags the reader skips (the second copy of
//! a block whose first copy is never closed).
//!
//! The file is checked against the compiled rules: conditions resolve, steps
//! and items exist, ids are unique; every mistake is a diagnostic at its YAML
//! line and column.

use carcassonne_rules_compiler::codes::Code;
use std::collections::HashMap;
use std::path::Path;

use carcassonne_rules_compiler::check;
use carcassonne_rules_compiler::diagnostics::{Diagnostic, Sources, Span, suggestion};
use carcassonne_rules_compiler::model::{Cond, Item, Rules};
use carcassonne_rules_compiler::syntax::{self, KEBAB, Spanned, offer};
use carcassonne_rules_core::{Config, Section};
use schemars::JsonSchema;
use serde::Deserialize;

pub mod schema;

/// The sections the comparison covers besides the steps.
pub const SECTIONS: [Section; 2] = [Section::Notes, Section::AnyTime];

/// A checked `errata.yaml`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Errata {
    /// How to read page class names that cannot be read mechanically.
    pub classes: Vec<ClassReading>,
    /// Deliberate differences from the page.
    pub differences: Vec<Difference>,
}

/// The meaning of one page class name.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassReading {
    /// The class name as the page writes it (`showPeasantRefolts`).
    pub class: String,
    /// When an element with the class is shown.
    pub means: Cond,
    /// Why the class reads so.
    pub why: String,
}

/// A deliberate difference from the page. Either precise (page items by source
/// line that the rules leave out, rule items the page does not show at the top
/// level) or, for selections where `when` holds, whole sections.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// kebab-case id, unique in the file; the comparison names it.
    pub id: String,
    /// What the page does.
    pub page: String,
    /// What the rules do.
    pub rules: String,
    /// Why they differ.
    pub why: String,
    /// Sections (`notes`, `any_time`, step ids) that may differ as a whole.
    pub steps: Vec<String>,
    /// Where the difference applies (`true` when the file gives no `when`).
    pub when: Cond,
    /// 1-based lines of page items that the rules leave out.
    pub page_lines: Vec<usize>,
    /// Ids of rule items that the page does not show at the top level.
    pub items: Vec<String>,
    /// 1-based lines of page sub-items, inline spans and step placeholders
    /// whose nested comparison with the rules this erratum explains.
    pub nested_lines: Vec<usize>,
    /// 1-based lines of page items and spans whose foreign marks
    /// (`markC1`) differ from the rules' as this erratum says.
    pub mark_lines: Vec<usize>,
    /// 1-based lines where the page reader repairs broken markup, as this
    /// erratum says.
    pub repair_lines: Vec<usize>,
    /// Start tags the page reader skips, so that the end tags meant for the
    /// elements they open close the elements around them (a duplicated block
    /// whose first copy is never closed).
    pub ignored_start_tags: Vec<StartTag>,
}

/// The start tags of one kind at one page line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(inline)]
pub struct StartTag {
    /// 1-based line in the page source.
    #[schemars(range(min = 1))]
    pub line: usize,
    /// The tag's name.
    #[schemars(extend("enum" = ["div", "span", "ul", "ol", "li"]))]
    pub tag: String,
}

impl Difference {
    /// Whether this erratum names the reader's repair at `line`.
    pub fn names_repair(&self, line: usize) -> bool {
        self.repair_lines.contains(&line) || self.ignored_start_tags.iter().any(|t| t.line == line)
    }
}

impl Errata {
    /// Reads and checks the errata file at `path` against `rules`. The file's
    /// text is added to `sources`; every problem found is returned, located.
    pub fn load(path: &Path, rules: &Rules, sources: &mut Sources) -> Result<Errata, Vec<Diagnostic>> {
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let (_, raw) = syntax::read_yaml::<RawErrata>(path, &name, sources).map_err(|d| vec![d])?;
        raw.check(rules, sources)
    }

    /// The meaning the errata give `class`, if any.
    pub fn class(&self, class: &str) -> Option<&Cond> {
        self.classes.iter().find(|r| r.class == class).map(|r| &r.means)
    }

    /// The differences that apply to `cfg`.
    pub fn applying<'a>(&'a self, rules: &'a Rules, cfg: &'a Config) -> impl Iterator<Item = &'a Difference> + 'a {
        self.differences.iter().filter(move |d| d.when.eval(&rules.flags, cfg))
    }
}

/// Where the rules read or differ from the wiki's Order of Play page on
/// purpose (the conformance tool's errata).
// Each name with its place; the records are also the file's JSON Schema
// (`schema`), each doc comment the description of its key.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawErrata {
    /// Readings of page class names.
    #[serde(default)]
    classes: Vec<RawClassReading>,
    /// Deliberate differences from the page.
    #[serde(default)]
    differences: Vec<RawDifference>,
}

/// How to read a page class name that cannot be read mechanically.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "class_reading")]
struct RawClassReading {
    /// The class as the page writes it (`showPeasantRefolts`).
    #[schemars(extend("pattern" = "^show"))]
    class: Spanned<String>,
    /// When an element with the class shows.
    #[schemars(extend("x-offer" = offer::CONDITION))]
    means: Spanned<String>,
    /// Why the class reads so.
    why: String,
}

/// A deliberate difference between the page and the rules: page items (by
/// line) the rules leave out, rule items the page does not show at the top
/// level, or whole sections where `when` holds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "difference")]
struct RawDifference {
    /// kebab-case id, unique in the file; the comparison names it.
    #[schemars(extend("pattern" = KEBAB))]
    id: Spanned<String>,
    /// What the page does.
    page: String,
    /// What the rules do.
    rules: String,
    /// Why they differ.
    why: String,
    /// Sections that may differ as a whole: notes, any_time or a step id.
    #[serde(default)]
    #[schemars(extend("x-offer" = schema::SECTIONS))]
    steps: Vec<Spanned<String>>,
    /// Where the difference applies (always, without it).
    #[schemars(extend("x-offer" = offer::CONDITION))]
    when: Option<Spanned<String>>,
    /// 1-based lines of page items that the rules leave out.
    #[serde(default)]
    #[schemars(inner(range(min = 1)))]
    page_lines: Vec<usize>,
    /// Ids of rule items that the page does not show at the top level.
    #[serde(default)]
    #[schemars(extend("x-offer" = schema::TOP_LEVEL_ITEMS))]
    items: Vec<Spanned<String>>,
    /// 1-based lines of page sub-items, inline spans and step placeholders
    /// whose nested comparison with the rules this erratum explains.
    #[serde(default)]
    #[schemars(inner(range(min = 1)))]
    nested_lines: Vec<usize>,
    /// 1-based lines of page items and spans whose foreign marks differ from
    /// the rules' as this erratum says.
    #[serde(default)]
    #[schemars(inner(range(min = 1)))]
    mark_lines: Vec<usize>,
    /// 1-based lines where the page reader repairs broken markup, as this
    /// erratum says.
    #[serde(default)]
    #[schemars(inner(range(min = 1)))]
    repair_lines: Vec<usize>,
    /// Start tags the page reader skips, so that the end tags meant for them
    /// close the elements around them (a duplicated block whose first copy
    /// is never closed).
    #[serde(default)]
    ignored_start_tags: Vec<StartTag>,
}

impl RawErrata {
    fn check(self, rules: &Rules, sources: &Sources) -> Result<Errata, Vec<Diagnostic>> {
        let mut problems = Vec::new();
        let condition = |source: &Spanned<String>, problems: &mut Vec<Diagnostic>| {
            check::condition(rules, source, sources).map_err(|found| problems.extend(found)).ok()
        };
        let duplicate = |what: &str, name: &Spanned<String>, first: Span| {
            Diagnostic::at(
                Code::DuplicateId,
                sources,
                name.span,
                format!("duplicate {what} `{}`", name.value),
                "defined again here",
            )
            .also(sources, first, "first defined here")
        };

        let mut errata = Errata::default();
        let mut classes: HashMap<String, Span> = HashMap::new();
        for reading in self.classes {
            if !reading.class.value.starts_with("show") {
                problems.push(
                    Diagnostic::at(
                        Code::Errata,
                        sources,
                        reading.class.span,
                        format!("`{}` is not a show class", reading.class.value),
                        "class readings are for `show…` classes",
                    )
                    .with_help("the page reads `hide…` classes as never shown, and other classes as no condition"),
                );
            }
            if let Some(&first) = classes.get(&reading.class.value) {
                problems.push(duplicate("class reading", &reading.class, first));
            } else {
                classes.insert(reading.class.value.clone(), reading.class.span);
            }
            if let Some(means) = condition(&reading.means, &mut problems) {
                errata.classes.push(ClassReading { class: reading.class.value, means, why: reading.why });
            }
        }

        let steps: Vec<&str> =
            SECTIONS.map(Section::name).into_iter().chain(rules.steps().map(|s| s.id.as_str())).collect();
        let top_level: Vec<&str> = top_level_items(rules).map(|i| i.id.as_str()).collect();
        let all_items: Vec<&str> = rules.items().into_iter().map(|i| i.id.as_str()).collect();
        let mut ids: HashMap<String, Span> = HashMap::new();
        for d in self.differences {
            if let Some(&first) = ids.get(&d.id.value) {
                problems.push(duplicate("erratum", &d.id, first));
            } else {
                ids.insert(d.id.value.clone(), d.id.span);
            }
            for step in &d.steps {
                if !steps.contains(&step.value.as_str()) {
                    let help = suggestion(&step.value, steps.iter().copied())
                        .unwrap_or_else(|| format!("the sections compared are {}", steps.join(", ")));
                    problems.push(
                        Diagnostic::at(
                            Code::Errata,
                            sources,
                            step.span,
                            format!("unknown step `{}`", step.value),
                            "not a step of the rules, nor notes or any_time",
                        )
                        .with_help(help),
                    );
                }
            }
            for item in &d.items {
                let id = item.value.as_str();
                if top_level.contains(&id) {
                    continue;
                }
                let problem = if all_items.contains(&id) {
                    Diagnostic::at(
                        Code::Errata,
                        sources,
                        item.span,
                        format!("item `{id}` is not a top-level item of notes, any_time or a step"),
                        "the comparison sees only top-level items",
                    )
                    .with_help("name the top-level item that holds it")
                } else {
                    let d = Diagnostic::at(
                        Code::Errata,
                        sources,
                        item.span,
                        format!("unknown item `{id}`"),
                        "no item has this id",
                    );
                    match suggestion(id, top_level.iter().copied()) {
                        Some(help) => d.with_help(help),
                        None => d,
                    }
                };
                problems.push(problem);
            }
            let when = match &d.when {
                Some(w) => condition(w, &mut problems),
                None => Some(Cond::True),
            };
            if let Some(when) = when {
                errata.differences.push(Difference {
                    id: d.id.value,
                    page: d.page,
                    rules: d.rules,
                    why: d.why,
                    steps: d.steps.into_iter().map(|s| s.value).collect(),
                    when,
                    page_lines: d.page_lines,
                    items: d.items.into_iter().map(|i| i.value).collect(),
                    nested_lines: d.nested_lines,
                    mark_lines: d.mark_lines,
                    repair_lines: d.repair_lines,
                    ignored_start_tags: d.ignored_start_tags,
                });
            }
        }
        if problems.is_empty() { Ok(errata) } else { Err(problems) }
    }
}

/// The top-level items of the sections the comparison covers.
fn top_level_items(rules: &Rules) -> impl Iterator<Item = &Item> {
    SECTIONS.into_iter().flat_map(|section| rules.section(section)).chain(rules.steps().flat_map(|s| &s.items))
}
