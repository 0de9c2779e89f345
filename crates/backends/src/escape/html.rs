//! HTML: element text, attribute values and comments.

use std::borrow::Cow;

use super::terminal;

/// Text for element content or a quoted attribute value: `&`, `<`, `>`, `"`
/// and `'` as character references, so no text opens a tag, ends an
/// attribute or starts a reference.
pub fn text(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text for the inside of a `<!-- … -->` comment, shown to whoever reads the
/// source. A comment ends at `-->` or `--!>` and must not start with `>` or
/// `->` nor hold `<!--`; character references are not decoded there, so
/// `<`, `>` and `&` are written as references (readable, and no `>` can end
/// the comment), and control characters are shown as in terminal output, so
/// one text is one line.
pub fn comment(text: &str) -> String {
    let line = terminal::line(text);
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_opens_no_tag_and_ends_no_attribute() {
        assert_eq!(text("a < b & \"c\" 'd'"), "a &lt; b &amp; &quot;c&quot; &#39;d&#39;");
        assert_eq!(text("</li><script>x</script>"), "&lt;/li&gt;&lt;script&gt;x&lt;/script&gt;");
        assert_eq!(text("\" onclick=\"x"), "&quot; onclick=&quot;x");
        assert_eq!(text("&amp; -->"), "&amp;amp; --&gt;");
        assert!(matches!(text("Abbey, Mayor — 2×"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_comment_cannot_be_closed_or_nested() {
        for nasty in ["x--><img src=x onerror=alert(1)><!--.yaml", "--!>", ">x", "->x", "<!--", "a\n-->b"] {
            let shown = comment(nasty);
            assert!(!shown.contains('>') && !shown.contains('<') && !shown.contains('\n'), "{shown}");
        }
        assert_eq!(comment("x-->y"), "x--&gt;y");
        assert_eq!(comment("a\nb\u{202e}"), "a\\nb\\u{202e}");
        assert_eq!(comment("expansions/abbey-and-mayor.yaml"), "expansions/abbey-and-mayor.yaml");
    }
}
