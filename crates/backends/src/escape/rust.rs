//! Rust source: string literals, comments and identifiers made from ids.

use std::borrow::Cow;

use super::terminal;

/// A string literal holding exactly `text`, as `proc_macro2` writes it (the
/// same escapes as `{:?}`: quotes, backslashes, control, bidirectional and
/// other invisible characters as `\u{…}`).
pub fn string(text: &str) -> String {
    proc_macro2::Literal::string(text).to_string()
}

/// Text for a `//` or `///` comment: one line (a line feed would end the
/// comment and start code), no carriage return (refused in doc comments) and
/// no bidirectional control (rustc's lints refuse them in comments), each
/// shown as `\n`, `\u{202e}`. Doc text is Markdown: build it with
/// [`markdown`](super::markdown) before it comes here.
pub fn comment(text: &str) -> Cow<'_, str> {
    terminal::line(text)
}

/// How [`ident`] sets the case of the letters it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// As in the id.
    Keep,
    /// `ABBEY_AND_MAYOR`, for constants.
    Upper,
    /// `step_2b_1`, for functions.
    Lower,
}

/// A Rust identifier for `id`, whatever it holds: ASCII letters, digits and
/// `_` are kept (in `case`), `-` becomes `_`, any other character
/// `_u<hex>_` (`_U<HEX>_` for a constant); `prefix_` goes before a result that starts with a digit, is
/// empty, or is a keyword (`type` → `f_type`). The result is always one
/// identifier, never a keyword or a raw identifier; distinct valid ids that
/// differ only in case or in `-`/`_` give the same result (as constants
/// must), which `check` refuses.
pub fn ident(id: &str, prefix: &str, case: Case) -> String {
    let mut out = String::with_capacity(id.len());
    for c in id.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => out.push(match case {
                Case::Keep => c,
                Case::Upper => c.to_ascii_uppercase(),
                Case::Lower => c.to_ascii_lowercase(),
            }),
            '-' => out.push('_'),
            c if case == Case::Upper => out.push_str(&format!("_U{:X}_", u32::from(c))),
            c => out.push_str(&format!("_u{:x}_", u32::from(c))),
        }
    }
    if syn::parse_str::<syn::Ident>(&out).is_err() || RESERVED.contains(&out.as_str()) {
        out = format!("{prefix}_{out}");
    }
    out
}

/// Words some edition of Rust keeps for itself, beyond the keywords `syn`
/// knows: `gen` (2024), `try` (2018), the words reserved since 2015, and
/// the weak keywords (a name that means something in some place).
const RESERVED: &[&str] = &[
    "abstract",
    "async",
    "await",
    "become",
    "box",
    "do",
    "dyn",
    "final",
    "gen",
    "macro",
    "macro_rules",
    "override",
    "priv",
    "raw",
    "safe",
    "try",
    "typeof",
    "union",
    "unsized",
    "virtual",
    "yield",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `code` as one expression and gives back the string it holds.
    fn value(code: &str) -> String {
        match syn::parse_str::<syn::LitStr>(code) {
            Ok(lit) => lit.value(),
            Err(err) => panic!("{code} is not a string literal: {err}"),
        }
    }

    #[test]
    fn a_literal_holds_exactly_its_text() {
        let nasty = [
            "plain",
            "say \"hi\" \\ 'quoted'",
            "\"#; pub fn x() {} r#\"",
            "*/ /* } { ]]",
            "line\nbreak\r\n\ttab\0nul\u{1b}[31m",
            "\u{85}\u{9b}\u{7f}",
            "\u{202e}bidi\u{2066}\u{2069}\u{200f}\u{61c}",
            "\u{2028}\u{2029}\u{feff}\u{200b}",
            "«non-ASCII» ü 2× 🂡",
        ];
        for text in nasty {
            let lit = string(text);
            assert_eq!(value(&lit), text);
            assert!(!lit.chars().any(terminal::is_unsafe), "{lit}");
        }
        assert_eq!(string("Draw a tile."), "\"Draw a tile.\"");
    }

    #[test]
    fn a_comment_stays_one_line_without_bidi() {
        assert_eq!(comment("a\n#[no_mangle] fn x() {}"), "a\\n#[no_mangle] fn x() {}");
        assert_eq!(comment("x\ry\u{202e}z\u{2028}"), "x\\ry\\u{202e}z\\u{2028}");
        assert_eq!(comment("expansions/abbey-and-mayor.yaml"), "expansions/abbey-and-mayor.yaml");
    }

    #[test]
    fn identifiers_are_always_identifiers() {
        assert_eq!(ident("abbey-and-mayor", "M", Case::Upper), "ABBEY_AND_MAYOR");
        assert_eq!(ident("20th_anniversary", "M", Case::Upper), "M_20TH_ANNIVERSARY");
        assert_eq!(ident("tiles_in_supply", "f", Case::Keep), "tiles_in_supply");
        assert_eq!(ident("type", "f", Case::Keep), "f_type");
        assert_eq!(ident("self", "f", Case::Keep), "f_self");
        // Keywords of every edition, reserved words and weak keywords.
        for word in ["gen", "try", "async", "dyn", "abstract", "yield", "union", "macro_rules", "raw", "safe"] {
            assert_eq!(ident(word, "f", Case::Keep), format!("f_{word}"));
        }
        assert_eq!(ident("_", "f", Case::Keep), "f__");
        assert_eq!(ident("", "f", Case::Keep), "f_");
        assert_eq!(ident("step_2B-1", "s", Case::Lower), "step_2b_1");
        assert_eq!(ident("r#x", "f", Case::Keep), "r_u23_x");
        assert_eq!(ident("a b\"c", "f", Case::Keep), "a_u20_b_u22_c");
        assert_eq!(ident("a b\"c", "M", Case::Upper), "A_U20_B_U22_C");
        for id in ["x(cfg: &Config) -> bool { true } pub fn y", "é", "\u{202e}", "1", "crate", "Self", "a\nb"] {
            for case in [Case::Keep, Case::Upper, Case::Lower] {
                let name = ident(id, "p", case);
                assert!(syn::parse_str::<syn::Ident>(&name).is_ok(), "{id:?} gave {name:?}");
                assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{name}");
            }
        }
    }
}
