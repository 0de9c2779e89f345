//! A rules file that does not read, as a diagnostic at the mistake: where
//! the YAML reader stopped (with help on indentation and quoting), or the
//! value that does not fit its record (with the key it was likely meant to
//! be).

use super::{de, tree};
use crate::codes::Code;
use crate::diagnostics::{Diagnostic, FileId, Fix, Sources, Span};

/// Whether the record's error is a key missing or unknown, which a line out
/// of place further down also causes.
pub(super) fn misread(err: &de::Error) -> bool {
    matches!(err.kind, de::ErrorKind::MissingKey(_) | de::ErrorKind::UnknownKey { .. })
}

/// Why reading the file stopped, as a diagnostic at the place.
pub(super) fn parse_error(stop: &tree::ParseError, name: &str, file: FileId, sources: &Sources) -> Diagnostic {
    use tree::ParseErrorKind as K;
    let (code, help) = match &stop.kind {
        K::Syntax(words) => return syntax_error_at(stop.at, words, name, file, sources),
        K::TooManyNodes => (
            Code::FileTooLong,
            format!(
                "the YAML reader stops at {} nodes per file, about 35,000 items: this file is too big",
                tree::MAX_NODES
            ),
        ),
        K::TooDeep => (
            Code::FileTooLong,
            "rules files nest a few levels deep (an item's children, their children): look for brackets that never \
             close"
                .to_string(),
        ),
        K::SecondDocument => (
            Code::InvalidYaml,
            "a rules file is one YAML document: remove the `---` above this line, or move what follows it into a \
             file of its own"
                .to_string(),
        ),
    };
    let place = stop_place(sources.text(file), stop.at, file);
    Diagnostic::at(code, sources, place, format!("invalid YAML in {name}"), stop.kind.to_string()).with_help(help)
}

/// The parser's refusal at byte `at` of `file`, with help on the line's
/// indentation where it differs from the line above.
fn syntax_error_at(at: usize, message: &str, name: &str, file: FileId, sources: &Sources) -> Diagnostic {
    let text = sources.text(file);
    if let Some(d) = tab_indentation(text, at, message, name, file, sources) {
        return d;
    }
    let place = stop_place(text, at, file);
    let d = Diagnostic::at(Code::InvalidYaml, sources, place, format!("invalid YAML in {name}"), message);
    // A tab or a quote is what is wrong, whatever the line's indentation.
    let lower = message.to_lowercase();
    let specific = lower.contains("tabs") || lower.contains("quoted scalar");
    let help = if specific { parser_help(&lower) } else { indentation_help(text, at) };
    match help.or_else(|| parser_help(&lower)) {
        Some(help) => d.with_help(help),
        None => d,
    }
}

/// A tab in the indentation of a key, which the parser reports where the
/// scalar before it started (on the line above): at the tab itself, with the
/// fix that indents the line with spaces as the keys of the line above.
fn tab_indentation(
    text: &str,
    at: usize,
    message: &str,
    name: &str,
    file: FileId,
    sources: &Sources,
) -> Option<Diagnostic> {
    // "tabs disallowed within this context" is already at the tab's line.
    if !message.to_lowercase().contains("found a tab") {
        return None;
    }
    // The first line from the refusal's on whose indentation holds a tab.
    let from = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let mut start = from;
    let (line_start, line) = loop {
        let line = text[start..].split('\n').next()?;
        let indentation = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        if indentation.contains('\t') {
            break (start, line);
        }
        start += line.len() + 1;
        if start >= text.len() {
            return None;
        }
    };
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    // A key that continues the mapping above: its keys' column is known.
    if line[width..].starts_with('-') {
        return None;
    }
    let tab = line_start + line[..width].find('\t')?;
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let above = text[..line_start].lines().rev().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let keys = above.map_or(0, |l| indent(l) + if l.trim_start().starts_with("- ") { 2 } else { 0 });
    let d = Diagnostic::at(
        Code::InvalidYaml,
        sources,
        Span { file, start: tab, len: 1 },
        format!("invalid YAML in {name}"),
        "a tab in the indentation",
    )
    .with_help(format!("YAML indents with spaces only: indent this line with {keys} spaces, as the keys above"))
    .with_fix(Fix {
        title: format!("Indent with {keys} spaces"),
        span: Span { file, start: line_start, len: width },
        replacement: " ".repeat(keys),
    });
    Some(d)
}

/// Where reading stopped at byte `at` of `text`: a quote, a bracket or a
/// control character alone, else the word there.
fn stop_place(text: &str, at: usize, file: FileId) -> Span {
    let len = match text[at..].chars().next() {
        Some(c) if "\"'[]{}".contains(c) || (c.is_control() && !c.is_whitespace()) => c.len_utf8(),
        _ => text[at..].find(|c: char| c.is_whitespace() || ":,\"'[]{}".contains(c)).unwrap_or(text.len() - at),
    };
    Span { file, start: at, len: len.max(1) }
}

/// "This line is indented 5 spaces, the keys above 6", when the line of byte
/// `at` starts further in or out than the keys of the line above it.
fn indentation_help(text: &str, at: usize) -> Option<String> {
    let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let this = indent(text[line_start..].lines().next().unwrap_or(""));
    let above = text[..line_start].lines().rev().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))?;
    // The keys of `- id: …` start after the dash.
    let keys = indent(above) + if above.trim_start().starts_with("- ") { 2 } else { 0 };
    (this != keys).then(|| {
        format!(
            "this line is indented {this} spaces and the keys of the line above {keys}: the keys of one mapping \
             line up"
        )
    })
}

/// Help for an unknown key that holds a character outside ASCII (every key
/// is ASCII): the key with each such character written as `\u{…}`, so that
/// `whеn` with a Cyrillic `е`, which reads as `when`, is seen.
fn unknown_key(key: &str) -> Option<String> {
    if key.is_ascii() {
        return None;
    }
    let shown: String =
        key.chars().map(|c| if c.is_ascii() { c.to_string() } else { format!("\\u{{{:x}}}", u32::from(c)) }).collect();
    Some(format!("keys are ASCII, and this one is `{shown}`: retype it"))
}

/// Help for the YAML parser's errors, which carry only their words: the
/// common traps of indentation and quoting.
fn parser_help(lower: &str) -> Option<String> {
    let help = if lower.contains("tabs") {
        "YAML indents with spaces only: replace the tab with spaces"
    } else if lower.contains("mapping values are not allowed") {
        "check this line's indentation; and a value containing `: ` must be quoted, such as a text with edition \
         variants: text: \"Place a {C1: follower | C2: meeple}.\""
    } else if lower.contains("quoted scalar") {
        "a quoted value runs on to its closing quote: look for an unclosed quote above"
    } else {
        return None;
    };
    Some(help.to_string())
}

/// A value that does not fit its record as a diagnostic at the value, its
/// code, help and fix from the error's kind.
pub(super) fn record_error(err: &de::Error, name: &str, file: FileId, sources: &Sources) -> Diagnostic {
    use de::ErrorKind as K;
    let message = err.kind.to_string();
    let Some(at) = &err.at else {
        return Diagnostic::global(Code::InvalidYaml, format!("invalid YAML in {name}: {message}"));
    };
    let code = match &err.kind {
        K::UnknownKey { .. } => Code::UnknownKey,
        K::MissingKey(_) => Code::MissingKey,
        K::DuplicateKey(_) => Code::DuplicateKey,
        K::Expected(_) | K::InvalidBoolean | K::Null | K::Alias | K::Other(_) => Code::InvalidValue,
    };
    let mut place = Span { file, start: at.start, len: at.len().max(1) };
    // A key missing from a list's item is shown at the item's `- ` line (the
    // reader stops after its last key), with the key to add where it can be.
    let mut insert = None;
    if let K::MissingKey(key) = &err.kind
        && let Some((item, line_end, indent)) = item_line(sources.text(file), at.start)
    {
        place = Span { file, start: item, len: (line_end - item).max(1) };
        if *key == "text" {
            insert = Some(Fix {
                title: "Add `text:`".to_string(),
                span: Span { file, start: line_end, len: 0 },
                replacement: format!("\n{}text: \"\"", " ".repeat(indent)),
            });
        }
    }
    let mut d = Diagnostic::at(code, sources, place, format!("invalid YAML in {name}"), &message);
    if let Some(fix) = insert {
        d = d.with_fix(fix);
    }
    let help = match &err.kind {
        K::UnknownKey { key, .. } => unknown_key(key),
        K::MissingKey(_) => {
            Some("add it; if it is there, check its indentation: a key indented differently belongs elsewhere".into())
        }
        K::DuplicateKey(_) => Some("a key may appear once per mapping: remove one of them".into()),
        K::Null => Some("write the text here, or leave the key out where it may be left out".into()),
        K::Alias => Some(
            "write the value out here; a condition that many items share can be a derived flag in modules.yaml".into(),
        ),
        K::Expected(_) | K::InvalidBoolean | K::Other(_) => None,
    };
    if let Some(help) = help {
        d = d.with_help(help);
    }
    // The key an unknown one was likely meant to be (`afer` → `after`).
    if let K::UnknownKey { key, expected } = &err.kind
        && let Some(key) = carcassonne_rules_core::suggest::did_you_mean(key, expected.iter().copied())
    {
        d = d.with_suggestion(place, key);
    }
    d
}

/// The block list item whose key is on the line of byte `at` of `text`: the
/// byte where its `- ` is, the end of that line, and its keys' indentation;
/// none in a flow mapping or outside a list.
fn item_line(text: &str, at: usize) -> Option<(usize, usize, usize)> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let mut start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    if line.contains('{') {
        return None;
    }
    let keys = if line.trim_start().starts_with("- ") { indent(line) + 2 } else { indent(line) };
    loop {
        let line = text[start..].lines().next().unwrap_or("");
        if line.trim_start().starts_with("- ") && indent(line) + 2 == keys {
            return Some((start + indent(line), start + line.len(), keys));
        }
        if !line.trim().is_empty() && !line.trim_start().starts_with('#') && indent(line) < keys {
            return None;
        }
        start = text[..start.checked_sub(1)?].rfind('\n').map_or(0, |i| i + 1);
    }
}
