//! The translation files' records, as read from YAML.

use serde::Deserialize;

use crate::syntax::{self, Spanned};
use carcassonne_rules_core::lang::Kind;

/// `translations/languages.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLanguagesFile {
    /// The languages the rules are translated into.
    pub languages: Vec<RawLanguage>,
}

/// One language of `languages.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLanguage {
    /// Its tag (BCP 47: `nl`, `ru`), also its folder's name.
    pub lang: Spanned<String>,
    /// Its name in itself (`Nederlands`), for a language switch.
    pub name: Spanned<String>,
    /// Whether `check` refuses the rules while a unit is untranslated.
    #[serde(default)]
    pub required: bool,
}

/// One translation file: the units of one rules file, by kind, each keyed by
/// its id.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTranslationFile {
    /// Edition names (`editions.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub editions: Vec<(Spanned<String>, RawUnit)>,
    /// Rule variants' names (`editions.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub variants: Vec<(Spanned<String>, RawUnit)>,
    /// Expansion names (`modules.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub expansions: Vec<(Spanned<String>, RawUnit)>,
    /// Module names (`modules.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub modules: Vec<(Spanned<String>, RawUnit)>,
    /// Phase titles (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub phases: Vec<(Spanned<String>, RawUnit)>,
    /// Step titles (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub steps: Vec<(Spanned<String>, RawUnit)>,
    /// The headings of the sections outside the steps (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub sections: Vec<(Spanned<String>, RawUnit)>,
    /// Item texts, by item id.
    #[serde(default, deserialize_with = "syntax::entries")]
    pub items: Vec<(Spanned<String>, RawUnit)>,
    /// Marker labels, by marker id (`ROBBER_CHOICE`) (`base.yaml`).
    #[serde(default, deserialize_with = "syntax::entries")]
    pub markers: Vec<(Spanned<String>, RawUnit)>,
    /// The program's words, by their key (`no_actions`), in `program.yaml`.
    #[serde(default, deserialize_with = "syntax::entries")]
    pub program: Vec<(Spanned<String>, RawUnit)>,
    /// The language's glossary (its `glossary.yaml`): see `glossary.rs`.
    #[serde(default)]
    pub glossary: Vec<RawTerm>,
}

/// A term of a language's glossary.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTerm {
    /// The start of the English words it translates (`complet`).
    pub en: Spanned<String>,
    /// The language's word for it (`afgebouwd`).
    pub term: Spanned<String>,
    /// Words that say it otherwise, each with the word to write instead.
    #[serde(default, deserialize_with = "syntax::entries")]
    pub instead_of: Vec<(Spanned<String>, Spanned<String>)>,
}

impl RawTranslationFile {
    /// Its units, by kind.
    fn kinds(&self) -> [(Kind, &[Keyed]); 10] {
        [
            (Kind::Edition, &self.editions),
            (Kind::Variant, &self.variants),
            (Kind::Expansion, &self.expansions),
            (Kind::Module, &self.modules),
            (Kind::Phase, &self.phases),
            (Kind::Step, &self.steps),
            (Kind::Section, &self.sections),
            (Kind::Item, &self.items),
            (Kind::Word, &self.program),
            (Kind::Marker, &self.markers),
        ]
    }

    /// Its units, each with its kind, in the order of [`Self::kinds`].
    pub(super) fn entries(&self) -> impl Iterator<Item = (Kind, &Keyed)> {
        self.kinds().into_iter().flat_map(|(kind, entries)| entries.iter().map(move |entry| (kind, entry)))
    }
}

/// A unit as written, under its key.
type Keyed = (Spanned<String>, RawUnit);

/// One translated unit as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    /// The English it was translated from.
    pub from: Spanned<String>,
    /// The translation (the text DSL, for an item's text).
    pub text: Spanned<String>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::diagnostics::FileId;
    use crate::syntax::{de, tree};

    /// A section named as core's [`Kind::section`] names it is read into
    /// the units of that kind, so the editor's skeletons and completions
    /// (which take the names from there) land where `check` reads them.
    #[test]
    fn each_kind_is_read_from_the_section_core_names() {
        for (kind, _) in RawTranslationFile::default().kinds() {
            let text = format!("{}:\n  x:\n    from: a\n    text: b\n", kind.section());
            let parse = tree::parse_strict(&text);
            assert!(parse.error.is_none(), "{text}");
            let file: RawTranslationFile = de::from_tree(&parse.tree, FileId(0)).expect("a translation file");
            let read: Vec<Kind> = file.entries().map(|(k, _)| k).collect();
            assert_eq!(read, [kind], "{text}");
        }
    }
}
