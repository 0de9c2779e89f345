//! How near an export is to the page in its form, beside what it says (which
//! [`crate::page`] compares): the `show…` class tokens both use, and the
//! skeleton of boxes, wrappers and steps, compared as two sequences.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

#[allow(clippy::expect_used)] // the patterns are constants, tested below
fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid pattern")
}

static CLASS: LazyLock<Regex> = LazyLock::new(|| regex(r#"class="([^"]*)""#));
static DYNAMIC: LazyLock<Regex> = LazyLock::new(|| regex(r#"data-dynamic-selector="\[([^\]]*)\]""#));

/// The distinct `show…` classes of `source`: in `class` attributes and in
/// `data-dynamic-selector` lists.
pub fn class_tokens(source: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for c in CLASS.captures_iter(source) {
        out.extend(c[1].split_whitespace().filter(|t| t.starts_with("show")).map(String::from));
    }
    for c in DYNAMIC.captures_iter(source) {
        out.extend(
            c[1].split(',').map(|t| t.trim().trim_matches('\'')).filter(|t| t.starts_with("show")).map(String::from),
        );
    }
    out
}

/// One piece of a page's skeleton.
static SKELETON: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"\{\{(Rules[A-Za-z]*)\|",
        r#"|<div class="(show[A-Za-z0-9_]*)">"#,
        r#"|<div class="[^"]*(wica-repeat-(?:block|step|action))[^"]*""#,
        r"|'''(?:Stap|Step) ([0-9][A-D](?:-[0-9])?):",
        r"|(?m)^(\}\})\s*$",
    ))
});

/// The skeleton of a page: its rules boxes (`box RulesPlacingTile`, `end`),
/// the `div`s around steps that show under a condition (`div showBuilder`),
/// the repeat boxes (`wica-repeat-block`) and the steps (`step 1A`), in
/// order. The header of the builder's block and its body count as one each.
pub fn skeleton(source: &str) -> Vec<String> {
    SKELETON
        .captures_iter(source)
        .filter_map(|c| {
            let piece = |i: usize, kind: &str| c.get(i).map(|m| format!("{kind} {}", m.as_str()));
            piece(1, "box")
                .or_else(|| piece(2, "div"))
                .or_else(|| piece(3, "repeat"))
                .or_else(|| piece(4, "step"))
                .or_else(|| c.get(5).map(|_| "end".to_string()))
        })
        .collect()
}

/// Two skeletons compared: the longest sequence of pieces they share in
/// order, and what each has besides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkeletonDiff {
    /// Pieces of the page's skeleton.
    pub page: usize,
    /// Pieces of the export's skeleton.
    pub export: usize,
    /// Pieces both have, in the same order.
    pub shared: usize,
    /// The page's pieces the export lacks, and the export's the page lacks,
    /// each with its place in its skeleton.
    pub only_page: Vec<(usize, String)>,
    /// The export's pieces the page lacks.
    pub only_export: Vec<(usize, String)>,
}

/// `page` and `export` compared as sequences (a longest common subsequence).
pub fn compare_skeletons(page: &[String], export: &[String]) -> SkeletonDiff {
    let (n, m) = (page.len(), export.len());
    let mut table = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] =
                if page[i] == export[j] { table[i + 1][j + 1] + 1 } else { table[i + 1][j].max(table[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut only_page, mut only_export) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && page[i] == export[j] {
            i += 1;
            j += 1;
        } else if j < m && (i == n || table[i][j + 1] >= table[i + 1][j]) {
            only_export.push((j, export[j].clone()));
            j += 1;
        } else {
            only_page.push((i, page[i].clone()));
            i += 1;
        }
    }
    SkeletonDiff { page: n, export: m, shared: table[0][0], only_page, only_export }
}

/// Per hundred, one decimal, rounded down.
pub fn percent(part: usize, whole: usize) -> f64 {
    (part * 1000).checked_div(whole).map_or(100.0, |p| p as f64 / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_skeleton_are_read_from_the_markup() {
        let source = "<div class=\"showBuilder\">\n{{RulesAction|title=x|rules=\n'''Stap 4B: y'''\n<li class=\"showA markWE\" \
                      data-dynamic-selector=\"['OR','showB','showC']\">\n}}\n</div>\n";
        let tokens: Vec<String> = class_tokens(source).into_iter().collect();
        assert_eq!(tokens, ["showA", "showB", "showBuilder", "showC"]);
        assert_eq!(skeleton(source), ["div showBuilder", "box RulesAction", "step 4B", "end"]);
        let a: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let b: Vec<String> = ["x", "z", "w"].map(String::from).to_vec();
        let diff = compare_skeletons(&a, &b);
        assert_eq!((diff.shared, diff.only_page.len(), diff.only_export.len()), (2, 1, 1));
        assert_eq!(diff.only_page, [(1, "y".to_string())]);
        assert_eq!(percent(2, 3), 66.6);
    }
}
