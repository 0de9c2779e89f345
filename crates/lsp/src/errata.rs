//! The wiki crate's `errata.yaml`, which names items and derived flags of the
//! rules: a rename edits it with the rules files. It is read as a syntax
//! tree, not through the wiki crate's records (the server does not depend on
//! that crate); which keys hold names is restated here, and
//! `tests/errata_names.rs` at the repository root holds it against those
//! records' schema.

use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::dsl;
use carcassonne_rules_compiler::syntax::tree::{self, Node, Value};

use crate::features::Kind;

/// Where the errata file is, from the rules folder: the repository lays it
/// out as `<repository>/crates/wiki/errata.yaml` beside `<repository>/rules/`.
pub fn path(rules_dir: &Path) -> Option<PathBuf> {
    Some(rules_dir.parent()?.join("crates").join("wiki").join("errata.yaml"))
}

/// The lists of entries, and the key of each entry, that hold item ids.
pub const ITEM_IDS: [(&str, &str); 1] = [("differences", "items")];

/// The lists of entries, and the key of each entry, that hold conditions
/// (which name modules and derived flags).
pub const CONDITIONS: [(&str, &str); 2] = [("classes", "means"), ("differences", "when")];

/// One name written in the errata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// What it names.
    pub kind: Kind,
    /// The name as written.
    pub name: String,
    /// Its byte offset in the file.
    pub start: usize,
}

/// The values of `key` in the entries of the list `list`.
fn values<'t>(root: &'t Node, list: &str, key: &'t str) -> impl Iterator<Item = &'t Node> + 't {
    let entries = match root.get(list).map(|n| &n.value) {
        Some(Value::Seq(seq)) => seq.entries.as_slice(),
        _ => &[],
    };
    entries.iter().filter_map(move |entry| entry.get(key))
}

/// Where a scalar's value stands verbatim in the file (none when escapes or
/// folding make the text differ: such a name is left alone, not misplaced).
fn verbatim(node: &Node) -> Option<(usize, &str)> {
    match &node.value {
        Value::Scalar(s) => Some((s.verbatim?, s.value.as_str())),
        _ => None,
    }
}

/// Every item id and every name in a condition that `text` (an errata
/// file) writes, in file order.
pub fn names(text: &str) -> Vec<Named> {
    let root = tree::parse(text).tree;
    let mut out = Vec::new();
    for (list, key) in ITEM_IDS {
        for ids in values(&root, list, key) {
            let Value::Seq(seq) = &ids.value else { continue };
            for (start, id) in seq.entries.iter().filter_map(verbatim) {
                out.push(Named { kind: Kind::Item, name: id.to_string(), start });
            }
        }
    }
    for (list, key) in CONDITIONS {
        for (start, value) in values(&root, list, key).filter_map(verbatim) {
            let Ok(condition) = dsl::condition(value) else { continue };
            for name in condition.names() {
                out.push(Named { kind: Kind::Selector, name: name.text.clone(), start: start + name.at.0 });
            }
        }
    }
    out.sort_by_key(|n| n.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_ids_and_the_names_of_conditions_are_found_where_written() {
        let text = "classes:\n  - class: showX\n    means: \"abbey or tiles_in_supply\"\n    why: abbey-x\n\
                    differences:\n  - id: abbey-x\n    items: [draw-tile, 'show-tile']\n    when: not abbey\n";
        let named = names(text);
        let found: Vec<(Kind, &str, &str)> =
            named.iter().map(|n| (n.kind, n.name.as_str(), &text[n.start..n.start + n.name.len()])).collect();
        assert_eq!(
            found,
            [
                (Kind::Selector, "abbey", "abbey"),
                (Kind::Selector, "tiles_in_supply", "tiles_in_supply"),
                (Kind::Item, "draw-tile", "draw-tile"),
                (Kind::Item, "show-tile", "show-tile"),
                (Kind::Selector, "abbey", "abbey"),
            ]
        );
    }

    #[test]
    fn the_file_is_beside_the_rules_folder_in_the_repository() {
        assert_eq!(path(Path::new("/repo/rules")), Some(PathBuf::from("/repo/crates/wiki/errata.yaml")));
    }
}
