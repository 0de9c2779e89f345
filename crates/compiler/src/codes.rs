//! The stable code of every kind of problem, its severity and a one-line
//! summary; `docs/errors.md` explains each one with an example.
//!
//! Codes are kebab-case names (`unknown-module`), as clippy names its lints,
//! rather than numbers (`E0412`), as rustc does: a rule author reads the code
//! in an editor's problem list, and a name says what is wrong without the
//! index at hand; it is as easy to search for. A code names a *kind* of
//! problem: its message may be reworded, a code never changes meaning, and a
//! code no longer used stays reserved.
//!
//! A [`Diagnostic`](crate::Diagnostic) cannot be made without one: every
//! constructor takes a `Code` as its first argument.

use std::fmt;

/// How serious a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The rules, files or command are refused.
    Error,
    /// The rules check, but a property `verify` proves fails, or could not be
    /// proved.
    Warning,
}

/// What gives rise to a problem: what `docs/errors.md` can show as an example.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// What a rules file says: the index shows a minimal example, tested.
    Rules,
    /// Rules larger than an example can show (a limit of the format).
    Size,
    /// The rules folder and its files: missing, unreadable, not text.
    Files,
    /// A command's input other than the rules: options, git, answers, the
    /// wiki page and its errata.
    Usage,
}

macro_rules! codes {
    ($($variant:ident = $id:literal, $severity:ident, $cause:ident, $summary:literal;)*) => {
        /// A kind of problem, with its stable code (see the module's doc).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $(#[doc = $summary] $variant,)*
        }

        impl Code {
            /// Every code, in the order of `docs/errors.md`.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable code, as shown after `error[…]` and sent to editors.
            pub fn id(self) -> &'static str {
                match self { $(Code::$variant => $id,)* }
            }

            /// What the problem is, in one line.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// Whether it refuses the input or warns.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// What gives rise to it.
            pub fn cause(self) -> Cause {
                match self { $(Code::$variant => Cause::$cause,)* }
            }
        }
    };
}

codes! {
    InvalidYaml = "invalid-yaml", Error, Rules, "A rules file is not well-formed YAML.";
    UnknownKey = "unknown-key", Error, Rules, "A mapping holds a key the rules format does not have.";
    MissingKey = "missing-key", Error, Rules, "A mapping lacks a key the rules format requires.";
    DuplicateKey = "duplicate-key", Error, Rules, "A mapping holds one key twice.";
    InvalidValue = "invalid-value", Error, Rules, "A key holds a value of the wrong type (a list where a name goes, a word where `true` or `false` goes, no value where a text goes, an alias `*name` where anything goes) or not one of those allowed.";
    InvalidId = "invalid-id", Error, Rules, "An id does not match the pattern of its kind (items are kebab-case, modules snake_case, editions upper-case), or is a word of the conditions' language (`and`, `not`…).";
    IdsDifferInCase = "ids-differ-in-case", Error, Rules, "Two ids of one kind differ only in case.";
    DuplicateId = "duplicate-id", Error, Rules, "An id (an edition, a variant, a step, an item, a module or flag name, an expansion's rules file) is defined twice.";
    ForbiddenCharacter = "forbidden-character", Error, Rules, "A name (a language's too), title, text or marker argument holds a control character (a tab, a line break, an escape) or a bidirectional override, which could change what a terminal or a page shows.";
    EditionNamedTwice = "edition-named-twice", Error, Rules, "A list of editions (`foreign`, an expansion's `editions`, a text's variants) names one edition twice.";
    UnknownEdition = "unknown-edition", Error, Rules, "An edition or a rule variant is not declared in `editions.yaml`.";
    UnknownModule = "unknown-module", Error, Rules, "A condition names a module or a derived flag that `modules.yaml` does not declare.";
    ExpansionInCondition = "expansion-in-condition", Error, Rules, "A condition names an expansion; conditions test modules.";
    UnknownExpansion = "unknown-expansion", Error, Rules, "An expansion's rules file names (in `expansion:`) an expansion that `modules.yaml` does not declare.";
    ExpansionWithoutFile = "expansion-without-file", Error, Rules, "An expansion of `modules.yaml` has no rules file in `expansions/`.";
    UnknownStep = "unknown-step", Error, Rules, "A step (in an effect, the double-turn block or a section key of `items`) is not declared in `base.yaml`.";
    UnknownItem = "unknown-item", Error, Rules, "An ordering key (`before`, `after`, `under`) names an item that no rules file defines.";
    UnknownMarker = "unknown-marker", Error, Rules, "A marker is not one that `base.yaml` declares (`markers:`).";
    UnknownRole = "unknown-role", Error, Rules, "An item's `role` is not `action`, `condition`, `group` or `note`.";
    InvalidExpression = "invalid-expression", Error, Rules, "A condition, an effect, a marker list or a text's edition variants cannot be read.";
    FlagCycle = "flag-cycle", Error, Rules, "A derived flag of `modules.yaml` is defined in terms of itself.";
    OrderConflict = "order-conflict", Error, Rules, "Items are ordered in a cycle (`a` after `b`, `b` after `a`), or an item is placed after one item and before another that comes earlier.";
    InvalidReference = "invalid-reference", Error, Rules, "An ordering key names the item itself, an item of another step, or (with `before`/`after`) an item that is not a sibling.";
    UnconditionalItem = "unconditional-item", Error, Rules, "An item of an expansion has no `when`, so it would show in every game, with the expansion or without.";
    NeverShown = "never-shown", Error, Rules, "An item's condition can never hold, or never together with its parent's or its step's.";
    InvalidStep = "invalid-step", Error, Rules, "A step is declared in a way the turn cannot play.";
    InvalidOption = "invalid-option", Error, Rules, "An item's role does not allow one of its options.";
    InvalidEffect = "invalid-effect", Error, Rules, "An effect goes back to a later step, skips to an earlier one, goes back to a step some games lack or out of the double-turn block, or is on an item of `notes` or `any_time`.";
    DoubleTurn = "double-turn", Error, Rules, "The double-turn block (`double_turn.";
    TooMany = "too-many", Error, Size, "The rules declare more editions, variants, modules, items or markers than are supported.";
    TooDeep = "too-deep", Error, Size, "Items nest more levels deep (with `under` or `children`) than are supported.";
    TooComplex = "too-complex", Error, Size, "A condition, or a derived flag once expanded, takes more work to decide, explain or write than a run may use.";
    InvalidTranslation = "invalid-translation", Error, Rules, "`translations/languages.yaml` declares a language whose tag is not a lower-case BCP 47 tag, or English itself, or whose name is empty or over 64 characters; or a translation of a word of the program drops or adds a placeholder (`{publishers}`).";
    MissingTranslation = "missing-translation", Error, Rules, "A language that must be complete (`required: true`) has units with no current translation.";
    OutdatedTranslation = "outdated-translation", Warning, Rules, "A translation was made from English that the rules no longer hold (MediaWiki's Translate calls it fuzzy): its unit shows the English until it is reviewed.";
    OrphanedTranslation = "orphaned-translation", Warning, Rules, "A translation names a unit (an item, a step, a name) or a rules file that the rules do not have: it is never shown.";
    InconsistentTerm = "inconsistent-term", Warning, Rules, "A translation says a term of its language's glossary (`translations/<lang>/glossary.yaml`) with a word the glossary lists instead of its own: the language's texts say each term one way.";
    PropertyFails = "property-fails", Warning, Rules, "A property that `verify` proves fails for some selection of edition and modules.";
    Unverifiable = "unverifiable", Warning, Size, "A property is too complex for `verify` to prove.";
    RulesFolder = "rules-folder", Error, Files, "The rules folder is missing, is not a folder, is a link, or holds no rules.";
    MissingFile = "missing-file", Error, Files, "A file the rules folder must hold (`editions.yaml`, `modules.yaml`, `base.yaml`) is missing.";
    NotARulesFile = "not-a-rules-file", Error, Files, "`expansions/` holds a file whose name is not a rules file's.";
    UnreadableFile = "unreadable-file", Error, Files, "A rules file cannot be read.";
    FileTooLong = "file-too-long", Error, Files, "A rules file, or the rules of a revision, exceed the size that is read.";
    NotText = "not-text", Error, Files, "A rules file is empty, is not UTF-8, or has a carriage return without a line feed.";
    CommandLine = "command-line", Error, Usage, "A command's options are missing, or name editions, variants, modules or items the rules do not declare.";
    Io = "io", Error, Usage, "Reading or writing something other than the rules failed.";
    Revision = "revision", Error, Usage, "`review --base REV` cannot read the rules of a revision.";
    StaleGenerated = "stale-generated", Error, Usage, "`gen --check` found generated code that is not what the rules generate.";
    Answers = "answers", Error, Usage, "`play`'s answers or saved game cannot be read, or do not fit the turn.";
    Errata = "errata", Error, Usage, "The wiki's errata file names a show class, step, item or page line the rules or the page do not have.";
    WikiPage = "wiki-page", Error, Usage, "The wiki page differs from the rules where the errata do not explain it.";
    WikiExport = "wiki-export", Error, Usage, "The rules say something the wiki page cannot show.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Where the error index explains `code`, for an editor's link.
pub fn description_url(code: Code) -> String {
    format!("{}/blob/main/docs/errors.md#{}", env!("CARGO_PKG_REPOSITORY"), code.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_names() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let id = code.id();
            assert!(seen.insert(id), "{id} is used twice");
            assert!(id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'), "{id}");
            assert!(!id.starts_with('-') && !id.ends_with('-') && !id.contains("--"), "{id}");
            assert!(code.summary().ends_with('.'), "{id}: {}", code.summary());
        }
    }
}
