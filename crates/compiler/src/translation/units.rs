//! The rules' translation units: each translatable text, its kind and its
//! English in canonical form.

use carcassonne_rules_core::EditionId;
use carcassonne_rules_core::Section;
use carcassonne_rules_core::lang::{self, Kind};
use carcassonne_rules_core::words::Word;

use crate::diagnostics::Span;
use crate::dsl;
use crate::model::{Rules, Wording, WordingPart};

/// The unit id of the core's `unit` (`step.1B`, an item's id alone):
/// [`lang::Unit::id`].
pub fn unit_id(unit: lang::Unit<'_>) -> String {
    unit.id()
}

/// One translatable text of the rules, in English.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Its unit id (`draw-tile`, `step.1B`).
    pub id: String,
    /// What kind of text it is.
    pub kind: Kind,
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
    let mut push = |kind: Kind, id: &str, english: &str, span: Option<Span>| {
        out.push(Unit { id: kind.unit_id(id), kind, english: collapse(english), span });
    };
    let catalog = &rules.catalog;
    for e in &catalog.editions {
        push(Kind::Edition, &e.id, &e.name, None);
    }
    for v in &catalog.variants {
        push(Kind::Variant, &v.id, &v.name, None);
    }
    for x in &catalog.expansions {
        push(Kind::Expansion, &x.id, &x.name, None);
    }
    for m in &catalog.modules {
        push(Kind::Module, &m.id, &m.name, None);
    }
    for phase in &rules.phases {
        push(Kind::Phase, &phase.id, &phase.title, None);
    }
    for step in rules.steps() {
        push(Kind::Step, &step.id, &step.title, Some(step.span));
    }
    for section in Section::ALL {
        push(Kind::Section, section.name(), section.title(), None);
    }
    for marker in &rules.markers {
        push(Kind::Marker, &marker.id, &marker.label, Some(marker.span));
    }
    for word in Word::ALL {
        push(Kind::Word, word.key(), word.english(), None);
    }
    let edition_names: Vec<&str> = catalog.editions.iter().map(|e| e.id.as_str()).collect();
    for item in rules.items() {
        let english = wording_canonical(&item.text, &edition_names);
        if !english.is_empty() {
            push(Kind::Item, &item.id, &english, Some(item.spans.text));
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
