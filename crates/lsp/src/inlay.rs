//! Inlay hints after `when:`: in what share of the games the item (or
//! step) shows, from the BDD counts the hover shows in full.
//!
//! One hint per condition, short: most conditions name no edition, so every
//! edition has the same share and one number says it all ("in 25% of
//! games"); where they differ, editions of equal share are grouped ("C1 50%,
//! C2/WE 25% of games"). The tooltip has each edition's share to a tenth.
//! A share counts the selections of modules and rule variant in that edition,
//! the item's step and parents included, as the hover does.

use carcassonne_rules_compiler::Rules;
use carcassonne_rules_compiler::logic::Logic;
use carcassonne_rules_compiler::model::Cond;

use crate::features::{find, share_counter, shown_when};
use carcassonne_rules_compiler::syntax::tree::Node;
use carcassonne_rules_compiler::syntax::{DslKind, dsl_strings};

/// One hint, after the condition it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// Byte offset in the file: just after the condition's scalar.
    pub at: usize,
    /// The short text shown.
    pub label: String,
    /// Each edition's share.
    pub tooltip: String,
}

/// The hints of the rules file `file`, whose tree is `tree`, whose place is
/// in the byte range `from..=to`.
pub fn hints(rules: &Rules, file: &str, tree: &Node, from: usize, to: usize) -> Vec<Hint> {
    let logic = Logic::new(rules);
    let shares = share_counter(rules, &logic);
    let mut out = Vec::new();
    for string in dsl_strings(file, tree) {
        let at = string.node.span.end;
        if string.kind != DslKind::Condition || at < from || at > to {
            continue;
        }
        let Some(owner) = string.owner else { continue };
        let when = match find(rules, owner) {
            Some(found) => shown_when(&found),
            None => match rules.steps().find(|s| s.id == owner) {
                Some(step) => step.when.clone(),
                None => continue,
            },
        };
        if when == Cond::True {
            continue;
        }
        let shares = shares(&when);
        let editions: Vec<&str> = rules.catalog.editions.iter().map(|e| e.id.as_str()).collect();
        out.push(Hint { at, label: label(&editions, &shares), tooltip: tooltip(&editions, &shares) });
    }
    out
}

/// A share as a whole percentage; one that rounds to 0 but is not is `<1%`.
fn percent(share: f64) -> String {
    if share > 0.0 && share < 0.5 { "<1%".to_string() } else { format!("{share:.0}%") }
}

/// `in 25% of games`, or `C1 50%, C2/WE 25% of games`.
fn label(editions: &[&str], shares: &[f64]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (edition, share) in editions.iter().zip(shares) {
        let shown = percent(*share);
        match groups.iter_mut().find(|(p, _)| *p == shown) {
            Some((_, members)) => members.push(edition),
            None => groups.push((shown, vec![edition])),
        }
    }
    match groups.as_slice() {
        [(shown, _)] => format!("in {shown} of games"),
        _ => {
            let parts: Vec<String> = groups.iter().map(|(p, members)| format!("{} {p}", members.join("/"))).collect();
            format!("{} of games", parts.join(", "))
        }
    }
}

fn tooltip(editions: &[&str], shares: &[f64]) -> String {
    let lines: Vec<String> =
        editions.iter().zip(shares).map(|(e, s)| format!("{e}: {s:.1}% of the selections")).collect();
    format!("Shows in\n{}", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_group_editions_of_equal_share() {
        let editions = ["C1", "C2", "WE"];
        assert_eq!(label(&editions, &[25.0, 25.0, 25.0]), "in 25% of games");
        assert_eq!(label(&editions, &[50.0, 25.0, 25.2]), "C1 50%, C2/WE 25% of games");
        assert_eq!(label(&editions, &[0.2, 0.0, 100.0]), "C1 <1%, C2 0%, WE 100% of games");
        assert_eq!(tooltip(&editions[..1], &[12.34]), "Shows in\nC1: 12.3% of the selections");
    }
}
