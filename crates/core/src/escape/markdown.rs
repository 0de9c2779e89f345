//! Text for CommonMark (and GitHub's tables and strikethrough): shown as
//! written, never read as markup.
//!
//! Escapes are kept to what CommonMark could read as markup, so that
//! ordinary text (`Abbey & Mayor`, `count_of_carcassonne`, `(#1A)`) is
//! written as it is.
//!
//! [`inline`] is for text inside one line that the caller opens (a heading,
//! a list item, a paragraph): a backslash before each ASCII punctuation
//! character that can open markup (emphasis, code, links, raw HTML and
//! autolinks, table cells, strikethrough); a character reference for an `&`
//! that could start one; and, at the start of the text, what would open a
//! block there (a list, a heading, a quote, a thematic break, indented code).
//! A line break or another control character is shown as terminal output
//! shows it (`\n`, `\u{1b}`; a backslash before a letter is literal in
//! CommonMark), so a text can never start a line of its own. [`code`] is an
//! inline code span.
//!
//! [`github`] is [`inline`] for Markdown that GitHub shows (a pull-request
//! comment). GitHub links more than CommonMark does, after it has read the Markdown:
//! `@user` and `@org/team` mentions (which notify people), `#12`, `GH-12`
//! and `owner/repo#12` references, and bare `www.`, `https://` and e-mail
//! autolinks. A backslash or a character reference does not stop those
//! (`\@user` and `&#64;user` still mention: GitHub reads the text once
//! unescaped), so [`github`] puts an empty HTML comment, `<!-- -->`, inside
//! each: GitHub drops the comment, the text reads the same and is copied the
//! same, and no pattern spans it. An invisible character would do too, but
//! would stay in the text.

use std::borrow::Cow;
use std::fmt::Write;

use super::terminal;

/// Punctuation escaped wherever it stands: each can open or close inline
/// markup (`<` raw HTML and autolinks, `|` a table cell, `~` strikethrough,
/// `$` GitHub's math).
const ALWAYS: &[char] = &['\\', '`', '*', '[', ']', '<', '>', '|', '~', '$'];

/// `text` inside one line of Markdown, shown exactly as written.
pub fn inline(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// As [`inline`], for Markdown that GitHub shows: no mention, reference or
/// autolink either.
pub fn github(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

fn escape(text: &str, github: bool) -> Cow<'_, str> {
    let link_at = |chars: &[char], i: usize| github && github_link_at(chars, i);
    let chars: Vec<char> = text.chars().collect();
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    let needs = |i: usize, c: char| {
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        terminal::is_unsafe(c)
            || ALWAYS.contains(&c)
            // `_` between letters or digits can neither open nor close emphasis.
            || (c == '_' && !(previous.is_some_and(char::is_alphanumeric) && next.is_some_and(char::is_alphanumeric)))
            // An entity or numeric reference (`&amp;`, `&#42;`).
            || (c == '&' && next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '#'))
            // A heading's opening or closing sequence.
            || (c == '#' && previous.is_none_or(char::is_whitespace))
            // At the start: a list, a setext underline, a quote, code.
            || (i == 0 && matches!(c, '-' | '+' | '='))
            // Whitespace at either end: indented code at the start of a line,
            // and no delimiter (`**…**`) closes or opens beside it.
            || ((i == 0 || i + 1 == chars.len()) && c.is_whitespace())
            // An ordered list's `1.` or `1)`.
            || (i == digits && digits > 0 && matches!(c, '.' | ')'))
    };
    if !chars.iter().enumerate().any(|(i, &c)| needs(i, c) || link_at(&chars, i)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if link_at(&chars, i) {
            out.push_str(BREAK);
        }
        if !needs(i, c) {
            out.push(c);
        } else if terminal::is_unsafe(c) {
            terminal::push_visible(&mut out, c);
        } else if c.is_whitespace() {
            let _ = write!(out, "&#{};", u32::from(c));
        } else if c == '&' {
            out.push_str("&amp;");
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What GitHub reads as nothing and no link can span.
pub const BREAK: &str = "<!-- -->";

/// Whether a GitHub mention, reference or autolink would run through the
/// place before `chars[i]`: `@|user`, `#|12`, `GH-|12`, `www|.`, `https:|//`.
fn github_link_at(chars: &[char], i: usize) -> bool {
    let Some(previous) = i.checked_sub(1).map(|p| chars[p]) else { return false };
    let c = chars[i];
    let before = |word: &str| {
        let n = word.len();
        i >= n && chars[i - n..i].iter().map(char::to_ascii_lowercase).eq(word.chars())
    };
    // Any digit after `#`: where GitHub's reference ends is its business.
    (previous == '@' && c.is_alphanumeric())
        || (previous == '#' && c.is_ascii_digit())
        || (previous == '-' && before("gh-") && c.is_ascii_digit())
        || (c == '.' && before("www"))
        || (previous == ':' && chars[i..].starts_with(&['/', '/']))
}

/// `text` as an inline code span: fenced by more backticks than it holds in
/// a row, padded with a space where it starts or ends with a backtick or a
/// space (CommonMark strips one of each), control characters shown.
pub fn code(text: &str) -> String {
    let text = terminal::line(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_unchanged() {
        for text in
            ["Abbey & Mayor", "count_of_carcassonne", "Spiel Doch! 2/2018 tiles", "Score 2 points.", "a - b = c + d"]
        {
            assert!(matches!(inline(text), Cow::Borrowed(t) if t == text), "{text}");
        }
    }

    #[test]
    fn inline_markup_is_escaped() {
        assert_eq!(inline("*a* _b_ `c` [d](e) ![f](g)"), "\\*a\\* \\_b\\_ \\`c\\` \\[d\\](e) !\\[f\\](g)");
        assert_eq!(
            inline("<img src=x onerror=alert(1)> <https://x>"),
            "\\<img src=x onerror=alert(1)\\> \\<https://x\\>"
        );
        assert_eq!(inline("a | b ~~c~~ \\"), "a \\| b \\~\\~c\\~\\~ \\\\");
        assert_eq!(inline("_a_ a_ _ x__y"), "\\_a\\_ a\\_ \\_ x\\_\\_y");
        assert_eq!(inline("&amp; &#42; & x"), "&amp;amp; &amp;#42; & x");
        assert_eq!(inline("$x$ and $$y$$"), "\\$x\\$ and \\$\\$y\\$\\$", "GitHub math");
    }

    #[test]
    fn github_mentions_references_and_autolinks_are_broken() {
        assert_eq!(github("@octocat and @github/core"), "@<!-- -->octocat and @<!-- -->github/core");
        assert_eq!(
            github("see #12, GH-7, rust-lang/rust#1"),
            "see \\#<!-- -->12, GH-<!-- -->7, rust-lang/rust#<!-- -->1"
        );
        assert_eq!(github("www.example.org a@b.org"), "www<!-- -->.example.org a@<!-- -->b.org");
        assert_eq!(github("https://x.org"), "https:<!-- -->//x.org");
        assert_eq!(github("&#42;"), "&amp;#<!-- -->42;");
        assert_eq!(inline("@octocat #1 www.x.org"), "@octocat \\#1 www.x.org", "CommonMark alone links none");
        // Not references: a lone sign.
        assert_eq!(github("2# @ x # a"), "2# @ x \\# a");
    }

    #[test]
    fn a_line_break_cannot_open_a_block() {
        assert_eq!(inline("text\n# Heading"), "text\\n\\# Heading");
        assert_eq!(inline("a\r\n---\u{2028}b"), "a\\r\\n---\\u{2028}b");
        assert_eq!(inline("x\u{1b}[2J"), "x\\u{1b}\\[2J");
    }

    #[test]
    fn what_opens_a_block_at_the_start_is_escaped() {
        assert_eq!(inline("# title"), "\\# title");
        assert_eq!(inline("title #"), "title \\#");
        assert_eq!(inline("- item"), "\\- item");
        assert_eq!(inline("+ item"), "\\+ item");
        assert_eq!(inline("==="), "\\===");
        assert_eq!(inline("> quote"), "\\> quote");
        assert_eq!(inline("12. item"), "12\\. item");
        assert_eq!(inline("3) item"), "3\\) item");
        assert_eq!(inline("    code"), "&#32;   code");
        assert_eq!(inline("x "), "x&#32;");
        assert_eq!(inline("\u{3000}x\u{a0}"), "&#12288;x&#160;");
        assert_eq!(inline("- "), "\\-&#32;");
        assert_eq!(inline("1 2. x"), "1 2. x");
    }

    #[test]
    fn code_spans_hold_any_backticks() {
        assert_eq!(code("abbey"), "`abbey`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x``"), "``` `x`` ```");
        assert_eq!(code("a\nb"), "`a\\nb`");
    }
}
