//! Reading the page's CSS classes (`showDragonAndNotPlague`, `_ForC1`,
//! `data-dynamic-selector`) as conditions on the rules' modules, derived
//! flags and editions, with the errata's readings of irregular names.

use super::*;
use crate::keys::DERIVED_KEYS;

pub(super) enum Reading {
    /// Not about visibility (`markC1`, `wica-list`, `showAll`).
    Ignored,
    Cond(Cond),
    Unreadable,
}

/// Reads `show…` class names against the rules' ids.
pub(super) struct ClassReader {
    class: Regex,
    dynamic: Regex,
    names: HashMap<String, Cond>,
    /// The derived flags' page keys (`AbbotAndGardens_Full`): each read as one
    /// flag, whatever `And` it holds.
    keys: Vec<(&'static str, Cond)>,
    editions: Vec<String>,
    /// What each edition's class means (`showC2` may include WE).
    edition_conds: Vec<Cond>,
    overrides: HashMap<String, Cond>,
}

/// What the page's word for the edition `at` means: the second edition's
/// (`C2`, the new edition) is every edition but the first, the wording the
/// later editions share (the page has no word for the Winter edition); the
/// others are themselves. The export writes editions so.
pub(super) fn edition_means(at: usize, rules: &Rules) -> Cond {
    if at == 1 && rules.catalog.editions.len() > 2 {
        Cond::Not(Box::new(Cond::Edition(EditionId(0))))
    } else {
        Cond::Edition(EditionId(at as u8))
    }
}

impl ClassReader {
    pub(super) fn new(rules: &Rules, errata: &Errata) -> Self {
        let mut names: HashMap<String, Cond> =
            rules.catalog.modules.iter().map(|m| (m.id.clone(), Cond::Module(m.bit))).collect();
        names.extend(rules.flags.iter().enumerate().map(|(i, flag)| (flag.id.clone(), Cond::Flag(i))));
        let overrides: HashMap<String, Cond> =
            errata.classes.iter().map(|r| (r.class.clone(), r.means.clone())).collect();
        // `showDragonAndC1`: an edition may stand among the flags, and reads
        // like its own class (`showC2`), so a reading of `showC2` in the errata
        // applies there too.
        let editions: Vec<Cond> = rules
            .catalog
            .editions
            .iter()
            .enumerate()
            .map(|(i, e)| overrides.get(&format!("show{}", e.id)).cloned().unwrap_or_else(|| edition_means(i, rules)))
            .collect();
        for (e, cond) in rules.catalog.editions.iter().zip(&editions) {
            names.insert(e.id.to_lowercase(), cond.clone());
        }
        let keys = DERIVED_KEYS
            .iter()
            .filter_map(|&(id, key)| rules.flags.iter().position(|f| f.id == id).map(|f| (key, Cond::Flag(f))))
            .collect();
        ClassReader {
            keys,
            class: regex(r#"class="([^"]*)""#),
            dynamic: regex(r#"data-dynamic-selector="\[([^\]]*)\]""#),
            names,
            editions: rules.catalog.editions.iter().map(|e| e.id.clone()).collect(),
            edition_conds: editions,
            overrides,
        }
    }

    /// The show condition of an element's attributes (`class`, and
    /// `data-dynamic-selector`); `None` = always shown. Names that cannot be
    /// read count as never shown and are added to `unreadable`.
    pub(super) fn attributes(&self, attributes: &str, unreadable: &mut Vec<String>) -> Option<Cond> {
        let mut read = |class: &str| match self.read(class) {
            Reading::Ignored => None,
            Reading::Cond(cond) => Some(cond),
            Reading::Unreadable => {
                unreadable.push(class.to_string());
                Some(Cond::False)
            }
        };
        let mut conditions: Vec<Cond> = Vec::new();
        if let Some(c) = self.class.captures(attributes) {
            conditions.extend(c[1].split_whitespace().filter_map(&mut read));
        }
        if let Some(c) = self.dynamic.captures(attributes) {
            let mut parts = c[1].split(',').map(|p| p.trim().trim_matches('\'').trim_matches('"'));
            let all = parts.next() == Some("AND");
            let classes: Vec<Cond> = parts.map(|class| read(class).unwrap_or(Cond::True)).collect();
            conditions.push(if all { Cond::All(classes) } else { Cond::Any(classes) });
        }
        match conditions.len() {
            0 => None,
            1 => conditions.pop(),
            _ => Some(Cond::All(conditions)),
        }
    }

    fn read(&self, class: &str) -> Reading {
        if let Some(cond) = self.overrides.get(class) {
            return Reading::Cond(cond.clone());
        }
        if class.starts_with("hide") {
            return Reading::Cond(Cond::False);
        }
        let Some(rest) = class.strip_prefix("show") else { return Reading::Ignored };
        if matches!(rest, "All" | "WhenDone") {
            return Reading::Ignored;
        }
        if let Some(e) = self.editions.iter().position(|e| e == rest) {
            return Reading::Cond(self.edition_conds[e].clone());
        }
        // `…_ForC1`: the rest holds in that edition only.
        let (flags, edition) = match rest.rsplit_once("_For") {
            Some((flags, e)) => match self.editions.iter().position(|x| x == e) {
                Some(e) => (flags, Some(e)),
                None => (rest, None),
            },
            None => (rest, None),
        };
        let Some(cond) = self.expression(flags) else { return Reading::Unreadable };
        Reading::Cond(match edition {
            Some(e) => Cond::All(vec![cond, self.edition_conds[e].clone()]),
            None => cond,
        })
    }

    /// `DragonAndNotPlagueOrFairy`: flags joined by `And`, `Or` and `Not`;
    /// `Not` binds tightest, then `And`, then `Or`. A flag is the longest run of
    /// words that is a derived flag's page key (`AbbotAndGardens_Full`) or whose
    /// snake_case is a module or derived flag, so `KingAndRobber` stays one flag.
    fn expression(&self, text: &str) -> Option<Cond> {
        let words = camel_words(text);
        // Where each word starts in `text`: a page key is matched on the text,
        // as it is spelled, and must end where a word does.
        let starts: Vec<usize> = words
            .iter()
            .scan(0, |at, w| {
                let start = *at;
                *at += w.len();
                Some(start)
            })
            .chain([text.len()])
            .collect();
        let mut alternatives = Vec::new();
        let mut conjunction = Vec::new();
        let mut negate = false;
        let mut i = 0;
        let mut expect_flag = true;
        while i < words.len() {
            if expect_flag {
                if words[i] == "Not" && !self.is_flag_start(&words[i..]) {
                    negate = !negate;
                    i += 1;
                    continue;
                }
                let (len, cond) = self.flag_at(&words, &starts, text, i)?;
                conjunction.push(if negate { Cond::Not(Box::new(cond)) } else { cond });
                negate = false;
                i += len;
                expect_flag = false;
            } else {
                match words[i].as_str() {
                    "And" => {}
                    "Or" => alternatives.push(Cond::All(std::mem::take(&mut conjunction))),
                    _ => return None,
                }
                i += 1;
                expect_flag = true;
            }
        }
        if expect_flag {
            return None;
        }
        alternatives.push(Cond::All(conjunction));
        Some(if alternatives.len() == 1 { alternatives.pop()? } else { Cond::Any(alternatives) })
    }

    /// The longest flag starting at word `i` (in words), and what it means:
    /// a page key, or a run of words named by its snake_case.
    fn flag_at(&self, words: &[String], starts: &[usize], text: &str, i: usize) -> Option<(usize, Cond)> {
        let key = self
            .keys
            .iter()
            .filter(|(key, _)| text[starts[i]..].starts_with(key))
            .filter_map(|(key, cond)| {
                let end = starts[i] + key.len();
                starts[i..].iter().position(|&s| s == end).map(|len| (len, cond.clone()))
            })
            .max_by_key(|(len, _)| *len);
        let named = (1..=words.len() - i)
            .rev()
            .find_map(|len| self.names.get(&snake_case(&words[i..i + len].concat())).map(|c| (len, c.clone())));
        match (key, named) {
            (Some(k), Some(n)) if n.0 > k.0 => Some(n),
            (Some(k), _) => Some(k),
            (None, n) => n,
        }
    }

    fn is_flag_start(&self, words: &[String]) -> bool {
        (1..=words.len()).any(|len| self.names.contains_key(&snake_case(&words[..len].concat())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_derived_key_holding_and_is_read_as_one_flag() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
        let Ok(rules) = carcassonne_rules_compiler::compile_dir(&dir).result else {
            panic!("the bundled rules do not compile")
        };
        let reader = ClassReader::new(&rules, &Errata::default());
        let flag = |id: &str| rules.flags.iter().position(|f| f.id == id).map(Cond::Flag);
        let module = |id: &str| rules.catalog.modules.iter().find(|m| m.id == id).map(|m| Cond::Module(m.bit));
        let read = |class: &str| match reader.read(class) {
            Reading::Cond(cond) => Some(cond),
            _ => None,
        };
        let messages = flag("messages_for_entries_step5_mark_c1_and_mark_we");
        let c1 = reader.edition_conds[0].clone();
        assert_eq!(
            read("showMessagesForEntriesStep5_markC1AndmarkWE_ForC1"),
            messages.clone().map(|m| Cond::All(vec![Cond::All(vec![m]), c1.clone()]))
        );
        // Between operators, the longest key first: not `…_markWE` and a stray `And…`.
        let (abbot, dragon) = (flag("abbot_and_gardens_full"), module("dragon"));
        assert_eq!(
            read("showNotMessagesForEntriesStep5_markC1AndmarkWEOrAbbotAndGardens_FullAndDragon"),
            Some(Cond::Any(vec![
                Cond::All(vec![Cond::Not(Box::new(messages.expect("a flag")))]),
                Cond::All(vec![abbot.expect("a flag"), dragon.expect("a module")]),
            ]))
        );
        // A key is matched where a word ends, not inside a longer word.
        assert!(read("showMessagesForEntriesStep5_markC1AndmarkWEx").is_none());
    }
}
