//! The one mapping between module ids and the page's selector keys, both ways.
//!
//! A module id is the snake_case of the page's selector key (the id contract of
//! `rules/README.md`): the export writes [`selector_key`], the page reader reads
//! class names back with [`snake_case`], and the two are tested as a round trip.

/// The derived flags the page's script knows by a key of its own, with that
/// key: the export writes the key where a rule's condition names the flag
/// (`showTilesInSupply`, not `showAbbeyOrHalflingsOrGermanCastles`). Each key's
/// snake_case is its flag's id; the table is in `docs/wiki.md` too, and the
/// page check finds every key among the page's classes. A key may hold `And`
/// (`AbbotAndGardens_Full`): the page reader takes a key as one flag before
/// it splits a class on `And` and `Or`.
pub const DERIVED_KEYS: [(&str, &str); 13] = [
    ("tiles_in_supply", "TilesInSupply"),
    ("mandatory_tiles", "MandatoryTiles"),
    ("tiles_not_drawn_considered", "TilesNotDrawnConsidered"),
    ("tiles_drawn_only", "TilesDrawnOnly"),
    ("special_figures_eaten_by_dragon_bullet", "SpecialFiguresEatenByDragon_Bullet"),
    ("ringmaster_scoring", "RingmasterScoring"),
    ("non_basic_feature_for_ringmaster", "NonBasicFeatureForRingmaster"),
    ("20th_anniversary_expansion_plus", "20thAnniversaryExpansionPlus"),
    ("entries_step5", "EntriesStep5"),
    ("no_entries_step5", "NoEntriesStep5"),
    ("messages_for_entries_step5_mark_we", "MessagesForEntriesStep5_markWE"),
    ("messages_for_entries_step5_mark_c1_and_mark_we", "MessagesForEntriesStep5_markC1AndmarkWE"),
    ("abbot_and_gardens_full", "AbbotAndGardens_Full"),
];

/// The wiki's selector key of a module id: the CamelCase it is the snake_case
/// of (`wonders_of_humanity` → `WondersOfHumanity`, `river_ii` → `RiverII`,
/// `20th_anniversary_expansion` → `20thAnniversaryExpansion`). Words made of
/// the letters of Roman numerals are numerals.
pub fn selector_key(id: &str) -> String {
    id.split('_')
        .map(|word| {
            if !word.is_empty() && word.chars().all(|c| matches!(c, 'i' | 'v' | 'x')) {
                word.to_uppercase()
            } else {
                let mut chars = word.chars();
                chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
            }
        })
        .collect()
}

/// The snake_case of a wiki selector key, the inverse of [`selector_key`]:
/// `RiverII` → `river_ii`, `20thAnniversaryExpansion` → `20th_anniversary_expansion`.
pub fn snake_case(camel: &str) -> String {
    camel_words(camel)
        .iter()
        .map(|w| w.trim_start_matches('_').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// `SpecialFiguresEatenByDragon_Bullet` → `Special`, `Figures`, …, `_Bullet`;
/// digits stay with the word before them (`Step5`), or start one (`20th`).
pub(crate) fn camel_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let starts_word = match previous {
            None => true,
            Some('_') => false,
            Some(p) => {
                c == '_'
                    || (c.is_ascii_uppercase()
                        && (p.is_ascii_lowercase()
                            || p.is_ascii_digit()
                            || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))))
            }
        };
        // `…And20thAnniversary…`: an operator word ends where a number begins.
        let after_operator =
            c.is_ascii_digit() && words.last().is_some_and(|w| matches!(w.as_str(), "And" | "Or" | "Not"));
        match words.last_mut() {
            Some(word) if !starts_word && !after_operator => word.push(c),
            _ => words.push(c.to_string()),
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Module ids and their selector keys, as the page spells them.
    const PAIRS: [(&str, &str); 6] = [
        ("wonders_of_humanity", "WondersOfHumanity"),
        ("river_ii", "RiverII"),
        ("20th_anniversary_expansion", "20thAnniversaryExpansion"),
        ("spiel_doch2018", "SpielDoch2018"),
        ("king_and_robber", "KingAndRobber"),
        ("entries_step5", "EntriesStep5"),
    ];

    #[test]
    fn selector_keys_are_the_page_s_camel_case() {
        for (id, key) in PAIRS {
            assert_eq!(selector_key(id), key);
        }
    }

    #[test]
    fn snake_case_follows_the_id_contract() {
        for (id, key) in PAIRS {
            assert_eq!(snake_case(key), id);
        }
        // Class words beyond module keys: an underscore part, an operator before a number.
        assert_eq!(snake_case("SpecialFiguresEatenByDragon_Bullet"), "special_figures_eaten_by_dragon_bullet");
        assert_eq!(snake_case("DragonAnd20thAnniversaryExpansion"), "dragon_and_20th_anniversary_expansion");
    }

    #[test]
    fn every_bundled_module_id_round_trips_through_its_selector_key() {
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
        let Ok(rules) = carcassonne_rules_compiler::compile_dir(&rules).result else {
            panic!("the bundled rules do not compile")
        };
        assert!(rules.catalog.modules.len() > 50, "the bundled registry");
        for module in &rules.catalog.modules {
            let key = selector_key(&module.id);
            assert_eq!(snake_case(&key), module.id, "{key}");
            assert_eq!(selector_key(&snake_case(&key)), key);
            assert!(key.chars().next().is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit()), "{key}");
        }
    }
}
