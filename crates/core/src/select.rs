//! A selection: the edition, the publisher's rule variant and the modules in play.

use std::fmt;

/// An edition, by its position in the rules' `editions.yaml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EditionId(pub u8);

/// A publisher's rule variant, by its position in the rules' `editions.yaml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VariantId(pub u8);

/// A module, by its bit in a [`ModuleSet`]. The compiler numbers modules in the
/// order of their ids, so adding a module never moves the bits of the modules
/// that sort before it, whatever its place in `modules.yaml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleId(pub u8);

/// A set of modules: one bit per [`ModuleId`], for every id a byte can hold,
/// so no module id is out of range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ModuleSet([u64; 4]);

impl ModuleSet {
    /// How many modules a set can hold: every [`ModuleId`].
    pub const CAPACITY: usize = 256;

    /// The empty set.
    pub const EMPTY: ModuleSet = ModuleSet([0; 4]);

    /// The set holding only `module`.
    pub const fn of(module: ModuleId) -> ModuleSet {
        let mut words = [0; 4];
        words[(module.0 / 64) as usize] = 1 << (module.0 % 64);
        ModuleSet(words)
    }

    /// Whether `module` is in the set.
    #[inline]
    pub const fn contains(self, module: ModuleId) -> bool {
        self.0[(module.0 / 64) as usize] & (1 << (module.0 % 64)) != 0
    }

    /// Adds `module` to the set.
    pub fn insert(&mut self, module: ModuleId) {
        self.0[usize::from(module.0 / 64)] |= 1 << (module.0 % 64);
    }

    /// The modules of both sets.
    #[must_use]
    pub const fn union(self, other: ModuleSet) -> ModuleSet {
        let (a, b) = (self.0, other.0);
        ModuleSet([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }

    /// Whether the set holds no module.
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// How many modules the set holds.
    pub const fn len(self) -> usize {
        let [a, b, c, d] = self.0;
        (a.count_ones() + b.count_ones() + c.count_ones() + d.count_ones()) as usize
    }

    /// The modules in the set, lowest bit first.
    pub fn iter(self) -> impl Iterator<Item = ModuleId> {
        // A position is below `CAPACITY`, so it fits the byte of a module id.
        crate::bits::ones(self.0).map(|n| ModuleId(n as u8))
    }
}

impl FromIterator<ModuleId> for ModuleSet {
    fn from_iter<I: IntoIterator<Item = ModuleId>>(iter: I) -> Self {
        let mut set = ModuleSet::EMPTY;
        iter.into_iter().for_each(|m| set.insert(m));
        set
    }
}

impl fmt::Debug for ModuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|m| m.0)).finish()
    }
}

/// What a turn order is computed for: an edition, a rule variant and the
/// selected modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    /// The edition played.
    pub edition: EditionId,
    /// The publisher's rule variant in force (HiG, ZMG, RGG).
    pub variant: VariantId,
    /// The selected modules.
    pub modules: ModuleSet,
}

impl Config {
    /// This selection with `module` selected too: with the generated
    /// constants, `rules.config(edition::C2).with(module::BUILDER)`.
    #[must_use]
    pub const fn with(self, module: ModuleId) -> Config {
        Config { modules: self.modules.union(ModuleSet::of(module)), ..self }
    }

    /// This selection under the publisher's rule `variant` instead.
    #[must_use]
    pub const fn with_variant(self, variant: VariantId) -> Config {
        Config { variant, ..self }
    }

    /// Whether `module` is selected.
    #[inline]
    pub const fn has(&self, module: ModuleId) -> bool {
        self.modules.contains(module)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_sets_hold_what_was_inserted() {
        let set: ModuleSet = [ModuleId(0), ModuleId(5), ModuleId(127), ModuleId(255)].into_iter().collect();
        assert!(set.contains(ModuleId(5)) && set.contains(ModuleId(127)) && set.contains(ModuleId(255)));
        assert!(!set.contains(ModuleId(6)) && !set.contains(ModuleId(128)));
        assert_eq!(set.iter().map(|m| m.0).collect::<Vec<_>>(), [0, 5, 127, 255]);
        assert_eq!(set.union(ModuleSet::of(ModuleId(200))).iter().count(), 5);
        assert!(ModuleSet::EMPTY.is_empty() && !set.is_empty());
        assert_eq!((set.len(), ModuleSet::EMPTY.len()), (4, 0));
    }

    #[test]
    fn with_adds_a_module_and_keeps_the_rest() {
        let base = Config { edition: EditionId(1), variant: VariantId(0), modules: ModuleSet::EMPTY };
        let cfg = base.with(ModuleId(3)).with(ModuleId(200)).with(ModuleId(3));
        assert_eq!(cfg.modules.iter().map(|m| m.0).collect::<Vec<_>>(), [3, 200]);
        assert_eq!((cfg.edition, cfg.variant), (EditionId(1), VariantId(0)));
        assert_eq!(cfg.with_variant(VariantId(2)).variant, VariantId(2));
        assert_eq!(cfg.with_variant(VariantId(2)).modules, cfg.modules);
    }
}
