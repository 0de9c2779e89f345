//! Checking: binds every name, parses every DSL string, places every item
//! and reports each problem as a diagnostic. Produces the model only when
//! nothing is wrong.
//!
//! One `Checker` walks the raw rules in order: `registry` (editions, variants,
//! modules, expansions, derived flags), `steps`, `items` (placement and the
//! items themselves); `names` binds the names in DSL strings, turning them
//! into model values for all of them.

mod flow;
mod items;
mod names;
mod registry;
mod steps;

use crate::codes::Code;
use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use carcassonne_rules_core::escape::terminal::quoted;
use carcassonne_rules_core::{EditionId, ModuleId, ModuleSet, Section, Sections, VariantId};

use crate::diagnostics::{Diagnostic, Fix, Sources, Span};
use crate::dsl;
use crate::lexicon::{self, IdKind};
use crate::logic::Budget;
use crate::model::{self, Cond, Flag, FlagIx, Item, Rules};
use crate::placement::{self, Anchor, Placement};
use crate::syntax::{Failed, RawItem, RawRules, RawSections, Spanned};
use carcassonne_rules_core::suggest::Suggestions;

/// Checks the raw rules; the model, if nothing was wrong.
pub fn check(raw: &RawRules, sources: &Sources, budget: &Budget, problems: &mut Vec<Diagnostic>) -> Option<Rules> {
    let before = problems.len();
    let mut checker = Checker::new(sources, problems);
    checker.failed = raw.failed;
    let variants = checker.variants(raw);
    let editions = checker.editions(raw);
    let catalog = checker.registry(raw, editions, variants);
    checker.derived_flags(raw);
    let (phases, double_turn) = checker.phases(raw);
    checker.declare_markers(raw);
    let mut rules = checker.items(raw, catalog, phases, double_turn, budget);
    rules.flags = checker.flags();
    rules.inputs = raw.inputs.clone();
    if problems.len() > before { None } else { Some(rules) }
}

/// Binds the names of a condition written against checked rules (for tools that keep
/// their own YAML beside the rules, such as the wiki conformance check).
pub fn condition(rules: &Rules, source: &Spanned<String>, sources: &Sources) -> Result<Cond, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let mut checker = Checker::new(sources, &mut problems);
    for e in &rules.catalog.editions {
        checker.editions.insert(e.id.clone(), NOWHERE);
    }
    for v in &rules.catalog.variants {
        checker.variants.insert(v.id.clone(), NOWHERE);
    }
    for (i, x) in rules.catalog.expansions.iter().enumerate() {
        checker.names.insert(x.id.clone(), (Named::Expansion(i), NOWHERE));
    }
    for m in &rules.catalog.modules {
        checker.names.insert(m.id.clone(), (Named::Module(m.bit), NOWHERE));
    }
    for (i, flag) in rules.flags.iter().enumerate() {
        checker.names.insert(flag.id.clone(), (Named::Derived(i), NOWHERE));
        checker.flags.push(Some(Some(flag.when.clone())));
    }
    let cond = checker.condition(source);
    match cond {
        Some(cond) if problems.is_empty() => Ok(cond),
        _ => Err(problems),
    }
}

/// The span of names that come from checked rules rather than from a file.
const NOWHERE: Span = Span { file: crate::diagnostics::FileId(usize::MAX), start: 0, len: 0 };

/// What a name in a condition or `--with` stands for.
#[derive(Clone, Copy)]
enum Named {
    Module(ModuleId),
    Expansion(usize),
    Derived(FlagIx),
}

struct Checker<'a> {
    sources: &'a Sources,
    problems: &'a mut Vec<Diagnostic>,
    editions: IndexMap<String, Span>,
    variants: IndexMap<String, Span>,
    names: HashMap<String, (Named, Span)>,
    /// Derived flags' names and definitions, by [`FlagIx`].
    derived_source: IndexMap<String, Spanned<String>>,
    /// Where each derived flag's name is written, in `derived_source`'s order.
    derived_names: Vec<Span>,
    /// Derived flags by [`FlagIx`]: `None` until bound, then the definition
    /// or `Some(None)` after an error.
    flags: Vec<Option<Option<Cond>>>,
    /// Derived flags being bound, to report definitions that loop.
    binding: Vec<FlagIx>,
    /// How deep and how large each bound derived flag is, by [`FlagIx`].
    flag_sizes: Vec<registry::FlagSize>,
    /// A chain of derived flags too deep to bind was reported: the rest
    /// of such chains is not reported again.
    deep_flags_reported: bool,
    /// Files that could not be read: names they would have defined are not
    /// reported as unknown.
    failed: Failed,
    /// Items left out after an error (under an unknown step or expansion):
    /// references to them are not reported again.
    lost: HashSet<String>,
    /// A double-turn block was written but refused: the effects that need
    /// it are not reported again.
    double_turn_refused: bool,
    /// The markers `base.yaml` declares.
    markers: Vec<model::MarkerInfo>,
    /// "Did you mean", bounded for the run.
    suggestions: Suggestions,
}

/// A part of the turn order that holds items (a section outside the steps,
/// such as notes, or a step) and the condition under which it exists.
struct Part {
    id: String,
    /// The step, for a step's section.
    step: Option<carcassonne_rules_core::StepId>,
    exists: Cond,
    /// Where the condition is written (a step's `when`).
    span: Option<Span>,
}

impl<'a> Checker<'a> {
    fn new(sources: &'a Sources, problems: &'a mut Vec<Diagnostic>) -> Self {
        Checker {
            sources,
            problems,
            editions: IndexMap::new(),
            variants: IndexMap::new(),
            names: HashMap::new(),
            derived_source: IndexMap::new(),
            derived_names: Vec::new(),
            flags: Vec::new(),
            binding: Vec::new(),
            flag_sizes: Vec::new(),
            deep_flags_reported: false,
            failed: Failed::default(),
            lost: HashSet::new(),
            double_turn_refused: false,
            markers: Vec::new(),
            suggestions: Suggestions::default(),
        }
    }

    /// Checks the markers `base.yaml` declares: an id in capitals, each
    /// once, with one line of meaning. Items may carry only these.
    fn declare_markers(&mut self, raw: &RawRules) {
        for marker in &raw.markers {
            let id = &marker.id;
            self.check_text(&marker.meaning, "a marker's meaning");
            let capitals = id.value.starts_with(|c: char| c.is_ascii_uppercase())
                && id.value.chars().all(|c| c.is_ascii_uppercase() || c == '_');
            if !capitals {
                self.report(
                    Code::InvalidId,
                    id.span,
                    format!("marker `{}` is not in capitals", id.value),
                    "not a marker id",
                    Some("a marker is capital letters and `_` (`ROBBER_CHOICE`)".to_string()),
                );
                continue;
            }
            if self.markers.iter().any(|m| m.id == id.value) {
                self.report(
                    Code::DuplicateId,
                    id.span,
                    format!("marker `{}` is declared twice", id.value),
                    "declared again here",
                    None,
                );
                continue;
            }
            self.markers.push(model::MarkerInfo {
                id: id.value.clone(),
                label: model::MarkerInfo::label_of(&id.value),
                meaning: marker.meaning.value.clone(),
                span: id.span,
            });
        }
    }

    /// Records `items` and their children as left out after an error.
    fn lose(&mut self, items: &[RawItem]) {
        for item in items {
            self.lost.insert(item.id.value.clone());
            self.lose(&item.children);
        }
    }

    /// The derived flags as the model holds them.
    fn flags(&self) -> Vec<Flag> {
        self.derived_source
            .iter()
            .zip(&self.flags)
            .zip(&self.derived_names)
            .map(|(((id, definition), when), name_span)| Flag {
                id: id.clone(),
                when: when.clone().flatten().unwrap_or(Cond::False),
                span: definition.span,
                name_span: *name_span,
            })
            .collect()
    }

    fn report(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
        help: Option<String>,
    ) {
        let mut d = Diagnostic::at(code, self.sources, span, message, label);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.problems.push(d);
    }

    /// Reports an unknown name written at `span`: the closest of `candidates`
    /// is suggested, with a fix that writes it there; with none close,
    /// `otherwise` is the help.
    fn report_unknown<'c>(
        &mut self,
        code: Code,
        (span, message, label): (Span, String, &str),
        wanted: &str,
        candidates: impl IntoIterator<Item = &'c str>,
        otherwise: Option<String>,
    ) {
        let d = Diagnostic::at(code, self.sources, span, message, label);
        self.problems.push(match (self.suggestions.did_you_mean(wanted, candidates), otherwise) {
            (Some(name), _) => d.with_suggestion(span, name),
            (None, Some(help)) => d.with_help(help),
            (None, None) => d,
        });
    }

    /// Reports an id that does not match its kind's pattern (see [`lexicon`]).
    fn check_id(&mut self, id: &Spanned<String>, kind: IdKind) {
        if kind.accepts(&id.value) {
            return;
        }
        if lexicon::is_keyword(&id.value) {
            self.report(
                Code::InvalidId,
                id.span,
                format!("{} id `{}` is a word of the conditions' language", kind.what(), id.value),
                "a condition could never name it",
                Some(format!("module, expansion and flag ids are not one of {}", lexicon::KEYWORDS.join(", "))),
            );
            return;
        }
        let fixed = kind.fixed(&id.value);
        let help = match &fixed {
            Some(fixed) => format!("write `{fixed}`"),
            None if id.value.len() > lexicon::MAX_ID_LEN => {
                format!("ids have at most {} characters", lexicon::MAX_ID_LEN)
            }
            None => format!("{} ids match `{}`", kind.what(), kind.pattern()),
        };
        self.report(
            Code::InvalidId,
            id.span,
            format!("{} id `{}` is not {}", kind.what(), quoted(&id.value), kind.described()),
            format!("{} ids are {}", kind.what(), kind.described()),
            Some(help),
        );
        // The help's id, as the fix: ids are plain scalars, so the span is the id itself.
        if let Some(fixed) = fixed
            && let Some(last) = self.problems.pop()
        {
            let title = format!("Write `{fixed}`");
            self.problems.push(last.with_fix(Fix { title, span: id.span, replacement: fixed }));
        }
    }

    /// Reports a name, title or text that is not one line of printable
    /// characters, at the first character that is not allowed.
    fn check_text(&mut self, text: &Spanned<String>, what: &str) {
        if let Some((at, c)) = lexicon::forbidden_in_text(&text.value) {
            self.report(
                Code::ForbiddenCharacter,
                text.sub_span(at, at + c.len_utf8()),
                format!("{what} holds {}", lexicon::describe_char(c)),
                "not allowed here",
                Some(
                    "names, titles and texts are one line without control characters or bidirectional \
                     overrides: remove it (rules/README.md, \"What strings may hold\")"
                        .to_string(),
                ),
            );
        }
    }

    /// Reports every id of `ids` that equals an earlier one once case is
    /// ignored but differs from it: in generated code, where constants are
    /// upper-cased, the two would be one.
    fn check_case_collisions<'i>(&mut self, kind: IdKind, ids: impl IntoIterator<Item = &'i Spanned<String>>) {
        let mut seen: HashMap<String, &Spanned<String>> = HashMap::new();
        for id in ids {
            match seen.get(&id.value.to_lowercase()) {
                Some(first) if first.value != id.value => {
                    let d = Diagnostic::at(
                        Code::IdsDifferInCase,
                        self.sources,
                        id.span,
                        format!(
                            "{} ids `{}` and `{}` differ only in case",
                            kind.what(),
                            quoted(&first.value),
                            quoted(&id.value)
                        ),
                        "differs only in case from another id",
                    )
                    .also(self.sources, first.span, "the other id")
                    .with_help("ids of one kind must differ in more than case: rename one of them");
                    self.problems.push(d);
                }
                Some(_) => {}
                None => {
                    seen.insert(id.value.to_lowercase(), id);
                }
            }
        }
    }

    /// Reports an edition a list (`foreign`, an expansion's `editions`)
    /// names again, as the schemas' `uniqueItems` does: it says nothing the
    /// first did, so it is a slip (often for another edition).
    fn unique_editions(&mut self, list: &[Spanned<String>], key: &str) {
        for (i, edition) in list.iter().enumerate() {
            if let Some(first) = list[..i].iter().find(|e| e.value == edition.value) {
                let d = Diagnostic::at(
                    Code::EditionNamedTwice,
                    self.sources,
                    edition.span,
                    format!("edition `{}` named twice in `{key}`", quoted(&edition.value)),
                    "named again here",
                )
                .also(self.sources, first.span, "first named here")
                .with_help("a list of editions names each edition once: remove this one, or name another edition");
                self.problems.push(d);
            }
        }
    }

    fn duplicate(&mut self, what: &str, name: &Spanned<String>, first: Span) {
        let d = Diagnostic::at(
            Code::DuplicateId,
            self.sources,
            name.span,
            format!("duplicate {what} `{}`", quoted(&name.value)),
            "defined again here",
        )
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
