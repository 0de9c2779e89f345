//! Plural forms: the categories a count takes in a language (CLDR), and
//! a plural word's translation held to them.

use carcassonne_rules_core::words;
use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use unic_langid::LanguageIdentifier;

use super::records::RawUnit;
use super::units::Unit;
use crate::codes::Code;
use crate::diagnostics::{Diagnostic, Sources};

/// The plural categories a count takes in `lang` (CLDR's cardinal rules, as
/// the page's `Intl.PluralRules` has them), in CLDR's order; none for a
/// language CLDR does not know.
pub fn plural_categories(lang: &str) -> Vec<&'static str> {
    let Some(rules) = plural_rules(lang) else { return Vec::new() };
    let mut found: Vec<&'static str> = (0..=1000u32).filter_map(|n| category(&rules, n)).collect();
    found.sort_by_key(|c| words::PLURAL_CATEGORIES.iter().position(|k| k == c));
    found.dedup();
    found
}

/// The plural category of the count `n` in `lang` (`one`, `few`, `many`…):
/// the rules of its primary language where CLDR has none of the tag's own
/// (`en-xa` counts as `en`), as a browser's `Intl.PluralRules` falls back.
pub fn plural_category(lang: &str, n: u32) -> Option<&'static str> {
    category(&plural_rules(lang)?, n)
}

/// CLDR's cardinal rules for `lang`, else for its primary language.
fn plural_rules(lang: &str) -> Option<PluralRules> {
    let create = |tag: &str| {
        let langid: LanguageIdentifier = tag.parse().ok()?;
        PluralRules::create(langid, PluralRuleType::CARDINAL).ok()
    };
    let primary = lang.split('-').next().unwrap_or(lang);
    create(lang).or_else(|| create(primary))
}

fn category(rules: &PluralRules, n: u32) -> Option<&'static str> {
    Some(match rules.select(n).ok()? {
        PluralCategory::ZERO => "zero",
        PluralCategory::ONE => "one",
        PluralCategory::TWO => "two",
        PluralCategory::FEW => "few",
        PluralCategory::MANY => "many",
        PluralCategory::OTHER => "other",
    })
}

/// What is wrong with a plural word's translation into `lang`: its forms
/// must be one per category a count takes in the language, each with the
/// English forms' placeholders.
pub(super) fn plural_problem(
    unit: &Unit,
    lang: &str,
    wanted: &[&str],
    entry: &RawUnit,
    sources: &Sources,
) -> Option<Diagnostic> {
    let english = words::plural_forms(&unit.english)?;
    let placeholders = words::placeholders(english.first().map_or("", |(_, f)| f));
    let problem = |message: String| {
        Diagnostic::at(Code::InvalidTranslation, sources, entry.text.span, message, "its forms").with_help(format!(
            "a count in `{lang}` takes the forms {}: write them as `{}`, each with {}",
            wanted.join(", "),
            wanted.iter().map(|c| format!("{c}: …")).collect::<Vec<_>>().join(" | "),
            placeholders.join(" ")
        ))
    };
    let Some(forms) = words::plural_forms(&entry.text.value) else {
        return Some(problem(format!("the translation of `{}` is not a list of plural forms", unit.id)));
    };
    let categories: Vec<&str> = forms.iter().map(|(c, _)| *c).collect();
    if categories != wanted {
        return Some(problem(format!(
            "the translation of `{}` has the forms {}, but a count in `{lang}` takes {}",
            unit.id,
            categories.join(", "),
            wanted.join(", ")
        )));
    }
    if let Some((category, _)) = forms.iter().find(|(_, form)| words::placeholders(form) != placeholders) {
        return Some(problem(format!("the `{category}` form of `{}` must hold {}", unit.id, placeholders.join(" "))));
    }
    None
}
