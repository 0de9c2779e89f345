//! MediaWiki source: text that shows as written, attribute values, and ids
//! used as class words.
//!
//! Wiki markup is made of characters that mean nothing alone but something
//! together (`''`, `__NOTOC__`, `~~~~`, `[[`, `{{`) or at the start of a line
//! (`*`, `#`, `:`, `;`, `=`, `-`, a space), so text cannot be escaped piece by
//! piece: `x_` followed by `_NOTOC_` followed by `_` is the magic word
//! `__NOTOC__`. A [`Line`] is therefore assembled from markup and text first,
//! and its text escaped as a whole, each character seen with its neighbours in
//! the finished line.

use carcassonne_rules_core::escape::terminal;

/// Punctuation that is markup wherever it stands, written as a character
/// reference: links, templates, table cells, signatures, references, tags.
const ALWAYS: &[char] = &['[', ']', '{', '}', '|', '~', '&', '<', '>'];

/// What opens a block at the start of a line: lists, definitions, headings,
/// a rule (`----`), preformatted text, and a table's header cell (`!`; its
/// other line starts, `{|`, `|`, `|-`, `|}`, are [`ALWAYS`] references).
const LINE_START: &[char] = &['*', '#', ':', ';', '=', '-', ' ', '!'];

/// Words that make the next number a magic link (`ISBN 0-00`, `RFC 1`).
const MAGIC_LINKS: [&str; 3] = ["ISBN", "RFC", "PMID"];

/// MediaWiki's default `$wgUrlProtocols`, each without its `:` (or `://`):
/// a free external link starts with any of them, in any case. (`//`, the
/// protocol-relative one, is broken wherever it stands.)
const URL_PROTOCOLS: [&str; 28] = [
    "bitcoin",
    "ftp",
    "ftps",
    "geo",
    "git",
    "gopher",
    "http",
    "https",
    "irc",
    "ircs",
    "magnet",
    "mailto",
    "matrix",
    "mms",
    "news",
    "nntp",
    "redis",
    "sftp",
    "sip",
    "sips",
    "sms",
    "ssh",
    "svn",
    "tel",
    "telnet",
    "urn",
    "worldwind",
    "xmpp",
];

/// The spacing MediaWiki takes between a magic word and its number: a tab or
/// any space separator (`\p{Zs}`: the space, the no-break space, U+1680,
/// U+2000–U+200A, U+202F, U+205F, U+3000).
fn is_magic_link_space(c: char) -> bool {
    matches!(c, '\t' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}')
}

/// One line (or several) of wiki source, assembled from markup and text.
#[derive(Debug, Default)]
pub struct Line {
    /// Each character, with the number of the text piece it comes from
    /// (`None` for markup).
    chars: Vec<(char, Option<usize>)>,
    pieces: usize,
}

impl Line {
    /// An empty line.
    pub fn new() -> Self {
        Line::default()
    }

    /// Appends markup, written as it is.
    pub fn markup(&mut self, markup: &str) -> &mut Self {
        self.chars.extend(markup.chars().map(|c| (c, None)));
        self
    }

    /// Appends text, to be shown exactly as written.
    pub fn text(&mut self, text: &str) -> &mut Self {
        let piece = self.pieces;
        self.pieces += 1;
        self.chars.extend(text.chars().map(|c| (c, Some(piece))));
        self
    }

    /// The wiki source: markup as given, each text character that could be
    /// markup in its place as a character reference.
    pub fn finish(&self) -> String {
        let mut out = String::with_capacity(self.chars.len() + 16);
        // Whether the character stands at a line's start: after a line
        // break, or after nothing but markup's spaces and tabs since one
        // (MediaWiki trims a line before it reads a table's markup).
        let mut line_start = true;
        for (i, &(c, piece)) in self.chars.iter().enumerate() {
            let at_start = line_start;
            line_start = c == '\n' || (at_start && piece.is_none() && matches!(c, ' ' | '\t'));
            if piece.is_none() || !self.is_markup(i, at_start) {
                out.push(c);
                continue;
            }
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                c => out.push_str(&format!("&#{};", u32::from(c))),
            }
        }
        out
    }

    /// Whether the text character at `i` could be markup beside its
    /// neighbours (`line_start`: where a line starts).
    fn is_markup(&self, i: usize, line_start: bool) -> bool {
        let (c, piece) = self.chars[i];
        let previous = i.checked_sub(1).map(|p| self.chars[p]);
        let next = self.chars.get(i + 1).copied();
        let doubled = previous.is_some_and(|(p, _)| p == c) || next.is_some_and(|(n, _)| n == c);
        // A quote is bold or italic next to another, and could be next to one
        // beyond the edge of its piece.
        let at_edge = previous.is_none_or(|(_, p)| p != piece) || next.is_none_or(|(_, n)| n != piece);
        let following = |s: &str| self.chars[i + 1..].iter().map(|&(c, _)| c).take(s.chars().count()).eq(s.chars());
        let preceding = |s: &str| {
            let n = s.chars().count();
            i >= n && self.chars[i - n..i].iter().map(|&(c, _)| c).eq(s.chars())
        };
        let preceding_any_case = |s: &str| {
            let n = s.chars().count();
            i >= n && self.chars[i - n..i].iter().map(|&(c, _)| c.to_ascii_lowercase()).eq(s.chars())
        };
        ALWAYS.contains(&c)
            || terminal::is_unsafe(c)
            || (c == '\'' && (doubled || at_edge))
            || (c == '_' && doubled)
            || (line_start && LINE_START.contains(&c))
            // A free external link (`https://…`, `mailto:…`, `//…`).
            || (c == ':' && (following("//") || URL_PROTOCOLS.iter().any(|p| preceding_any_case(p))))
            || (c == '/' && following("/"))
            || (is_magic_link_space(c) && MAGIC_LINKS.iter().any(|w| preceding(w)))
    }
}

/// Text alone (a title, a name): as a [`Line`] of one text piece, each edge
/// taken as markup could be beside it.
pub fn text(text: &str) -> String {
    Line::new().text(text).finish()
}

/// A quoted attribute value: as [`text`] (MediaWiki expands templates and
/// magic words in attributes too), with `"` and `'` as references.
pub fn attribute(value: &str) -> String {
    text(value).replace('"', "&quot;").replace('\'', "&#39;")
}

/// Whether an id can be written as it is into a class name, an attribute
/// word or a template name: ASCII letters, digits, `-` and single `_`
/// (`__` could be a magic word), not empty.
pub fn is_word(id: &str) -> bool {
    !id.is_empty() && !id.contains("__") && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The Translate extension's marker of the unit `unit` (`<!--T:draw-tile-->`),
/// if the name can stand in it: ASCII letters, digits, `.`, `_` and single
/// `-` (a comment must not hold `--`, nor end in `-`), not empty.
pub fn unit_marker(unit: &str) -> Option<String> {
    let fits = !unit.is_empty()
        && !unit.contains("--")
        && !unit.ends_with('-')
        && unit.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    fits.then(|| format!("<!--T:{unit}-->"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_unit_marker_is_a_comment_no_name_can_close_or_break() {
        assert_eq!(super::unit_marker("draw-tile").as_deref(), Some("<!--T:draw-tile-->"));
        assert_eq!(super::unit_marker("step.2B-1").as_deref(), Some("<!--T:step.2B-1-->"));
        for bad in ["", "a--b", "a-", "a>b", "a b", "-->", "x\n", "é"] {
            assert_eq!(super::unit_marker(bad), None, "{bad:?}");
        }
    }

    use super::*;

    #[test]
    fn markup_characters_are_references() {
        assert_eq!(text("a [[b]] {{c}} | d"), "a &#91;&#91;b&#93;&#93; &#123;&#123;c&#125;&#125; &#124; d");
        assert_eq!(text("~~~~ <nowiki> &amp;"), "&#126;&#126;&#126;&#126; &lt;nowiki&gt; &amp;amp;");
        assert_eq!(text("the player's tile"), "the player's tile");
        assert_eq!(text("''bold'' 'x'"), "&#39;&#39;bold&#39;&#39; 'x&#39;");
        assert_eq!(text("__TOC__ a_b"), "&#95;&#95;TOC&#95;&#95; a_b");
        assert_eq!(text("line\nbreak\r\t\u{1b}\u{202e}"), "line&#10;break&#13;&#9;&#27;&#8238;");
    }

    #[test]
    fn magic_words_across_pieces_are_broken() {
        // `x_{C1, C2, WE: _NOTOC_}_`: three pieces that meet as `x__NOTOC__`.
        let mut line = Line::new();
        line.text("x_").text("_NOTOC_").text("_");
        assert_eq!(line.finish(), "x&#95;&#95;NOTOC&#95;&#95;");
        let mut line = Line::new();
        line.text("''").markup("<span>").text("'x").markup("</span>").text("'");
        assert_eq!(line.finish(), "&#39;&#39;<span>&#39;x</span>&#39;");
        let mut line = Line::new();
        line.markup("'''").text("'a");
        assert_eq!(line.finish(), "'''&#39;a");
    }

    /// Every line start MediaWiki reads, each as the text's first
    /// character: at the start of the source, after a line break of markup,
    /// and after markup's indent (a table's markup is read on the trimmed line).
    #[test]
    fn nothing_opens_a_line() {
        let starts = [
            ("!x", "&#33;x"),
            ("|x", "&#124;x"),
            ("|-", "&#124;-"),
            ("|}", "&#124;&#125;"),
            ("{|", "&#123;&#124;"),
            ("*x", "&#42;x"),
            ("#x", "&#35;x"),
            (":x", "&#58;x"),
            (";x", "&#59;x"),
            ("=x=", "&#61;x="),
            ("----", "&#45;---"),
            (" x", "&#32;x"),
        ];
        for (written, escaped) in starts {
            assert_eq!(text(written), escaped, "{written:?}");
            for before in ["<li>\n", "\n", "x\n", "\n  ", "\n\t"] {
                let mut line = Line::new();
                line.markup(before).text(written);
                assert_eq!(line.finish(), format!("{before}{escaped}"), "{before:?} {written:?}");
            }
        }
        // Within a line they are text, except what is markup anywhere.
        assert_eq!(text("a: b; c * d # e ! f = g - h"), "a: b; c * d # e ! f = g - h");
        let mut line = Line::new();
        line.markup("<li>").text("!x");
        assert_eq!(line.finish(), "<li>!x");
        // A text's leading space is a reference, so what follows it starts no line.
        assert_eq!(text("  !x"), "&#32; !x");
    }

    #[test]
    fn links_and_magic_links_are_not_made() {
        assert_eq!(text("see https://x.example"), "see https&#58;&#47;/x.example");
        assert_eq!(text("ISBN 0-00 RFC 1 PMID 2"), "ISBN&#32;0-00 RFC&#32;1 PMID&#32;2");
        assert_eq!(text("a: 1"), "a: 1");
    }

    /// Every protocol of `$wgUrlProtocols`, as MediaWiki lists it.
    const PROTOCOLS: [&str; 29] = [
        "bitcoin:",
        "ftp://",
        "ftps://",
        "geo:",
        "git://",
        "gopher://",
        "http://",
        "https://",
        "irc://",
        "ircs://",
        "magnet:",
        "mailto:",
        "matrix:",
        "mms://",
        "news:",
        "nntp://",
        "redis://",
        "sftp://",
        "sip:",
        "sips:",
        "sms:",
        "ssh://",
        "svn://",
        "tel:",
        "telnet://",
        "urn:",
        "worldwind://",
        "xmpp:",
        "//",
    ];

    #[test]
    fn no_url_protocol_starts_a_link() {
        for protocol in PROTOCOLS {
            for written in [protocol.to_string(), protocol.to_uppercase()] {
                let source = text(&format!("see {written}example.org/x"));
                // What MediaWiki matches: the protocol, as written, then the address.
                assert!(!source.to_lowercase().contains(&protocol.to_lowercase()), "{written}: {source}");
                let expected = written.replacen(':', "&#58;", 1).replacen("//", "&#47;/", 1);
                assert_eq!(source, format!("see {expected}example.org/x"), "{written}");
            }
        }
        // Ordinary colons and slashes stay.
        assert_eq!(text("Hotel: a/b 1/2"), "Hotel&#58; a/b 1/2", "`tel:` is a protocol");
        assert_eq!(text("Step 2: score"), "Step 2: score");
    }

    #[test]
    fn no_spacing_makes_a_magic_link() {
        let spaces = [' ', '\t', '\u{a0}', '\u{1680}', '\u{2000}', '\u{2005}', '\u{200a}', '\u{202f}', '\u{205f}']
            .into_iter()
            .chain(['\u{3000}']);
        for space in spaces {
            for word in MAGIC_LINKS {
                let source = text(&format!("see {word}{space}1234567890"));
                assert_eq!(source, format!("see {word}&#{};1234567890", u32::from(space)), "{word} {space:?}");
            }
        }
        // Every space separator there is: Unicode's category Zs.
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            let zs = unicode_general_category::get_general_category(c)
                == unicode_general_category::GeneralCategory::SpaceSeparator;
            assert_eq!(is_magic_link_space(c), zs || c == '\t', "{c:?}");
        }
    }

    #[test]
    fn attributes_end_nowhere() {
        assert_eq!(attribute("x\" onclick=\"alert(1)"), "x&quot; onclick=&quot;alert(1)");
        assert_eq!(attribute("a'b {{c}}"), "a&#39;b &#123;&#123;c&#125;&#125;");
        assert_eq!(attribute("abbey-play-from-supply"), "abbey-play-from-supply");
    }

    #[test]
    fn words_are_letters_digits_dashes_and_single_underscores() {
        for ok in ["C1", "hig", "abbey-play", "river_ii", "20th_anniversary"] {
            assert!(is_word(ok), "{ok}");
        }
        for bad in ["", "a b", "x\" y", "__NOTOC__", "a}}", "é", "a|b", "x\n"] {
            assert!(!is_word(bad), "{bad:?}");
        }
    }
}
