//! JavaScript: string literals, comments and identifiers made from ids.

use std::fmt::Write;

use super::terminal;

/// A JavaScript (and JSON) string literal holding exactly `text`: quotes,
/// backslashes, control characters, line and paragraph separators (line
/// terminators in older JavaScript) and bidirectional controls escaped; `<`
/// as `\u003c`, so that not even `</script>` or `<!--` appears, should the
/// script ever be inlined in a page.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' => out.push_str("\\u003c"),
            c if terminal::is_unsafe(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text for a `//` (or `/* */`) comment: one line (every line terminator,
/// U+2028 and U+2029 included, and every control character shown as in
/// terminal output), `*/` written `*\/`, and `<` shown as `\u{3c}` so that
/// no `</script>` or `<!--` appears.
pub fn comment(text: &str) -> String {
    terminal::line(text).replace("*/", "*\\/").replace('<', "\\u{3c}")
}

/// A JavaScript identifier part for `id`: ASCII letters, digits and `_` kept,
/// any other character `$<hex>$` (`$` is in no id, so distinct ids stay
/// distinct). Put it after a prefix (`flag_`), which makes it an identifier
/// and not a keyword.
pub fn ident(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            let _ = write!(out, "${:x}$", u32::from(c));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_lines_and_script_ends() {
        assert_eq!(string("say \"hi\"\n</script>"), "\"say \\\"hi\\\"\\n\\u003c/script>\"");
        assert_eq!(
            string("a\\b\u{2028}c\u{2029}\u{1b}\u{85}\u{202e}"),
            "\"a\\\\b\\u2028c\\u2029\\u001b\\u0085\\u202e\""
        );
        assert_eq!(string("'x' */ ${y} `z`"), "\"'x' */ ${y} `z`\"");
    }

    #[test]
    fn comments_stay_one_line_and_closed() {
        assert_eq!(comment("a */ alert(1) /*"), "a *\\/ alert(1) /*");
        assert_eq!(comment("x\ny\u{2028}z\u{2029}\r"), "x\\ny\\u{2028}z\\u{2029}\\r");
        assert_eq!(comment("</script><!--"), "\\u{3c}/script>\\u{3c}!--");
        assert_eq!(comment("expansions/abbey-and-mayor.yaml"), "expansions/abbey-and-mayor.yaml");
    }

    #[test]
    fn identifiers_keep_word_characters_only() {
        assert_eq!(ident("tiles_in_supply"), "tiles_in_supply");
        assert_eq!(ident("x(e){return 1}; function y"), "x$28$e$29$$7b$return$20$1$7d$$3b$$20$function$20$y");
        assert_eq!(ident("a-b"), "a$2d$b");
        assert!(ident("é\u{2028}").chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$'));
    }
}
