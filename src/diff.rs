//! `diff`: a unified diff of two renderings of turn orders.
//!
//! Every item line carries its unique id, so nearly every line is unique.
//! The lines that occur once in each rendering are matched first, keeping the
//! longest run of them in the same order in both (patience diff's anchors,
//! found in O(n log n)); only the short stretches between two anchors go
//! through Myers' algorithm. Myers alone over the whole renderings grew like
//! n^1.65 (4.9 s at 100× the bundled rules), and `similar`'s own patience
//! diff, which runs Myers over whole stretches too, fared no better. A
//! deadline bounds each stretch for input made to defeat the anchors; past
//! it the diff stays correct, only perhaps not minimal.

use std::collections::HashMap;
use std::fmt::Write;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp};

/// The most time spent looking for a minimal diff between anchors.
pub const DEADLINE: Duration = Duration::from_millis(200);

/// Lines of context around each change.
const CONTEXT: usize = 2;

/// A unified diff of `a` and `b` (two context lines), headed by their first
/// lines and coloured for a terminal when `color`; empty when they are equal.
pub fn unified(a: &str, b: &str, color: bool) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (a.split_inclusive('\n').collect(), b.split_inclusive('\n').collect());
    let ops = line_ops(&old, &new, Instant::now() + DEADLINE);
    let groups = similar::group_diff_ops(ops, CONTEXT);
    if groups.is_empty() {
        return String::new();
    }
    let mut text = String::new();
    let first = |lines: &[&str]| lines.first().map_or("", |l| l.trim_end_matches(['\n', '\r'])).to_string();
    let _ = writeln!(text, "--- {}\n+++ {}", first(&old), first(&new));
    for group in &groups {
        let _ = writeln!(text, "{}", similar::udiff::UnifiedHunkHeader::new(group));
        for op in group {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            let (removed, added) = match tag {
                similar::DiffTag::Equal => {
                    old[old_range].iter().for_each(|line| push_line(&mut text, ' ', line));
                    continue;
                }
                similar::DiffTag::Delete => (old_range, 0..0),
                similar::DiffTag::Insert => (0..0, new_range),
                similar::DiffTag::Replace => (old_range, new_range),
            };
            old[removed].iter().for_each(|line| push_line(&mut text, '-', line));
            new[added].iter().for_each(|line| push_line(&mut text, '+', line));
        }
    }
    if color { colored(&text) } else { text }
}

/// One line of a hunk; a last line without a line end says so, as `diff` does.
fn push_line(text: &mut String, sign: char, line: &str) {
    text.push(sign);
    text.push_str(line);
    if !line.ends_with('\n') {
        text.push_str("\n\\ No newline at end of file\n");
    }
}

fn colored(text: &str) -> String {
    text.lines()
        .map(|line| {
            let code = match line.as_bytes().first() {
                Some(b'+') => "32",
                Some(b'-') => "31",
                Some(b'@') => "36",
                _ => return format!("{line}\n"),
            };
            format!("\x1b[{code}m{line}\x1b[0m\n")
        })
        .collect()
}

/// The edit from `old` to `new`, line by line: anchors, then Myers between them.
fn line_ops(old: &[&str], new: &[&str], deadline: Instant) -> Vec<DiffOp> {
    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    for (anchor_i, anchor_j) in anchors(old, new).into_iter().chain([(old.len(), new.len())]) {
        let stretch = similar::capture_diff_slices_deadline(
            Algorithm::Myers,
            &old[i..anchor_i],
            &new[j..anchor_j],
            Some(deadline),
        );
        ops.extend(stretch.into_iter().map(|op| shifted(op, i, j)));
        if anchor_i < old.len() {
            ops.push(DiffOp::Equal { old_index: anchor_i, new_index: anchor_j, len: 1 });
        }
        (i, j) = (anchor_i + 1, anchor_j + 1);
    }
    merged(ops)
}

/// The lines that occur exactly once in `old` and once in `new`, as index
/// pairs: the longest sequence of them in the same order in both.
fn anchors(old: &[&str], new: &[&str]) -> Vec<(usize, usize)> {
    // For each line: where it is in each side, and whether it is unique there.
    let mut seen: HashMap<&str, [(usize, usize); 2]> = HashMap::new();
    for (side, lines) in [old, new].into_iter().enumerate() {
        for (at, line) in lines.iter().enumerate() {
            let entry = seen.entry(line).or_insert([(0, 0); 2]);
            entry[side] = (entry[side].0 + 1, at);
        }
    }
    let mut pairs: Vec<(usize, usize)> =
        seen.into_values().filter(|[o, n]| o.0 == 1 && n.0 == 1).map(|[o, n]| (o.1, n.1)).collect();
    pairs.sort_unstable();
    longest_increasing(&pairs)
}

/// The longest subsequence of `pairs` (sorted by their first index) whose
/// second indices increase, by patience sorting.
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: the pair ending the best run of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(_, j)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].1 < j);
        before[p] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(p);
        } else {
            tails[k] = p;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(p) = at {
        run.push(pairs[p]);
        at = before[p];
    }
    run.reverse();
    run
}

/// `op` with its indices moved by `i` (old) and `j` (new).
fn shifted(op: DiffOp, i: usize, j: usize) -> DiffOp {
    match op {
        DiffOp::Equal { old_index, new_index, len } => {
            DiffOp::Equal { old_index: old_index + i, new_index: new_index + j, len }
        }
        DiffOp::Delete { old_index, old_len, new_index } => {
            DiffOp::Delete { old_index: old_index + i, old_len, new_index: new_index + j }
        }
        DiffOp::Insert { old_index, new_index, new_len } => {
            DiffOp::Insert { old_index: old_index + i, new_index: new_index + j, new_len }
        }
        DiffOp::Replace { old_index, old_len, new_index, new_len } => {
            DiffOp::Replace { old_index: old_index + i, old_len, new_index: new_index + j, new_len }
        }
    }
}

/// Adjacent unchanged runs joined into one, so that hunks split where the
/// renderings agree for long.
fn merged(ops: Vec<DiffOp>) -> Vec<DiffOp> {
    let mut out: Vec<DiffOp> = Vec::with_capacity(ops.len());
    for op in ops {
        if let (Some(DiffOp::Equal { len, .. }), DiffOp::Equal { len: more, .. }) = (out.last_mut(), op) {
            *len += more;
            continue;
        }
        out.push(op);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_run_in_order_is_kept() {
        let pairs = [(0, 3), (1, 0), (2, 1), (3, 4), (4, 2), (5, 5)];
        assert_eq!(longest_increasing(&pairs), [(1, 0), (2, 1), (4, 2), (5, 5)]);
        assert_eq!(longest_increasing(&[]), []);
    }

    #[test]
    fn repeated_lines_are_not_anchors() {
        let old = ["a\n", "x\n", "b\n", "x\n"];
        let new = ["b\n", "a\n", "x\n"];
        // `a` and `b` are unique in both, but cross: one of them is kept.
        assert_eq!(anchors(&old, &new).len(), 1);
    }

    #[test]
    fn hunks_are_headed_and_lines_signed() {
        let diff = unified("t\na\nb\nc\n", "t\na\nB\nc\nd", false);
        assert_eq!(diff, "--- t\n+++ t\n@@ -1,4 +1,5 @@\n t\n a\n-b\n+B\n c\n+d\n\\ No newline at end of file\n");
        assert_eq!(unified("same\n", "same\n", false), "");
        assert!(unified("a\n", "b\n", true).contains("\x1b[31m-a\x1b[0m"));
    }
}
