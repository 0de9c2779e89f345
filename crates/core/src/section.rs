//! The sections of the turn order outside the phases' steps, in one table
//! (their names, headings and places), and [`Sections`], one value per
//! section, which the checked rules, the generated tables and a turn order
//! index by [`Section`] rather than each naming four fields of its own.

use std::ops::{Index, IndexMut};

/// A section of the turn order outside the phases' steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// Notes that depend on the selection.
    Notes,
    /// Preparing the game.
    Setup,
    /// At any time during your turn.
    AnyTime,
    /// Scoring at the end of the game.
    FinalScoring,
}

/// What the program knows of a section, by [`Section`].
struct About {
    /// Its key in the rules files, the JSON output and the generated code.
    name: &'static str,
    /// Its heading, as the renderers print it.
    title: &'static str,
    /// What it holds, for the JSON Schemas.
    meaning: &'static str,
}

/// The one table of sections, in turn order.
const TABLE: [About; 4] = [
    About {
        name: "notes",
        title: "Notes",
        meaning: "Notes that depend on the selection (how to read the markers, …).",
    },
    About { name: "setup", title: "Setup", meaning: "Preparing the game." },
    About { name: "any_time", title: "At any time during your turn", meaning: "At any time during your turn." },
    About { name: "final_scoring", title: "Final scoring", meaning: "Scoring at the end of the game." },
];

impl Section {
    /// Every section, in turn order (final scoring, after the phases, last).
    pub const ALL: [Section; 4] = [Section::Notes, Section::Setup, Section::AnyTime, Section::FinalScoring];
    /// The sections listed before the phases, in order: [`Section::ALL`]
    /// but final scoring.
    pub const BEFORE_STEPS: [Section; 3] = [Section::Notes, Section::Setup, Section::AnyTime];
    /// The sections listed after the phases.
    pub const AFTER_STEPS: [Section; 1] = [Section::FinalScoring];

    const fn about(self) -> &'static About {
        &TABLE[self as usize]
    }

    /// Its name in the rules files, the JSON output and the generated code.
    pub const fn name(self) -> &'static str {
        self.about().name
    }

    /// Its heading, as the renderers print it.
    pub const fn title(self) -> &'static str {
        self.about().title
    }

    /// What it holds, in a sentence.
    pub const fn meaning(self) -> &'static str {
        self.about().meaning
    }

    /// The section named `name` in the rules files, if one is.
    pub fn named(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|section| section.name() == name)
    }
}

/// One value per [`Section`], indexed by it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Sections<T>([T; 4]);

impl<T> Sections<T> {
    /// The values in the order of [`Section::ALL`].
    pub const fn new(values: [T; 4]) -> Self {
        Sections(values)
    }

    /// Each section's value from `value`.
    pub fn from_fn(mut value: impl FnMut(Section) -> T) -> Self {
        Sections(Section::ALL.map(&mut value))
    }

    /// Each section with its value, in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Section, &T)> {
        Section::ALL.into_iter().zip(&self.0)
    }

    /// Each section with its value, in turn order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Section, &mut T)> {
        Section::ALL.into_iter().zip(&mut self.0)
    }

    /// The values of the sections listed before the phases, in order.
    pub fn before_steps(&self) -> impl Iterator<Item = &T> {
        Section::BEFORE_STEPS.into_iter().map(|section| &self[section])
    }

    /// The values of the sections listed after the phases, in order.
    pub fn after_steps(&self) -> impl Iterator<Item = &T> {
        Section::AFTER_STEPS.into_iter().map(|section| &self[section])
    }

    /// Each section's value through `f`.
    pub fn map<'s, U>(&'s self, mut f: impl FnMut(Section, &'s T) -> U) -> Sections<U> {
        Sections::from_fn(|section| f(section, &self[section]))
    }
}

impl<T> Index<Section> for Sections<T> {
    type Output = T;

    fn index(&self, section: Section) -> &T {
        &self.0[section as usize]
    }
}

impl<T> IndexMut<Section> for Sections<T> {
    fn index_mut(&mut self, section: Section) -> &mut T {
        &mut self.0[section as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_order_of_the_enum_and_of_the_turn() {
        for (i, section) in Section::ALL.into_iter().enumerate() {
            assert_eq!(section as usize, i);
            assert_eq!(Section::named(section.name()), Some(section));
        }
        let listed: Vec<Section> = Section::BEFORE_STEPS.into_iter().chain(Section::AFTER_STEPS).collect();
        assert_eq!(listed, Section::ALL);
        assert_eq!(Section::named("phases"), None);
    }

    #[test]
    fn values_are_found_by_their_section() {
        let mut names = Sections::from_fn(Section::name);
        assert_eq!(names[Section::AnyTime], "any_time");
        names[Section::Setup] = "changed";
        assert_eq!(
            names.iter().map(|(_, name)| *name).collect::<Vec<_>>(),
            ["notes", "changed", "any_time", "final_scoring"]
        );
        assert_eq!(names.before_steps().count(), 3);
        assert_eq!(names.after_steps().collect::<Vec<_>>(), [&"final_scoring"]);
        assert_eq!(names.map(|section, name| (section, name.len()))[Section::Notes], (Section::Notes, 5));
    }
}
