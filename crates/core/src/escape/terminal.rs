//! Text for a terminal: control characters shown, never sent.
//!
//! A terminal acts on C0 and C1 control characters (ESC starts colour, cursor,
//! title and clipboard sequences; CSI U+009B does the same in one character),
//! and bidirectional overrides and isolates reorder what follows them, so a
//! line can read differently from what it holds. Each of those is written the
//! way Rust writes it in a string literal (`\u{1b}`, `\n`), so it stays visible
//! and the line stays one line. So is every character Unicode says is
//! ignorable in display (zero-width spaces and joiners, the word joiner, the
//! byte-order mark, the soft hyphen, variation selectors, tag characters):
//! shown as it is, `when\u{200b}` would read as `when`.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach a terminal as it is: C0 and C1 controls and DEL,
/// the line and paragraph separators, the bidirectional marks, embeddings,
/// overrides and isolates, and every other invisible character
/// ([`is_invisible`]).
#[inline]
pub fn is_unsafe(c: char) -> bool {
    // Printable ASCII first: nearly every character asked about is one
    // (every text of the rules is checked as it is read).
    if (' '..='~').contains(&c) {
        return false;
    }
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || is_invisible(c)
}

/// Whether `c` is a Default_Ignorable_Code_Point of Unicode (DerivedCoreProperties):
/// a character a renderer shows as nothing unless it knows it. The set is
/// stable across Unicode versions (new ones are assigned from reserved
/// ranges already in it); a test checks it against ICU4X's copy.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Pushes the visible form of an unsafe character: `\n`, `\r`, `\t`, else `\u{hex}`.
pub fn push_visible(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// `text` for one line of terminal output: every unsafe character, line
/// breaks and tabs included, written visibly.
pub fn line(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

/// `text` for several lines of terminal output: as [`line`], but line feeds
/// and tabs stay as they are (a carriage return is shown: it could overwrite
/// the line).
pub fn block(text: &str) -> Cow<'_, str> {
    escape(text, |c| matches!(c, '\n' | '\t'))
}

/// An untrusted value (an id, a path, a revision) for quoting inside a
/// message: as [`line`], with each backslash doubled first, so that a value
/// holding the six characters `\u{1b}` reads differently from one holding ESC.
pub fn quoted(text: &str) -> String {
    line(&text.replace('\\', "\\\\")).into_owned()
}

fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) && !keep(c) { push_visible(&mut out, c) } else { out.push(c) }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        let text = "Draw a tile: the player's «tile», 2× — ok \\ \" ' */ -->";
        assert!(matches!(line(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn every_control_class_is_shown() {
        // C0 (ESC, BEL, NUL), DEL, C1 (CSI, NEL, OSC), line/paragraph separators.
        assert_eq!(line("a\u{1b}[31mb\u{7}\0"), "a\\u{1b}[31mb\\u{7}\\u{0}");
        assert_eq!(line("\u{7f}\u{9b}2J\u{85}\u{9d}"), "\\u{7f}\\u{9b}2J\\u{85}\\u{9d}");
        assert_eq!(line("x\u{2028}y\u{2029}"), "x\\u{2028}y\\u{2029}");
        assert_eq!(line("one\ntwo\r\tthree"), "one\\ntwo\\r\\tthree");
    }

    #[test]
    fn bidirectional_controls_are_shown() {
        for c in ['\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}']
            .into_iter()
            .chain(['\u{2069}', '\u{200e}', '\u{200f}', '\u{061c}'])
        {
            let shown = line(&format!("a{c}b")).into_owned();
            assert_eq!(shown, format!("a\\u{{{:x}}}b", u32::from(c)));
        }
    }

    #[test]
    fn a_block_keeps_its_lines_but_not_a_carriage_return() {
        assert_eq!(block("one\n\ttwo\rthree\u{1b}]52;c;eA==\u{7}"), "one\n\ttwo\\rthree\\u{1b}]52;c;eA==\\u{7}");
    }

    #[test]
    fn a_quoted_value_doubles_its_backslashes() {
        assert_eq!(quoted("abbey"), "abbey");
        assert_eq!(quoted("a\\u{1b}"), "a\\\\u{1b}", "a written escape is not taken for one");
        assert_eq!(quoted("a\u{1b}]0;x\u{7}\n\\"), "a\\u{1b}]0;x\\u{7}\\n\\\\");
        assert_eq!(quoted("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        assert_eq!(quoted("Hans im Glück 2×"), "Hans im Glück 2×", "other non-ASCII stays");
    }

    #[test]
    fn exactly_the_listed_characters_are_unsafe() {
        let unsafe_chars: Vec<u32> =
            (0..=0x3000u32).filter_map(char::from_u32).filter(|&c| is_unsafe(c)).map(u32::from).collect();
        let mut expected: Vec<u32> = (0..0x20).chain(0x7f..0xa0).collect();
        expected.extend([0xad, 0x34f, 0x61c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x2028, 0x2029]);
        expected.extend((0x180b..=0x180f).chain(0x200b..=0x200f).chain(0x202a..=0x202e).chain(0x2060..=0x206f));
        expected.sort_unstable();
        assert_eq!(unsafe_chars, expected);
    }

    #[test]
    fn the_invisible_characters_are_unicodes_default_ignorable_set() {
        use regex_syntax::hir::{Class, HirKind};
        let hir = regex_syntax::parse(r"\p{Default_Ignorable_Code_Point}").expect("a Unicode property");
        let HirKind::Class(Class::Unicode(unicode)) = hir.kind() else { panic!("not a class: {hir:?}") };
        let contains = |c: char| unicode.ranges().iter().any(|r| r.start() <= c && c <= r.end());
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            assert_eq!(is_invisible(c), contains(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn invisible_characters_are_shown() {
        assert_eq!(line("when\u{200b}"), "when\\u{200b}");
        assert_eq!(quoted("a\u{2060}b\u{feff}c\u{ad}d\u{e0041}"), "a\\u{2060}b\\u{feff}c\\u{ad}d\\u{e0041}");
    }

    #[test]
    fn no_output_holds_an_unsafe_character() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        assert!(!line(&all).chars().any(is_unsafe));
        assert!(!block(&all).chars().any(|c| is_unsafe(c) && c != '\n' && c != '\t'));
    }
}
