//! The page's markup as a browser meets it: its tags, section headers and
//! rules boxes as events in source order, attributes, character references,
//! and the patterns of its text (markers, bold, Translate's markup).

use super::*;

/// Compiles one of this module's regular expressions.
#[allow(clippy::expect_used)]
pub(super) fn regex(pattern: &str) -> Regex {
    // The patterns are constants of this module, known to be valid (the tests
    // run every one of them).
    Regex::new(pattern).expect("valid regex")
}

/// A marker in an item's text, with the space before it: a coloured template
/// (`{{ColorRed|ROBBERS}}`; yellow is the page's colour for other publishers'
/// rules, not a marker).
pub(super) static MARKER: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\s*\{\{Color(?:Green|Red|Pink|Orange|White)\|([^{}]*)\}\}"));

/// Two or more quotes in a row: bold, italics or both.
pub(super) static BOLD_OR_ITALIC: LazyLock<Regex> = LazyLock::new(|| regex(r"'{2,}"));

/// The Translate extension's markup, which a page's English source holds
/// around its units: `<translate>`, `</translate>`, `<!--T:unit--> `, and a
/// unit's variables (`<tvar name="publishers">`, `</tvar>`).
pub(super) static TRANSLATE_MARKUP: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"</?translate>|<!--T:[A-Za-z0-9._-]*--> ?|<tvar name="?[A-Za-z0-9_]*"?>|</tvar>"#));

/// `text` without Translate's markup: what the page shows.
pub(super) fn without_translate_markup(text: &str) -> Cow<'_, str> {
    TRANSLATE_MARKUP.replace_all(text, "")
}

/// A span in a rules box's title: its attributes and its text.
pub(super) static TITLE_SPAN: LazyLock<Regex> = LazyLock::new(|| regex(r"<span([^>]*)>([^<]*)</span>"));

/// The lead of a step whose items are alternatives, in Dutch and English.
pub(super) const CHOOSE_ONE_LEADS: [&str; 2] = ["precies één van de volgende", "exactly one of the following"];

pub(super) enum Event {
    /// A start tag: its name and attributes.
    Open(String, String),
    /// An end tag: its name, and whether it lacks its `>` (`</span<span …>`,
    /// `</span, …)</span>`), so that it runs on to the next `>`.
    Close(String, bool),
    /// A section header: the section and the step's title.
    Header(String, String),
    /// A rules box: its title parameter.
    TemplateStart(String),
    TemplateEnd,
}

/// The page's tags, section headers and rules boxes, in source order, each
/// with where it starts and ends (markup other than tags ends where it starts:
/// its text is part of the text around it).
pub(super) fn events(source: &str) -> Vec<(usize, usize, Event)> {
    let tag = regex(r"(?s)<(/?)([a-zA-Z]+)([^>]*)>");
    let step = regex(r"'''(?:Stap|Step) ([0-9][A-D](?:-[0-9])?):");
    let title = regex(r"^ ?([^\n]*?)'''");
    let template_start = regex(r"\{\{Rules[A-Za-z]*\|");
    let template_end = regex(r"(?m)^\}\}[ \t]*$");

    let mut events: Vec<(usize, usize, Event)> = Vec::new();
    for c in tag.captures_iter(source) {
        let name = c[2].to_lowercase();
        if matches!(name.as_str(), "div" | "span" | "ul" | "ol" | "li")
            && let Some(m) = c.get(0)
        {
            let event =
                if &c[1] == "/" { Event::Close(name, c[3].contains('<')) } else { Event::Open(name, c[3].to_string()) };
            events.push((m.start(), m.end(), event));
        }
    }
    for c in step.captures_iter(source) {
        if let Some(m) = c.get(0) {
            let title = title
                .captures(&source[m.end()..])
                .map_or_else(String::new, |t| decode(&without_translate_markup(&t[1])));
            events.push((m.start(), m.start(), Event::Header(c[1].to_string(), title)));
        }
    }
    for m in template_start.find_iter(source) {
        // The box's title: the last `title=` parameter before `rules=`.
        let rest = &source[m.end()..];
        let parameters = &rest[..rest.find("rules=").unwrap_or(0)];
        let title = parameters.split('|').rev().find_map(|p| p.strip_prefix("title=")).unwrap_or_default();
        events.push((m.start(), m.start(), Event::TemplateStart(decode(without_translate_markup(title).trim()))));
    }
    events.extend(template_end.find_iter(source).map(|m| (m.start(), m.start(), Event::TemplateEnd)));
    let headings = [&export::DUTCH, &export::ENGLISH]
        .into_iter()
        .flat_map(|page| Section::ALL.map(|section| (page.heading(section), section)));
    for (header, section) in headings {
        if let Some(at) = source.find(&header) {
            events.push((at, at, Event::Header(section.name().to_string(), String::new())));
        }
    }
    events.sort_by_key(|(at, _, _)| *at);
    events
}

/// The attribute `name="…"` of a start tag.
pub(super) fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = attributes;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().last();
        let after = &rest[at + name.len()..];
        if before.is_none_or(char::is_whitespace)
            && let Some(value) = after.strip_prefix("=\"")
        {
            return value.find('"').map(|end| &value[..end]);
        }
        rest = after;
    }
    None
}

/// Character references (`&amp;`, `&#124;`, `&times;`) as the characters they stand for.
pub(super) fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let reference = rest.find(';').filter(|&end| end <= 10).map(|end| &rest[1..end]);
        let c = reference.and_then(|r| match r {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            "times" => Some('×'),
            _ => {
                let number = r.strip_prefix('#')?;
                let code = match number.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => number.parse().ok()?,
                };
                char::from_u32(code)
            }
        });
        match (c, reference) {
            (Some(c), Some(r)) => {
                out.push(c);
                rest = &rest[r.len() + 2..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}
