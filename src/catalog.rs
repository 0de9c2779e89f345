//! What the rules know: editions, expansions and modules, and turning a
//! command line's `--edition` and `--with` into a [`Config`].

use carcassonne_rules_compiler::Rules;
use carcassonne_rules_compiler::diagnostics::{Diagnostic, Sources, Span, suggestion};
use serde::Serialize;

use crate::turn::Config;

/// An expansion as the generated tables describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpansionInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub editions: &'static [&'static str],
    /// Indices into the module table.
    pub modules: &'static [usize],
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Catalog {
    #[serde(skip)]
    pub editions: Vec<String>,
    /// Each edition's default rule variant.
    #[serde(skip)]
    pub default_variants: Vec<usize>,
    #[serde(skip)]
    pub variants: Vec<String>,
    pub expansions: Vec<CatalogExpansion>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CatalogExpansion {
    pub id: String,
    pub name: String,
    pub editions: Vec<String>,
    pub modules: Vec<CatalogModule>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CatalogModule {
    pub id: String,
    pub name: String,
    /// The module's bit in a module set.
    #[serde(skip)]
    pub bit: usize,
}

impl Catalog {
    /// From the tables of the generated code.
    pub fn from_tables(
        editions: &[(&str, &str, usize)],
        variants: &[(&str, &str)],
        expansions: &[ExpansionInfo],
        modules: &[(&str, &str)],
    ) -> Self {
        Catalog {
            editions: editions.iter().map(|(id, _, _)| id.to_string()).collect(),
            default_variants: editions.iter().map(|(_, _, v)| *v).collect(),
            variants: variants.iter().map(|(id, _)| id.to_string()).collect(),
            expansions: expansions
                .iter()
                .map(|x| CatalogExpansion {
                    id: x.id.to_string(),
                    name: x.name.to_string(),
                    editions: x.editions.iter().map(|e| e.to_string()).collect(),
                    modules: x
                        .modules
                        .iter()
                        .map(|&m| CatalogModule {
                            id: modules[m].0.to_string(),
                            name: modules[m].1.to_string(),
                            bit: m,
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// From a checked rules model.
    pub fn from_rules(rules: &Rules) -> Self {
        Catalog {
            editions: rules.editions.iter().map(|e| e.id.clone()).collect(),
            default_variants: rules.editions.iter().map(|e| e.default_variant).collect(),
            variants: rules.variants.iter().map(|v| v.id.clone()).collect(),
            expansions: rules
                .expansions
                .iter()
                .map(|x| CatalogExpansion {
                    id: x.id.clone(),
                    name: x.name.clone(),
                    editions: x.editions.iter().map(|&e| rules.editions[e].id.clone()).collect(),
                    modules: x
                        .modules
                        .iter()
                        .map(|&m| CatalogModule {
                            id: rules.modules[m].id.clone(),
                            name: rules.modules[m].name.clone(),
                            bit: m,
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    pub fn modules(&self) -> impl Iterator<Item = &CatalogModule> {
        self.expansions.iter().flat_map(|x| &x.modules)
    }

    /// The selection an edition, an optional rule variant (else the edition's
    /// default) and a comma-separated list of module and expansion ids make.
    /// Every unknown id is reported, with a suggestion.
    pub fn config(&self, edition: &str, variant: Option<&str>, with: &str) -> Result<Config, Vec<Diagnostic>> {
        let mut sources = Sources::default();
        let mut problems = Vec::new();
        let edition = lookup(&mut sources, &mut problems, "--edition", edition, &self.editions, "edition");
        let variant = match variant {
            Some(v) => lookup(&mut sources, &mut problems, "--variant", v, &self.variants, "rule variant"),
            None => edition.map(|e| self.default_variants[e]),
        };
        let file = sources.add("--with", with.to_string());
        let mut modules = 0u128;
        let mut start = 0;
        for part in with.split(',') {
            let id = part.trim();
            let at = start + (part.len() - part.trim_start().len());
            start += part.len() + 1;
            if id.is_empty() {
                continue;
            }
            if let Some(x) = self.expansions.iter().find(|x| x.id == id) {
                modules |= x.modules.iter().fold(0, |set, m| set | 1 << m.bit);
            } else if let Some(m) = self.modules().find(|m| m.id == id) {
                modules |= 1 << m.bit;
            } else {
                let names = self.expansions.iter().map(|x| x.id.as_str()).chain(self.modules().map(|m| m.id.as_str()));
                let help =
                    suggestion(id, names).unwrap_or_else(|| "`carcassonne-rules modules` lists the ids".to_string());
                let span = Span { file, start: at, len: id.len() };
                problems.push(
                    Diagnostic::at(
                        &sources,
                        span,
                        format!("unknown module or expansion `{id}`"),
                        "not a module or expansion id",
                    )
                    .with_help(help),
                );
            }
        }
        match (edition, variant) {
            (Some(edition), Some(variant)) if problems.is_empty() => Ok(Config { edition, variant, modules }),
            _ => Err(problems),
        }
    }
}

/// The index of `value` among `known`; otherwise a diagnostic on the option's value.
fn lookup(
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
    option: &str,
    value: &str,
    known: &[String],
    what: &str,
) -> Option<usize> {
    if let Some(ix) = known.iter().position(|k| k == value) {
        return Some(ix);
    }
    let file = sources.add(option, value.to_string());
    let help =
        suggestion(value, known.iter().map(String::as_str)).unwrap_or_else(|| format!("{what}s: {}", known.join(", ")));
    let span = Span { file, start: 0, len: value.len().max(1) };
    problems.push(
        Diagnostic::at(sources, span, format!("unknown {what} `{value}`"), format!("not a {what}")).with_help(help),
    );
    None
}
