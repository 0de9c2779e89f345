//! What a translator has still to write: each unit of the rules with the
//! translation file and section it goes in, the units each language lacks,
//! and the skeleton that adds one (`from:` its English, `text: ""`, the
//! English as a comment above the text to write), where the file's order
//! puts it.
//!
//! The skeleton's text is empty on purpose: `check` takes an empty text as
//! no translation, so the unit stays missing until the translator writes it
//! (the English written in its place would pass as translated).

use carcassonne_rules_compiler::syntax::tree::{self, Node, Value};
use carcassonne_rules_compiler::translation::{State, TRANSLATIONS_DIR, Translations};
use carcassonne_rules_core::lang::Kind;

/// A unit of the rules as a translation file keys it.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitPlace {
    /// Its unit id (`draw-tile`, `step.1B`).
    pub id: String,
    /// The section of a translation file that holds it (`items`, `steps`).
    pub section: &'static str,
    /// Its key there (`1B` of `step.1B`).
    pub key: String,
    /// Its English, canonical.
    pub english: String,
    /// The rules file its translation file mirrors (`expansions/abbey-and-mayor.yaml`).
    pub file: String,
}

/// Every unit, in the order a reader meets them, and the units each language
/// has no translation of.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Untranslated {
    /// Every unit of the rules.
    pub units: Vec<UnitPlace>,
    /// Each language's tag and its missing units, by their place in `units`.
    pub missing: Vec<(String, Vec<usize>)>,
}

/// The section of a translation file that holds units of `kind`, and the
/// rules file that holds them where the unit itself has no place.
pub fn section_of(kind: Kind) -> (&'static str, &'static str) {
    let file = match kind {
        Kind::Edition | Kind::Variant => "editions.yaml",
        Kind::Expansion | Kind::Module => "modules.yaml",
        Kind::Phase | Kind::Step | Kind::Section | Kind::Item | Kind::Marker => "base.yaml",
        Kind::Word => "program.yaml",
    };
    (kind.section(), file)
}

impl Untranslated {
    /// The units of `translations` and each language's missing ones; a
    /// unit's rules file by its place, of the files `inputs` names (a
    /// span's file is its index there).
    pub fn of_checked(translations: &Translations, inputs: &[String]) -> Untranslated {
        let units = translations
            .units
            .iter()
            .map(|u| {
                let (section, file) = section_of(u.kind);
                let file = u.span.and_then(|span| inputs.get(span.file.0)).map_or(file, String::as_str);
                let key = u.kind.prefix().map_or(u.id.as_str(), |p| u.id.get(p.len() + 1..).unwrap_or_default());
                UnitPlace {
                    id: u.id.clone(),
                    section,
                    key: key.to_string(),
                    english: u.english.clone(),
                    file: file.to_string(),
                }
            })
            .collect();
        let missing = translations
            .locales
            .iter()
            .map(|locale| {
                let at = translations.units.iter().enumerate().filter(|(_, u)| locale.state(&u.id) == State::Missing);
                (locale.lang.clone(), at.map(|(i, _)| i).collect())
            })
            .collect();
        Untranslated { units, missing }
    }

    /// The missing units of `lang`.
    pub fn of<'a>(&'a self, lang: &'a str) -> impl Iterator<Item = &'a UnitPlace> + 'a {
        self.missing
            .iter()
            .filter(move |(l, _)| l == lang)
            .flat_map(|(_, at)| at.iter().filter_map(|&i| self.units.get(i)))
    }
}

/// The language and the rules file a translation file `rel` translates
/// (`translations/nl/expansions/x.yaml` → `nl`, `expansions/x.yaml`).
pub fn translated_file(rel: &str) -> Option<(&str, &str)> {
    let rest = rel.strip_prefix(TRANSLATIONS_DIR)?.strip_prefix('/')?;
    rest.split_once('/')
}

/// A key as YAML writes it: quoted where a plain one would not read back
/// as the same string (`"1B"`, `"20th-anniversary-extra-turn"`, as the
/// translation files write them).
fn yaml_key(key: &str) -> String {
    let plain = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if plain { key.to_string() } else { serde_json::to_string(key).unwrap_or_default() }
}

/// The lines that add `unit` at indentation `indent`.
fn lines(unit: &UnitPlace, indent: usize) -> String {
    let pad = " ".repeat(indent);
    // The English on the comment's one line: any character YAML or a
    // terminal could take as a line break or a control is a space there
    // (`from:` keeps it, escaped).
    let english: String = unit
        .english
        .chars()
        .map(|c| if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') { ' ' } else { c })
        .collect();
    format!(
        "{pad}{}:\n{pad}  from: {}\n{pad}  # {english}\n{pad}  text: \"\"\n",
        yaml_key(&unit.key),
        serde_json::to_string(&unit.english).unwrap_or_default()
    )
}

/// The start of the line after the one holding byte `at` of `text`.
fn next_line(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// Whether the translation file `text` has an entry for `key` in `section`.
pub fn written(root: &Node, section: &str, key: &str) -> bool {
    root.get(section).is_some_and(|units| units.get(key).is_some())
}

/// Where the skeleton of `unit` goes in the translation file `text` and
/// what it inserts: after the unit written there that comes last among
/// those before it in the rules (`before`: the keys of its section's units
/// of that file, in the rules' order, up to it), else before the section's
/// first unit; a section not there yet is added at the end. None where the
/// file cannot take it as it is (a flow mapping, a broken file) or has it.
pub fn skeleton(text: &str, unit: &UnitPlace, before: &[&str]) -> Option<(usize, String)> {
    let parse = tree::parse(text);
    if parse.error.is_some() {
        return None;
    }
    let root = &parse.tree;
    let Value::Map(top) = &root.value else {
        // An empty file is a null scalar: the section starts it.
        return root.as_str().filter(|s| s.is_empty()).map(|_| (0, format!("{}:\n{}", unit.section, lines(unit, 2))));
    };
    if top.flow {
        return None;
    }
    let Some((key, value)) = top.entries.iter().find(|(k, _)| k.as_str() == Some(unit.section)) else {
        // At the end, after a line break if the last line has none.
        let end = text.len();
        let gap = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
        return Some((end, format!("{gap}{}:\n{}", unit.section, lines(unit, 2))));
    };
    match &value.value {
        Value::Map(units) if !units.flow && !units.entries.is_empty() => {
            if units.entries.iter().any(|(k, _)| k.as_str() == Some(unit.key.as_str())) {
                return None;
            }
            let (first, _) = &units.entries[0];
            let line_start = text[..first.span.start].rfind('\n').map_or(0, |i| i + 1);
            let indent = first.span.start - line_start;
            // The entry of the unit that comes last in the rules before this one.
            let previous = units
                .entries
                .iter()
                .filter_map(|(k, v)| Some((before.iter().position(|b| Some(*b) == k.as_str())?, v)))
                .max_by_key(|(at, _)| *at);
            match previous {
                Some((_, v)) => {
                    // The end of the entry's last line (its value ends where
                    // its last character does, perhaps a multi-byte one).
                    let end = text.get(..v.span.end).map_or(text.len(), |t| t.trim_end().len());
                    let at = next_line(text, end);
                    let gap = if at == text.len() && !text.ends_with('\n') { "\n" } else { "" };
                    Some((at, format!("{gap}{}", lines(unit, indent))))
                }
                None => Some((line_start, lines(unit, indent))),
            }
        }
        // `items:` with nothing under it yet.
        Value::Scalar(s) if s.value.is_empty() && !s.alias => {
            let at = next_line(text, key.span.end);
            let gap = if at == text.len() && !text.ends_with('\n') { "\n" } else { "" };
            Some((at, format!("{gap}{}", lines(unit, 2))))
        }
        _ => None,
    }
}

/// The section (`items`, `steps`…) whose unit key is being typed at byte
/// `offset` of the translation file `text`: the line holds only the key's
/// start, at the indentation of the section's keys (two spaces where it
/// has none yet), below that section's line. The key's start, if so.
pub fn key_place(text: &str, offset: usize) -> Option<&str> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let written = &text[line_start..offset];
    let indent = written.len() - written.trim_start_matches(' ').len();
    let typed = &written[indent..];
    if indent == 0
        || !typed.trim_start_matches('"').chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || !text[offset..].lines().next().unwrap_or("").trim().is_empty()
    {
        return None;
    }
    // The lines above, nearest first: the section's line is the first one
    // not indented; the first indented one above the cursor that is a key
    // at the section's own level tells that level.
    let mut level = None;
    for line in text[..line_start].lines().rev() {
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let own = line.len() - content.len();
        if own == 0 {
            let section = content.strip_suffix(':').filter(|s| s.chars().all(|c| c.is_ascii_lowercase()))?;
            return (indent == level.unwrap_or(2)).then_some(section);
        }
        level = Some(level.map_or(own, |l: usize| l.min(own)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{UnitPlace, key_place, skeleton};

    fn unit(key: &str) -> UnitPlace {
        UnitPlace {
            id: key.into(),
            section: "items",
            key: key.into(),
            english: "Say \"hi\".".into(),
            file: "base.yaml".into(),
        }
    }

    fn added(text: &str, key: &str, before: &[&str]) -> Option<String> {
        let (at, insert) = skeleton(text, &unit(key), before)?;
        Some(format!("{}{insert}{}", &text[..at], &text[at..]))
    }

    const SKELETON: &str = "  b:\n    from: \"Say \\\"hi\\\".\"\n    # Say \"hi\".\n    text: \"\"\n";

    #[test]
    fn a_skeleton_goes_after_the_unit_before_it_whatever_ends_that_line() {
        // The last character before the place a multi-byte one, no line break at the end.
        let text = "items:\n  a:\n    from: x\n    text: één\n  c:\n    from: y\n    text: zë";
        assert_eq!(
            added(text, "b", &["a"]).unwrap(),
            format!("items:\n  a:\n    from: x\n    text: één\n{SKELETON}  c:\n    from: y\n    text: zë")
        );
        assert_eq!(added(text, "b", &["a", "c"]).unwrap(), format!("{text}\n{SKELETON}"));
        // None before it in the file: before the first unit.
        assert_eq!(added(text, "b", &[]).unwrap(), format!("items:\n{SKELETON}{}", &text[7..]));
        // Written already (its text empty or not): none.
        assert_eq!(added(text, "a", &[]), None);
    }

    #[test]
    fn a_hostile_english_stays_in_its_comment_and_its_from() {
        use carcassonne_rules_compiler::syntax::tree;
        let english = "a\nb: c\r\u{85}d\u{2028}e # \"f\" \u{1b}[2J";
        let hostile = UnitPlace { english: english.into(), ..unit("b") };
        let (_, insert) = skeleton("", &hostile, &[]).unwrap();
        assert_eq!(insert.lines().count(), 5, "{insert:?}");
        let comment = insert.lines().nth(3).unwrap_or_default();
        assert!(comment.trim_start().starts_with("# a b: c"), "{comment:?}");
        assert!(!comment.chars().any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')), "{comment:?}");
        let parse = tree::parse_strict(&insert);
        assert!(parse.error.is_none(), "{insert:?}");
        let from = parse.tree.get("items").and_then(|i| i.get("b")).and_then(|b| b.get("from"));
        assert_eq!(from.and_then(|f| f.as_str()), Some(english), "{insert:?}");
    }

    #[test]
    fn a_skeleton_starts_its_section_where_there_is_none() {
        assert_eq!(
            added("# nl\nsteps:\n  \"1\":\n    from: a\n    text: b", "b", &[]).unwrap(),
            format!("# nl\nsteps:\n  \"1\":\n    from: a\n    text: b\nitems:\n{SKELETON}")
        );
        assert_eq!(added("items:\n", "b", &[]).unwrap(), format!("items:\n{SKELETON}"));
        assert_eq!(added("", "b", &[]).unwrap(), format!("items:\n{SKELETON}"));
        // A flow mapping or a broken file is the translator's to mend.
        assert_eq!(added("items: {}\n", "b", &[]), None);
        assert_eq!(added("items:\n  a: [\n", "b", &[]), None);
        // A key that YAML would read otherwise is quoted.
        let (_, insert) = skeleton("", &unit("20th-x"), &[]).unwrap();
        assert!(insert.contains("\n  \"20th-x\":\n"), "{insert}");
    }

    #[test]
    fn a_key_is_typed_at_its_sections_indentation_only() {
        let text = "items:\n  a:\n    from: x\n    text: y\n  ab\n    t\n";
        assert_eq!(key_place(text, text.find("  ab").unwrap() + 4), Some("items"));
        assert_eq!(key_place(text, text.find("    t\n").unwrap() + 5), None, "a unit's own key");
        assert_eq!(key_place("items:\n  \n", 9), Some("items"));
        assert_eq!(key_place("items:\n", 7), None, "not indented");
        assert_eq!(key_place("items:\n  a: x", 9), None, "text after the cursor");
        // Hostile text: no panic.
        assert_eq!(key_place("ë\n  ë", 7), None);
    }
}
