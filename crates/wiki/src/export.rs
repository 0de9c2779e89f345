//! The rules as wiki source, in the markup conventions of WikiCarpedia's
//! "Order of Play" page, so that the page's own selector script could show and
//! hide its items.
//!
//! What the page does, this export does:
//!
//! - every item is a list item whose `show…` class says when it shows: the
//!   selector keys of the modules (the CamelCase the module ids come from,
//!   [`selector_key`]) joined by `And`, `Or` and `Not`, an edition as a word of
//!   its own (`showDragonAndC1`) or as the suffix `_ForC1`; a condition that
//!   one class cannot say (an `and` of `or`s) is a `data-dynamic-selector`
//!   (`['AND','showA','showBOrC']`). Derived flags are written out as the
//!   modules they stand for: the page's script defines its own derived keys,
//!   and the export does not depend on them;
//! - an item foreign to an edition carries `markC1`, `markC2` or `markWE`;
//!   markers are coloured templates (`{{ColorRed|ROBBERS}}`) in a span with
//!   their own condition; text that differs by edition is a span per edition;
//! - each phase is a `{{Rules…}}` box, each step a bold `'''Step 1B: …'''`
//!   heading; a step that exists only for some selections (the dragon's) is a
//!   box of its own in a `div` with the step's condition; the builder's "once or
//!   twice" block and the per-feature step are the page's `wica-repeat-block`
//!   and `wica-repeat-step` boxes;
//! - a step or item that depends on the publisher's rules (the page cannot
//!   select a publisher) is shown whatever the publisher, and labelled with the
//!   publishers whose rules it follows, where that label applies: both dragon
//!   steps show, each with its publishers. The label is a span with
//!   `data-publishers="hig zmg"`, so a reader can tell what it means.
//!
//! Each item carries its rule id as its HTML `id`, so a link can point at it
//! and a reader of the page can name it. Positions in the page that credit an
//! item to a module follow the rules' contract: the first selected module its
//! class names outside a `not` (the page reader, [`crate::page`], reads
//! them so); a condition that cannot be written so that this holds is an error.

use std::borrow::Cow;
use std::collections::HashMap;

use biodivine_lib_bdd::Bdd;
use carcassonne_rules_compiler::codes::Code;
use carcassonne_rules_compiler::diagnostics::{Diagnostic, Sources, Span};
use carcassonne_rules_compiler::lexicon;
use carcassonne_rules_compiler::logic::{BUDGET, Budget, Logic, TooComplex};
use carcassonne_rules_compiler::model::{Cond, Item, Marker, Phase, Rules, Step, Wording, WordingPart};
use carcassonne_rules_compiler::translation::{self, Locale, State};
use carcassonne_rules_core::lang::Unit;
use carcassonne_rules_core::order::NO_ACTIONS;
use carcassonne_rules_core::words::{Word, Words};
use carcassonne_rules_core::{EditionId, ModuleId, Repeat, Section, VariantId};

use crate::escape::{self as wiki, Line};
use crate::keys::{DERIVED_KEYS, selector_key};

/// Classes the export uses for layout, as the page does; they say nothing about
/// visibility. Besides these, the export uses `show…` classes and the foreign
/// marks `mark<edition>`.
pub const LAYOUT_CLASSES: [&str; 10] = [
    FUZZY,
    "wica-list",
    "wica-box-header",
    "wica-box-body",
    "wica-repeat-block",
    "wica-repeat-step",
    "wica-repeat-action",
    "wica-visible",
    "wica-top-spacing",
    "wica-bottom-spacing",
];

/// The class the Translate extension marks an outdated ("fuzzy") translation with.
pub const FUZZY: &str = "mw-translate-fuzzy";

/// How a page in one language writes what is not the rules' own text: the
/// headings, the step leads, the labels, each as escaped wiki source. Every
/// language's come from the program's words and the sections' headings in
/// that language ([`Conventions::of`]); [`ENGLISH`] and [`DUTCH`] are the two
/// the page reader knows, and a test holds the project's Dutch to the Dutch
/// page's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conventions {
    /// The headings of the sections outside the steps, in [`Section::ALL`]'s
    /// order, without their bold (see [`Conventions::heading`]).
    pub headings: [Cow<'static, str>; 4],
    /// The word before a step's id in its heading (`'''Step 1B: …'''`).
    pub step: Cow<'static, str>,
    /// The lead of a step whose items are alternatives (`choose_one`), its
    /// modal bold.
    pub choose_one: Cow<'static, str>,
    /// The line of a step where none of its items shows.
    pub no_actions: Cow<'static, str>,
    /// The heading of the builder's block.
    pub double_turn: Cow<'static, str>,
    /// A publisher label's words before and after the publishers' names.
    pub rules_only: (Cow<'static, str>, Cow<'static, str>),
    /// The words for "must" and "may", as a text says them: the page bolds
    /// them in an item that must or may be done (`'''mag'''`). Plain words,
    /// not wiki text.
    pub modals: (Cow<'static, str>, Cow<'static, str>),
}

/// The English page's conventions: the program's own words.
pub const ENGLISH: Conventions = Conventions {
    headings: [
        Cow::Borrowed("Notes"),
        Cow::Borrowed("Setup"),
        Cow::Borrowed("At any time during your turn"),
        Cow::Borrowed("Final scoring"),
    ],
    step: Cow::Borrowed("Step"),
    choose_one: Cow::Borrowed("You '''may''' do exactly one of the following:"),
    no_actions: Cow::Borrowed(NO_ACTIONS),
    double_turn: Cow::Borrowed("Once, or twice on a double turn"),
    rules_only: (Cow::Borrowed(""), Cow::Borrowed(" rules only")),
    modals: (Cow::Borrowed("must"), Cow::Borrowed("may")),
};

/// The Dutch page's conventions (`'''Stap 1B: …'''`, `'''Inleiding'''`): the
/// ones the reader knows from the page, and the ones the project's Dutch
/// gives (a test holds them equal).
pub const DUTCH: Conventions = Conventions {
    headings: [
        Cow::Borrowed("Inleiding"),
        Cow::Borrowed("Voorbereiding"),
        Cow::Borrowed("Op ieder moment tijdens je beurt"),
        Cow::Borrowed("Eindtelling"),
    ],
    step: Cow::Borrowed("Stap"),
    choose_one: Cow::Borrowed("Je '''mag''' precies één van de volgende dingen doen:"),
    no_actions: Cow::Borrowed("Er zijn geen acties in deze stap."),
    double_turn: Cow::Borrowed("Eenmaal, of tweemaal bij een dubbele beurt"),
    rules_only: (Cow::Borrowed("alleen volgens de regels van "), Cow::Borrowed("")),
    modals: (Cow::Borrowed("moet"), Cow::Borrowed("mag")),
};

impl Conventions {
    /// The conventions of the page in `locale`'s language (English without
    /// one): its words, English where it has none.
    pub fn of(locale: Option<&Locale>) -> Conventions {
        match locale {
            None => Conventions::from_words(&Words::english()),
            Some(locale) => Conventions::from_words(&locale.words()),
        }
    }

    /// A page's conventions from the program's `words`, escaped as wiki text
    /// (they are the translators', not markup); the word "may" of the lead
    /// bold, as the page has it.
    pub fn from_words(words: &Words) -> Conventions {
        let text = |s: &str| Cow::Owned(wiki::text(s));
        let headings = Section::ALL.map(|section| text(words.heading(section)));
        let once_or_twice = words.get(Word::OnceOrTwice);
        let mut chars = once_or_twice.chars();
        let capitalized: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
        let rules_only = words.get(Word::RulesOnly);
        let (before, after) = rules_only.split_once("{publishers}").unwrap_or(("", rules_only));
        let lead = words.get(Word::ChooseOneLead);
        let may = words.get(Word::ModalMay);
        let choose_one = match find_word(lead, may) {
            Some((start, end)) => Line::new()
                .text(&lead[..start])
                .markup("'''")
                .text(&lead[start..end])
                .markup("'''")
                .text(&lead[end..])
                .finish(),
            None => wiki::text(lead),
        };
        Conventions {
            headings,
            step: text(words.get(Word::Step)),
            choose_one: Cow::Owned(choose_one),
            no_actions: text(words.get(Word::NoActions)),
            double_turn: text(&capitalized),
            rules_only: (spaced(before), spaced(after)),
            modals: (Cow::Owned(words.get(Word::ModalMust).into()), Cow::Owned(words.get(Word::ModalMay).into())),
        }
    }

    /// The text of a section's heading (escaped, without its bold).
    pub fn heading_text(&self, section: Section) -> &str {
        let at = Section::ALL.iter().position(|&s| s == section).unwrap_or(0);
        &self.headings[at]
    }

    /// The heading of a section outside the steps, as the page writes it
    /// (`'''Op ieder moment tijdens je beurt:'''`).
    pub fn heading(&self, section: Section) -> String {
        let colon = if section == Section::AnyTime { ":" } else { "" };
        format!("'''{}{colon}'''", self.heading_text(section))
    }
}

/// `s` escaped as wiki text that stands inside a line: the spaces at its
/// edges kept as they are.
fn spaced(s: &str) -> Cow<'static, str> {
    let inner = s.trim();
    let (start, end) = match inner.is_empty() {
        true => (s.len(), s.len()),
        false => (s.len() - s.trim_start().len(), s.trim_end().len()),
    };
    // The spaces around stay as they are (the label's words are joined by
    // them); any other blank there, a line break say, is escaped as text is.
    let around = |part: &str| -> String {
        part.chars().map(|c| if c == ' ' { " ".to_string() } else { wiki::text(&c.to_string()) }).collect()
    };
    Cow::Owned(format!("{}{}{}", around(&s[..start]), wiki::text(inner), around(&s[end.max(start)..])))
}

/// The heading of a section outside the steps, as the English page writes it.
pub fn heading(section: Section) -> String {
    ENGLISH.heading(section)
}

/// What the export writes besides the rules' English: a language's texts and
/// page conventions, and the Translate extension's markup.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// The language to write the texts and titles in (English where it has
    /// no translation), with its page's conventions.
    pub locale: Option<&'a Locale>,
    /// Wrap every item's text and every title in `<translate>` with one
    /// `<!--T:unit-->` marker, named by the unit's id: the English source
    /// page of MediaWiki's Translate extension, whose units then stay with
    /// their items when items move.
    pub translate: bool,
    /// Write the sections the page does not have (Setup, Final scoring)
    /// too: the page has only the introduction and "at any time", beside
    /// the steps.
    pub all_sections: bool,
}

/// The order of play as wiki source. A condition the page's classes cannot
/// say (one that depends on the publisher on a marker or a repeat, or one whose
/// classes would credit the item to another module) is reported where it is
/// written (`sources` are the rules files `rules` were read from).
pub fn export(rules: &Rules, sources: &Sources) -> Result<String, Vec<Diagnostic>> {
    export_with(rules, sources, Options::default())
}

/// [`export`], in a language or as Translate's source page.
pub fn export_with(rules: &Rules, sources: &Sources, options: Options<'_>) -> Result<String, Vec<Diagnostic>> {
    export_within(rules, sources, options, Budget::new(BUDGET))
}

/// [`export_with`], charging `budget`: the run's, which `check` spent from.
pub fn export_within(
    rules: &Rules,
    sources: &Sources,
    options: Options<'_>,
    budget: Budget,
) -> Result<String, Vec<Diagnostic>> {
    let unwritable = unwritable_ids(rules);
    if !unwritable.is_empty() {
        return Err(unwritable);
    }
    let logic = Logic::within(rules, budget);
    let conventions = Conventions::of(options.locale);
    let mut writer = Writer {
        rules,
        logic,
        sources,
        out: String::new(),
        problems: Vec::new(),
        too_complex: false,
        options,
        conventions,
        units: HashMap::new(),
        unit_suffix: None,
        context: None,
    };
    writer.document();
    if writer.problems.is_empty() { Ok(writer.out) } else { Err(writer.problems) }
}

/// The ids that become words of classes, attributes and template names
/// (`markC1`, `showRiverII`, `data-publishers="hig"`, `{{RulesDragon|…}}`) and
/// cannot be written there as they are: each is reported (`check` refuses
/// them; a model built otherwise may hold them).
fn unwritable_ids(rules: &Rules) -> Vec<Diagnostic> {
    let catalog = &rules.catalog;
    let editions = catalog.editions.iter().map(|e| ("edition", &e.id));
    let variants = catalog.variants.iter().map(|v| ("variant", &v.id));
    let modules = catalog.modules.iter().map(|m| ("module", &m.id));
    editions
        .chain(variants)
        .chain(modules)
        .filter(|(_, id)| !wiki::is_word(id))
        .map(|(kind, id)| {
            Diagnostic::global(Code::WikiExport, format!("{kind} id `{id}` cannot be written into the page's classes"))
                .with_help("an id there is ASCII letters, digits, `-` and single `_`")
        })
        .collect()
}

// ---- conditions as the page's classes ------------------------------------------
//
// What follows is a printer: it rewrites a condition into the shapes the
// page's classes can say (negations on atoms, a disjunction of conjunctions)
// and picks the shortest. Whether a conjunction can hold at all, and whether
// a publisher's label is implied by its context, are questions of logic: the
// BDDs of [`Logic`] answer them.

/// What the page's classes can test: a module, the edition, or a derived flag
/// the page's script knows by a key of its own ([`DERIVED_KEYS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Atom {
    Module(ModuleId),
    Edition(EditionId),
    Flag(usize),
}

/// An atom or its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Lit {
    atom: Atom,
    positive: bool,
}

/// A condition without derived flags or rule variants, negations on atoms only.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Nnf {
    Const(bool),
    Lit(Lit),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
}

/// A conjunction of literals; a list of terms is their disjunction.
type Term = Vec<Lit>;

/// Beyond this many terms a condition is not turned into one class.
const MAX_TERMS: usize = 256;

fn and(parts: Vec<Nnf>) -> Nnf {
    junction(parts, true)
}

fn or(parts: Vec<Nnf>) -> Nnf {
    junction(parts, false)
}

/// `and` (`all`) or `or` of `parts`: nested junctions of the same kind
/// flattened, neutral constants dropped, repeats dropped.
fn junction(parts: Vec<Nnf>, all: bool) -> Nnf {
    let mut out: Vec<Nnf> = Vec::new();
    // Repeats found through a set: comparing each part with those kept
    // took time quadratic in a condition of many parts (issue 36).
    let mut seen: std::collections::HashSet<Nnf> = std::collections::HashSet::new();
    for part in parts {
        let items = match part {
            Nnf::Const(c) if c == all => continue,
            Nnf::Const(c) => return Nnf::Const(c),
            Nnf::And(inner) if all => inner,
            Nnf::Or(inner) if !all => inner,
            other => vec![other],
        };
        for item in items {
            if seen.insert(item.clone()) {
                out.push(item);
            }
        }
    }
    match out.len() {
        0 => Nnf::Const(all),
        1 => out.pop().unwrap_or(Nnf::Const(all)),
        _ if all => Nnf::And(out),
        _ => Nnf::Or(out),
    }
}

fn negate(n: &Nnf) -> Nnf {
    match n {
        Nnf::Const(c) => Nnf::Const(!c),
        Nnf::Lit(l) => Nnf::Lit(Lit { atom: l.atom, positive: !l.positive }),
        Nnf::And(parts) => or(parts.iter().map(negate).collect()),
        Nnf::Or(parts) => and(parts.iter().map(negate).collect()),
    }
}

/// `cond` under rule variant `variant`, derived flags expanded, negations
/// pushed down to the atoms.
/// Each node built is charged to `budget`, the run's: a flag named many
/// times is expanded at every mention, so a condition of a few kilobytes can
/// stand for millions of nodes. Past the budget, no selection (the writer
/// then reports the condition it was writing).
fn nnf(cond: &Cond, rules: &Rules, variant: VariantId, negated: bool, budget: &Budget) -> Nnf {
    if budget.charge(1).is_err() {
        return Nnf::Const(false);
    }
    match cond {
        Cond::True => Nnf::Const(!negated),
        Cond::False => Nnf::Const(negated),
        Cond::Module(m) => Nnf::Lit(Lit { atom: Atom::Module(*m), positive: !negated }),
        // The page's word for the second edition stands for every edition
        // but the first (`showC2`: the new edition's wording, the Winter
        // edition's too): the second edition alone is that word without the
        // others.
        Cond::Edition(e) if e.0 == 1 && rules.catalog.editions.len() > 2 => {
            let others = (2..rules.catalog.editions.len()).map(|o| EditionId(o as u8));
            let lits = std::iter::once(EditionId(0)).chain(others);
            let lits = lits.map(|o| Nnf::Lit(Lit { atom: Atom::Edition(o), positive: negated })).collect();
            if negated { or(lits) } else { and(lits) }
        }
        Cond::Edition(e) => Nnf::Lit(Lit { atom: Atom::Edition(*e), positive: !negated }),
        Cond::Variant(v) => Nnf::Const((*v == variant) != negated),
        Cond::Flag(f) if derived_key(rules, *f).is_some() && !depends_on_variant(&Cond::Flag(*f), rules) => {
            Nnf::Lit(Lit { atom: Atom::Flag(*f), positive: !negated })
        }
        Cond::Flag(f) => {
            rules.flags.get(*f).map_or(Nnf::Const(negated), |flag| nnf(&flag.when, rules, variant, negated, budget))
        }
        Cond::Not(inner) => nnf(inner, rules, variant, !negated, budget),
        Cond::All(parts) | Cond::Any(parts) => {
            let parts = parts.iter().map(|p| nnf(p, rules, variant, negated, budget)).collect();
            if matches!(cond, Cond::All(_)) != negated { and(parts) } else { or(parts) }
        }
    }
}

/// The condition as a disjunction of satisfiable conjunctions, in the order
/// the literals are first met, none implied by another; `None` if it has more
/// than [`MAX_TERMS`] terms.
fn dnf(n: &Nnf, logic: &Logic) -> Option<Vec<Term>> {
    let terms = match n {
        Nnf::Const(true) => vec![Vec::new()],
        Nnf::Const(false) => Vec::new(),
        Nnf::Lit(l) => vec![vec![*l]],
        Nnf::Or(parts) => {
            let mut terms = Vec::new();
            for part in parts {
                terms.extend(dnf(part, logic)?);
            }
            terms
        }
        Nnf::And(parts) => {
            let mut terms: Vec<Term> = vec![Vec::new()];
            for part in parts {
                let factor = dnf(part, logic)?;
                let mut product = Vec::new();
                for t in &terms {
                    for f in &factor {
                        product.push(t.iter().chain(f).copied().collect());
                    }
                }
                terms = product.into_iter().filter_map(|t| term(t, logic)).collect();
                if terms.len() > MAX_TERMS {
                    return None;
                }
            }
            terms
        }
    };
    let terms: Vec<Term> = terms.into_iter().filter_map(|t| term(t, logic)).collect();
    let implied = |i: usize| {
        terms.iter().enumerate().any(|(j, other)| {
            j != i && other.iter().all(|l| terms[i].contains(l)) && (other.len() < terms[i].len() || j < i)
        })
    };
    let kept: Vec<Term> = (0..terms.len()).filter(|&i| !implied(i)).map(|i| terms[i].clone()).collect();
    (kept.len() <= MAX_TERMS).then_some(kept)
}

/// A conjunction with repeats dropped, and the negated editions that the
/// rest implies (`C1 and not C2` is `C1`); `None` if no selection satisfies it.
fn term(lits: Term, logic: &Logic) -> Option<Term> {
    let mut out: Term = Vec::new();
    for l in lits {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    if conjunction(&out, logic).is_false() {
        return None;
    }
    let mut i = 0;
    while i < out.len() {
        let l = out[i];
        let rest: Term = out.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, l)| *l).collect();
        if !l.positive
            && matches!(l.atom, Atom::Edition(_))
            && logic
                .and_not(&conjunction(&rest, logic), &literal(l, logic))
                .unwrap_or_else(|_| logic.nothing())
                .is_false()
        {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    Some(out)
}

/// The page's key of the derived flag `f`, if the page has one.
fn derived_key(rules: &Rules, f: usize) -> Option<&'static str> {
    let flag = rules.flags.get(f)?;
    DERIVED_KEYS.iter().find(|(id, _)| *id == flag.id).map(|(_, key)| *key)
}

/// Whether `cond` tests the publisher's rules (a page key cannot).
fn depends_on_variant(cond: &Cond, rules: &Rules) -> bool {
    match cond {
        Cond::Variant(_) => true,
        Cond::Flag(f) => rules.flags.get(*f).is_some_and(|flag| depends_on_variant(&flag.when, rules)),
        Cond::Not(inner) => depends_on_variant(inner, rules),
        Cond::All(parts) | Cond::Any(parts) => parts.iter().any(|p| depends_on_variant(p, rules)),
        _ => false,
    }
}

/// `n` with each derived flag's key written out as the modules it stands for.
fn expanded(n: &Nnf, rules: &Rules, budget: &Budget) -> Nnf {
    match n {
        Nnf::Lit(Lit { atom: Atom::Flag(f), positive }) => match rules.flags.get(*f) {
            Some(flag) => expanded(&nnf(&flag.when, rules, VariantId(0), !positive, budget), rules, budget),
            None => Nnf::Const(!positive),
        },
        Nnf::And(parts) => and(parts.iter().map(|p| expanded(p, rules, budget)).collect()),
        Nnf::Or(parts) => or(parts.iter().map(|p| expanded(p, rules, budget)).collect()),
        other => other.clone(),
    }
}

/// The selections where the literal holds.
fn literal(l: Lit, logic: &Logic) -> Bdd {
    let atom = match l.atom {
        Atom::Module(m) => logic.module(m),
        Atom::Edition(e) => logic.edition(e),
        Atom::Flag(f) => logic.cond(&Cond::Flag(f)),
    };
    let set = if l.positive { logic.and(&atom, logic.everything()) } else { logic.and_not(logic.everything(), &atom) };
    set.unwrap_or_else(|_| logic.nothing())
}

/// The selections where every literal holds.
fn conjunction(lits: &[Lit], logic: &Logic) -> Bdd {
    lits.iter().fold(logic.everything().clone(), |acc, &l| within(logic.and(&acc, &literal(l, logic)), logic))
}

/// An operation's result, or no selection past the budget (which the
/// writer then reports at the condition it was writing).
fn within(result: Result<Bdd, TooComplex>, logic: &Logic) -> Bdd {
    result.unwrap_or_else(|_| logic.nothing())
}

/// The selections where `n` holds.
fn selections(n: &Nnf, logic: &Logic) -> Bdd {
    match n {
        Nnf::Const(true) => logic.everything().clone(),
        Nnf::Const(false) => logic.nothing(),
        Nnf::Lit(l) => literal(*l, logic),
        Nnf::And(parts) => parts
            .iter()
            .fold(logic.everything().clone(), |acc, p| within(logic.and(&acc, &selections(p, logic)), logic)),
        Nnf::Or(parts) => {
            parts.iter().fold(logic.nothing(), |acc, p| within(logic.or(&acc, &selections(p, logic)), logic))
        }
    }
}

fn from_terms(terms: &[Term]) -> Nnf {
    or(terms.iter().map(|t| and(t.iter().map(|l| Nnf::Lit(*l)).collect())).collect())
}

/// The modules a condition credits, in the order the page reader meets them:
/// positive module literals, first mention first (a derived flag's key, the
/// modules its condition names).
fn credited(terms: &[Term], rules: &Rules, out: &mut Vec<ModuleId>) {
    for l in terms.iter().flatten() {
        let modules = match (l.atom, l.positive) {
            (Atom::Module(m), true) => vec![m],
            (Atom::Flag(f), true) => Cond::Flag(f).named_modules(&rules.flags),
            _ => Vec::new(),
        };
        for m in modules {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
}

/// How an element's condition is written: `show…` classes (all must hold) and
/// an optional `data-dynamic-selector` (its operator and classes).
#[derive(Debug, Clone, Default, PartialEq)]
struct Show {
    classes: Vec<String>,
    dynamic: Option<(&'static str, Vec<String>)>,
}

impl Show {
    /// ` class="…"` and ` data-dynamic-selector="…"`, with `extra` classes.
    fn attributes(&self, extra: &[String]) -> String {
        let classes: Vec<&str> = self.classes.iter().chain(extra).map(String::as_str).collect();
        let mut out = String::new();
        if !classes.is_empty() {
            out.push_str(&format!(" class=\"{}\"", classes.join(" ")));
        }
        if let Some((op, classes)) = &self.dynamic {
            let list: Vec<String> = std::iter::once(op.to_string()).chain(classes.iter().cloned()).collect();
            out.push_str(&format!(
                " data-dynamic-selector=\"[{}]\"",
                list.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(",")
            ));
        }
        out
    }

    fn len(&self) -> usize {
        self.classes.iter().chain(self.dynamic.iter().flat_map(|(_, c)| c)).map(|c| c.len() + 3).sum()
    }
}

/// A condition on an element: how it is written, and the publisher labels
/// inside the element (each with the publishers and where it shows).
struct Shown {
    show: Show,
    /// The condition as the page tests it (whatever the publisher).
    page: Nnf,
    labels: Vec<(Vec<VariantId>, Show)>,
}

impl Writer<'_> {
    fn variants(&self) -> Vec<VariantId> {
        let n = self.rules.catalog.variants.len().max(1);
        (0..n).map(|v| VariantId(v as u8)).collect()
    }

    /// One class for a condition given as terms: `showDragonAndNotPlague`,
    /// `showMessages_ForC1`, `showAbbeyOrHalflings`.
    fn class(&self, terms: &[Term]) -> String {
        let word = |l: &Lit| {
            if let Some(word) = self.edition_word(*l) {
                return word;
            }
            let key = match l.atom {
                Atom::Module(m) => {
                    self.rules.catalog.modules.get(usize::from(m.0)).map_or_else(String::new, |m| selector_key(&m.id))
                }
                Atom::Edition(e) => {
                    self.rules.catalog.editions.get(usize::from(e.0)).map_or_else(String::new, |e| e.id.clone())
                }
                Atom::Flag(f) => derived_key(self.rules, f).unwrap_or_default().to_string(),
            };
            if l.positive { key } else { format!("Not{key}") }
        };
        // An edition every term tests is the page's `_For` suffix.
        let common = terms.first().and_then(|first| {
            first
                .iter()
                .copied()
                .find(|l| self.edition_word(*l).is_some() && terms.iter().all(|t| t.contains(l) && t.len() > 1))
        });
        let body = terms
            .iter()
            .map(|t| t.iter().filter(|l| Some(**l) != common).map(word).collect::<Vec<_>>().join("And"))
            .collect::<Vec<_>>()
            .join("Or");
        match common {
            Some(e) => format!("show{body}_For{}", word(&e)),
            None => format!("show{body}"),
        }
    }

    /// The page's word for an edition literal that has one: the first
    /// edition (`C1`), every edition but the first (`C2`, the page's new
    /// edition, whose wording the later ones share), or a later edition
    /// (`WE`); `None` for one the page says with `Not`.
    fn edition_word(&self, l: Lit) -> Option<String> {
        let Atom::Edition(e) = l.atom else { return None };
        let editions = &self.rules.catalog.editions;
        let id = |at: usize| editions.get(at).map(|e| e.id.clone());
        match (e.0, l.positive) {
            (0, false) if editions.len() > 2 => id(1),
            (_, true) => id(usize::from(e.0)),
            _ => None,
        }
    }

    /// The class of a span shown in `editions`: one edition word where one
    /// says them (`showC2` for the new edition and the Winter edition).
    fn editions_class(&self, editions: &[EditionId]) -> String {
        let logic = &self.logic;
        let set = editions.iter().fold(logic.nothing(), |acc, &e| within(logic.or(&acc, &logic.edition(e)), logic));
        let set = within(logic.and(&set, logic.everything()), logic);
        let same = |a: &Bdd, b: &Bdd| {
            within(logic.and_not(a, b), logic).is_false() && within(logic.and_not(b, a), logic).is_false()
        };
        let words = (0..self.rules.catalog.editions.len())
            .flat_map(|e| [true, false].map(|positive| Lit { atom: Atom::Edition(EditionId(e as u8)), positive }));
        for l in words {
            if let Some(word) = self.edition_word(l)
                && same(&literal(l, logic), &set)
            {
                return format!("show{word}");
            }
        }
        let any = or(editions
            .iter()
            .map(|&e| nnf(&Cond::Edition(e), self.rules, VariantId(0), false, self.logic.budget()))
            .collect());
        dnf(&any, logic).map_or_else(String::new, |terms| self.class(&terms))
    }

    /// The shortest way to write `n` whose classes credit `credit` (when given)
    /// in the rules' order; `None` if there is none. A derived flag the
    /// page has a key for is written as that key where that fits, else as
    /// the modules it stands for.
    fn encode(&self, n: &Nnf, credit: Option<&[ModuleId]>) -> Option<Show> {
        self.encode_as_is(n, credit).or_else(|| {
            let modules = expanded(n, self.rules, self.logic.budget());
            if &modules == n { None } else { self.encode_as_is(&modules, credit) }
        })
    }

    fn encode_as_is(&self, n: &Nnf, credit: Option<&[ModuleId]>) -> Option<Show> {
        let logic = &self.logic;
        let fits = |terms: &[Vec<Term>]| {
            credit.is_none_or(|want| {
                let mut got = Vec::new();
                terms.iter().for_each(|t| credited(t, self.rules, &mut got));
                got == want
            })
        };
        if let Nnf::Const(true) = n {
            return fits(&[]).then(Show::default);
        }
        let mut candidates: Vec<Show> = Vec::new();
        let terms = dnf(n, logic);
        if terms.as_ref().is_some_and(|t| t.iter().any(Vec::is_empty)) {
            return fits(&[]).then(Show::default);
        }
        if let Some(terms) = terms
            && !terms.is_empty()
            && fits(std::slice::from_ref(&terms))
        {
            candidates.push(Show { classes: vec![self.class(&terms)], dynamic: None });
        }
        let groups: Option<(&'static str, Vec<Nnf>)> = match n {
            Nnf::And(parts) => {
                // Neighbouring literals share one class.
                let mut groups: Vec<Nnf> = Vec::new();
                for part in parts {
                    match (groups.last_mut(), part) {
                        (Some(Nnf::And(lits)), Nnf::Lit(_)) if lits.iter().all(|l| matches!(l, Nnf::Lit(_))) => {
                            lits.push(part.clone());
                        }
                        (Some(last @ Nnf::Lit(_)), Nnf::Lit(_)) => *last = Nnf::And(vec![last.clone(), part.clone()]),
                        _ => groups.push(part.clone()),
                    }
                }
                Some(("AND", groups))
            }
            Nnf::Or(parts) => Some(("OR", parts.clone())),
            _ => None,
        };
        if let Some((op, groups)) = groups
            && groups.len() > 1
        {
            let terms: Option<Vec<Vec<Term>>> =
                groups.iter().map(|g| dnf(g, logic).filter(|t| !t.is_empty())).collect();
            let terms = terms.map(|mut terms| {
                // An edition tested on its own is the first class's `_For` suffix.
                let edition = |t: &Vec<Term>| match t.as_slice() {
                    [term] => match term.as_slice() {
                        [l] if self.edition_word(*l).is_some() => Some(*l),
                        _ => None,
                    },
                    _ => None,
                };
                if op == "AND"
                    && terms.len() > 1
                    && let Some(at) = terms.iter().position(|t| edition(t).is_some())
                    && let Some(e) = edition(&terms[at])
                {
                    terms.remove(at);
                    if let Some(first) = terms.first_mut() {
                        first.iter_mut().for_each(|t| t.push(e));
                    }
                }
                terms
            });
            if let Some(terms) = terms
                && fits(&terms)
            {
                candidates.push(Show {
                    classes: Vec::new(),
                    dynamic: Some((op, terms.iter().map(|t| self.class(t)).collect())),
                });
            }
        }
        candidates.into_iter().min_by_key(Show::len)
    }

    /// How the page writes `cond` on an element: whatever the publisher, with
    /// labels for the publishers where that matters. `context` are the
    /// conditions of the enclosing step and items: a label they already imply
    /// is left out. `credit`: the check that the classes credit the rules'
    /// modules (items only).
    fn shown(&mut self, cond: &Cond, context: &[&Cond], credit: bool, at: Span) -> Option<Shown> {
        let shown = self.shown_within(cond, context, credit, at);
        if self.spent(at) { None } else { shown }
    }

    /// Whether the budget of BDD work is spent; reports it, the first time,
    /// at `at`, the condition being written.
    fn spent(&mut self, at: Span) -> bool {
        self.spent_on(at, "this condition is too complex to write as the page's classes")
    }

    /// [`Writer::spent`], reported with `message`.
    fn spent_on(&mut self, at: Span, message: &str) -> bool {
        let spent = self.logic.spent() >= BUDGET;
        if spent && !self.too_complex {
            self.too_complex = true;
            self.problems.push(
                Diagnostic::at(
                    Code::TooComplex,
                    self.sources,
                    at,
                    message,
                    "writing it takes more work than the export may do",
                )
                .with_help(format!(
                    "the export decides how to write each condition within a budget of {BUDGET} steps for all \
                     the rules: split it into simpler conditions"
                )),
            );
        }
        spent
    }

    /// [`Writer::shown`], whatever the budget.
    fn shown_within(&mut self, cond: &Cond, context: &[&Cond], credit: bool, at: Span) -> Option<Shown> {
        let rules = self.rules;
        let variants = self.variants();
        let budget = self.logic.budget();
        let per_variant: Vec<Nnf> = variants.iter().map(|&v| nnf(cond, rules, v, false, budget)).collect();
        let want = cond.named_modules(&rules.flags);
        let want = credit.then_some(want.as_slice());
        let uniform = per_variant.windows(2).all(|w| w[0] == w[1]);
        let page = if uniform {
            per_variant.first().cloned().unwrap_or(Nnf::Const(true))
        } else {
            match dnf(&or(per_variant.clone()), &self.logic) {
                Some(terms) => from_terms(&terms),
                None => or(per_variant.clone()),
            }
        };
        let Some(show) = self.encode(&page, want) else {
            self.report(
                at,
                "this condition cannot be written as the page's classes so that they credit the same modules",
                "written here",
            );
            return None;
        };
        let mut labels = Vec::new();
        if !uniform {
            // Where the context and the page's condition hold, each
            // publisher's condition holds too: no label is needed.
            let logic = &self.logic;
            let page_holds = selections(&page, logic);
            let implied = variants.iter().enumerate().all(|(i, &v)| {
                let around = context.iter().fold(page_holds.clone(), |acc, c| {
                    within(logic.and(&acc, &selections(&nnf(c, rules, v, false, budget), logic)), logic)
                });
                within(logic.and_not(&around, &selections(&per_variant[i], logic)), logic).is_false()
            });
            if !implied {
                for subset in 1..(1u32 << variants.len()) - 1 {
                    let parts: Vec<Nnf> = per_variant
                        .iter()
                        .enumerate()
                        .map(|(i, n)| if subset & (1 << i) != 0 { n.clone() } else { negate(n) })
                        .collect();
                    let Some(terms) = dnf(&and(parts), &self.logic) else {
                        self.report(at, "its publishers' rules are too involved for the page", "written here");
                        return None;
                    };
                    if terms.is_empty() {
                        continue;
                    }
                    let Some(label) = self.encode(&from_terms(&terms), None) else {
                        self.report(at, "its publishers' rules are too involved for the page", "written here");
                        return None;
                    };
                    let publishers = variants.iter().enumerate().filter(|(i, _)| subset & (1 << i) != 0);
                    labels.push((publishers.map(|(_, v)| *v).collect(), label));
                }
            }
        }
        Some(Shown { show, page, labels })
    }

    /// A condition that may not depend on the publisher (markers, repeats).
    fn plain(&mut self, cond: &Cond, at: Span) -> Option<Show> {
        let shown = self.shown(cond, &[], false, at)?;
        if shown.labels.is_empty() {
            Some(shown.show)
        } else {
            self.report(at, "this depends on the publisher's rules, which the page cannot show here", "written here");
            None
        }
    }

    /// A problem with what is written at `at`.
    /// Past the budget, what was decided is not to be trusted: the budget
    /// is the problem.
    fn report(&mut self, at: Span, message: &str, label: &str) {
        if !self.spent(at) {
            self.problems.push(Diagnostic::at(Code::WikiExport, self.sources, at, message, label));
        }
    }
}

/// `write`'s text, in a `<span lang="en">` where it is an English fallback
/// on another language's page.
fn in_english(english: bool, line: &mut Line, write: impl FnOnce(&mut Line)) {
    if english {
        line.markup("<span lang=\"en\">");
    }
    write(line);
    if english {
        line.markup("</span>");
    }
}

/// The name of the Translate unit of a program's word at `place` (a step's
/// id, an item's): `program.no_actions.2A`. A unit's name is unique on the
/// page, and says what it holds and where, so that it stays when others move.
fn word_unit(word: Word, place: &str) -> String {
    format!("{}.{place}", translation::unit_id(Unit::Word(word)))
}

/// The colour template the page shows a marker in.
fn marker_colour(label: &str) -> &'static str {
    match label.split([' ', '(']).next().unwrap_or_default() {
        "MESSAGES" => "ColorGreen",
        "WONDER" => "ColorPink",
        "TREE" | "LAKE" => "ColorOrange",
        "HANS" => "ColorWhite",
        _ => "ColorRed",
    }
}

/// The `class=` of a phase's box, as on the page (the boxes around the
/// builder's block are spaced apart from it).
fn phase_class(phase: &str) -> Option<&'static str> {
    match phase {
        "1" => Some("wica-bottom-spacing wica-visible"),
        "4" => Some("wica-top-spacing wica-visible"),
        _ => None,
    }
}

/// The `{{Rules…}}` template of a phase's box, as on the page.
fn phase_template(phase: &str) -> &'static str {
    match phase {
        "1" => "RulesPlacingTile",
        "2" => "RulesPlacingMeeple",
        "3" => "RulesScoring",
        _ => "RulesAction",
    }
}

// ---- the page ----------------------------------------------------------------

struct Writer<'r> {
    rules: &'r Rules,
    logic: Logic<'r>,
    sources: &'r Sources,
    out: String,
    problems: Vec<Diagnostic>,
    /// Whether the budget of BDD work ran out (and was reported).
    too_complex: bool,
    options: Options<'r>,
    conventions: Conventions,
    /// How often each Translate unit was written.
    units: HashMap<String, usize>,
    /// Appended to the name of a unit written before (`.double-turn`,
    /// `.single-turn`, in the steps written twice beside the builder's block).
    unit_suffix: Option<String>,
    /// Where the steps being written show (inside a `div` of the builder's
    /// block), if not everywhere.
    context: Option<Cond>,
}

impl Writer<'_> {
    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn document(&mut self) {
        let rules = self.rules;
        self.line("<!-- The order of play, generated from the carcassonne-rules by `carcassonne-rules wiki`. -->");
        self.line("<!-- Edit the rules, not this text: the next export replaces it. -->");
        // The page's selector: its script fills the first `div` with the
        // expansions to choose and shows the order once it has run.
        self.line("<div class=\"showAll\" id=\"_Expansion_Selector_\"></div>");
        self.line(
            "<div class=\"showWhenDone\" id=\"_Tabs_Container_\" style=\"display:none;\" data-fan-expansions=\"true\"></div>",
        );
        self.line("<div class=\"showWhenDone\" id=\"OrderOfPlay\" style=\"display: none;\">");
        self.line("<div class=\"wica-bottom-spacing wica-visible\">");
        let all = self.options.all_sections;
        let written = |section: &Section| all || matches!(section, Section::Notes | Section::AnyTime);
        for section in Section::BEFORE_STEPS.iter().filter(|s| written(s)) {
            self.section(*section, rules.section(*section));
        }
        self.line("</div>");
        self.line("");
        self.steps();
        let after: Vec<Section> = Section::AFTER_STEPS.iter().copied().filter(written).collect();
        if !after.is_empty() {
            self.line("<div class=\"wica-top-spacing wica-bottom-spacing wica-visible\">");
            for section in after {
                self.section(section, rules.section(section));
            }
            self.line("</div>");
        }
        self.line("</div>");
    }

    fn section(&mut self, section: Section, items: &[Item]) {
        // `'''At any time during your turn:'''`, its words a unit.
        let mut line = Line::new();
        line.markup("'''");
        let text = self.conventions.heading_text(section).to_string();
        let english = self.fallback(Unit::Section(section));
        self.unit(&translation::unit_id(Unit::Section(section)), None, &mut line, |_, line| {
            in_english(english, line, |line| {
                line.markup(&text);
            });
        });
        line.markup(if section == Section::AnyTime { ":'''" } else { "'''" });
        self.line(&line.finish());
        self.line("");
        if !items.is_empty() {
            self.line("<ul>");
            self.items(items, &[]);
            self.line("</ul>");
        }
        self.line("");
    }

    /// The steps, in their boxes and repeat blocks.
    fn steps(&mut self) {
        let rules = self.rules;
        let steps: Vec<(&Phase, &Step)> =
            rules.phases.iter().flat_map(|p| p.steps.iter().map(move |s| (p, s))).collect();
        // The builder's block: the steps repeated on a double turn under the
        // same condition, with the per-feature steps between them.
        let double = |s: &Step| match &s.repeat {
            Some((Repeat::DoubleTurn, when)) => Some(when.clone()),
            _ => None,
        };
        let per_feature = |s: &Step| matches!(s.repeat, Some((Repeat::PerFeature, _)));
        let blocks: Vec<Option<Cond>> = (0..steps.len())
            .map(|i| {
                let step = steps[i].1;
                if let Some(when) = double(step) {
                    return Some(when);
                }
                if !per_feature(step) {
                    return None;
                }
                let before = steps[..i].iter().rev().find(|s| !per_feature(s.1)).and_then(|s| double(s.1));
                let after = steps[i + 1..].iter().find(|s| !per_feature(s.1)).and_then(|s| double(s.1));
                before.filter(|b| Some(b) == after.as_ref())
            })
            .collect();

        // The steps of the block's first phase before it (1A) and of its last
        // phase after it (4B) are written twice, as the page writes them:
        // under the block's condition in a box of their own, outside the
        // block, and inside the block's box under its negation.
        let plain = |i: usize| blocks[i].is_none() && steps[i].1.when == Cond::True;
        let mut wrapped: Vec<Option<(Cond, bool)>> = vec![None; steps.len()];
        for (i, block) in blocks.iter().enumerate() {
            let Some(when) = block else { continue };
            if i == 0 || blocks[i - 1].as_ref() != Some(when) {
                let mut j = i;
                while j > 0 && plain(j - 1) && steps[j - 1].0.id == steps[i].0.id {
                    j -= 1;
                    wrapped[j] = Some((when.clone(), true));
                }
            }
            if blocks.get(i + 1).is_none_or(|b| b.as_ref() != Some(when)) {
                let mut j = i + 1;
                while j < steps.len() && plain(j) && steps[j].0.id == steps[i].0.id {
                    wrapped[j] = Some((when.clone(), false));
                    j += 1;
                }
            }
        }

        let mut block: Option<Cond> = None;
        let mut current: Option<String> = None;
        let mut i = 0;
        while i < steps.len() {
            let (phase, step) = steps[i];
            if let Some((when, before)) = wrapped[i].clone() {
                // The run of wrapped steps on this side of the block.
                let run: Vec<&Step> = (i..steps.len())
                    .take_while(|&j| wrapped[j].as_ref().is_some_and(|(w, b)| *w == when && *b == before))
                    .map(|j| steps[j].1)
                    .collect();
                let not_when = Cond::Not(Box::new(when.clone()));
                if before {
                    self.close_box(&mut current);
                    self.wrapped_box(phase, &run, &when);
                    // Inside the block's first box, under the negation.
                    self.close_box(&mut current);
                    if block.is_some() {
                        self.line("</div>");
                        self.line("");
                    }
                    self.block_start(&when, steps[i + run.len()].1);
                    block = Some(when.clone());
                    let show = self.plain(&not_when, step.span).unwrap_or_default();
                    self.phase_box(phase, &format!("<div{}>", show.attributes(&[])));
                    current = Some(phase.id.clone());
                    self.single_turn_steps(&run, not_when);
                } else {
                    // Inside the block's last box, under the negation.
                    if current.as_deref() != Some(phase.id.as_str()) {
                        self.close_box(&mut current);
                        self.phase_box(phase, "");
                        current = Some(phase.id.clone());
                    }
                    let show = self.plain(&not_when, step.span).unwrap_or_default();
                    self.line(&format!("<div{}>", show.attributes(&[])));
                    self.single_turn_steps(&run, not_when);
                    self.close_box(&mut current);
                    if block.is_some() {
                        self.line("</div>");
                        self.line("");
                    }
                    block = None;
                    self.wrapped_box(phase, &run, &when);
                }
                i += run.len();
                continue;
            }
            if blocks[i] != block {
                self.close_box(&mut current);
                if block.is_some() {
                    self.line("</div>");
                    self.line("");
                }
                if let Some(when) = &blocks[i] {
                    self.block_start(when, step);
                }
                block = blocks[i].clone();
            }
            if step.when != Cond::True {
                self.close_box(&mut current);
                self.own_box(phase, step);
                i += 1;
                continue;
            }
            if current.as_deref() != Some(phase.id.as_str()) {
                self.close_box(&mut current);
                self.phase_box(phase, "");
                current = Some(phase.id.clone());
            }
            self.step(step, &[]);
            i += 1;
        }
        self.close_box(&mut current);
        if block.is_some() {
            self.line("</div>");
            self.line("");
        }
    }

    /// `{{RulesPlacingTile|header=fake-h4|title=1. Place a tile|class=…|rules=`,
    /// `start` after it on its line.
    fn phase_box(&mut self, phase: &Phase, start: &str) {
        let mut line = Line::new();
        line.markup(&format!("{{{{{}|header=fake-h4|title=", phase_template(&phase.id)));
        line.text(&phase.id).markup(". ");
        self.title(Unit::Phase(&phase.id), &phase.title, None, &mut line);
        if let Some(class) = phase_class(&phase.id) {
            line.markup(&format!("|class={class}"));
        }
        line.markup("|rules=").markup(start);
        self.line(&line.finish());
    }

    /// The run's steps written again inside the builder's block, under the
    /// block's negation `not_when`, their units named `.single-turn`; then
    /// the `<div>` opened around them closed.
    fn single_turn_steps(&mut self, run: &[&Step], not_when: Cond) {
        let suffix = self.unit_suffix.replace(".single-turn".to_string());
        self.with_context(Some(not_when), |writer| {
            for step in run {
                writer.step(step, &[]);
            }
        });
        self.unit_suffix = suffix;
        self.line("</div>");
        self.line("");
    }

    /// Steps outside the builder's block shown under its condition (1A
    /// before it, 4B after it): a `div` with the condition around their
    /// phase's box. A Translate unit written before is named `….double-turn`
    /// there.
    fn wrapped_box(&mut self, phase: &Phase, run: &[&Step], when: &Cond) {
        let Some(first) = run.first() else { return };
        let show = self.plain(when, first.span).unwrap_or_default();
        self.line(&format!("<div{}>", show.attributes(&[])));
        let suffix = self.unit_suffix.replace(".double-turn".to_string());
        self.phase_box(phase, "");
        self.with_context(Some(when.clone()), |writer| {
            for step in run {
                writer.step(step, &[]);
            }
        });
        self.unit_suffix = suffix;
        self.line("}}");
        self.line("</div>");
        self.line("");
    }

    /// `write` with the steps it writes shown only where `context` holds:
    /// their items that cannot show there left out, their "no actions" line
    /// written for there.
    fn with_context(&mut self, context: Option<Cond>, write: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.context, context);
        write(self);
        self.context = outer;
    }

    /// The heading of the builder's block, and the start of its box.
    fn block_start(&mut self, when: &Cond, step: &Step) {
        let show = self.plain(when, step.span).unwrap_or_default();
        let mut line = Line::new();
        line.markup(&format!(
            "<div class=\"wica-box-header wica-repeat-block wica-visible wica-top-spacing\"><span{} style=\"{}\">",
            show.attributes(&[]),
            "display: block; text-align: center; color: #808080;",
        ));
        let words = self.conventions.double_turn.to_string();
        let english = self.fallback(Unit::Word(Word::OnceOrTwice));
        self.unit(&word_unit(Word::OnceOrTwice, &step.id), Some(step.span), &mut line, |_, line| {
            in_english(english, line, |line| {
                line.markup(&words);
            });
        });
        line.markup("</span>");
        self.line(&line.finish());
        self.line("</div>");
        self.line("");
        self.line("<div class=\"wica-box-body wica-repeat-block wica-visible\">");
        self.line("");
    }

    /// A step that exists only for some selections: a box of its own, named
    /// after the first module its condition names (`{{RulesDragon|…}}`), in a
    /// `div` with the condition.
    fn own_box(&mut self, phase: &Phase, step: &Step) {
        let rules = self.rules;
        let Some(shown) = self.shown(&step.when, &[], false, step.span) else { return };
        let template = shown
            .page_modules(&self.logic, rules)
            .first()
            .and_then(|m| rules.catalog.modules.get(usize::from(m.0)))
            .map_or_else(|| phase_template(&phase.id).to_string(), |m| format!("Rules{}", selector_key(&m.id)));
        self.line(&format!("<div{}>", shown.show.attributes(&[])));
        let mut line = Line::new();
        line.markup(&format!("{{{{{template}|header=fake-h4|title="));
        line.text(&phase.id).markup("b. ");
        self.title(Unit::Step(&step.id), &step.title, Some(step.span), &mut line);
        line.markup("|rules=");
        self.line(&line.finish());
        self.step(step, &shown.labels);
        self.line("}}");
        self.line("</div>");
        self.line("");
    }

    /// A step's heading, lead, items and "no actions" line; a per-feature step
    /// in the page's repeat box.
    fn step(&mut self, step: &Step, labels: &[(Vec<VariantId>, Show)]) {
        let per_feature = match &step.repeat {
            Some((Repeat::PerFeature, when)) => {
                if *when != Cond::True {
                    self.report(
                        step.span,
                        &format!(
                            "step {}: a per-feature repeat that depends on the selection cannot be shown on the page",
                            step.id
                        ),
                        "this step",
                    );
                }
                true
            }
            _ => false,
        };
        if per_feature {
            self.line("<div class=\"wica-box-body wica-repeat-step wica-visible\">");
        }
        let heading = self.heading(step, labels);
        self.line(&heading);
        self.step_body(step);
        if per_feature {
            self.line("</div>");
            self.line("");
        }
    }

    fn close_box(&mut self, current: &mut Option<String>) {
        if current.take().is_some() {
            self.line("}}");
            self.line("");
        }
    }

    /// `'''Step 1B: Draw a tile'''`, with its publisher labels.
    fn heading(&mut self, step: &Step, labels: &[(Vec<VariantId>, Show)]) -> String {
        let mut line = Line::new();
        line.markup("'''");
        let word = self.conventions.step.to_string();
        let english = self.fallback(Unit::Word(Word::Step));
        self.unit(&word_unit(Word::Step, &step.id), Some(step.span), &mut line, |_, line| {
            in_english(english, line, |line| {
                line.markup(&word);
            });
        });
        line.markup(" ").text(&step.id).markup(": ");
        self.title(Unit::Step(&step.id), &step.title, Some(step.span), &mut line);
        line.markup("'''");
        for (publishers, show) in labels {
            let label = self.label(publishers, show, true, None, &step.id);
            line.markup(" ").markup(&label);
        }
        line.finish()
    }

    /// A publisher label: `hig zmg` in `data-publishers`, the publishers' names
    /// as the page writes them (another publisher's than the default in yellow).
    /// An item whose text already names the publishers (before its first
    /// colon: "Z-Man Games rules only: …") gets the label without words, as a
    /// start tag around its text, which the caller closes.
    fn label(
        &mut self,
        publishers: &[VariantId],
        show: &Show,
        parenthesised: bool,
        text: Option<&Wording>,
        place: &str,
    ) -> String {
        let catalog = &self.rules.catalog;
        let ids: Vec<&str> =
            publishers.iter().filter_map(|v| catalog.variants.get(usize::from(v.0))).map(|v| v.id.as_str()).collect();
        let lead = match text.and_then(|t| t.0.first()) {
            Some(WordingPart::Literal(s)) => s.split(':').next().unwrap_or_default(),
            _ => "",
        };
        let said =
            publishers.iter().filter_map(|v| catalog.variants.get(usize::from(v.0))).all(|v| lead.contains(&v.name));
        if said {
            // Around the item's text, which names them: the caller closes it.
            return format!("<span{} data-publishers=\"{}\">", show.attributes(&[]), wiki::attribute(&ids.join(" ")));
        }
        let names: Vec<String> = publishers
            .iter()
            .filter_map(|v| catalog.variants.get(usize::from(v.0)))
            .map(|v| Line::new().markup("[[{{Path|").text(&v.name).markup("}}|").text(&v.name).markup("]]").finish())
            .collect();
        let default = catalog.editions.iter().any(|e| publishers.contains(&e.default_variant));
        let (before, after) = self.conventions.rules_only.clone();
        let names = names.join(" & ");
        // The publishers' names are a variable of the unit, as Translate
        // writes one: a translation places them, and keeps them as they are.
        let translate = self.options.translate;
        let mut words = Line::new();
        let unit = format!("{}.{}", word_unit(Word::RulesOnly, place), ids.join("-"));
        let english = self.fallback(Unit::Word(Word::RulesOnly));
        self.unit(&unit, None, &mut words, |_, line| {
            if english {
                line.markup("<span lang=\"en\">");
            }
            line.markup(&before);
            if translate {
                line.markup(&format!("<tvar name=\"publishers\">{names}</tvar>"));
            } else {
                line.markup(&names);
            }
            line.markup(&after);
            if english {
                line.markup("</span>");
            }
        });
        let text = words.finish();
        let text = if parenthesised { format!("({text})") } else { format!("{text}:") };
        let text = if default { format!("'''{text}'''") } else { format!("{{{{ColorYellow|{text}}}}}") };
        let space = if parenthesised { "" } else { " " };
        format!(
            "<span{} data-publishers=\"{}\">{text}{space}</span>",
            show.attributes(&[]),
            wiki::attribute(&ids.join(" "))
        )
    }

    /// A step's lead, items and "no actions" line.
    fn step_body(&mut self, step: &Step) {
        self.line("");
        if step.choose_one {
            let lead = self.conventions.choose_one.to_string();
            let mut line = Line::new();
            let english = self.fallback(Unit::Word(Word::ChooseOneLead));
            self.unit(&word_unit(Word::ChooseOneLead, &step.id), Some(step.span), &mut line, |_, line| {
                in_english(english, line, |line| {
                    line.markup(&lead);
                });
            });
            self.line(&line.finish());
            self.line("");
        }
        let rules = self.rules;
        let page = |cond: &Cond, writer: &Self| {
            or(writer.variants().iter().map(|&v| nnf(cond, rules, v, false, writer.logic.budget())).collect())
        };
        // Where the step is written (inside a `div` of the builder's block).
        let around = match &self.context {
            Some(context) => selections(&page(context, self), &self.logic),
            None => self.logic.everything().clone(),
        };
        // Its items that can show there.
        let mut items: Vec<Item> = Vec::new();
        for item in &step.items {
            let logic = &self.logic;
            let shows = !within(logic.and(&around, &selections(&page(&item.when, self), logic)), logic).is_false();
            // Past the budget, the item whose condition spent it is named.
            if self.spent(item.spans.when.unwrap_or(item.spans.id)) {
                return;
            }
            if shows {
                items.push(item.clone());
            }
        }
        let context = [&step.when];
        if !items.is_empty() {
            self.line("<ol class=\"wica-list\">");
            self.items(&items, &context);
            self.line("</ol>");
        }
        // "No actions" where no item shows, whatever the publisher.
        let nothing = and(items.iter().map(|item| negate(&page(&item.when, self))).collect());
        // Not where the step's own condition already implies an item shows.
        let step_page = page(&step.when, self);
        let logic = &self.logic;
        let here = within(logic.and(&selections(&step_page, logic), &around), logic);
        let never = within(logic.and(&here, &selections(&nothing, logic)), logic).is_false();
        // Everywhere it is written, where nothing shows there.
        let always = within(logic.and_not(&here, &selections(&nothing, logic)), logic).is_false();
        let at = step.when_span.unwrap_or(step.span);
        if self.spent_on(at, "where none of this step's items shows is too complex to write as the page's classes") {
            return;
        }
        let show = match nothing {
            _ if never => None,
            _ if always => Some(Show { classes: vec!["showAll".to_string()], dynamic: None }),
            Nnf::Const(true) => Some(Show { classes: vec!["showAll".to_string()], dynamic: None }),
            n => self.encode(&n, None),
        };
        if let Some(show) = show {
            let mut line = Line::new();
            line.markup(&format!("<span{} style=\"color: #666666;\">", show.attributes(&[])));
            let words = self.conventions.no_actions.to_string();
            let english = self.fallback(Unit::Word(Word::NoActions));
            self.unit(&word_unit(Word::NoActions, &step.id), Some(step.span), &mut line, |_, line| {
                in_english(english, line, |line| {
                    line.markup(&words);
                });
            });
            line.markup("</span>");
            self.line(&line.finish());
        }
        self.line("");
    }

    /// List items, one per line (their sub-lists on lines of their own).
    fn items(&mut self, items: &[Item], context: &[&Cond]) {
        for item in items {
            self.item(item, context);
        }
    }

    fn item(&mut self, item: &Item, context: &[&Cond]) {
        let Some(shown) = self.shown(&item.when, context, true, item.spans.when.unwrap_or(item.spans.id)) else {
            return;
        };
        let marks: Vec<String> = item
            .foreign
            .iter()
            .filter_map(|e| self.rules.catalog.editions.get(usize::from(e.0)))
            .map(|e| format!("mark{}", e.id))
            .collect();
        let mut line = Line::new();
        line.markup(&format!("<li{} id=\"{}\">", shown.show.attributes(&marks), wiki::attribute(&item.id)));
        let mut around = 0;
        for (publishers, show) in &shown.labels {
            let label = self.label(publishers, show, false, Some(&item.text), &item.id);
            around += usize::from(!label.ends_with("</span>"));
            line.markup(&label);
        }
        self.item_text(item, &mut line);
        line.markup(&"</span>".repeat(around));
        for marker in &item.markers {
            let marker = self.marker(marker, &item.id);
            line.markup(&marker);
        }
        if item.children.is_empty() {
            line.markup("</li>");
            self.line(&line.finish());
            return;
        }
        self.line(&line.finish());
        // Sub-items played again until done stand in the page's repeat box.
        let until_done = item.flow.until_done();
        if until_done {
            self.line("<div class=\"wica-box-body wica-repeat-action wica-visible\">");
        }
        self.line("<ul>");
        let mut inner: Vec<&Cond> = context.to_vec();
        inner.push(&item.when);
        self.items(&item.children, &inner);
        self.line("</ul>");
        if until_done {
            self.line("</div>");
        }
        self.line("</li>");
    }

    /// A title (a phase's, a step's) in the export's language, with its
    /// Translate unit.
    fn title(&mut self, unit: Unit<'_>, english: &str, at: Option<Span>, line: &mut Line) {
        let translated = self.options.locale.and_then(|l| l.get(unit)).map(|t| t.text.clone());
        let unit = translation::unit_id(unit);
        // A title by edition (Dutch phase 2) is a span per edition, as text is.
        let fallback = self.options.locale.is_some() && translated.is_none();
        let text = translated.unwrap_or_else(|| Wording(vec![WordingPart::Literal(english.to_string())]));
        self.unit(&unit, at, line, |writer, line| {
            in_english(fallback, line, |line| writer.text(&text, line, None));
        });
    }

    /// An item's text in the export's language (an outdated translation
    /// marked as Translate marks it), with its Translate unit.
    fn item_text(&mut self, item: &Item, line: &mut Line) {
        let translated = self.options.locale.and_then(|l| l.units.get(&item.id));
        let outdated = translated.is_some_and(|t| t.state == State::Outdated);
        let text = translated.map_or(&item.text, |t| &t.text);
        // An English text on another language's page says it is English.
        let english = self.options.locale.is_some() && translated.is_none();
        // The page bolds the word that says an item must or may be done, in
        // the language the text is in.
        let modals = if english { &ENGLISH.modals } else { &self.conventions.modals };
        let modal = match item.flow {
            f if f.must => Some(modals.0.to_string()),
            f if f.optional && !f.choose_one => Some(modals.1.to_string()),
            _ => None,
        };
        self.unit(&item.id, Some(item.spans.id), line, |writer, line| {
            if outdated {
                line.markup(&format!("<span class=\"{FUZZY}\">"));
            }
            in_english(english, line, |line| writer.text(text, line, modal.as_deref()));
            if outdated {
                line.markup("</span>");
            }
        });
    }

    /// Whether `unit` is shown in English on another language's page: the
    /// language has no translation of it.
    fn fallback(&self, unit: Unit<'_>) -> bool {
        self.options.locale.is_some_and(|l| l.get(unit).is_none())
    }

    /// `write`'s text, in a Translate unit named `unit` when the export is
    /// Translate's source page.
    fn unit(&mut self, unit: &str, at: Option<Span>, line: &mut Line, write: impl FnOnce(&Self, &mut Line)) {
        if !self.options.translate {
            write(self, line);
            return;
        }
        // A step written twice (1A and 4B, beside the builder's block) has
        // units of their own the second time, named by the copy
        // (`step.4B.double-turn`, `fairy-start-of-turn-point.single-turn`).
        let unit = match &self.unit_suffix {
            Some(suffix) if self.units.contains_key(unit) => format!("{unit}{suffix}"),
            _ => unit.to_string(),
        };
        let unit = unit.as_str();
        // A title written twice (a phase's box reopened after the builder's
        // block) is a unit each time: a unit's name is unique on a page.
        let seen = self.units.entry(unit.to_string()).or_insert(0);
        *seen += 1;
        let unit = if *seen == 1 { unit.to_string() } else { format!("{unit}.{seen}") };
        match wiki::unit_marker(&unit) {
            Some(marker) => {
                line.markup("<translate>").markup(&marker).markup(" ");
                write(self, line);
                line.markup("</translate>");
            }
            None => {
                let message = format!("`{}` cannot name a Translate unit", wiki::attribute(&unit));
                self.problems.push(match at {
                    Some(at) => Diagnostic::at(Code::WikiExport, self.sources, at, message, "its id"),
                    None => Diagnostic::global(Code::WikiExport, message),
                });
                write(self, line);
            }
        }
    }

    /// Text with its edition variants as spans, into `line`: the parts are
    /// escaped together, as they meet on the page. The first `bold` word of
    /// its plain parts, if any, is bold.
    fn text(&self, text: &Wording, line: &mut Line, mut bold: Option<&str>) {
        let catalog = &self.rules.catalog;
        for part in &text.0 {
            match part {
                WordingPart::Literal(s) => match bold.and_then(|word| find_word(s, word)) {
                    Some((start, end)) => {
                        line.text(&s[..start]).markup("'''").text(&s[start..end]).markup("'''").text(&s[end..]);
                        bold = None;
                    }
                    None => {
                        line.text(s);
                    }
                },
                WordingPart::ByEdition(alternatives) => {
                    for (editions, s) in alternatives.iter().filter(|(_, s)| !s.is_empty()) {
                        if catalog.editions.len() == editions.len() {
                            line.text(s);
                            continue;
                        }
                        // As the page writes editions: `showC2` for the new
                        // edition's wording.
                        let class = self.editions_class(editions);
                        line.markup(&format!("<span class=\"{class}\">")).text(s).markup("</span>");
                    }
                }
            }
        }
    }

    /// ` {{ColorRed|ROBBERS}}` in a span with the marker's condition.
    fn marker(&mut self, marker: &Marker, item: &str) -> String {
        let show = self.plain(&marker.when, marker.span).unwrap_or_default();
        let show =
            if show == Show::default() { Show { classes: vec!["showAll".to_string()], dynamic: None } } else { show };
        // The label is a unit named by the marker's id (`marker.ROBBERS.<item>`),
        // its argument (`#1A`) outside it; its colour is the marker's,
        // whatever the language.
        let (label, argument) =
            marker.label.split_once(" (").map_or((marker.label.as_str(), None), |(l, a)| (l, Some(a)));
        let id = marker.id.as_str();
        let shown = self
            .options
            .locale
            .and_then(|l| l.get(Unit::Marker(id)))
            .map_or_else(|| label.to_string(), |t| t.text.render(EditionId(0)));
        let mut line = Line::new();
        line.markup(&format!("<span{}> {{{{{}|", show.attributes(&[]), marker_colour(&marker.label)));
        let unit = format!("{}.{item}", translation::unit_id(Unit::Marker(id)));
        let english = self.fallback(Unit::Marker(id));
        self.unit(&unit, Some(marker.span), &mut line, |_, line| {
            in_english(english, line, |line| {
                line.text(&shown);
            });
        });
        if let Some(argument) = argument {
            line.text(&format!(" ({argument}"));
        }
        line.markup("}}</span>");
        line.finish()
    }
}

impl Shown {
    /// The modules the page's condition credits, in order.
    fn page_modules(&self, logic: &Logic, rules: &Rules) -> Vec<ModuleId> {
        let mut out = Vec::new();
        if let Some(terms) = dnf(&self.page, logic) {
            credited(&terms, rules, &mut out);
        }
        out
    }
}

/// Where the modal `word` stands in `text` as a whole word, in any case:
/// only a word of letters is looked for.
fn find_word(text: &str, word: &str) -> Option<(usize, usize)> {
    if !word.chars().all(char::is_alphabetic) {
        return None;
    }
    lexicon::find_word(text, word)
}

#[cfg(test)]
mod modal_tests {
    use super::find_word;

    #[test]
    fn a_modal_is_found_as_a_whole_word_in_any_case() {
        assert_eq!(find_word("You may ask.", "may"), Some((4, 7)));
        assert_eq!(find_word("May you?", "may"), Some((0, 3)));
        assert_eq!(find_word("Mayor may", "may"), Some((6, 9)));
        assert_eq!(find_word("dismay", "may"), None);
        assert_eq!(find_word("Je mag één", "mag"), Some((3, 6)));
        assert_eq!(find_word("Ёлка может", "может"), Some((9, 19)));
        assert_eq!(find_word("anything", ""), None);
        assert_eq!(find_word("a ' b", "'"), None, "not a word");
    }
}
