//! What each string of the rules may hold: one pattern per kind of id, the
//! rule for names and texts, and the pattern of expansion file names.
//!
//! Every string of a rules file ends up in generated Rust, a web page, wiki
//! source or a terminal. `check` holds each to its pattern here, so that what
//! reaches an emitter is already plain; the emitters escape as well.
//! Patterns are case-sensitive and each kind has one case, so two valid ids
//! of one kind never collide once upper- or lower-cased (constants are the
//! upper-case of ids); `check` also reports ids that differ only in case.

use carcassonne_rules_core::escape::terminal::is_unsafe;

/// No id is longer than this (the longest bundled one has 47 characters).
pub const MAX_ID_LEN: usize = 64;

/// The kinds of ids, each with its own pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    /// `C1`, `WE`: an upper-case letter, then upper-case letters and digits.
    Edition,
    /// `hig`: a lower-case letter, then lower-case letters and digits.
    Variant,
    /// `abbey_and_mayor`: snake_case, words may start with a digit.
    Expansion,
    /// `abbey`, `20th_anniversary_expansion`: snake_case, as expansions.
    Module,
    /// `tiles_in_supply`: snake_case, as expansions.
    Flag,
    /// `abbey-play-from-supply`: kebab-case.
    Item,
    /// `messages-check-1b` (an item's `one_of`): kebab-case, as items.
    Group,
    /// `1B`, `2B-1`: a digit, an upper-case letter, optionally `-` and digits.
    Step,
    /// `1`: digits.
    Phase,
}

/// The words of the conditions' language: a module or flag with one of these
/// names could never be named in a condition. The grammar's `keyword` rule
/// (`grammar/dsl.pest`) lists the same words, in this order (a test reads it).
pub const KEYWORDS: [&str; 8] = ["and", "or", "not", "when", "edition", "variant", "true", "false"];

impl IdKind {
    /// What the id names, for messages: `edition`, `derived flag`, ….
    pub fn what(self) -> &'static str {
        match self {
            IdKind::Edition => "edition",
            IdKind::Variant => "rule variant",
            IdKind::Expansion => "expansion",
            IdKind::Module => "module",
            IdKind::Flag => "derived flag",
            IdKind::Item => "item",
            IdKind::Group => "group (`one_of`)",
            IdKind::Step => "step",
            IdKind::Phase => "phase",
        }
    }

    /// The pattern, as a regular expression matched against the whole id.
    pub fn pattern(self) -> &'static str {
        match self {
            IdKind::Edition => "[A-Z][A-Z0-9]*",
            IdKind::Variant => "[a-z][a-z0-9]*",
            IdKind::Expansion | IdKind::Module | IdKind::Flag => "[a-z0-9]+(_[a-z0-9]+)*",
            IdKind::Item | IdKind::Group => "[a-z0-9]+(-[a-z0-9]+)*",
            IdKind::Step => "[0-9][A-Z](-[0-9]+)?",
            IdKind::Phase => "[0-9]+",
        }
    }

    /// The pattern in words, for messages.
    pub fn described(self) -> &'static str {
        match self {
            IdKind::Edition => "upper-case letters and digits, starting with a letter",
            IdKind::Variant => "lower-case letters and digits, starting with a letter",
            IdKind::Expansion | IdKind::Module | IdKind::Flag => "snake_case",
            IdKind::Item | IdKind::Group => "kebab-case",
            IdKind::Step => "a digit, an upper-case letter and optionally `-` and digits",
            IdKind::Phase => "digits",
        }
    }

    /// Whether `id` is a valid id of this kind.
    pub fn accepts(self, id: &str) -> bool {
        let lower = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
        let upper = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit();
        if id.is_empty() || id.len() > MAX_ID_LEN {
            return false;
        }
        match self {
            IdKind::Edition => id.starts_with(|c: char| c.is_ascii_uppercase()) && id.chars().all(upper),
            IdKind::Variant => id.starts_with(|c: char| c.is_ascii_lowercase()) && id.chars().all(lower),
            IdKind::Expansion | IdKind::Module | IdKind::Flag => words(id, '_', lower) && !is_keyword(id),
            IdKind::Item | IdKind::Group => words(id, '-', lower),
            IdKind::Step => {
                let (head, number) = id.split_once('-').map_or((id, None), |(h, n)| (h, Some(n)));
                let mut head = head.chars();
                head.next().is_some_and(|c| c.is_ascii_digit())
                    && head.next().is_some_and(|c| c.is_ascii_uppercase())
                    && head.next().is_none()
                    && number.is_none_or(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            }
            IdKind::Phase => id.chars().all(|c| c.is_ascii_digit()),
        }
    }

    /// The nearest valid id for a common slip (wrong case, wrong separator),
    /// if there is one.
    pub fn fixed(self, id: &str) -> Option<String> {
        let fixed = match self {
            IdKind::Expansion | IdKind::Module | IdKind::Flag => id.to_lowercase().replace(['-', ' '], "_"),
            IdKind::Item | IdKind::Group => id.to_lowercase().replace(['_', ' '], "-"),
            IdKind::Edition | IdKind::Step => id.to_uppercase(),
            IdKind::Variant => id.to_lowercase(),
            IdKind::Phase => return None,
        };
        self.accepts(&fixed).then_some(fixed)
    }
}

/// Whether `id` is a word of the conditions' language (which module,
/// expansion and flag ids may not be).
pub fn is_keyword(id: &str) -> bool {
    KEYWORDS.contains(&id)
}

/// Whether every `separator`-separated word of `id` is non-empty and made of
/// characters that `allowed` accepts.
fn words(id: &str, separator: char, allowed: impl Fn(char) -> bool) -> bool {
    id.split(separator).all(|w| !w.is_empty() && w.chars().all(&allowed))
}

/// Names, titles and texts are one line of printable characters: the first
/// character that is not allowed, with its byte offset, if there is one.
/// Rules texts never span lines: a line break would mean something different
/// in every output (a new paragraph, a heading, the end of a comment). No
/// invisible character either (a zero-width space, a joiner, a tag
/// character: Unicode's default-ignorable set), except the soft hyphen, a
/// hyphenation hint that long compound names use and that shows where a line
/// breaks; terminals, diagnostics and `review` show it as `\u{ad}`. (Ids and
/// keys are ASCII: their patterns hold no invisible character.)
pub fn forbidden_in_text(text: &str) -> Option<(usize, char)> {
    text.char_indices().find(|&(_, c)| is_unsafe(c) && c != SOFT_HYPHEN)
}

/// The one invisible character a text may hold.
const SOFT_HYPHEN: char = '\u{ad}';

/// How a forbidden character is named in a message.
pub fn describe_char(c: char) -> String {
    let what = match c {
        '\n' | '\r' | '\u{2028}' | '\u{2029}' => "a line break",
        '\t' => "a tab",
        '\u{1b}' => "an escape character (a terminal control sequence)",
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => "a bidirectional override or isolate",
        '\u{200e}' | '\u{200f}' | '\u{61c}' => "a direction mark",
        c if carcassonne_rules_core::escape::terminal::is_invisible(c) => "an invisible character",
        _ => "a control character",
    };
    format!("{what} (U+{:04X})", u32::from(c))
}

/// Expansion files are named `[a-z0-9]+(-[a-z0-9]+)*.yaml` (or `.yml`): a
/// name that is safe in a path, a comment and a page on every platform.
pub const RULES_FILE_PATTERN: &str = "[a-z0-9]+(-[a-z0-9]+)*.yaml";

/// Whether `name` is a valid expansion file name.
pub fn accepts_file_name(name: &str) -> bool {
    let stem = name.strip_suffix(".yaml").or_else(|| name.strip_suffix(".yml"));
    stem.is_some_and(|stem| stem.len() <= MAX_ID_LEN && IdKind::Item.accepts(stem))
}

/// Where `word` stands in `text` as a whole word, in any case: its byte
/// range. A glossary's term and a modal word are looked for so.
pub fn find_word(text: &str, word: &str) -> Option<(usize, usize)> {
    let lower = word.to_lowercase();
    if lower.is_empty() {
        return None;
    }
    let boundary = |c: Option<char>| !c.is_some_and(char::is_alphanumeric);
    text.char_indices().find_map(|(start, _)| {
        let rest = &text[start..];
        let len = rest.char_indices().nth(word.chars().count()).map_or(rest.len(), |(i, _)| i);
        let candidate = &rest[..len];
        let whole = boundary(text[..start].chars().next_back()) && boundary(rest[len..].chars().next());
        (whole && candidate.to_lowercase() == lower).then_some((start, start + len))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of the grammar's `keyword` rule, in its order.
    fn grammar_keywords() -> Vec<String> {
        let grammar = include_str!("../grammar/dsl.pest");
        let rule = grammar.lines().find(|l| l.split_whitespace().next() == Some("keyword")).unwrap_or_default();
        // `keyword = @{ ("and" | "or" | …) ~ !name_char }`: the quoted words.
        let words = rule.split_once('(').and_then(|(_, rest)| rest.split_once(')')).map_or("", |(words, _)| words);
        words.split('|').map(|w| w.trim().trim_matches('"').to_string()).collect()
    }

    #[test]
    fn the_grammar_and_the_lexicon_know_the_same_keywords() {
        assert_eq!(grammar_keywords(), KEYWORDS, "grammar/dsl.pest's `keyword` rule and lexicon::KEYWORDS");
        // Every word the conditions' rules match is one of them, so that no
        // module can be named like it.
        let grammar = include_str!("../grammar/dsl.pest");
        let condition_rules = ["or_op", "and_op", "not_op", "boolean", "edition_test", "variant_test", "when_kw"];
        let mut seen = 0;
        for line in
            grammar.lines().filter(|l| l.split_whitespace().next().is_some_and(|r| condition_rules.contains(&r)))
        {
            seen += 1;
            for word in line.split('"').skip(1).step_by(2).filter(|w| w.chars().all(|c| c.is_ascii_lowercase())) {
                assert!(is_keyword(word), "the grammar matches `{word}`, which KEYWORDS lacks");
            }
        }
        assert_eq!(seen, condition_rules.len(), "a rule of the conditions was renamed");
    }

    use IdKind::*;

    const ALL: [IdKind; 9] = [Edition, Variant, Expansion, Module, Flag, Item, Group, Step, Phase];

    #[test]
    fn each_kind_takes_its_bundled_shapes() {
        for id in ["C1", "C2", "WE", "X"] {
            assert!(Edition.accepts(id), "{id}");
        }
        for id in ["hig", "zmg", "rgg", "v2"] {
            assert!(Variant.accepts(id), "{id}");
        }
        for id in ["abbey", "20th_anniversary_expansion", "river_ii", "spiel_doch2018", "mark_c1_and_mark_we"] {
            assert!(Module.accepts(id) && Expansion.accepts(id) && Flag.accepts(id), "{id}");
        }
        for id in ["abbey-play-from-supply", "20th-anniversary-extra-turn", "messages-check-1b"] {
            assert!(Item.accepts(id) && Group.accepts(id), "{id}");
        }
        for id in ["1A", "2B-1", "2B-2", "4B"] {
            assert!(Step.accepts(id), "{id}");
        }
        for id in ["1", "4", "10"] {
            assert!(Phase.accepts(id), "{id}");
        }
    }

    #[test]
    fn each_kind_refuses_other_cases_separators_and_hostile_characters() {
        let refused = [
            (Edition, &["c1", "1C", "C-1", "C1\"", "C 1", "Ç1"][..]),
            (Variant, &["HIG", "1hig", "h_g", "hig\n"]),
            (Module, &["Abbey", "abbey-tile", "_abbey", "abbey_", "a__b", "and", "true", "mayor\n#[no_mangle]"]),
            (Flag, &["Tiles", "tiles in supply", "not"]),
            (Item, &["Abbey-Tile", "abbey_tile", "-abbey", "abbey-", "a--b", "x*/", "ab\u{202e}c"]),
            (Group, &["One Of"]),
            (Step, &["1b", "B1", "1BB", "2B-", "2B-x", "12B", "1B-1-1"]),
            (Phase, &["one", "1a", "-1"]),
        ];
        for (kind, ids) in refused {
            for id in ids {
                assert!(!kind.accepts(id), "{kind:?} took {id:?}");
            }
        }
        for kind in ALL {
            assert!(!kind.accepts(""), "{kind:?} took an empty id");
            let long = match kind {
                Edition => "C".repeat(MAX_ID_LEN + 1),
                Step => format!("1B-{}", "1".repeat(MAX_ID_LEN)),
                Phase => "1".repeat(MAX_ID_LEN + 1),
                _ => "a".repeat(MAX_ID_LEN + 1),
            };
            assert!(!kind.accepts(&long), "{kind:?} took an id of {} characters", long.len());
        }
    }

    #[test]
    fn valid_ids_of_one_kind_never_collide_in_another_case() {
        // Every kind has one case: upper-casing or lower-casing a valid id
        // gives an invalid one, unless it holds no letters at all.
        for kind in ALL {
            for id in ["c1", "C1", "abbey", "Abbey", "ABBEY", "a-b", "A-B", "a_b", "A_B", "1B", "1b", "hig", "HIG"] {
                if kind.accepts(id) {
                    for other in [id.to_uppercase(), id.to_lowercase()] {
                        assert!(other == id || !kind.accepts(&other), "{kind:?}: {id} and {other}");
                    }
                }
            }
        }
    }

    #[test]
    fn slips_have_a_fix_and_fixes_are_valid() {
        assert_eq!(Item.fixed("Mayor_Take_Figure").as_deref(), Some("mayor-take-figure"));
        assert_eq!(Module.fixed("Wonders-Of-Humanity").as_deref(), Some("wonders_of_humanity"));
        assert_eq!(Edition.fixed("c1").as_deref(), Some("C1"));
        assert_eq!(Step.fixed("2b-1").as_deref(), Some("2B-1"));
        assert_eq!(Module.fixed("mayor\nfn"), None, "no fix for an injection");
    }

    #[test]
    fn texts_are_one_line_without_controls() {
        assert_eq!(forbidden_in_text("Place a {C1: follower | C2: meeple}. Hans im Glück 2× \"#1B\" */ }"), None);
        assert_eq!(forbidden_in_text("Mayor\n#[unsafe(no_mangle)]"), Some((5, '\n')));
        assert_eq!(forbidden_in_text("a\u{1b}]52;c;x\u{7}"), Some((1, '\u{1b}')));
        assert_eq!(forbidden_in_text("é\u{202e}"), Some((2, '\u{202e}')));
        assert_eq!(forbidden_in_text("tab\there"), Some((3, '\t')));
        assert_eq!(forbidden_in_text("c1\u{85}"), Some((2, '\u{85}')), "C1 next line");
        for invisible in
            ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{2064}', '\u{feff}', '\u{e0041}', '\u{fe0f}']
        {
            assert_eq!(forbidden_in_text(&format!("when{invisible}")), Some((4, invisible)), "{invisible:?}");
            assert!(describe_char(invisible).starts_with("an invisible character (U+"), "{invisible:?}");
        }
        assert_eq!(forbidden_in_text("Bürger\u{ad}meister"), None, "a soft hyphen is a hyphenation hint");
        assert!(describe_char('\n').starts_with("a line break"));
        assert!(describe_char('\u{202e}').contains("U+202E"));
    }

    #[test]
    fn file_names_are_kebab_case_yaml() {
        for name in ["abbey-and-mayor.yaml", "20th-anniversary.yaml", "x.yml"] {
            assert!(accepts_file_name(name), "{name}");
        }
        for name in [
            "x--><img src=x onerror=alert(1)><!--.yaml",
            "a\nb.yaml",
            "Abbey.yaml",
            "abbey.YAML",
            "abbey.json",
            ".yaml",
            "a b.yaml",
            "abbey_and_mayor.yaml",
            "../x.yaml",
        ] {
            assert!(!accepts_file_name(name), "{name:?}");
        }
    }
}
