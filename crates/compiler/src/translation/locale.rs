//! A language checked against the rules: each unit's state, its statistics,
//! and the language as the core's [`lang::translate`] reads it.

use std::borrow::Cow;
use std::collections::BTreeMap;

use carcassonne_rules_core::lang::{self, Language};
use carcassonne_rules_core::order::Translation;
use carcassonne_rules_core::words::Words;
use carcassonne_rules_core::{Catalog, EditionId, Section, TurnOrder};
use serde::Serialize;

use super::units::Unit;
use crate::diagnostics::Span;
use crate::model::Wording;

/// What a language has of a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Translated from the English the rules hold now.
    Translated,
    /// Translated from English that has changed since (Translate: fuzzy).
    Outdated,
    /// Not translated: English is shown.
    Missing,
}

impl State {
    /// As `order --format json` writes it.
    pub fn name(&self) -> &'static str {
        match self {
            State::Translated => "translated",
            State::Outdated => "outdated",
            State::Missing => "missing",
        }
    }
}

/// A unit's translation, checked.
#[derive(Debug, Clone)]
pub struct Translated {
    /// The translation: an item's text as a wording, a title or name as one
    /// literal part.
    pub text: Wording,
    /// The English it was translated from, canonical.
    pub from: String,
    /// Translated, or outdated.
    pub state: State,
    /// Where the translation is written (its `text:`).
    pub span: Span,
    /// Where its `from:` is written.
    pub from_span: Span,
    /// Where its key (the unit's id in its kind) is written, quotes left out.
    pub key_span: Span,
}

/// A translation whose unit the rules no longer have.
#[derive(Debug, Clone)]
pub struct Orphan {
    /// The unit id it is translated under.
    pub id: String,
    /// The key, in the translation file.
    pub span: Span,
    /// The unit id nearest to it, if any is near.
    pub nearest: Option<String>,
}

/// One language, checked against the rules.
#[derive(Debug, Clone)]
pub struct Locale {
    /// Its tag (`nl`).
    pub lang: String,
    /// Its name in itself.
    pub name: String,
    /// Whether every unit must be translated.
    pub required: bool,
    /// The translations, by unit id (translated or outdated).
    pub units: BTreeMap<String, Translated>,
    /// Translations of ids the rules do not have.
    pub orphaned: Vec<Orphan>,
}

/// How complete and current a language is (the `translations` command).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statistics {
    /// The language's tag.
    pub lang: String,
    /// The rules' units.
    pub units: usize,
    /// Units translated from the English as it is.
    pub translated: usize,
    /// Units translated from English that has changed since.
    pub outdated: usize,
    /// Units not translated.
    pub missing: usize,
    /// Translations of units the rules do not have.
    pub orphaned: usize,
    /// Translated (and current) units per hundred, one decimal.
    pub percent: f64,
    /// The outdated units' ids, in the rules' order.
    pub outdated_units: Vec<String>,
    /// The missing units' ids, in the rules' order.
    pub missing_units: Vec<String>,
}

impl Locale {
    /// The state of the unit `id` in this language.
    pub fn state(&self, id: &str) -> State {
        self.units.get(id).map_or(State::Missing, |t| t.state.clone())
    }

    /// How many of `units` (the rules' units) it has translated from the
    /// English as it is, per hundred: [`Statistics::percent`] alone.
    pub fn percent(&self, units: &[Unit]) -> f64 {
        percent(self.current(), units.len())
    }

    /// How many units it has translated from the English as it is.
    pub(super) fn current(&self) -> usize {
        self.units.values().filter(|t| t.state == State::Translated).count()
    }

    /// Its statistics over `units`, the rules' units.
    pub fn statistics(&self, units: &[Unit]) -> Statistics {
        let mut stats = Statistics {
            lang: self.lang.clone(),
            units: units.len(),
            translated: 0,
            outdated: 0,
            missing: 0,
            orphaned: self.orphaned.len(),
            percent: 0.0,
            outdated_units: Vec::new(),
            missing_units: Vec::new(),
        };
        for unit in units {
            match self.state(&unit.id) {
                State::Translated => stats.translated += 1,
                State::Outdated => {
                    stats.outdated += 1;
                    stats.outdated_units.push(unit.id.clone());
                }
                State::Missing => {
                    stats.missing += 1;
                    stats.missing_units.push(unit.id.clone());
                }
            }
        }
        stats.percent = percent(stats.translated, stats.units);
        stats
    }
}

/// `part` of `whole` per hundred, rounded down to one decimal, so that 99.97%
/// never reads as 100%.
fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return 100.0;
    }
    (part * 1000 / whole) as f64 / 10.0
}

/// The rules' translations, checked.
#[derive(Debug, Clone, Default)]
pub struct Translations {
    /// Every unit of the rules.
    pub units: Vec<Unit>,
    /// Every language, in `languages.yaml`'s order.
    pub locales: Vec<Locale>,
}

impl Translations {
    /// The language `lang`, if the rules are translated into it.
    pub fn locale(&self, lang: &str) -> Option<&Locale> {
        self.locales.iter().find(|l| l.lang == lang)
    }
}

impl Locale {
    /// `order` in this language: every title and text it has a translation
    /// for (an outdated one too, marked so), English elsewhere; each item
    /// says which it shows. Ids, markers and structure stay as they are.
    /// The one implementation is the core's [`lang::translate`], which the
    /// runtime's generated tables of a language use too.
    pub fn translate(&self, order: &mut TurnOrder<'_>, catalog: &Catalog) {
        lang::translate(self, order, catalog);
    }

    /// The program's words and the sections' headings in this language,
    /// English where it has none.
    pub fn words(&self) -> Words<'static> {
        lang::words(self)
    }

    /// A marker's label as shown (`ROBBER CHOICE`, `MESSAGES (#1B)`) in this
    /// language, its argument kept; none where it has no translation.
    pub fn marker_label(&self, shown: &str) -> Option<String> {
        lang::marker_label(self, shown).map(Cow::into_owned)
    }

    /// A section's heading in this language, else English.
    pub fn heading(&self, section: Section) -> String {
        lang::heading(self, section).into_owned()
    }

    /// Its translation of `unit`, translated or outdated, if it has one.
    pub fn get(&self, unit: lang::Unit<'_>) -> Option<&Translated> {
        match unit {
            // An item's unit id is its id: no key to make.
            lang::Unit::Item(id) => self.units.get(id),
            unit => self.units.get(&unit.id()),
        }
    }
}

/// A language as the core's [`lang::translate`] reads it: each unit's
/// translation rendered for the edition, owned.
impl<'a> Language<'a> for Locale {
    fn tag(&self) -> Cow<'a, str> {
        Cow::Owned(self.lang.clone())
    }

    fn text(&self, unit: lang::Unit<'_>, edition: EditionId) -> Option<(Cow<'a, str>, Translation)> {
        let translated = self.get(unit)?;
        let state = match translated.state {
            State::Outdated => Translation::Outdated,
            _ => Translation::Translated,
        };
        Some((Cow::Owned(translated.text.render(edition)), state))
    }
}
