//! What one selection shows: which steps exist, which repeat, and which items
//! and markers are visible, as fixed-size bit sets over the [`Tables`](crate::Tables)'
//! indices. The generated dispatch fills one without touching the heap.

use crate::tables::{ItemId, MarkerId, OriginId, StepId};

/// A fixed-size set of small numbers: `W` words of 64 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitSet<const W: usize>([u64; W]);

impl<const W: usize> Default for BitSet<W> {
    fn default() -> Self {
        BitSet([0; W])
    }
}

impl<const W: usize> BitSet<W> {
    /// How many numbers the set can hold: `0..CAPACITY`.
    pub const CAPACITY: usize = W * 64;

    /// Adds `n`; panics if `n` is not below [`Self::CAPACITY`], which the
    /// compiler rules out for the generated code.
    #[inline]
    pub fn insert(&mut self, n: usize) {
        self.0[n / 64] |= 1 << (n % 64);
    }

    /// Whether `n` is in the set.
    #[inline]
    pub fn contains(&self, n: usize) -> bool {
        self.0.get(n / 64).is_some_and(|w| w & (1 << (n % 64)) != 0)
    }

    /// The numbers in the set, smallest first.
    pub fn iter(&self) -> impl Iterator<Item = usize> {
        crate::bits::ones(self.0)
    }

    /// How many numbers the set holds.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set holds no number.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

impl<const W: usize> std::fmt::Debug for BitSet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The visible part of the rules for one selection, with `S`, `I`, `M` and
/// `O` words for steps, items, markers and origin candidates (the generated
/// code sizes them to fit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Visible<const S: usize, const I: usize, const M: usize, const O: usize> {
    /// Steps that exist.
    pub steps: BitSet<S>,
    /// Steps whose repeat is in force.
    pub repeats: BitSet<S>,
    /// Visible items (an item is visible only when its parent is).
    pub items: BitSet<I>,
    /// Visible markers of visible items.
    pub markers: BitSet<M>,
    /// Origin candidates of visible items whose part of the condition holds.
    pub origins: BitSet<O>,
    /// The selection has double turns: the rules' double-turn block is in force.
    pub double_turn: bool,
}

impl<const S: usize, const I: usize, const M: usize, const O: usize> Visible<S, I, M, O> {
    /// The step exists.
    #[inline]
    pub fn step(&mut self, step: StepId) {
        self.steps.insert(usize::from(step.0));
    }

    /// The step's repeat is in force.
    #[inline]
    pub fn repeat(&mut self, step: StepId) {
        self.repeats.insert(usize::from(step.0));
    }

    /// The item is visible.
    #[inline]
    pub fn item(&mut self, item: ItemId) {
        self.items.insert(usize::from(item.0));
    }

    /// The marker is visible.
    #[inline]
    pub fn marker(&mut self, marker: MarkerId) {
        self.markers.insert(usize::from(marker.0));
    }

    /// The origin candidate holds.
    #[inline]
    pub fn origin(&mut self, origin: OriginId) {
        self.origins.insert(usize::from(origin.0));
    }

    /// Whether the step exists.
    pub fn has_step(&self, step: StepId) -> bool {
        self.steps.contains(usize::from(step.0))
    }

    /// Whether the step's repeat is in force.
    pub fn has_repeat(&self, step: StepId) -> bool {
        self.repeats.contains(usize::from(step.0))
    }

    /// Whether the item is visible.
    pub fn has_item(&self, item: ItemId) -> bool {
        self.items.contains(usize::from(item.0))
    }

    /// Whether the marker is visible.
    pub fn has_marker(&self, marker: MarkerId) -> bool {
        self.markers.contains(usize::from(marker.0))
    }

    /// Whether the origin candidate holds.
    pub fn has_origin(&self, origin: OriginId) -> bool {
        self.origins.contains(usize::from(origin.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_across_words() {
        let mut set = BitSet::<2>::default();
        for n in [0, 63, 64, 127] {
            set.insert(n);
        }
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 63, 64, 127]);
        assert_eq!(set.len(), 4);
        assert!(!set.contains(1) && !set.contains(128));
    }
}
