//! A language's translation of the rules' texts, and the one way to apply it
//! to a turn order ([`translate`]).
//!
//! Two things are a [`Language`]: the compiler's checked translations (its
//! `translation::Locale`, read from `translations/<lang>/`), and the static
//! [`LangTable`] the code generator writes for each language, which the
//! runtime compiles in only where an engine asks for the language (its
//! features `lang-nl`, `lang-ru`). Both give a unit's text in the language
//! and whether it is outdated; everything else — which texts a turn order
//! holds, how a marker's label keeps its argument, what an untranslated item
//! shows — is decided here, once.

use std::borrow::Cow;

use crate::catalog::Catalog;
use crate::order::{Entry, Translation, TurnOrder};
use crate::section::Section;
use crate::select::EditionId;
use crate::tables::EditionText;
use crate::words::{Word, Words};

/// A translatable text of the rules, by its kind and its id in that kind: a
/// translation unit (its unit id, [`Unit::id`], is `step.1B`,
/// `marker.ROBBERS`, an item's id alone). The one vocabulary of units: the
/// compiler's checked translations, the generated tables and the outputs
/// all name a unit by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit<'a> {
    /// An edition's name, by the edition's id (`C2`).
    Edition(&'a str),
    /// A rule variant's name, by its id (`hig`).
    Variant(&'a str),
    /// An expansion's name, by its id.
    Expansion(&'a str),
    /// A module's name, by its id.
    Module(&'a str),
    /// A phase's title, by its id (`1`).
    Phase(&'a str),
    /// A step's title, by its id (`2B-1`).
    Step(&'a str),
    /// A section's heading.
    Section(Section),
    /// An item's text, by the item's id.
    Item(&'a str),
    /// A marker's label, by the marker's id (`ROBBER_CHOICE`).
    Marker(&'a str),
    /// A word of the program.
    Word(Word),
}

/// What kind of text a [`Unit`] is: a [`Unit`] without its id, as a
/// translation file groups its units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
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
    /// A marker's label (`ROBBER CHOICE`; the Dutch page's `ROVERKEUZE`).
    Marker,
    /// A word of the program (`Step`, "There are no actions in this step.").
    Word,
}

impl Kind {
    /// The prefix of its units' ids (`step` of `step.1B`; `program` for the
    /// program's words, as their file is named), none for an item: items
    /// are most units, and their ids have no dot.
    pub const fn prefix(self) -> Option<&'static str> {
        Some(match self {
            Kind::Edition => "edition",
            Kind::Variant => "variant",
            Kind::Expansion => "expansion",
            Kind::Module => "module",
            Kind::Phase => "phase",
            Kind::Step => "step",
            Kind::Section => "section",
            Kind::Marker => "marker",
            Kind::Word => "program",
            Kind::Item => return None,
        })
    }

    /// The section of a translation file that holds its units (`steps`; the
    /// program's words are under `program`).
    pub const fn section(self) -> &'static str {
        match self {
            Kind::Edition => "editions",
            Kind::Variant => "variants",
            Kind::Expansion => "expansions",
            Kind::Module => "modules",
            Kind::Phase => "phases",
            Kind::Step => "steps",
            Kind::Section => "sections",
            Kind::Item => "items",
            Kind::Marker => "markers",
            Kind::Word => "program",
        }
    }

    /// The unit id of the thing `key` of this kind: `step.1B`, an item's id
    /// alone.
    pub fn unit_id(self, key: &str) -> String {
        match self.prefix() {
            Some(prefix) => format!("{prefix}.{key}"),
            None => key.to_string(),
        }
    }
}

impl<'a> Unit<'a> {
    /// The unit `key` of `kind` (the inverse of [`Unit::parts`]); none for a
    /// section or a word that is not one.
    pub fn new(kind: Kind, key: &'a str) -> Option<Unit<'a>> {
        Some(match kind {
            Kind::Edition => Unit::Edition(key),
            Kind::Variant => Unit::Variant(key),
            Kind::Expansion => Unit::Expansion(key),
            Kind::Module => Unit::Module(key),
            Kind::Phase => Unit::Phase(key),
            Kind::Step => Unit::Step(key),
            Kind::Section => Unit::Section(Section::named(key)?),
            Kind::Item => Unit::Item(key),
            Kind::Marker => Unit::Marker(key),
            Kind::Word => Unit::Word(Word::named(key)?),
        })
    }

    /// Its kind and its id in that kind (`C2` of `Unit::Edition("C2")`, a
    /// section's name, a word's key).
    pub fn parts(self) -> (Kind, &'a str) {
        match self {
            Unit::Edition(id) => (Kind::Edition, id),
            Unit::Variant(id) => (Kind::Variant, id),
            Unit::Expansion(id) => (Kind::Expansion, id),
            Unit::Module(id) => (Kind::Module, id),
            Unit::Phase(id) => (Kind::Phase, id),
            Unit::Step(id) => (Kind::Step, id),
            Unit::Section(section) => (Kind::Section, section.name()),
            Unit::Item(id) => (Kind::Item, id),
            Unit::Marker(id) => (Kind::Marker, id),
            Unit::Word(word) => (Kind::Word, word.key()),
        }
    }

    /// Its unit id (`step.1B`, an item's id alone): [`Kind::unit_id`].
    pub fn id(self) -> String {
        let (kind, key) = self.parts();
        kind.unit_id(key)
    }
}

/// A language the rules are translated into: what [`translate`] needs of it.
/// The texts it gives live as long as `'a` (the static tables' live for
/// ever; the compiler's are made on demand, owned).
pub trait Language<'a> {
    /// Its tag (`nl`).
    fn tag(&self) -> Cow<'a, str>;

    /// Its translation of `unit` as `edition` reads it, and the state of
    /// that translation ([`Translation::Translated`] or
    /// [`Translation::Outdated`]); `None` where it has none.
    fn text(&self, unit: Unit<'_>, edition: EditionId) -> Option<(Cow<'a, str>, Translation)>;
}

/// `order` in `lang`: every title and text it has a translation for (an
/// outdated one too, marked so), English elsewhere; each item says which it
/// shows, and the order carries the language's tag and words. Ids, markers
/// (their labels translated), structure and effects stay as they are, so a
/// translation cannot change which items show. `catalog` is the rules' the
/// order was resolved with (it names the order's edition).
pub fn translate<'a, L: Language<'a> + ?Sized>(lang: &L, order: &mut TurnOrder<'a>, catalog: &Catalog) {
    let edition = catalog.edition(&order.edition).unwrap_or(EditionId(0));
    order.lang = Some(lang.tag());
    for phase in &mut order.phases {
        if let Some((title, _)) = lang.text(Unit::Phase(&phase.id), edition) {
            phase.title = title;
        }
        for step in &mut phase.steps {
            if let Some((title, _)) = lang.text(Unit::Step(&step.id), edition) {
                step.title = title;
            }
            translate_entries(lang, &mut step.items, edition);
        }
    }
    for section in Section::ALL {
        translate_entries(lang, &mut order.sections[section], edition);
    }
    order.words = Some(words(lang));
}

fn translate_entries<'a, L: Language<'a> + ?Sized>(lang: &L, entries: &mut [Entry<'a>], edition: EditionId) {
    for entry in entries {
        for marker in entry.markers.iter_mut() {
            if let Some(label) = marker_label(lang, marker) {
                *marker = label;
            }
        }
        entry.translation = Some(match lang.text(Unit::Item(entry.id()), edition) {
            Some((text, state)) => {
                entry.text = text;
                state
            }
            None => Translation::Missing,
        });
        translate_entries(lang, &mut entry.children, edition);
    }
}

/// The program's words and the sections' headings in `lang`, English where
/// it has none.
pub fn words<'a, L: Language<'a> + ?Sized>(lang: &L) -> Words<'a> {
    let mut words: Words<'a> = Words::english();
    for &word in Word::ALL {
        if let Some((text, _)) = lang.text(Unit::Word(word), EditionId(0)) {
            words.set(word, text);
        }
    }
    for section in Section::ALL {
        words.set_heading(section, heading(lang, section));
    }
    words
}

/// A marker's label as a turn order shows it (`ROBBER CHOICE`, `MESSAGES
/// (#1B)`) in `lang`, its argument kept; none where it has no translation.
pub fn marker_label<'a, L: Language<'a> + ?Sized>(lang: &L, shown: &str) -> Option<Cow<'a, str>> {
    let (label, argument) = shown.split_once(" (").map_or((shown, None), |(l, a)| (l, Some(a)));
    let id = label.replace(' ', "_");
    let (translated, _) = lang.text(Unit::Marker(&id), EditionId(0))?;
    Some(match argument {
        Some(argument) => Cow::Owned(format!("{translated} ({argument}")),
        None => translated,
    })
}

/// A section's heading in `lang`, else English.
pub fn heading<'a, L: Language<'a> + ?Sized>(lang: &L, section: Section) -> Cow<'a, str> {
    lang.text(Unit::Section(section), EditionId(0)).map_or(Cow::Borrowed(section.title()), |(text, _)| text)
}

/// One language's translations as the generated code holds them: per kind of
/// unit, the translated units sorted by id (a unit the language has not
/// translated is not there: it shows in English).
#[derive(Debug)]
pub struct LangTable {
    /// Its tag (`nl`).
    pub lang: &'static str,
    /// Its name in itself (`Nederlands`), for a language switch.
    pub name: &'static str,
    /// Edition names, by edition id.
    pub editions: &'static [LangUnit],
    /// Rule variants' names, by variant id.
    pub variants: &'static [LangUnit],
    /// Expansion names, by expansion id.
    pub expansions: &'static [LangUnit],
    /// Module names, by module id.
    pub modules: &'static [LangUnit],
    /// Phase titles, by phase id.
    pub phases: &'static [LangUnit],
    /// Step titles, by step id.
    pub steps: &'static [LangUnit],
    /// Section headings, by the section's name (`any_time`).
    pub sections: &'static [LangUnit],
    /// Item texts, by item id.
    pub items: &'static [LangUnit],
    /// Marker labels, by marker id.
    pub markers: &'static [LangUnit],
    /// The program's words, by key (`no_actions`); a count's word as its
    /// plural forms (`one: {n} item | other: {n} items`).
    pub words: &'static [LangUnit],
}

/// One translated unit of a [`LangTable`].
#[derive(Debug)]
pub struct LangUnit {
    /// Its id in its kind.
    pub id: &'static str,
    /// The translation, per edition where the text has edition variants.
    pub text: EditionText,
    /// Translated from English that has changed since (Translate: fuzzy).
    pub outdated: bool,
}

impl LangTable {
    /// Its translated units of `kind`.
    fn of_kind(&self, kind: Kind) -> &'static [LangUnit] {
        match kind {
            Kind::Edition => self.editions,
            Kind::Variant => self.variants,
            Kind::Expansion => self.expansions,
            Kind::Module => self.modules,
            Kind::Phase => self.phases,
            Kind::Step => self.steps,
            Kind::Section => self.sections,
            Kind::Item => self.items,
            Kind::Marker => self.markers,
            Kind::Word => self.words,
        }
    }

    /// The translated unit `unit`, if the language has it.
    pub fn unit(&self, unit: Unit<'_>) -> Option<&'static LangUnit> {
        let (kind, id) = unit.parts();
        let units = self.of_kind(kind);
        units.binary_search_by(|u| u.id.cmp(id)).ok().and_then(|at| units.get(at))
    }

    /// `order` in this language: [`translate`].
    pub fn translate(&self, order: &mut TurnOrder<'_>, catalog: &Catalog) {
        translate(self, order, catalog);
    }
}

impl<'a> Language<'a> for LangTable {
    fn tag(&self) -> Cow<'a, str> {
        Cow::Borrowed(self.lang)
    }

    fn text(&self, unit: Unit<'_>, edition: EditionId) -> Option<(Cow<'a, str>, Translation)> {
        let unit = self.unit(unit)?;
        let state = if unit.outdated { Translation::Outdated } else { Translation::Translated };
        Some((Cow::Borrowed(unit.text.get(edition)), state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn unit(id: &'static str, text: &'static str, outdated: bool) -> LangUnit {
        LangUnit { id, text: EditionText::Same(text), outdated }
    }

    static TABLE: LangTable = LangTable {
        lang: "xx",
        name: "Xx",
        editions: &[],
        variants: &[],
        expansions: &[],
        modules: &[unit("abbey", "Abdij", false)],
        phases: &[],
        steps: &[],
        sections: &[unit("setup", "Voorbereiding", false)],
        items: &[],
        markers: &[unit("MESSAGES", "BERICHTEN", false), unit("ROBBER_CHOICE", "ROVERKEUZE", true)],
        words: &[unit("no_actions", "Niets.", false), unit("step", "Stap", true)],
    };

    #[test]
    fn a_table_finds_its_units_by_kind_and_id() {
        assert_eq!(TABLE.text(Unit::Module("abbey"), EditionId(0)), Some(("Abdij".into(), Translation::Translated)));
        assert_eq!(TABLE.text(Unit::Item("abbey"), EditionId(0)), None, "another kind");
        assert_eq!(TABLE.text(Unit::Word(Word::Step), EditionId(2)), Some(("Stap".into(), Translation::Outdated)));
        assert_eq!(marker_label(&TABLE, "MESSAGES (#1B)").as_deref(), Some("BERICHTEN (#1B)"));
        assert_eq!(marker_label(&TABLE, "ROBBER CHOICE").as_deref(), Some("ROVERKEUZE"));
        assert_eq!(marker_label(&TABLE, "ROBBERS"), None);
        assert_eq!(heading(&TABLE, Section::Setup), "Voorbereiding");
        assert_eq!(heading(&TABLE, Section::Notes), "Notes");
        let words = words(&TABLE);
        assert_eq!(words.get(Word::NoActions), "Niets.");
        assert_eq!(words.get(Word::Edition), "edition");
        assert_eq!(words.heading(Section::Setup), "Voorbereiding");
    }

    #[test]
    fn a_unit_is_its_kind_and_key_and_has_one_id() {
        for unit in
            [Unit::Step("1B"), Unit::Item("draw-tile"), Unit::Section(Section::AnyTime), Unit::Word(Word::NoActions)]
        {
            let (kind, key) = unit.parts();
            assert_eq!(Unit::new(kind, key), Some(unit));
        }
        assert_eq!(Unit::Step("1B").id(), "step.1B");
        assert_eq!(Unit::Item("draw-tile").id(), "draw-tile");
        assert_eq!(Unit::Word(Word::NoActions).id(), "program.no_actions");
        assert_eq!(Unit::new(Kind::Section, "phases"), None);
        assert_eq!(Unit::new(Kind::Word, "nothing"), None);
    }
}
