//! A [`Review`] as text (coloured on a terminal), as Markdown for a
//! pull-request comment, and as JSON (**contract**).
//!
//! Names and texts come from the rules, which are untrusted: text output
//! is quoted by the core's terminal escaper, Markdown goes through its
//! Markdown escaper, JSON through serde_json.

use carcassonne_rules_core::escape::markdown::{code, github as markdown};
use carcassonne_rules_core::escape::terminal::quoted as terminal;
use indexmap::IndexMap;
use serde::Serialize;

use super::{Change, Kind, Review};

/// How `review` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Lines for a terminal.
    Text,
    /// A pull-request comment.
    Markdown,
    /// The JSON of the contract.
    Json,
}

/// `review` in `format`; text is coloured when `color`.
pub fn render(review: &Review, format: Format, color: bool) -> String {
    match format {
        Format::Text => text(review, color),
        Format::Markdown => markdown_review(review),
        Format::Json => json(review),
    }
}

fn text(review: &Review, color: bool) -> String {
    let paint = |code: &str, s: &str| if color { format!("\x1b[{code}m{s}\x1b[0m") } else { s.to_string() };
    let mut out = format!("review: {} → {}\n", terminal(&review.base), terminal(&review.head));
    if review.changes.is_empty() {
        out.push_str("no change in any selection\n");
        return out;
    }
    out.push_str(&format!(
        "{} in {}\n",
        plural(review.changes.len(), "change"),
        share(&review.selections, &review.totals, ", ")
    ));
    for c in &review.changes {
        let code = match c.kind {
            Kind::Shown | Kind::Added => "32",
            Kind::Hidden | Kind::Removed => "31",
            _ => "33",
        };
        let what = c.item.as_deref().map_or_else(|| format!("step {}", c.step), |i| format!("{i} ({})", c.step));
        out.push_str(&format!(
            "\n{} {}: {}\n",
            paint(code, c.kind.name()),
            paint("1", &terminal(&what)),
            terminal(&c.detail)
        ));
        out.push_str(&format!("  where: {}\n", terminal(&c.condition)));
        out.push_str(&format!("  selections: {}\n", counts(&c.selections, &review.totals, ", ")));
        if let Some(example) = &c.example {
            out.push_str(&format!("  example: {}\n", paint("36", &format!("carcassonne-rules {}", terminal(example)))));
        }
    }
    out
}

fn markdown_review(review: &Review) -> String {
    let mut out = format!("### Rules review: {} → {}\n\n", code(&review.base), code(&review.head));
    if review.changes.is_empty() {
        out.push_str("No change in any selection.\n");
        return out;
    }
    let editions: Vec<&str> = review.totals.iter().map(|(e, _)| e.as_str()).collect();
    out.push_str(&format!(
        "{} in {} of the selections (examples: run them with `--rules` on each version).\n\n",
        plural(review.changes.len(), "change"),
        share(&review.selections, &review.totals, ", ")
    ));
    out.push_str(&format!("| expansion | changes | {} |\n", editions.join(" | ")));
    out.push_str(&format!("| --- | --- |{}\n", " ---: |".repeat(editions.len())));
    for x in &review.expansions {
        let kinds: Vec<String> = x.kinds.iter().map(|(k, n)| format!("{n} {}", k.name())).collect();
        let shares: Vec<String> =
            x.selections.iter().zip(&review.totals).map(|((_, n), (_, total))| percent(*n, *total)).collect();
        out.push_str(&format!("| {} | {} | {} |\n", markdown(&x.name), kinds.join(", "), shares.join(" | ")));
    }
    for x in &review.expansions {
        out.push_str(&format!("\n#### {}\n\n", markdown(&x.name)));
        for c in review.changes.iter().filter(|c| c.expansion == x.id) {
            out.push_str(&markdown_change(c, review));
        }
    }
    out
}

fn markdown_change(c: &Change, review: &Review) -> String {
    let what = match &c.item {
        Some(item) => format!("{} in {}", code(item), markdown(&c.step)),
        None => format!("step {}", markdown(&c.step)),
    };
    let mut out = format!("- **{}** {what}: {}, where {}  \n", c.kind.name(), markdown(&c.detail), code(&c.condition));
    out.push_str(&format!("  {}", counts(&c.selections, &review.totals, " · ")));
    if let Some(example) = &c.example {
        out.push_str(&format!(" — {}", code(&format!("carcassonne-rules {example}"))));
    }
    out.push('\n');
    out
}

#[derive(Serialize)]
struct JsonReview<'a> {
    base: &'a str,
    head: &'a str,
    changes: Vec<JsonChange<'a>>,
    summary: JsonSummary<'a>,
}

#[derive(Serialize)]
struct JsonChange<'a> {
    kind: &'static str,
    item: Option<&'a str>,
    step: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    marker: Option<&'a str>,
    editions: Vec<&'a str>,
    #[serde(rename = "where")]
    condition: &'a str,
    selections: IndexMap<&'a str, u128>,
    example: Option<&'a str>,
    detail: &'a str,
    expansion: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    changes: usize,
    kinds: IndexMap<&'static str, usize>,
    selections: IndexMap<&'a str, u128>,
    total_selections: IndexMap<&'a str, u128>,
    expansions: Vec<JsonExpansion<'a>>,
}

#[derive(Serialize)]
struct JsonExpansion<'a> {
    id: Option<&'a str>,
    name: &'a str,
    kinds: IndexMap<&'static str, usize>,
    selections: IndexMap<&'a str, u128>,
}

fn json(review: &Review) -> String {
    let mut kinds: IndexMap<&'static str, usize> = IndexMap::new();
    for c in &review.changes {
        *kinds.entry(c.kind.name()).or_default() += 1;
    }
    let doc = JsonReview {
        base: &review.base,
        head: &review.head,
        changes: review
            .changes
            .iter()
            .map(|c| JsonChange {
                kind: c.kind.name(),
                item: c.item.as_deref(),
                step: &c.step,
                marker: c.marker.as_deref(),
                editions: c.editions(),
                condition: &c.condition,
                selections: map(&c.selections),
                example: c.example.as_deref(),
                detail: &c.detail,
                expansion: c.expansion.as_deref(),
            })
            .collect(),
        summary: JsonSummary {
            changes: review.changes.len(),
            kinds,
            selections: map(&review.selections),
            total_selections: map(&review.totals),
            expansions: review
                .expansions
                .iter()
                .map(|x| JsonExpansion {
                    id: x.id.as_deref(),
                    name: &x.name,
                    kinds: x.kinds.iter().map(|(k, n)| (k.name(), *n)).collect(),
                    selections: map(&x.selections),
                })
                .collect(),
        },
    };
    // Plain data of strings and numbers: serialising cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn map(counts: &[(String, u128)]) -> IndexMap<&str, u128> {
    counts.iter().map(|(e, n)| (e.as_str(), *n)).collect()
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// `C1 12.5%, C2 0, …`: the share of each edition's selections.
fn share(counts: &[(String, u128)], totals: &[(String, u128)], sep: &str) -> String {
    let parts: Vec<String> =
        counts.iter().zip(totals).map(|((e, n), (_, total))| format!("{e} {}", percent(*n, *total))).collect();
    parts.join(sep)
}

/// `C1 6,144 (0.02%)`: exact below a million, then in scientific notation.
fn counts(counts: &[(String, u128)], totals: &[(String, u128)], sep: &str) -> String {
    let parts: Vec<String> = counts
        .iter()
        .zip(totals)
        .map(|((e, n), (_, total))| match n {
            0 => format!("{e} 0"),
            _ => format!("{e} {} ({})", number(*n), percent(*n, *total)),
        })
        .collect();
    parts.join(sep)
}

fn number(n: u128) -> String {
    if n < 1_000_000 {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, d) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(d);
        }
        out
    } else {
        format!("{:.2e}", n as f64)
    }
}

fn percent(n: u128, total: u128) -> String {
    if n == 0 || total == 0 {
        return "0".into();
    }
    if n == total {
        return "100%".into();
    }
    let p = n as f64 * 100.0 / total as f64;
    match p {
        p if p >= 10.0 => format!("{p:.1}%"),
        p if p >= 0.01 => format!("{p:.2}%"),
        _ => "<0.01%".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_shares_read_well() {
        assert_eq!(number(6144), "6,144");
        assert_eq!(number(123_456_789), "1.23e8");
        assert_eq!(percent(1, 8), "12.5%");
        assert_eq!(percent(0, 8), "0");
        assert_eq!(percent(8, 8), "100%");
    }
}
