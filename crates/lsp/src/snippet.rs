//! The text-variant completion inside a `text:` value: `{C1: … | C2, WE: …}`
//! with the editions as tab stops, for clients that take snippets, and as
//! plain text otherwise.
//!
//! A variant's `: ` makes an unquoted YAML value a mapping, so a plain value
//! is quoted by the same completion (an additional edit at each end).

use carcassonne_rules_compiler::Rules;

use carcassonne_rules_compiler::syntax::tree::Node;
use carcassonne_rules_compiler::syntax::{self, DslKind, dsl_strings};

/// One completion that writes a text variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// What the list shows.
    pub label: String,
    /// What it writes from `start` to the cursor: a snippet (`$1`,
    /// `${2:C2, WE}`) or plain text.
    pub insert: String,
    /// Whether `insert` is a snippet.
    pub is_snippet: bool,
    /// Where the text it replaces starts: the cursor, or the `{` just typed.
    pub start: usize,
    /// Where the text it replaces ends: the cursor, or the `}` an editor
    /// wrote after a `{` typed as a value's first character.
    pub end: usize,
    /// Quotes to insert at byte offsets, around a plain value (the closing
    /// one is part of `insert` where the value ends at the cursor).
    pub quotes: Vec<(usize, char)>,
}

/// Escapes what a snippet would read as syntax in fixed text.
fn literal(text: &str) -> String {
    text.replace('\\', "\\\\").replace('$', "\\$").replace('}', "\\}")
}

/// The variant completions at byte `offset` of `text` (whose tree is
/// `tree`), if it is inside a `text:` value, at its end, after it on its line
/// (after a space), or right after a `{` typed in it or as its start.
pub fn variants(rules: &Rules, file: &str, text: &str, tree: &Node, offset: usize, snippets: bool) -> Vec<Variant> {
    // The blanks after a plain value on its line are not part of it: the
    // variant goes there all the same.
    let reaches = |end: usize, plain: bool| {
        offset <= end || plain && text.get(end..offset).is_some_and(|gap| gap.chars().all(|c| c == ' ' || c == '\t'))
    };
    let Some(string) = dsl_strings(file, tree)
        .into_iter()
        .find(|s| s.kind == DslKind::Text && s.node.span.start <= offset && reaches(s.node.span.end, s.plain))
    else {
        return opening(rules, file, text, offset, snippets);
    };
    let scalar = (string.node.span.start, string.node.span.end);
    // Inside an unclosed `{` the author is writing a variant already, unless
    // that `{` was just typed: the variant takes its place.
    let before = text.get(scalar.0..offset.min(scalar.1)).unwrap_or_default();
    let brace = offset.checked_sub(1).filter(|&at| text.get(at..offset) == Some("{") && at >= scalar.0);
    let open = before.rfind('{');
    let start = match brace {
        Some(at) if open == Some(at - scalar.0) && before[..at - scalar.0].rfind('{') <= before.rfind('}') => at,
        _ if open > before.rfind('}') => return Vec::new(),
        _ => offset,
    };
    // Plain text needs no quotes but at the value's start (a plain value
    // cannot start with `{`): it holds no `: `.
    let quotes = if !string.plain || string.value.is_empty() || !snippets && start > scalar.0 {
        Vec::new()
    } else if !string.value.contains(['"', '\\']) {
        vec![(scalar.0, '"'), (scalar.1, '"')]
    } else if !string.value.contains('\'') {
        vec![(scalar.0, '\''), (scalar.1, '\'')]
    } else {
        // Neither quote can wrap it unchanged: the author quotes it.
        return Vec::new();
    };
    // A closing quote at or before the cursor is written after the variant,
    // by the same edit (two edits at one place have no order).
    let (quotes, close): (Vec<(usize, char)>, String) = match quotes.as_slice() {
        [open, (end, quote)] if *end <= offset => (vec![*open], quote.to_string()),
        _ => (quotes, String::new()),
    };
    // An empty value is quoted by the inserted text itself.
    let wrap = if string.plain && string.value.is_empty() { "\"" } else { "" };
    shapes(rules, snippets, wrap, &close, start, offset, &quotes)
}

/// A `{` typed as the first character of an item's `text:` value (YAML
/// reads it as a mapping, so no text is there): the variant in its place,
/// quoted, and the `}` an editor may have paired it with.
fn opening(rules: &Rules, file: &str, text: &str, offset: usize, snippets: bool) -> Vec<Variant> {
    let Some(brace) = offset.checked_sub(1).filter(|&at| text.get(at..offset) == Some("{")) else {
        return Vec::new();
    };
    let line_start = text[..brace].rfind('\n').map_or(0, |i| i + 1);
    let key = text[line_start..brace].trim_start_matches(' ');
    let key = key.strip_prefix("- ").unwrap_or(key);
    let rest = text[offset..].lines().next().unwrap_or("");
    let paired = usize::from(rest.trim_end() == "}");
    let text_key = key.strip_prefix("text:").is_some_and(|gap| !gap.is_empty() && gap.trim_matches(' ').is_empty());
    if syntax::rules_file(file).is_none() || !text_key || !(rest.trim().is_empty() || paired == 1) {
        return Vec::new();
    }
    let end = offset + if paired == 1 { rest.find('}').map_or(0, |i| i + 1) } else { 0 };
    shapes(rules, snippets, "\"", "", brace, end, &[])
}

/// The variants of the rules' editions, each `wrap`ped and followed by
/// `close`, replacing `start..end`.
fn shapes(
    rules: &Rules,
    snippets: bool,
    wrap: &str,
    close: &str,
    start: usize,
    end: usize,
    quotes: &[(usize, char)],
) -> Vec<Variant> {
    let editions: Vec<&str> = rules.catalog.editions.iter().map(|e| e.id.as_str()).collect();
    let Some((first, rest)) = editions.split_first() else { return Vec::new() };
    // The rules' usual form (the first edition against the others), and one
    // alternative per edition.
    let mut shapes: Vec<Vec<String>> = Vec::new();
    if !rest.is_empty() {
        shapes.push(vec![first.to_string(), rest.join(", ")]);
    }
    if rest.len() > 1 || rest.is_empty() {
        shapes.push(editions.iter().map(|e| e.to_string()).collect());
    }
    shapes
        .into_iter()
        .map(|labels| {
            let plain: Vec<String> = labels.iter().map(|l| format!("{l}: …")).collect();
            let insert = if snippets {
                let stops: Vec<String> = labels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("${{{}:{}}}: ${}", 2 * i + 1, literal(l), 2 * i + 2))
                    .collect();
                format!("{wrap}{{{}}}$0{wrap}{close}", stops.join(" | "))
            } else {
                // No `: ` (nor ` #`): the text stays a valid plain YAML value
                // even where a client leaves the quotes out (Neovim 0.7's
                // omnifunc applies no additional edits).
                let empty: Vec<String> = labels.iter().map(|l| format!("{l}:")).collect();
                format!("{wrap}{{{}}}{wrap}{close}", empty.join("|"))
            };
            Variant {
                label: format!("{{{}}}", plain.join(" | ")),
                insert,
                is_snippet: snippets,
                start,
                end,
                quotes: quotes.to_vec(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::literal;

    #[test]
    fn a_placeholder_text_keeps_the_snippet_syntax_out() {
        // The characters the snippet grammar gives a meaning inside `${1:…}`.
        assert_eq!(literal(r"a$1 ${2} b} c\"), r"a\$1 \${2\} b\} c\\");
        assert_eq!(literal("C2, WE"), "C2, WE");
    }
}
