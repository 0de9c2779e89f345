//! A language's glossary (`translations/<lang>/glossary.yaml`): the words
//! its texts say the rules' terms with, so that a language reads as one text.
//! Each term names the English it translates (the start of a word, so
//! `complet` is "complete", "completed", "completes"…), the language's word,
//! and the words that say it otherwise, each with what to write instead:
//!
//! ```yaml
//! glossary:
//!   - en: complet
//!     term: afgebouwd
//!     instead_of: { voltooid: afgebouwd, voltooide: afgebouwde }
//! ```
//!
//! A unit whose English says the term and whose text uses a word it lists
//! instead is a warning (`inconsistent-term`) at the text, its fix the text
//! with the glossary's word.

use super::records::RawTranslationFile;
use crate::codes::Code;
use crate::diagnostics::{Diagnostic, Fix, Sources};
use crate::lexicon::find_word;

/// The file of a language's folder that holds its glossary.
pub const GLOSSARY_FILE: &str = "glossary.yaml";

/// Holds every unit of a language's `files` to the glossary its files hold.
pub(super) fn check(lang: &str, files: &[&RawTranslationFile], sources: &Sources, problems: &mut Vec<Diagnostic>) {
    let terms: Vec<_> = files.iter().flat_map(|f| &f.glossary).collect();
    if terms.is_empty() {
        return;
    }
    for (key, unit) in files.iter().flat_map(|f| f.entries()).map(|(_, entry)| entry) {
        let english = unit.from.value.to_lowercase();
        for term in &terms {
            let en = term.en.value.to_lowercase();
            if en.is_empty() || !starts_a_word(&english, &en) {
                continue;
            }
            for (word, instead) in &term.instead_of {
                let Some((start, end)) = find_word(&unit.text.value, &word.value) else { continue };
                let found = &unit.text.value[start..end];
                let instead = capitalized_as(found, &instead.value);
                let mended = format!("{}{instead}{}", &unit.text.value[..start], &unit.text.value[end..]);
                problems.push(
                    Diagnostic::at(
                        Code::InconsistentTerm,
                        sources,
                        unit.text.span,
                        format!(
                            "`{found}` says “{}” otherwise than the `{lang}` glossary, which says `{}`",
                            term.en.value, term.term.value
                        ),
                        format!("the translation of `{}`", key.value),
                    )
                    .with_help(format!(
                        "write `{instead}`: the language's texts say each term of its glossary one way \
                         (translations/{lang}/{GLOSSARY_FILE})"
                    ))
                    .with_fix(Fix {
                        title: format!("Write `{instead}`, as the glossary says"),
                        span: unit.text.span,
                        // A JSON string is a YAML double-quoted scalar.
                        replacement: serde_json::to_string(&mended).unwrap_or_default(),
                    }),
                );
            }
        }
    }
}

/// Whether `stem` starts a word of `text` (both lower-case).
fn starts_a_word(text: &str, stem: &str) -> bool {
    text.match_indices(stem).any(|(at, _)| !text[..at].chars().next_back().is_some_and(char::is_alphanumeric))
}

/// `word` with an upper-case first letter where `found` has one.
fn capitalized_as(found: &str, word: &str) -> String {
    if found.chars().next().is_some_and(char::is_uppercase) {
        let mut chars = word.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
    } else {
        word.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_found_whole_and_capitalized_as_written() {
        assert!(starts_a_word("how many features are completed?", "complet"));
        assert!(!starts_a_word("incomplete", "complet"));
        assert_eq!(find_word("Zijn projecten voltooid?", "voltooid"), Some((15, 23)));
        assert_eq!(find_word("onvoltooid", "voltooid"), None);
        assert_eq!(find_word("Voltooide wegen", "voltooide"), Some((0, 9)));
        assert_eq!(capitalized_as("Voltooide", "afgebouwde"), "Afgebouwde");
        assert_eq!(capitalized_as("geesten", "spoken"), "spoken");
    }
}
