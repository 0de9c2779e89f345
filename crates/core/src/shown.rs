//! Untrusted strings quoted in messages: every character that could steer a
//! terminal or hide text (control characters, bidi overrides) shown as a
//! visible escape, so an id from the command line or a rules file cannot
//! clear a screen, set a title or reorder what a reader sees.

/// Whether `c` may not stand in a rules string, nor be printed raw: C0
/// controls (tab and line feed included), DEL, C1 controls, the line and
/// paragraph separators U+2028/U+2029, the bidi embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069) and the direction marks U+200E,
/// U+200F and U+061C.
pub fn is_hidden_control(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{2028}' | '\u{2029}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// `s` with each [`is_hidden_control`] character written as `\u{…}` and each
/// backslash doubled, so that what is shown can be read back unambiguously.
pub fn shown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if is_hidden_control(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_characters_become_visible_escapes() {
        assert_eq!(shown("abbey"), "abbey");
        assert_eq!(shown("a\nb\tc"), "a\\u{a}b\\u{9}c");
        assert_eq!(shown("\u{1b}]52;c;eA==\u{7}"), "\\u{1b}]52;c;eA==\\u{7}");
        assert_eq!(shown("x\u{9b}2J"), "x\\u{9b}2J", "C1 CSI");
        assert_eq!(shown("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        assert_eq!(
            shown("\u{2066}\u{2069}\u{200e}\u{200f}\u{61c}\u{2028}\u{2029}\u{7f}"),
            "\\u{2066}\\u{2069}\\u{200e}\\u{200f}\\u{61c}\\u{2028}\\u{2029}\\u{7f}"
        );
        assert_eq!(shown("a\\u{1b}"), "a\\\\u{1b}", "a written escape is not taken for one");
        assert_eq!(shown("Hans im Glück 2×"), "Hans im Glück 2×", "other non-ASCII stays");
    }

    #[test]
    fn exactly_the_listed_characters_are_hidden_controls() {
        let hidden: Vec<u32> =
            (0..=0x3000u32).filter_map(char::from_u32).filter(|&c| is_hidden_control(c)).map(u32::from).collect();
        let mut expected: Vec<u32> = (0..0x20).chain(0x7f..0xa0).collect();
        expected.extend([0x61c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e]);
        expected.extend(0x2066..=0x2069);
        expected.sort_unstable();
        assert_eq!(hidden, expected);
    }
}
