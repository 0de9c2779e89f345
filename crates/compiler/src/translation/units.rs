//! The rules' translation units: each translatable text, its kind and its
//! English in canonical form.

use carcassonne_rules_core::EditionId;
use carcassonne_rules_core::Section;
use carcassonne_rules_core::lang;
use carcassonne_rules_core::words::Word;

use crate::diagnostics::Span;
use crate::dsl;
use crate::model::{Rules, Wording, WordingPart};

/// What kind of text a unit is: its id's prefix and its key in a
/// translation file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitKind {
    /// An edition's name.
    Edition,
    /// A rule variant's name.
    Variant,
    /// An expansion's name.
    Expansion,
    /// A module's name.
    Module,
    /// A phase's title.
    Phase,
    /// A step's title.
    Step,
    /// A section's heading.
    Section,
    /// An item's text.
    Item,
    /// A word of the program (`Step`, "There are no actions in this step.").
    Program,
    /// A marker's label (`ROBBER CHOICE`; the Dutch page's `ROVERKEUZE`).
    Marker,
}

impl UnitKind {
    /// The kind of the core's `unit` and its id in that kind (`C2` of
    /// `Unit::Edition("C2")`): what is translated is named by the core's
    /// [`lang::Unit`] outside this module.
    pub fn of(unit: lang::Unit<'_>) -> (UnitKind, &str) {
        use lang::Unit as U;
        match unit {
            U::Edition(id) => (UnitKind::Edition, id),
            U::Variant(id) => (UnitKind::Variant, id),
            U::Expansion(id) => (UnitKind::Expansion, id),
            U::Module(id) => (UnitKind::Module, id),
            U::Phase(id) => (UnitKind::Phase, id),
            U::Step(id) => (UnitKind::Step, id),
            U::Section(section) => (UnitKind::Section, section.name()),
            U::Item(id) => (UnitKind::Item, id),
            U::Marker(id) => (UnitKind::Marker, id),
            U::Word(word) => (UnitKind::Program, word.key()),
        }
    }

    /// The unit id of the thing `id` of this kind: `step.1B`, and an item's
    /// id alone (items are most units, and their ids have no dot).
    pub fn unit_id(self, id: &str) -> String {
        match self.prefix() {
            Some(prefix) => format!("{prefix}.{id}"),
            None => id.to_string(),
        }
    }

    fn prefix(self) -> Option<&'static str> {
        Some(match self {
            UnitKind::Edition => "edition",
            UnitKind::Variant => "variant",
            UnitKind::Expansion => "expansion",
            UnitKind::Module => "module",
            UnitKind::Phase => "phase",
            UnitKind::Step => "step",
            UnitKind::Section => "section",
            UnitKind::Program => "program",
            UnitKind::Marker => "marker",
            UnitKind::Item => return None,
        })
    }

    /// Whether the unit's text is the text DSL (edition variants).
    pub(super) fn is_dsl(self) -> bool {
        self == UnitKind::Item
    }
}

/// The unit id of the core's `unit` (`step.1B`, an item's id alone), as
/// [`UnitKind::unit_id`] makes it.
pub fn unit_id(unit: lang::Unit<'_>) -> String {
    let (kind, id) = UnitKind::of(unit);
    kind.unit_id(id)
}

/// One translatable text of the rules, in English.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Its unit id (`draw-tile`, `step.1B`).
    pub id: String,
    /// What kind of text it is.
    pub kind: UnitKind,
    /// Its English, in canonical form (see [`canonical`]).
    pub english: String,
    /// Where the English is written, when it is in a rules file.
    pub span: Option<Span>,
}

impl Unit {
    /// Its id in its kind, as a translation file keys it (`1B` of `step.1B`).
    pub(super) fn key(&self) -> &str {
        self.kind.prefix().map_or(&self.id, |prefix| &self.id[prefix.len() + 1..])
    }
}

/// Every unit of `rules`, in the order a reader meets them: names, then the
/// turn's titles, the headings, the items.
pub fn units(rules: &Rules) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut push = |kind: UnitKind, id: &str, english: &str, span: Option<Span>| {
        out.push(Unit { id: kind.unit_id(id), kind, english: collapse(english), span });
    };
    let catalog = &rules.catalog;
    for e in &catalog.editions {
        push(UnitKind::Edition, &e.id, &e.name, None);
    }
    for v in &catalog.variants {
        push(UnitKind::Variant, &v.id, &v.name, None);
    }
    for x in &catalog.expansions {
        push(UnitKind::Expansion, &x.id, &x.name, None);
    }
    for m in &catalog.modules {
        push(UnitKind::Module, &m.id, &m.name, None);
    }
    for phase in &rules.phases {
        push(UnitKind::Phase, &phase.id, &phase.title, None);
    }
    for step in rules.steps() {
        push(UnitKind::Step, &step.id, &step.title, Some(step.span));
    }
    for section in Section::ALL {
        push(UnitKind::Section, section.name(), section.title(), None);
    }
    for marker in &rules.markers {
        push(UnitKind::Marker, &marker.id, &marker.label, Some(marker.span));
    }
    for word in Word::ALL {
        push(UnitKind::Program, word.key(), word.english(), None);
    }
    let edition_names: Vec<&str> = catalog.editions.iter().map(|e| e.id.as_str()).collect();
    for item in rules.items() {
        let english = wording_canonical(&item.text, &edition_names);
        if !english.is_empty() {
            push(UnitKind::Item, &item.id, &english, Some(item.spans.text));
        }
    }
    out
}

/// Whitespace runs as one space, none at either end: a YAML scalar reflowed
/// over lines reads the same.
pub(super) fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A wording in the text DSL's canonical form: `{C1: farm | C2, WE: field}`.
fn wording_canonical(wording: &Wording, editions: &[&str]) -> String {
    let edition = |e: &EditionId| editions.get(usize::from(e.0)).copied().unwrap_or("?");
    canonical_of(wording.0.iter().map(|part| match part {
        WordingPart::Literal(s) => Piece::Literal(s),
        WordingPart::ByEdition(alternatives) => Piece::Variants(
            alternatives.iter().map(|(eds, text)| (eds.iter().map(edition).collect(), text.as_str())).collect(),
        ),
    }))
}

/// A DSL text as written (`from:` or a translation) in canonical form, its
/// edition names as written: what is compared with a unit's English.
pub fn canonical(parts: &[dsl::TextPart]) -> String {
    canonical_of(parts.iter().map(|part| {
        match part {
            dsl::TextPart::Literal(s) => Piece::Literal(s),
            dsl::TextPart::Variants(alternatives) => Piece::Variants(
                alternatives
                    .iter()
                    .map(|(names, text)| (names.iter().map(|n| n.text.as_str()).collect(), text.as_str()))
                    .collect(),
            ),
        }
    }))
}

/// One part of a text, its editions by name, for [`canonical_of`].
enum Piece<'a> {
    Literal(&'a str),
    Variants(Vec<(Vec<&'a str>, &'a str)>),
}

/// The one canonical form of a text: literals as written, each variant as
/// `{C1: farm | C2, WE: field}`, whitespace collapsed.
fn canonical_of<'a>(pieces: impl Iterator<Item = Piece<'a>>) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Literal(s) => out.push_str(s),
            Piece::Variants(alternatives) => {
                let alternatives: Vec<String> =
                    alternatives.iter().map(|(names, text)| format!("{}: {}", names.join(", "), text.trim())).collect();
                out.push('{');
                out.push_str(&alternatives.join(" | "));
                out.push('}');
            }
        }
    }
    collapse(&out)
}
