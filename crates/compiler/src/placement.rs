//! Placing items: every item is anchored (after a sibling, before a sibling,
//! following the previous item of its YAML list, or at the end of its list),
//! and the final order is the anchors unfolded from the ends of the lists.
//!
//! The result depends only on the anchors and each item's `key` (expansion rank,
//! position in its file), never on the order files were read in.

use std::collections::BTreeMap;

/// What an item is placed relative to; the `usize`s index the placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// Right after the given sibling (before the items that merely follow it).
    After(usize),
    /// Right before the given sibling.
    Before(usize),
    /// After the previous item of the same YAML list.
    FollowPrevious(usize),
    /// At the end of its list.
    End,
}

/// Where one item wants to go.
#[derive(Debug, Clone)]
pub struct Placement {
    /// Section index (notes, setup, a step, …).
    pub section: usize,
    /// Parent item, or `None` at the top of the section.
    pub parent: Option<usize>,
    /// Where in its list it goes.
    pub anchor: Anchor,
    /// Tie-breaker among items anchored to the same place: lower first.
    pub key: (usize, usize),
}

/// The ordered items: top-level lists per section and child lists per item.
#[derive(Debug, Default)]
pub struct Ordered {
    /// The top-level items of each section that has any, in order.
    pub sections: BTreeMap<usize, Vec<usize>>,
    /// The children of each item, in order (indexed like the placements).
    pub children: Vec<Vec<usize>>,
    /// Items that could not be placed: they sit on an anchor or parent cycle.
    pub unplaced: Vec<usize>,
}

/// Orders `items`; indices in the result are positions in `items`.
pub fn place(items: &[Placement]) -> Ordered {
    let n = items.len();
    let mut after = vec![Vec::new(); n];
    let mut before = vec![Vec::new(); n];
    let mut follow = vec![Vec::new(); n];
    let mut ends: BTreeMap<(usize, Option<usize>), Vec<usize>> = BTreeMap::new();
    for (i, p) in items.iter().enumerate() {
        match p.anchor {
            Anchor::After(x) => after[x].push(i),
            Anchor::Before(x) => before[x].push(i),
            Anchor::FollowPrevious(x) => follow[x].push(i),
            Anchor::End => ends.entry((p.section, p.parent)).or_default().push(i),
        }
    }
    let by_key = |list: &mut Vec<usize>| list.sort_by_key(|&i| items[i].key);
    after.iter_mut().for_each(by_key);
    before.iter_mut().for_each(by_key);
    follow.iter_mut().for_each(by_key);
    ends.values_mut().for_each(by_key);

    /// Item `i` with what goes before it, then what goes after it or follows
    /// it, each unfolded the same way: with a stack of its own, since a list
    /// of 40,000 items is a chain that deep.
    fn unfold(i: usize, after: &[Vec<usize>], before: &[Vec<usize>], follow: &[Vec<usize>], out: &mut Vec<usize>) {
        enum Task {
            Unfold(usize),
            Emit(usize),
        }
        let mut tasks = vec![Task::Unfold(i)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Emit(i) => out.push(i),
                Task::Unfold(i) => {
                    tasks.extend(after[i].iter().chain(&follow[i]).rev().map(|&a| Task::Unfold(a)));
                    tasks.push(Task::Emit(i));
                    tasks.extend(before[i].iter().rev().map(|&b| Task::Unfold(b)));
                }
            }
        }
    }

    let mut ordered = Ordered { children: vec![Vec::new(); n], ..Ordered::default() };
    for ((section, parent), roots) in &ends {
        let mut list = Vec::new();
        for &r in roots {
            unfold(r, &after, &before, &follow, &mut list);
        }
        match parent {
            Some(p) => ordered.children[*p] = list,
            None => {
                ordered.sections.insert(*section, list);
            }
        }
    }

    // An item is placed when it is reachable from a section's top level.
    let mut placed = vec![false; n];
    let mut stack: Vec<usize> = ordered.sections.values().flatten().copied().collect();
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut placed[i], true) {
            stack.extend(ordered.children[i].iter().copied());
        }
    }
    ordered.unplaced = (0..n).filter(|&i| !placed[i]).collect();
    ordered
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(parent: Option<usize>, anchor: Anchor, key: (usize, usize)) -> Placement {
        Placement { section: 0, parent, anchor, key }
    }

    #[test]
    fn after_goes_right_after_its_anchor_not_after_the_followers() {
        // base: 0, 1, 2; expansion item 3 after 0, item 4 follows 3.
        let items = [
            p(None, Anchor::End, (0, 0)),
            p(None, Anchor::FollowPrevious(0), (0, 1)),
            p(None, Anchor::FollowPrevious(1), (0, 2)),
            p(None, Anchor::After(0), (1, 0)),
            p(None, Anchor::FollowPrevious(3), (1, 1)),
        ];
        assert_eq!(place(&items).sections[&0], [0, 3, 4, 1, 2]);
    }

    #[test]
    fn ties_break_by_key_whatever_the_input_order() {
        let forward = [
            p(None, Anchor::End, (0, 0)),
            p(None, Anchor::After(0), (2, 0)),
            p(None, Anchor::After(0), (1, 0)),
            p(None, Anchor::Before(0), (3, 0)),
        ];
        assert_eq!(place(&forward).sections[&0], [3, 0, 2, 1]);
    }

    #[test]
    fn children_and_cycles() {
        let items = [
            p(None, Anchor::End, (0, 0)),
            p(Some(0), Anchor::End, (1, 0)),
            p(None, Anchor::After(3), (1, 1)),
            p(None, Anchor::After(2), (1, 2)),
        ];
        let ordered = place(&items);
        assert_eq!(ordered.sections[&0], [0]);
        assert_eq!(ordered.children[0], [1]);
        assert_eq!(ordered.unplaced, [2, 3]);
    }
}
