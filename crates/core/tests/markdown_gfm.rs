//! The Markdown escaper's output read back as GitHub-flavoured Markdown
//! (comrak, with GitHub's autolinks, tables and strikethrough): each hostile
//! text shows exactly as written, no link is made, and no mention or
//! reference pattern survives in any one piece of text (GitHub finds those
//! in the text nodes after reading the Markdown).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use carcassonne_rules_core::escape::markdown::github;
use comrak::nodes::NodeValue;
use comrak::{Arena, Options, parse_document};

/// Texts a rule author could write, each a link or a notification on GitHub if unescaped.
const HOSTILE: &[&str] = &[
    "@octocat",
    "ask @octocat, then @github/security-team",
    "(@octocat)",
    "see #1",
    "fixes #123.",
    "rust-lang/rust#12345",
    "GH-42 and gh-7",
    "www.example.com",
    "visit www.example.com/path?q=1 now",
    "http://example.com",
    "https://example.com/a_b",
    "ftp://example.com",
    "mailto:someone@example.com",
    "xmpp:someone@example.com",
    "someone@example.com",
    "a.b-c_d+e@example.co.uk",
    "<https://example.com>",
    "[x](https://example.com)",
    "**@octocat** _#1_",
    "| @octocat | #2 |",
];

/// What GitHub would still find in one text node.
fn live_pattern(text: &str) -> Option<&'static str> {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        if c == '@' && next.is_some_and(char::is_alphanumeric) {
            return Some("a mention or an e-mail address");
        }
        if c == '#' && next.is_some_and(|n| n.is_ascii_digit()) {
            return Some("a reference");
        }
    }
    let lower = text.to_lowercase();
    if lower.contains("www.") || lower.contains("://") {
        return Some("an autolink");
    }
    if lower.match_indices("gh-").any(|(at, _)| lower[at + 3..].starts_with(|c: char| c.is_ascii_digit())) {
        return Some("a GH- reference");
    }
    None
}

#[test]
fn no_mention_reference_or_autolink_survives_github_flavoured_markdown() {
    let mut options = Options::default();
    options.extension.autolink = true;
    options.extension.table = true;
    options.extension.strikethrough = true;
    for text in HOSTILE {
        let markdown = github(text);
        let arena = Arena::new();
        let root = parse_document(&arena, &format!("- {markdown}\n"), &options);
        let mut shown = String::new();
        for node in root.descendants() {
            match &node.data.borrow().value {
                NodeValue::Text(t) => {
                    assert_eq!(live_pattern(t), None, "{text:?} → {markdown:?}: {t:?} in one text node");
                    shown.push_str(t);
                }
                NodeValue::Link(link) => panic!("{text:?} → {markdown:?} is a link to {}", link.url),
                NodeValue::HtmlInline(html) => assert_eq!(html, "<!-- -->", "{text:?} → {markdown:?}"),
                NodeValue::Document | NodeValue::List(_) | NodeValue::Item(_) | NodeValue::Paragraph => {}
                other => panic!("{text:?} → {markdown:?} is read as {other:?}"),
            }
        }
        assert_eq!(shown, *text, "{markdown:?} reads as written");
    }
}

#[test]
fn unescaped_the_same_texts_are_links_or_mentions() {
    // The reader finds what the escaper breaks: each text, as written, has a
    // link or a live pattern.
    let mut options = Options::default();
    options.extension.autolink = true;
    options.extension.table = true;
    for text in HOSTILE {
        let arena = Arena::new();
        let root = parse_document(&arena, text, &options);
        let live = root.descendants().any(|node| match &node.data.borrow().value {
            NodeValue::Link(_) => true,
            NodeValue::Text(t) => live_pattern(t).is_some(),
            _ => false,
        });
        assert!(live, "{text:?} would be harmless unescaped: the reader misses it");
    }
}
