//! Checking: resolves every name, parses every DSL string, places every item
//! and reports each problem as a diagnostic. Produces the model only when
//! nothing is wrong.
//!
//! One `Checker` walks the raw rules in order: [`registry`] (editions, variants,
//! modules, expansions, derived flags), [`steps`], [`items`] (placement and the
//! items themselves), [`errata`]; [`resolve`] turns DSL strings into model
//! values for all of them.

mod errata;
mod items;
mod registry;
mod resolve;
mod steps;

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::diagnostics::{Diagnostic, Sources, Span, suggestion};
use crate::dsl;
use crate::model::{self, Cond, EditionIx, Item, ModuleIx, Rules};
use crate::order::{self, Anchor, Placement};
use crate::syntax::{RawItem, RawRules, RawSections, Spanned};

/// A module set is a `u128`.
const MAX_MODULES: usize = 128;
/// Satisfiability is checked by trying every assignment of up to this many modules.
const MAX_EXHAUSTIVE_MODULES: usize = 16;

pub fn check(raw: &RawRules, sources: &Sources, problems: &mut Vec<Diagnostic>) -> Option<Rules> {
    let before = problems.len();
    let mut checker = Checker {
        sources,
        problems,
        editions: IndexMap::new(),
        variants: IndexMap::new(),
        names: HashMap::new(),
        derived_source: IndexMap::new(),
        derived: HashMap::new(),
        resolving: Vec::new(),
    };
    let variants = checker.variants(raw);
    let editions = checker.editions(raw);
    let (expansions, modules) = checker.registry(raw);
    checker.derived_flags(raw);
    let phases = checker.phases(raw);
    let mut rules = checker.items(raw, editions, variants, expansions, modules, phases);
    rules.derived = checker.derived_by_name();
    rules.errata = checker.errata(raw, &rules);
    if problems.len() > before { None } else { Some(rules) }
}

/// What a name in a condition or `--with` stands for.
#[derive(Clone, Copy)]
enum Named {
    Module(ModuleIx),
    Expansion(usize),
    Derived,
}

struct Checker<'a> {
    sources: &'a Sources,
    problems: &'a mut Vec<Diagnostic>,
    editions: IndexMap<String, Span>,
    variants: IndexMap<String, Span>,
    names: HashMap<String, (Named, Span)>,
    derived_source: IndexMap<String, Spanned<String>>,
    /// Resolved derived flags (`None` when their definition has an error).
    derived: HashMap<String, Option<Cond>>,
    /// Derived flags being resolved, to report definitions that loop.
    resolving: Vec<String>,
}

/// A section (notes, a step, …) and the condition under which it exists.
struct Section {
    id: String,
    exists: Cond,
}

impl Checker<'_> {
    fn report(&mut self, span: Span, message: impl Into<String>, label: impl Into<String>, help: Option<String>) {
        let mut d = Diagnostic::at(self.sources, span, message, label);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.problems.push(d);
    }

    /// Ids are lower-case words joined by `separator`: snake_case for modules,
    /// expansions and flags (`_`), kebab-case for items (`-`).
    fn check_case(&mut self, id: &Spanned<String>, what: &str, separator: char) {
        let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        if !id.value.split(separator).all(word) {
            let case = if separator == '_' { "snake_case" } else { "kebab-case" };
            let fixed: String = id.value.to_lowercase().replace(['_', '-', ' '], &separator.to_string());
            self.report(
                id.span,
                format!("{what} id `{}` is not {case}", id.value),
                format!("{what} ids are {case}"),
                Some(format!("write `{fixed}`")),
            );
        }
    }

    fn duplicate(&mut self, what: &str, name: &Spanned<String>, first: Span) {
        let d =
            Diagnostic::at(self.sources, name.span, format!("duplicate {what} `{}`", name.value), "defined again here")
                .also(self.sources, first, "first defined here");
        self.problems.push(d);
    }
}

/// Records `id` as defined; if it already was, returns where it was first.
fn first_definition(known: &mut IndexMap<String, Span>, id: &Spanned<String>) -> Option<Span> {
    match known.get(&id.value) {
        Some(&first) => Some(first),
        None => {
            known.insert(id.value.clone(), id.span);
            None
        }
    }
}

/// The index of `name`, or a "did you mean" for it.
fn index_or_help(known: &IndexMap<String, Span>, name: &str) -> Result<usize, Option<String>> {
    known.get_index_of(name).ok_or_else(|| suggestion(name, known.keys().map(String::as_str)))
}

fn item_exists(rules: &Rules, id: &str) -> bool {
    fn any(items: &[Item], id: &str) -> bool {
        items.iter().any(|i| i.id == id || any(&i.children, id))
    }
    [&rules.notes, &rules.setup, &rules.any_time, &rules.final_scoring]
        .into_iter()
        .chain(rules.phases.iter().flat_map(|p| p.steps.iter().map(|s| &s.items)))
        .any(|items| any(items, id))
}

/// How many editions and rule variants there are.
#[derive(Clone, Copy)]
pub struct Settings {
    pub editions: usize,
    pub variants: usize,
}

/// Whether some edition, variant and selection of modules satisfies `cond`.
/// Conditions naming very many modules are assumed satisfiable.
pub fn satisfiable(cond: &Cond, settings: Settings) -> bool {
    let modules = cond.modules();
    if modules.len() > MAX_EXHAUSTIVE_MODULES {
        return true;
    }
    (0..settings.editions.max(1)).any(|edition| {
        (0..settings.variants.max(1)).any(|variant| {
            (0u32..1 << modules.len()).any(|assignment| {
                let set = modules
                    .iter()
                    .enumerate()
                    .filter(|(bit, _)| assignment & (1 << bit) != 0)
                    .fold(0u128, |set, (_, &m)| set | 1 << m);
                cond.eval(edition, variant, set)
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn satisfiability() {
        let three = Settings { editions: 3, variants: 3 };
        let dragon = Cond::Module(0);
        assert!(satisfiable(&dragon, three));
        let never = Cond::All(vec![dragon.clone(), Cond::Not(Box::new(dragon.clone()))]);
        assert!(!satisfiable(&never, three));
        let two_editions = Cond::All(vec![Cond::Edition(0), Cond::Edition(1)]);
        assert!(!satisfiable(&two_editions, three));
        assert!(satisfiable(&Cond::Edition(2), three));
        assert!(!satisfiable(&Cond::Edition(2), Settings { editions: 2, variants: 3 }), "edition 2 does not exist");
        let rgg = Cond::All(vec![Cond::Variant(2), Cond::Edition(0)]);
        assert!(satisfiable(&rgg, three));
        assert!(!satisfiable(&rgg, Settings { editions: 3, variants: 2 }));
        assert!(!satisfiable(&Cond::False, three));
    }
}
