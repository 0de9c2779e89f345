//! The checked, ordered rules: what `codegen` and the interpreter consume.
//!
//! Names are resolved to indices, derived flags are inlined, items are in their
//! final order, and every condition is known to be satisfiable.

/// Index into [`Rules::editions`].
pub type EditionIx = usize;
/// Index into [`Rules::modules`]; also the module's bit in a module set.
pub type ModuleIx = usize;
/// Index into [`Rules::variants`].
pub type VariantIx = usize;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rules {
    pub editions: Vec<Edition>,
    /// Publishers' rule variants (HiG, ZMG, RGG).
    pub variants: Vec<Variant>,
    pub expansions: Vec<Expansion>,
    pub modules: Vec<Module>,
    pub phases: Vec<Phase>,
    pub notes: Vec<Item>,
    pub setup: Vec<Item>,
    pub any_time: Vec<Item>,
    pub final_scoring: Vec<Item>,
    /// Derived flags by name, for readers of the wiki's class names.
    pub derived: Vec<(String, Cond)>,
    pub errata: Errata,
}

/// Where the rules read or differ from the wiki page on purpose (`errata.yaml`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Errata {
    /// Page class names that cannot be read mechanically, with their meaning.
    pub classes: Vec<ClassReading>,
    pub differences: Vec<Difference>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClassReading {
    pub class: String,
    pub means: Cond,
}

/// A deliberate difference from the page. Either precise — page items (by
/// source line) the rules leave out, rule items the page does not show at the
/// top level — or, for selections where `when` holds, whole steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub id: String,
    pub page_lines: Vec<usize>,
    pub items: Vec<String>,
    pub steps: Vec<String>,
    pub when: Cond,
    pub page: String,
    pub rules: String,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Edition {
    pub id: String,
    pub name: String,
    /// The rule variant played when none is chosen.
    pub default_variant: VariantIx,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    pub id: String,
    pub name: String,
    pub editions: Vec<EditionIx>,
    pub modules: Vec<ModuleIx>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Phase {
    pub id: String,
    pub title: String,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub id: String,
    pub title: String,
    /// The step exists only where this holds (2D needs the dragon).
    pub when: Cond,
    pub repeat: Option<(Repeat, Cond)>,
    /// The player does exactly one of the items (2B-1: deploy one figure).
    pub choose_one: bool,
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// Part of the builder's block, done once or twice.
    DoubleTurn,
    /// Done once per completed feature.
    PerFeature,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    /// The module that brings the item, or "base".
    pub origin: String,
    /// The item's own condition; it is shown when this and its parent's hold.
    pub when: Cond,
    pub text: Text,
    pub markers: Vec<Marker>,
    /// Editions in which the item (or its parent) comes from another edition.
    pub foreign: Vec<EditionIx>,
    pub effect: Option<Effect>,
    pub children: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    True,
    False,
    Module(ModuleIx),
    Edition(EditionIx),
    Variant(VariantIx),
    Not(Box<Cond>),
    All(Vec<Cond>),
    Any(Vec<Cond>),
}

impl Cond {
    pub fn eval(&self, edition: EditionIx, variant: VariantIx, modules: u128) -> bool {
        match self {
            Cond::True => true,
            Cond::False => false,
            Cond::Module(m) => modules & (1 << m) != 0,
            Cond::Edition(e) => *e == edition,
            Cond::Variant(v) => *v == variant,
            Cond::Not(c) => !c.eval(edition, variant, modules),
            Cond::All(cs) => cs.iter().all(|c| c.eval(edition, variant, modules)),
            Cond::Any(cs) => cs.iter().any(|c| c.eval(edition, variant, modules)),
        }
    }

    /// Modules the condition tests, first mention first, without repeats.
    pub fn modules(&self) -> Vec<ModuleIx> {
        fn walk(c: &Cond, out: &mut Vec<ModuleIx>) {
            match c {
                Cond::Module(m) if !out.contains(m) => out.push(*m),
                Cond::Not(c) => walk(c, out),
                Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| walk(c, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// The module an item with this condition comes from: the first module
    /// the condition names other than under a `not` (an item shown *without*
    /// the builder is not the builder's).
    pub fn origin(&self) -> Option<ModuleIx> {
        match self {
            Cond::Module(m) => Some(*m),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().find_map(Cond::origin),
            _ => None,
        }
    }

    /// `self and other`, flattening trivial cases.
    pub fn and(self, other: Cond) -> Cond {
        match (self, other) {
            (Cond::True, c) | (c, Cond::True) => c,
            (Cond::All(mut a), Cond::All(b)) => {
                a.extend(b);
                Cond::All(a)
            }
            (Cond::All(mut a), c) => {
                a.push(c);
                Cond::All(a)
            }
            (c, Cond::All(mut b)) => {
                b.insert(0, c);
                Cond::All(b)
            }
            (a, b) => Cond::All(vec![a, b]),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Text(pub Vec<TextPart>);

#[derive(Debug, Clone, PartialEq)]
pub enum TextPart {
    Literal(String),
    /// Alternatives by edition; an edition no alternative names gets nothing.
    ByEdition(Vec<(Vec<EditionIx>, String)>),
}

impl Text {
    pub fn render(&self, edition: EditionIx) -> String {
        self.0
            .iter()
            .map(|part| match part {
                TextPart::Literal(s) => s.as_str(),
                TextPart::ByEdition(alts) => {
                    alts.iter().find(|(eds, _)| eds.contains(&edition)).map_or("", |(_, s)| s.as_str())
                }
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// As shown: `ROBBER CHOICE`, `MESSAGES (#1B)`.
    pub label: String,
    pub when: Cond,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Skip(Vec<String>),
    GoBack(String),
    DoubleTurn,
}

/// The sections that hold items, in the order a turn order lists them.
pub const SECTIONS_BEFORE_STEPS: [&str; 3] = ["notes", "setup", "any_time"];
pub const SECTIONS_AFTER_STEPS: [&str; 1] = ["final_scoring"];

/// Markers the rules may use, as written in the DSL.
pub const MARKERS: [&str; 7] =
    ["MESSAGES", "ROBBERS", "ROBBER_CHOICE", "WONDER", "TREE_TRAP", "LAKE_TRAP", "HANS_STATUE"];
