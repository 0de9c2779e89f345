//! Checking: resolves every name, parses every DSL string, places every item
//! and reports each problem as a diagnostic. Produces the model only when
//! nothing is wrong.

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

/// An item while it is being placed.
struct Node<'r> {
    raw: &'r RawItem,
    section: usize,
    /// Parent from nesting in `children`.
    inline_parent: Option<usize>,
    /// Previous item of the same YAML list.
    previous: Option<usize>,
    /// Expansion rank (0 = base) and position in the file.
    key: (usize, usize),
    /// Top-level item of an expansion file: it needs its own condition.
    needs_condition: bool,
}

impl Checker<'_> {
    fn report(&mut self, span: Span, message: impl Into<String>, label: impl Into<String>, help: Option<String>) {
        let mut d = Diagnostic::at(self.sources, span, message, label);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.problems.push(d);
    }

    fn duplicate(&mut self, what: &str, name: &Spanned<String>, first: Span) {
        let d =
            Diagnostic::at(self.sources, name.span, format!("duplicate {what} `{}`", name.value), "defined again here")
                .also(self.sources, first, "first defined here");
        self.problems.push(d);
    }

    // ---- editions and the module registry ----------------------------------

    fn editions(&mut self, raw: &RawRules) -> Vec<model::Edition> {
        let mut out = Vec::new();
        for e in &raw.editions {
            if let Some(first) = self.editions.get(&e.id.value).copied() {
                self.duplicate("edition", &e.id, first);
                continue;
            }
            self.editions.insert(e.id.value.clone(), e.id.span);
            let default_variant = e.variant.as_ref().and_then(|v| self.variant(&v.value, v.span)).unwrap_or(0);
            out.push(model::Edition { id: e.id.value.clone(), name: e.name.value.clone(), default_variant });
        }
        out
    }

    fn variants(&mut self, raw: &RawRules) -> Vec<model::Variant> {
        let mut out = Vec::new();
        for v in &raw.variants {
            if let Some(first) = self.variants.get(&v.id.value).copied() {
                self.duplicate("variant", &v.id, first);
                continue;
            }
            self.variants.insert(v.id.value.clone(), v.id.span);
            out.push(model::Variant { id: v.id.value.clone(), name: v.name.value.clone() });
        }
        out
    }

    fn variant(&mut self, name: &str, span: Span) -> Option<usize> {
        if let Some(ix) = self.variants.get_index_of(name) {
            return Some(ix);
        }
        let help = suggestion(name, self.variants.keys().map(String::as_str));
        self.report(span, format!("unknown rule variant `{name}`"), "not a variant of editions.yaml", help);
        None
    }

    fn edition(&mut self, name: &str, span: Span) -> Option<EditionIx> {
        if let Some(ix) = self.editions.get_index_of(name) {
            return Some(ix);
        }
        let help = suggestion(name, self.editions.keys().map(String::as_str));
        self.report(span, format!("unknown edition `{name}`"), "not an edition of editions.yaml", help);
        None
    }

    fn registry(&mut self, raw: &RawRules) -> (Vec<model::Expansion>, Vec<model::Module>) {
        let mut expansions = Vec::new();
        let mut modules = Vec::new();
        for x in &raw.expansions {
            self.check_snake_case(&x.id, "expansion");
            self.claim_name(&x.id, Named::Expansion(expansions.len()));
            let editions = x.editions.iter().filter_map(|e| self.edition(&e.value, e.span)).collect();
            let mut members = Vec::new();
            for (id, name) in &x.modules {
                self.check_snake_case(id, "module");
                if self.claim_name(id, Named::Module(modules.len())) {
                    members.push(modules.len());
                    modules.push(model::Module { id: id.value.clone(), name: name.value.clone() });
                }
            }
            expansions.push(model::Expansion {
                id: x.id.value.clone(),
                name: x.name.value.clone(),
                editions,
                modules: members,
            });
        }
        if modules.len() > MAX_MODULES {
            let message = format!("{} modules, but a module set holds at most {MAX_MODULES}", modules.len());
            match raw.expansions.last() {
                Some(x) => self.report(x.id.span, message, "one expansion too many", None),
                None => self.problems.push(Diagnostic::global(message)),
            }
        }
        (expansions, modules)
    }

    /// Registers a module, expansion or derived-flag name. They share one
    /// namespace because conditions and `--with` accept them side by side.
    fn claim_name(&mut self, id: &Spanned<String>, named: Named) -> bool {
        if let Some(&(_, first)) = self.names.get(&id.value) {
            self.duplicate("name", id, first);
            return false;
        }
        self.names.insert(id.value.clone(), (named, id.span));
        true
    }

    fn check_snake_case(&mut self, id: &Spanned<String>, what: &str) {
        let ok =
            !id.value.is_empty() && id.value.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !ok {
            let fixed = id.value.to_lowercase().replace(['-', ' '], "_");
            self.report(
                id.span,
                format!("{what} id `{}` is not snake_case", id.value),
                "ids of modules, expansions and flags are snake_case",
                Some(format!("write `{fixed}`")),
            );
        }
    }

    fn derived_flags(&mut self, raw: &RawRules) {
        for (name, definition) in &raw.derived {
            self.check_snake_case(name, "derived flag");
            if self.claim_name(name, Named::Derived) {
                self.derived_source.insert(name.value.clone(), definition.clone());
            }
        }
        let names: Vec<String> = self.derived_source.keys().cloned().collect();
        for name in names {
            self.derived_flag(&name);
        }
    }

    /// The condition a derived flag stands for; `None` after an error.
    fn derived_flag(&mut self, name: &str) -> Option<Cond> {
        if let Some(done) = self.derived.get(name) {
            return done.clone();
        }
        let source = self.derived_source.get(name)?.clone();
        if self.resolving.iter().any(|n| n == name) {
            let path = format!("{} → {name}", self.resolving.join(" → "));
            self.report(source.span, format!("derived flag `{name}` is defined in terms of itself"), path, None);
            self.derived.insert(name.to_string(), None);
            return None;
        }
        self.resolving.push(name.to_string());
        let resolved = self.condition(&source);
        self.resolving.pop();
        self.derived.entry(name.to_string()).or_insert(resolved).clone()
    }

    /// The derived flags that resolved, in definition order.
    fn derived_by_name(&self) -> Vec<(String, Cond)> {
        self.derived_source.keys().filter_map(|name| Some((name.clone(), self.derived.get(name)?.clone()?))).collect()
    }

    // ---- errata --------------------------------------------------------------------

    fn errata(&mut self, raw: &RawRules, rules: &Rules) -> model::Errata {
        let mut errata = model::Errata::default();
        for reading in &raw.class_readings {
            if !reading.class.value.starts_with("show") {
                self.report(
                    reading.class.span,
                    format!("`{}` is not a show class", reading.class.value),
                    "class readings are for `show…` classes",
                    None,
                );
            }
            if let Some(means) = self.condition(&reading.means) {
                errata.classes.push(model::ClassReading { class: reading.class.value.clone(), means });
            }
        }
        let steps: Vec<&str> = model::SECTIONS_BEFORE_STEPS
            .into_iter()
            .chain(rules.phases.iter().flat_map(|p| p.steps.iter().map(|s| s.id.as_str())))
            .collect();
        let mut ids: HashMap<String, Span> = HashMap::new();
        for d in &raw.differences {
            if let Some(&first) = ids.get(&d.id.value) {
                self.duplicate("erratum", &d.id, first);
            }
            ids.insert(d.id.value.clone(), d.id.span);
            for step in &d.steps {
                if !steps.contains(&step.value.as_str()) {
                    let help = suggestion(&step.value, steps.iter().copied());
                    self.report(step.span, format!("unknown step `{}`", step.value), "not a step of base.yaml", help);
                }
            }
            let when = match &d.when {
                Some(w) => self.condition(w),
                None => Some(Cond::True),
            };
            for item in &d.items {
                if !item_exists(rules, &item.value) {
                    self.report(item.span, format!("unknown item `{}`", item.value), "no item has this id", None);
                }
            }
            if let Some(when) = when {
                errata.differences.push(model::Difference {
                    id: d.id.value.clone(),
                    page_lines: d.page_lines.clone(),
                    items: d.items.iter().map(|i| i.value.clone()).collect(),
                    steps: d.steps.iter().map(|s| s.value.clone()).collect(),
                    when,
                    page: d.page.value.clone(),
                    rules: d.rules.value.clone(),
                    why: d.why.value.clone(),
                });
            }
        }
        errata
    }

    // ---- the DSL ---------------------------------------------------------------

    fn syntax_error(&mut self, source: &Spanned<String>, what: &str, err: dsl::SyntaxError) {
        let span = source.sub_span(err.at.0, err.at.1);
        self.report(span, format!("invalid {what}: {}", err.message), err.message.clone(), None);
    }

    /// Parses and resolves a condition string.
    fn condition(&mut self, source: &Spanned<String>) -> Option<Cond> {
        match dsl::condition(&source.value) {
            Ok(ast) => self.resolve(source, &ast),
            Err(err) => {
                self.syntax_error(source, "condition", err);
                None
            }
        }
    }

    /// Resolves names to modules, editions and inlined derived flags. Reports
    /// every unknown name, not just the first.
    fn resolve(&mut self, source: &Spanned<String>, ast: &dsl::Condition) -> Option<Cond> {
        match ast {
            dsl::Condition::Bool(b) => Some(if *b { Cond::True } else { Cond::False }),
            dsl::Condition::Name(name) => match self.names.get(&name.text).map(|(named, _)| *named) {
                Some(Named::Module(m)) => Some(Cond::Module(m)),
                Some(Named::Derived) => self.derived_flag(&name.text),
                Some(Named::Expansion(_)) => {
                    let span = source.sub_span(name.at.0, name.at.1);
                    self.report(
                        span,
                        format!("`{}` is an expansion, not a module", name.text),
                        "conditions test modules",
                        Some("name one of its modules, or join them with `or`".to_string()),
                    );
                    None
                }
                None => {
                    let span = source.sub_span(name.at.0, name.at.1);
                    let candidates = self
                        .names
                        .iter()
                        .filter(|(_, (named, _))| !matches!(named, Named::Expansion(_)))
                        .map(|(n, _)| n.as_str());
                    let help = suggestion(&name.text, candidates);
                    self.report(span, format!("unknown module or flag `{}`", name.text), "not in modules.yaml", help);
                    None
                }
            },
            dsl::Condition::Edition { equal, edition } => {
                let span = source.sub_span(edition.at.0, edition.at.1);
                let e = self.edition(&edition.text, span)?;
                Some(if *equal { Cond::Edition(e) } else { Cond::Not(Box::new(Cond::Edition(e))) })
            }
            dsl::Condition::Variant { equal, variant } => {
                let span = source.sub_span(variant.at.0, variant.at.1);
                let v = self.variant(&variant.text, span)?;
                Some(if *equal { Cond::Variant(v) } else { Cond::Not(Box::new(Cond::Variant(v))) })
            }
            dsl::Condition::Not(inner) => Some(Cond::Not(Box::new(self.resolve(source, inner)?))),
            dsl::Condition::And(parts) | dsl::Condition::Or(parts) => {
                let resolved: Vec<Option<Cond>> = parts.iter().map(|p| self.resolve(source, p)).collect();
                let parts: Option<Vec<Cond>> = resolved.into_iter().collect();
                let parts = parts?;
                Some(if matches!(ast, dsl::Condition::And(_)) { Cond::All(parts) } else { Cond::Any(parts) })
            }
        }
    }

    fn text(&mut self, source: &Spanned<String>) -> Option<model::Text> {
        let parts = match dsl::text(&source.value) {
            Ok(parts) => parts,
            Err(err) => {
                self.syntax_error(source, "text", err);
                return None;
            }
        };
        let mut out = Vec::new();
        let mut ok = true;
        for part in parts {
            match part {
                dsl::TextPart::Literal(s) => out.push(model::TextPart::Literal(s)),
                dsl::TextPart::Variants(alternatives) => {
                    let mut seen: Vec<(EditionIx, (usize, usize))> = Vec::new();
                    let mut resolved = Vec::new();
                    for (names, text) in alternatives {
                        let mut editions = Vec::new();
                        for name in names {
                            let span = source.sub_span(name.at.0, name.at.1);
                            let Some(e) = self.edition(&name.text, span) else {
                                ok = false;
                                continue;
                            };
                            if seen.iter().any(|(x, _)| *x == e) {
                                self.report(
                                    span,
                                    format!("edition `{}` is named twice in these variants", name.text),
                                    "named again here",
                                    None,
                                );
                                ok = false;
                            }
                            seen.push((e, name.at));
                            editions.push(e);
                        }
                        resolved.push((editions, text));
                    }
                    out.push(model::TextPart::ByEdition(resolved));
                }
            }
        }
        ok.then_some(model::Text(out))
    }

    fn marker(&mut self, source: &Spanned<String>) -> Option<model::Marker> {
        let marker = match dsl::marker(&source.value) {
            Ok(m) => m,
            Err(err) => {
                self.syntax_error(source, "marker", err);
                return None;
            }
        };
        if !model::MARKERS.contains(&marker.name.text.as_str()) {
            let span = source.sub_span(marker.name.at.0, marker.name.at.1);
            let help = suggestion(&marker.name.text, model::MARKERS)
                .or_else(|| Some(format!("known markers: {}", model::MARKERS.join(", "))));
            self.report(span, format!("unknown marker `{}`", marker.name.text), "not a marker", help);
            return None;
        }
        let when = match &marker.when {
            Some(c) => self.resolve(source, c)?,
            None => Cond::True,
        };
        let name = marker.name.text.replace('_', " ");
        let label = match marker.arg {
            Some(arg) => format!("{name} ({arg})"),
            None => name,
        };
        Some(model::Marker { label, when })
    }

    // ---- phases and steps ---------------------------------------------------------

    fn phases(&mut self, raw: &RawRules) -> Vec<model::Phase> {
        let mut step_ids: HashMap<String, Span> = HashMap::new();
        let mut phases = Vec::new();
        for p in &raw.phases {
            let mut steps = Vec::new();
            for s in &p.steps {
                if let Some(&first) = step_ids.get(&s.id.value) {
                    self.duplicate("step", &s.id, first);
                    continue;
                }
                step_ids.insert(s.id.value.clone(), s.id.span);
                if dsl::effect(&format!("go back to {}", s.id.value)).is_err() {
                    self.report(
                        s.id.span,
                        format!("step id `{}` is not of the form 1B or 2B-1", s.id.value),
                        "bad step id",
                        None,
                    );
                }
                let when = match &s.when {
                    Some(w) => self.condition(w).unwrap_or(Cond::True),
                    None => Cond::True,
                };
                let repeat = s.repeat.as_ref().and_then(|r| self.repeat(r));
                steps.push(model::Step {
                    id: s.id.value.clone(),
                    title: s.title.value.clone(),
                    when,
                    repeat,
                    choose_one: s.choose_one,
                    items: Vec::new(),
                });
            }
            phases.push(model::Phase { id: p.id.value.clone(), title: p.title.value.clone(), steps });
        }
        if raw.base_file.is_some() && phases.iter().all(|p| p.steps.is_empty()) {
            self.problems.push(Diagnostic::global("base.yaml declares no steps"));
        }
        phases
    }

    fn repeat(&mut self, source: &Spanned<String>) -> Option<(model::Repeat, Cond)> {
        let repeat = match dsl::repeat(&source.value) {
            Ok(r) => r,
            Err(err) => {
                self.syntax_error(source, "repeat", err);
                return None;
            }
        };
        let kind =
            if repeat.kind.text == "double_turn" { model::Repeat::DoubleTurn } else { model::Repeat::PerFeature };
        let when = match &repeat.when {
            Some(c) => self.resolve(source, c)?,
            None => Cond::True,
        };
        Some((kind, when))
    }

    // ---- items -------------------------------------------------------------------------

    fn items(
        &mut self,
        raw: &RawRules,
        editions: Vec<model::Edition>,
        variants: Vec<model::Variant>,
        expansions: Vec<model::Expansion>,
        modules: Vec<model::Module>,
        mut phases: Vec<model::Phase>,
    ) -> Rules {
        // Sections in turn-order order.
        let mut sections: Vec<Section> = Vec::new();
        for id in model::SECTIONS_BEFORE_STEPS {
            sections.push(Section { id: id.to_string(), exists: Cond::True });
        }
        for step in phases.iter().flat_map(|p| &p.steps) {
            sections.push(Section { id: step.id.clone(), exists: step.when.clone() });
        }
        for id in model::SECTIONS_AFTER_STEPS {
            sections.push(Section { id: id.to_string(), exists: Cond::True });
        }

        // Every file's items, with the expansion rank that breaks ties.
        let mut files: Vec<(usize, &RawSections)> = vec![(0, &raw.base_sections)];
        let mut claimed: HashMap<usize, Span> = HashMap::new();
        for file in &raw.expansion_files {
            let name = &file.expansion;
            match self.names.get(&name.value).map(|(n, _)| *n) {
                Some(Named::Expansion(x)) => {
                    if let Some(&first) = claimed.get(&x) {
                        self.duplicate("rules file for expansion", name, first);
                        continue;
                    }
                    claimed.insert(x, name.span);
                    files.push((x + 1, &file.sections));
                }
                _ => {
                    let candidates = self
                        .names
                        .iter()
                        .filter(|(_, (n, _))| matches!(n, Named::Expansion(_)))
                        .map(|(n, _)| n.as_str());
                    let help = suggestion(&name.value, candidates);
                    self.report(
                        name.span,
                        format!("unknown expansion `{}`", name.value),
                        "not an expansion of modules.yaml",
                        help,
                    );
                }
            }
        }
        files.sort_by_key(|(rank, _)| *rank);

        let mut nodes: Vec<Node> = Vec::new();
        for (rank, file_sections) in files {
            let mut position = 0;
            for (key, list) in file_sections {
                let Some(section) = sections.iter().position(|s| s.id == key.value) else {
                    let help = suggestion(&key.value, sections.iter().map(|s| s.id.as_str()));
                    self.report(
                        key.span,
                        format!("unknown step or section `{}`", key.value),
                        "not a step of base.yaml",
                        help,
                    );
                    continue;
                };
                flatten(list, section, None, rank, &mut position, &mut nodes);
            }
        }

        // Ids are unique across all files.
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (i, node) in nodes.iter().enumerate() {
            let id = &node.raw.id;
            let ok = id
                .value
                .split('-')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
            if !ok {
                let fixed = id.value.to_lowercase().replace(['_', ' '], "-");
                self.report(
                    id.span,
                    format!("item id `{}` is not kebab-case", id.value),
                    "item ids are kebab-case",
                    Some(format!("write `{fixed}`")),
                );
            }
            if let Some(&first) = by_id.get(id.value.as_str()) {
                self.duplicate("item id", id, nodes[first].raw.id.span);
            } else {
                by_id.insert(&id.value, i);
            }
        }

        let placements: Vec<Placement> =
            (0..nodes.len()).map(|i| self.placement(i, &nodes, &by_id, &sections)).collect();
        let ordered = order::place(&placements);
        for &i in &ordered.unplaced {
            // Report each cycle once, at its first item in file order.
            let raw = nodes[i].raw;
            let via = raw.after.as_ref().or(raw.before.as_ref()).or(raw.under.as_ref());
            if let Some(via) = via {
                self.report(
                    via.span,
                    format!("item `{}` is part of an ordering cycle", raw.id.value),
                    "this reference leads back to the item",
                    None,
                );
            }
        }
        self.check_before_constraints(&nodes, &by_id, &ordered);

        let build = Build {
            nodes: &nodes,
            ordered: &ordered,
            settings: Settings { editions: editions.len(), variants: variants.len() },
            modules: &modules,
            sections: &sections,
        };
        let mut section_items: Vec<Vec<Item>> = Vec::new();
        for (s, section) in sections.iter().enumerate() {
            let top = ordered.sections.get(&s).cloned().unwrap_or_default();
            let items = top.iter().filter_map(|&i| self.item(&build, i, &section.exists, "base", &[])).collect();
            section_items.push(items);
        }
        let mut section_items = section_items.into_iter();
        let mut take = || section_items.next().unwrap_or_default();
        let notes = take();
        let setup = take();
        let any_time = take();
        for step in phases.iter_mut().flat_map(|p| &mut p.steps) {
            step.items = take();
        }
        let final_scoring = take();
        Rules {
            editions,
            variants,
            expansions,
            modules,
            phases,
            notes,
            setup,
            any_time,
            final_scoring,
            derived: Vec::new(),
            errata: model::Errata::default(),
        }
    }

    /// Resolves an item's `under`, `after` and `before` into a placement,
    /// reporting references that do not fit (and placing the item at the end).
    fn placement(&mut self, i: usize, nodes: &[Node], by_id: &HashMap<&str, usize>, sections: &[Section]) -> Placement {
        let node = &nodes[i];
        let mut parent = node.inline_parent;
        if let Some(under) = &node.raw.under {
            parent = self.reference(under, i, nodes, by_id, sections, "under").or(parent);
        }
        let sibling = |this: &mut Self, source: &Spanned<String>, what: &str| -> Option<usize> {
            let target = this.reference(source, i, nodes, by_id, sections, what)?;
            let target_parent = this.parent_of(target, nodes, by_id);
            if target_parent != parent {
                let describe = |p: Option<usize>| match p {
                    Some(p) => format!("a child of `{}`", nodes[p].raw.id.value),
                    None => "at the top of the step".to_string(),
                };
                this.report(
                    source.span,
                    format!("`{}` is not a sibling of `{}`", source.value, node.raw.id.value),
                    format!("`{}` is {}, this item is {}", source.value, describe(target_parent), describe(parent)),
                    Some(
                        "`after` and `before` name items of the same list; use `under` to change the parent"
                            .to_string(),
                    ),
                );
                return None;
            }
            Some(target)
        };
        let anchor = if let Some(after) = &node.raw.after {
            sibling(self, after, "after").map(Anchor::After)
        } else if let Some(before) = &node.raw.before {
            sibling(self, before, "before").map(Anchor::Before)
        } else {
            node.previous.filter(|&p| self.parent_of(p, nodes, by_id) == parent).map(Anchor::FollowPrevious)
        };
        if let (Some(_), Some(before)) = (&node.raw.after, &node.raw.before) {
            // `before` is verified after placement; still resolve it for its diagnostics.
            let _ = sibling(self, before, "before");
        }
        Placement { section: node.section, parent, anchor: anchor.unwrap_or(Anchor::End), key: node.key }
    }

    /// The parent an item ends up with (from `under`, or from nesting).
    fn parent_of(&self, i: usize, nodes: &[Node], by_id: &HashMap<&str, usize>) -> Option<usize> {
        match &nodes[i].raw.under {
            Some(under) => dsl::reference(&under.value).ok().and_then(|r| by_id.get(r.text.as_str()).copied()),
            None => nodes[i].inline_parent,
        }
    }

    /// Resolves a reference to an item of the same section.
    fn reference(
        &mut self,
        source: &Spanned<String>,
        i: usize,
        nodes: &[Node],
        by_id: &HashMap<&str, usize>,
        sections: &[Section],
        what: &str,
    ) -> Option<usize> {
        let name = match dsl::reference(&source.value) {
            Ok(name) => name,
            Err(err) => {
                self.syntax_error(source, &format!("`{what}` reference"), err);
                return None;
            }
        };
        let Some(&target) = by_id.get(name.text.as_str()) else {
            let here = nodes[i].section;
            let help =
                suggestion(&name.text, nodes.iter().filter(|n| n.section == here).map(|n| n.raw.id.value.as_str()));
            self.report(
                source.span,
                format!("unknown item `{}`", name.text),
                format!("no item has this id ({what})"),
                help,
            );
            return None;
        };
        if target == i {
            self.report(
                source.span,
                format!("item `{}` refers to itself", name.text),
                format!("`{what}` names the item itself"),
                None,
            );
            return None;
        }
        if nodes[target].section != nodes[i].section {
            let (theirs, ours) = (&sections[nodes[target].section].id, &sections[nodes[i].section].id);
            self.report(
                source.span,
                format!("`{}` is in `{theirs}`, not in `{ours}`", name.text),
                format!("`{what}` must name an item of the same step"),
                None,
            );
            return None;
        }
        Some(target)
    }

    /// An item with both `after` and `before` is placed by `after`; here we
    /// check that `before` still holds.
    fn check_before_constraints(&mut self, nodes: &[Node], by_id: &HashMap<&str, usize>, ordered: &order::Ordered) {
        for node in nodes {
            let (Some(after), Some(before)) = (&node.raw.after, &node.raw.before) else {
                continue;
            };
            let (Some(&me), Some(&target)) = (by_id.get(node.raw.id.value.as_str()), by_id.get(before.value.as_str()))
            else {
                continue;
            };
            let list = match self.parent_of(me, nodes, by_id) {
                Some(p) => &ordered.children[p],
                None => match ordered.sections.get(&node.section) {
                    Some(list) => list,
                    None => continue,
                },
            };
            let position = |x: usize| list.iter().position(|&y| y == x);
            if let (Some(a), Some(b)) = (position(me), position(target))
                && a > b
            {
                let d = Diagnostic::at(
                    self.sources,
                    before.span,
                    format!(
                        "`{}` cannot be both after `{}` and before `{}`",
                        node.raw.id.value, after.value, before.value
                    ),
                    format!("`{}` comes before `{}`", before.value, after.value),
                )
                .also(self.sources, after.span, "placed here by this `after`");
                self.problems.push(d);
            }
        }
    }

    /// Builds one checked item (and its children) from its node.
    fn item(
        &mut self,
        build: &Build,
        i: usize,
        context: &Cond,
        parent_origin: &str,
        parent_foreign: &[EditionIx],
    ) -> Option<Item> {
        let node = &build.nodes[i];
        let raw = node.raw;
        let when = match &raw.when {
            Some(w) => self.condition(w),
            None => {
                if node.needs_condition {
                    self.report(
                        raw.id.span,
                        format!("item `{}` of an expansion has no condition", raw.id.value),
                        "add `when:` naming its module",
                        Some("without a condition the item would show in every game".to_string()),
                    );
                    None
                } else {
                    Some(Cond::True)
                }
            }
        };
        let text = self.text(&raw.text);
        let markers: Vec<Option<model::Marker>> = raw.markers.iter().map(|m| self.marker(m)).collect();
        let mut foreign = parent_foreign.to_vec();
        for f in &raw.foreign {
            if let Some(e) = self.edition(&f.value, f.span)
                && !foreign.contains(&e)
            {
                foreign.push(e);
            }
        }
        foreign.sort_unstable();
        let effect = raw.effect.as_ref().and_then(|e| self.effect(e, build.sections));

        let when = when?;
        let in_context = context.clone().and(when.clone());
        if !satisfiable(&in_context, build.settings) {
            let span = raw.when.as_ref().map_or(raw.id.span, |w| w.span);
            let (message, label) = if satisfiable(&when, build.settings) {
                (
                    format!("item `{}` can never be shown", raw.id.value),
                    "this condition contradicts its parent's or its step's",
                )
            } else {
                (
                    format!("the condition of `{}` can never hold", raw.id.value),
                    "no edition and selection of modules satisfies this",
                )
            };
            self.report(span, message, label, None);
        }
        let origin = when.origin().map_or(parent_origin.to_string(), |m| build.modules[m].id.clone());
        let children = build.ordered.children[i].clone();
        let children =
            children.into_iter().filter_map(|c| self.item(build, c, &in_context, &origin, &foreign)).collect();
        Some(Item {
            id: raw.id.value.clone(),
            origin,
            when,
            text: text?,
            markers: markers.into_iter().collect::<Option<Vec<_>>>()?,
            foreign,
            effect,
            children,
        })
    }

    fn effect(&mut self, source: &Spanned<String>, sections: &[Section]) -> Option<model::Effect> {
        let effect = match dsl::effect(&source.value) {
            Ok(e) => e,
            Err(err) => {
                self.syntax_error(source, "effect", err);
                return None;
            }
        };
        let step = |this: &mut Self, name: &dsl::Name| -> Option<String> {
            let is_step = sections.iter().any(|s| s.id == name.text) && !name.text.contains('_');
            if is_step {
                return Some(name.text.clone());
            }
            let span = source.sub_span(name.at.0, name.at.1);
            let steps = sections.iter().map(|s| s.id.as_str()).filter(|s| !s.contains('_'));
            let help = suggestion(&name.text, steps);
            this.report(span, format!("unknown step `{}`", name.text), "not a step of base.yaml", help);
            None
        };
        Some(match effect {
            dsl::Effect::Skip(names) => {
                let steps: Vec<Option<String>> = names.iter().map(|n| step(self, n)).collect();
                model::Effect::Skip(steps.into_iter().collect::<Option<Vec<_>>>()?)
            }
            dsl::Effect::GoBack(name) => model::Effect::GoBack(step(self, &name)?),
            dsl::Effect::DoubleTurn => model::Effect::DoubleTurn,
        })
    }
}

struct Build<'a, 'r> {
    nodes: &'a [Node<'r>],
    ordered: &'a order::Ordered,
    settings: Settings,
    modules: &'a [model::Module],
    sections: &'a [Section],
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

/// Turns a YAML list of items (and their children) into nodes.
fn flatten<'r>(
    list: &'r [RawItem],
    section: usize,
    parent: Option<usize>,
    rank: usize,
    position: &mut usize,
    nodes: &mut Vec<Node<'r>>,
) {
    let mut previous = None;
    for raw in list {
        let me = nodes.len();
        nodes.push(Node {
            raw,
            section,
            inline_parent: parent,
            previous,
            key: (rank, *position),
            needs_condition: rank > 0 && parent.is_none(),
        });
        *position += 1;
        flatten(&raw.children, section, Some(me), rank, position, nodes);
        previous = Some(me);
    }
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
