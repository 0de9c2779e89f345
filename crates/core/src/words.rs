//! The words the program writes around the rules' own texts (`Step`, "There
//! are no actions in this step."), in English, and in the language of a
//! translation that has them. Each word is a translation unit of its own
//! (`program.no_actions`), translated beside the rules' texts; its English is
//! here, in the program.

use std::borrow::Cow;

use crate::section::{Section, Sections};

macro_rules! words {
    ($($word:ident = $key:literal, $english:literal;)*) => {
        /// A word of the program.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Word {
            $(#[doc = $english] $word,)*
        }

        impl Word {
            /// Every word, in the order of their table.
            pub const ALL: &'static [Word] = &[$(Word::$word),*];

            /// Its key in a translation file (`no_actions`).
            pub const fn key(self) -> &'static str {
                match self { $(Word::$word => $key,)* }
            }

            /// Its English.
            pub const fn english(self) -> &'static str {
                match self { $(Word::$word => $english,)* }
            }
        }
    };
}

words! {
    OrderOfPlay = "order_of_play", "Order of play";
    Edition = "edition", "edition";
    Variant = "variant", "variant";
    Modules = "modules", "modules";
    NoModules = "no_modules", "none";
    Step = "step", "Step";
    NoActions = "no_actions", "There are no actions in this step.";
    ChooseOneLead = "choose_one_lead", "You may do exactly one of the following:";
    ChooseOneOrNone = "choose_one_or_none", "choose one or none";
    ChooseOne = "choose_one", "choose one";
    OnlyOnce = "only_once", "only once";
    FromAnotherEdition = "from_another_edition", "from another edition";
    OnceOrTwice = "once_or_twice", "once, or twice on a double turn";
    OncePerFeature = "once_per_feature", "once per completed feature";
    RulesOnly = "rules_only", "{publishers} rules only";
}

/// The placeholders of a word (`{publishers}`), in order: a translation
/// keeps exactly these.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else { break };
        out.push(&rest[start..start + len + 1]);
        rest = &rest[start + len + 1..];
    }
    out
}

/// The program's words in one language, and the sections' headings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words<'a> {
    words: Vec<Cow<'a, str>>,
    headings: Sections<Cow<'a, str>>,
}

impl Default for Words<'_> {
    fn default() -> Self {
        Words::english()
    }
}

impl<'a> Words<'a> {
    /// The English words, the program's own.
    pub fn english() -> Words<'static> {
        Words {
            words: Word::ALL.iter().map(|w| Cow::Borrowed(w.english())).collect(),
            headings: Sections::from_fn(|s| Cow::Borrowed(s.title())),
        }
    }

    /// `word` in this language.
    pub fn get(&self, word: Word) -> &str {
        let at = Word::ALL.iter().position(|&w| w == word).unwrap_or(0);
        self.words.get(at).map_or(word.english(), |w| w.as_ref())
    }

    /// `word` as `text`.
    pub fn set(&mut self, word: Word, text: impl Into<Cow<'a, str>>) {
        if let Some(at) = Word::ALL.iter().position(|&w| w == word) {
            self.words[at] = text.into();
        }
    }

    /// The heading of `section`.
    pub fn heading(&self, section: Section) -> &str {
        &self.headings[section]
    }

    /// `section`'s heading as `text`.
    pub fn set_heading(&mut self, section: Section, text: impl Into<Cow<'a, str>>) {
        self.headings[section] = text.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_snake_case_and_every_word_can_be_set() {
        let mut seen = std::collections::HashSet::new();
        for word in Word::ALL {
            assert!(seen.insert(word.key()), "{} twice", word.key());
            assert!(word.key().bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", word.key());
        }
        let mut words = Words::english();
        assert_eq!(words.get(Word::NoActions), crate::order::NO_ACTIONS);
        for (n, &word) in Word::ALL.iter().enumerate() {
            words.set(word, format!("w{n}"));
        }
        for (n, &word) in Word::ALL.iter().enumerate() {
            assert_eq!(words.get(word), format!("w{n}"));
        }
        assert_eq!(placeholders(Word::RulesOnly.english()), ["{publishers}"]);
        assert_eq!(placeholders("a {x} b {y}"), ["{x}", "{y}"]);
        assert!(placeholders("no braces").is_empty());
        words.set_heading(Section::Setup, "Voorbereiding");
        assert_eq!(words.heading(Section::Setup), "Voorbereiding");
        assert_eq!(words.heading(Section::Notes), "Notes");
    }
}
