//! The one logic engine: conditions as binary decision diagrams (BDDs) over
//! every selection at once. `check` asks it whether a condition can hold,
//! `verify` proves properties with it, `explain` finds the smallest change
//! of a selection that flips an item, and the wiki export asks it which of
//! its class readings are possible or implied.
//!
//! BDDs can grow exponentially in the number of modules a condition
//! combines, so the work is bounded two ways. A module's variable is placed
//! where the conditions first name it (the derived flags, then each step's
//! condition and its items, in the order of the rules), so that the modules
//! a condition pairs lie next to each other whatever their ids. And a
//! [`Budget`] counts the work of every operation of a run: past it, the
//! condition being built is [`TooComplex`] and `check` says so at it,
//! instead of working for minutes.
//!
//! The [`Budget`] is the run's, not the BDDs' alone: a command makes one,
//! `check` spends from it, and every later pass of the same run charges the
//! same one for its own work (the origins' walk, `explain`'s search and
//! output, the wiki export's classes, `review`'s printing), so that no pass
//! can do unbounded work on rules that `check` accepted. Past it, each pass
//! refuses with the code `too-complex` at what it was working on.

use std::cell::RefCell;

use biodivine_lib_bdd::{Bdd, BddValuation, BddVariable, BddVariableSet};
use carcassonne_rules_core::{Catalog, Config, EditionId, ModuleId, ModuleSet, VariantId};

use crate::budget::Op;
pub use crate::budget::{BUDGET, Budget, OPERATION, TooComplex};
use crate::model::{Cond, Flag, Rules};

/// Conditions as BDDs over one variable per module, one per edition and one
/// per rule variant (exactly one edition and one variant hold: the domain).
pub struct Logic<'r> {
    catalog: &'r Catalog,
    vars: BddVariableSet,
    /// Each module's variable by module bit, once a condition named it.
    modules: RefCell<Vec<Option<BddVariable>>>,
    /// The module variables no module has yet, the next one to give last.
    free: RefCell<Vec<BddVariable>>,
    editions: Vec<BddVariable>,
    variants: Vec<BddVariable>,
    /// Exactly one edition and one variant.
    domain: Bdd,
    /// Each derived flag's BDD, by flag index.
    flags: Vec<Result<Bdd, TooComplex>>,
    budget: Budget,
    /// The conditions decided so far (by [`Logic::try_cond`]).
    decided: RefCell<std::collections::HashMap<Cond, Bdd>>,
}

/// Where one version's names stand in a variable space the caller built:
/// the variable of each module, edition and rule variant by its index in the
/// catalog, and the selections that exist (the domain).
pub struct Space {
    /// By module bit.
    pub modules: Vec<BddVariable>,
    /// By edition index.
    pub editions: Vec<BddVariable>,
    /// By variant index.
    pub variants: Vec<BddVariable>,
    /// Every selection.
    pub domain: Bdd,
}

/// A selection: what a counterexample or an explanation names. The same as
/// the turn order's [`Config`]; the name stays for the tools that use it.
pub type Selection = Config;

impl<'r> Logic<'r> {
    /// The variables and the derived flags of `rules`, which `check`
    /// accepted: placed as `check` placed them, with a [`BUDGET`] of its
    /// own for the work of the tool that asks (`verify`, `explain`, …):
    /// rules whose every condition fits may still combine them past it.
    pub fn new(rules: &'r Rules) -> Self {
        Self::within(rules, Budget::new(BUDGET))
    }

    /// As [`Logic::new`], charging `budget`: the run's, which `check`
    /// spent from already ([`crate::Compiled::budget`]).
    pub fn within(rules: &'r Rules, budget: Budget) -> Self {
        let logic = Self::over(&rules.catalog, &rules.flags, budget);
        for items in rules.sections.before_steps() {
            logic.place_items(items);
        }
        for step in rules.steps() {
            logic.place(&step.when);
            logic.place_items(&step.items);
        }
        for items in rules.sections.after_steps() {
            logic.place_items(items);
        }
        logic
    }

    /// The variables of `catalog`, with `flags` as the derived flags (for
    /// `check`, before the model exists), within `budget`. Modules take
    /// their variables in the order conditions name them.
    pub fn over(catalog: &'r Catalog, flags: &[Flag], budget: Budget) -> Self {
        let count = catalog.modules.len() + catalog.editions.len() + catalog.variants.len();
        let vars = BddVariableSet::new_anonymous(u16::try_from(count).unwrap_or(u16::MAX));
        let all = vars.variables();
        let (modules, rest) = all.split_at(catalog.modules.len().min(all.len()));
        let (editions, variants) = rest.split_at(catalog.editions.len().min(rest.len()));
        // Rules without publishers' variants have no variant to choose, and
        // rules whose editions could not be read no edition.
        let exactly_one =
            |of: &[BddVariable]| if of.is_empty() { vars.mk_true() } else { vars.mk_sat_exactly_k(1, of) };
        let domain = exactly_one(editions).and(&exactly_one(variants));
        let free = modules.iter().rev().copied().collect();
        let mut logic = Logic {
            catalog,
            modules: RefCell::new(vec![None; modules.len()]),
            free: RefCell::new(free),
            editions: editions.to_vec(),
            variants: variants.to_vec(),
            domain,
            flags: Vec::new(),
            vars,
            budget,
            decided: RefCell::default(),
        };
        logic.flags = logic.build_flags(flags);
        logic
    }

    /// The conditions of `catalog` and `flags` over variables the caller
    /// chose, within `budget`: `review` puts two versions of the rules,
    /// whose module sets may differ, into one space this way, so that their
    /// BDDs can be compared (and the work of both counts toward one budget).
    pub fn in_space(catalog: &'r Catalog, flags: &[Flag], vars: BddVariableSet, space: Space, budget: Budget) -> Self {
        let Space { modules, editions, variants, domain } = space;
        let modules = RefCell::new(modules.into_iter().map(Some).collect());
        let mut logic = Logic {
            catalog,
            modules,
            free: RefCell::new(Vec::new()),
            editions,
            variants,
            domain,
            flags: Vec::new(),
            vars,
            budget,
            decided: RefCell::default(),
        };
        logic.flags = logic.build_flags(flags);
        logic
    }

    /// The order in which the conditions of `rules` name their modules
    /// (each once): the order [`Logic::new`] places them in.
    pub fn module_order(rules: &Rules) -> Vec<ModuleId> {
        let logic = Logic::new(rules);
        let placed = logic.modules.borrow();
        let mut order: Vec<(BddVariable, ModuleId)> =
            (0..placed.len()).filter_map(|m| placed[m].map(|v| (v, ModuleId(m as u8)))).collect();
        order.sort_unstable();
        order.into_iter().map(|(_, m)| m).collect()
    }

    /// Each flag's BDD, a flag named inside another built once (and a
    /// flag on a cycle, which `check` reports, as no selection).
    fn build_flags(&self, flags: &[Flag]) -> Vec<Result<Bdd, TooComplex>> {
        let mut built: Vec<Option<Result<Bdd, TooComplex>>> = vec![None; flags.len()];
        for f in 0..flags.len() {
            // Kept in `built`.
            let _ = self.build_flag(f, flags, &mut built, &mut Vec::new());
        }
        built.into_iter().map(|b| b.unwrap_or_else(|| Ok(self.vars.mk_false()))).collect()
    }

    fn build_flag(
        &self,
        f: usize,
        flags: &[Flag],
        built: &mut [Option<Result<Bdd, TooComplex>>],
        building: &mut Vec<usize>,
    ) -> Result<Bdd, TooComplex> {
        if let Some(done) = &built[f] {
            return done.clone();
        }
        if building.contains(&f) {
            return Ok(self.vars.mk_false());
        }
        building.push(f);
        let result = self.build(&flags[f].when, &mut |g| {
            if g < flags.len() { self.build_flag(g, flags, built, building) } else { Ok(self.vars.mk_false()) }
        });
        building.pop();
        built[f] = Some(result.clone());
        result
    }

    /// The flag whose definition spent the budget, if one did.
    pub fn too_complex_flag(&self) -> Option<usize> {
        self.flags.iter().position(|f| f == &Err(TooComplex::Here))
    }

    /// The BDD work done so far.
    pub fn spent(&self) -> usize {
        self.budget.spent()
    }

    /// The budget this logic charges: the run's.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The selections that satisfy `cond` (within the domain), or none if
    /// that takes more than the budget has left: for tools that read
    /// conditions `check` decided one at a time.
    pub fn cond(&self, cond: &Cond) -> Bdd {
        self.try_cond(cond).unwrap_or_else(|_| self.vars.mk_false())
    }

    /// The selections that satisfy `cond` (within the domain), or
    /// [`TooComplex`] if that takes more work than the budget has left.
    /// A condition decided before is not built again (`check`'s flow
    /// checks ask again of every item's): its work is charged once.
    pub fn try_cond(&self, cond: &Cond) -> Result<Bdd, TooComplex> {
        if let Some(known) = self.decided.borrow().get(cond) {
            return Ok(known.clone());
        }
        let bdd = self.bdd(cond)?;
        let set = self.and(&bdd, &self.domain)?;
        self.decided.borrow_mut().insert(cond.clone(), set.clone());
        Ok(set)
    }

    /// `a and b`, within the budget.
    pub fn and(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooComplex> {
        self.budget.apply(a, b, Op::And)
    }

    /// `a or b`, within the budget.
    pub fn or(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooComplex> {
        self.budget.apply(a, b, Op::Or)
    }

    /// `a and not b`, within the budget.
    pub fn and_not(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooComplex> {
        self.budget.apply(a, b, Op::AndNot)
    }

    /// The domain: every selection.
    pub fn everything(&self) -> &Bdd {
        &self.domain
    }

    /// No selection.
    pub fn nothing(&self) -> Bdd {
        self.vars.mk_false()
    }

    fn bdd(&self, cond: &Cond) -> Result<Bdd, TooComplex> {
        self.build(cond, &mut |f| self.flags.get(f).cloned().unwrap_or_else(|| Ok(self.vars.mk_false())))
    }

    /// `cond` as a BDD, with `flag` giving each derived flag's.
    fn build(&self, cond: &Cond, flag: &mut dyn FnMut(usize) -> Result<Bdd, TooComplex>) -> Result<Bdd, TooComplex> {
        Ok(match cond {
            Cond::True => self.vars.mk_true(),
            Cond::False => self.vars.mk_false(),
            Cond::Module(m) => self.module(*m),
            Cond::Flag(f) => flag(*f)?,
            Cond::Edition(e) => self.var(&self.editions, usize::from(e.0)),
            Cond::Variant(v) => self.var(&self.variants, usize::from(v.0)),
            Cond::Not(inner) => {
                let inner = self.build(inner, flag)?;
                self.budget.charge(inner.size())?;
                inner.not()
            }
            Cond::All(parts) => {
                let mut acc = self.vars.mk_true();
                for p in parts {
                    acc = self.budget.apply(&acc, &self.build(p, flag)?, Op::And)?;
                }
                acc
            }
            Cond::Any(parts) => {
                let mut acc = self.vars.mk_false();
                for p in parts {
                    acc = self.budget.apply(&acc, &self.build(p, flag)?, Op::Or)?;
                }
                acc
            }
        })
    }

    fn place_items(&self, items: &[crate::model::Item]) {
        for item in items {
            self.place(&item.when);
            self.place_items(&item.children);
        }
    }

    /// Places the modules `cond` names (flags were placed before).
    fn place(&self, cond: &Cond) {
        match cond {
            Cond::Module(m) => {
                self.module_var(*m);
            }
            Cond::Not(inner) => self.place(inner),
            Cond::All(parts) | Cond::Any(parts) => parts.iter().for_each(|p| self.place(p)),
            Cond::True | Cond::False | Cond::Flag(_) | Cond::Edition(_) | Cond::Variant(_) => {}
        }
    }

    /// The variable of module `m`: the next free one at its first mention.
    fn module_var(&self, m: ModuleId) -> Option<BddVariable> {
        let mut modules = self.modules.borrow_mut();
        let slot = modules.get_mut(usize::from(m.0))?;
        if slot.is_none() {
            *slot = self.free.borrow_mut().pop();
        }
        *slot
    }

    /// Every module's variable, by module bit (placing those not named yet).
    fn module_vars(&self) -> Vec<BddVariable> {
        let count = self.modules.borrow().len();
        (0..count).filter_map(|m| self.module_var(ModuleId(m as u8))).collect()
    }

    fn var(&self, vars: &[BddVariable], i: usize) -> Bdd {
        vars.get(i).map_or_else(|| self.vars.mk_false(), |&v| self.vars.mk_var(v))
    }

    /// The edition `e` is played.
    pub fn edition(&self, e: EditionId) -> Bdd {
        self.var(&self.editions, usize::from(e.0))
    }

    /// The module `m` is selected.
    pub fn module(&self, m: ModuleId) -> Bdd {
        self.module_var(m).map_or_else(|| self.vars.mk_false(), |v| self.vars.mk_var(v))
    }

    /// A selection in `set` with as few modules as can be (no module of it
    /// can be left out), in the edition's default variant where possible.
    pub fn witness(&self, set: &Bdd) -> Option<Selection> {
        let mut narrowed = set.clone();
        // Without publishers' variants there is no default to prefer.
        if !self.variants.is_empty() {
            for (e, info) in self.catalog.editions.iter().enumerate() {
                let default = self.var(&self.variants, usize::from(info.default_variant.0));
                let preferred = narrowed.and(&self.edition(EditionId(e as u8)).imp(&default));
                if !preferred.is_false() {
                    narrowed = preferred;
                }
            }
        }
        for m in self.module_vars() {
            let without = narrowed.var_select(m, false);
            if !without.is_false() {
                narrowed = without;
            }
        }
        let valuation = narrowed.sat_witness()?;
        Some(self.selection(&valuation))
    }

    /// A selection in `set` with the fewest modules, all of them among
    /// `mentioned` (the modules a condition names, in the order it names
    /// them): of those, the one that leaves out the later-named modules
    /// first, then the first edition and the first variant.
    pub fn fewest(&self, set: &Bdd, mentioned: &[ModuleId]) -> Option<Selection> {
        let vars: Vec<BddVariable> = mentioned.iter().filter_map(|&m| self.module_var(m)).collect();
        let others: Vec<(BddVariable, bool)> =
            self.module_vars().into_iter().filter(|v| !vars.contains(v)).map(|v| (v, false)).collect();
        let within = set.select(&others);
        let count = (0..=vars.len()).find(|&k| !within.and(&self.vars.mk_sat_exactly_k(k, &vars)).is_false())?;
        let mut narrowed = within.and(&self.vars.mk_sat_exactly_k(count, &vars));
        for &v in vars.iter().rev() {
            let without = narrowed.var_select(v, false);
            narrowed = if without.is_false() { narrowed.var_select(v, true) } else { without };
        }
        for group in [&self.editions, &self.variants] {
            if let Some(first) = group.iter().map(|&v| narrowed.var_select(v, true)).find(|b| !b.is_false()) {
                narrowed = first;
            }
        }
        narrowed.sat_witness().map(|valuation| self.selection(&valuation))
    }

    fn selection(&self, valuation: &BddValuation) -> Selection {
        let first = |vars: &[BddVariable]| vars.iter().position(|&v| valuation.value(v)).unwrap_or(0) as u8;
        let modules = self.module_vars();
        Selection {
            edition: EditionId(first(&self.editions)),
            variant: VariantId(first(&self.variants)),
            modules: (0..modules.len()).filter(|&i| valuation.value(modules[i])).map(|i| ModuleId(i as u8)).collect(),
        }
    }

    /// Whether `cfg` is in `set`.
    pub fn contains(&self, set: &Bdd, cfg: &Config) -> bool {
        !self.point(cfg).and(set).is_false()
    }

    /// The one selection `cfg`, as a set.
    fn point(&self, cfg: &Config) -> Bdd {
        let mut fixed: Vec<(BddVariable, bool)> = Vec::new();
        for (i, v) in self.module_vars().into_iter().enumerate() {
            fixed.push((v, cfg.has(ModuleId(i as u8))));
        }
        for (i, &v) in self.editions.iter().enumerate() {
            fixed.push((v, usize::from(cfg.edition.0) == i));
        }
        for (i, &v) in self.variants.iter().enumerate() {
            fixed.push((v, usize::from(cfg.variant.0) == i));
        }
        self.vars.mk_true().select(&fixed)
    }

    /// The selection of `set` nearest to `cfg` when only the modules of
    /// `among` may change and the edition and variant stay: the fewest
    /// modules toggled, the earliest of `among` first where several sets of
    /// that size would do. `None` if no such selection is in `set`. The
    /// search charges the budget: past it, [`TooComplex`].
    #[allow(clippy::type_complexity)]
    pub fn nearest(
        &self,
        set: &Bdd,
        cfg: &Config,
        among: &[ModuleId],
    ) -> Result<Option<(Vec<ModuleId>, Config)>, TooComplex> {
        let movable: Vec<BddVariable> = among.iter().filter_map(|&m| self.module_var(m)).collect();
        let start = self.point(cfg);
        // Every selection within `changes` toggles of `cfg`, grown one toggle at a time.
        let mut ball = start.clone();
        let mut found = self.and(&ball, set)?;
        let mut changes = 0;
        while found.is_false() {
            let mut grown = ball.clone();
            for &v in &movable {
                let moved = ball.var_exists(v);
                self.budget.charge(moved.size())?;
                grown = self.or(&grown, &moved)?;
            }
            if grown == ball {
                return Ok(None);
            }
            ball = grown;
            changes += 1;
            found = self.and(&ball, set)?;
        }
        // Of the nearest, the one that toggles the earliest modules.
        let mut toggled = Vec::new();
        for &m in among {
            if toggled.len() == changes {
                break;
            }
            let Some(v) = self.module_var(m) else { continue };
            let flipped = found.var_select(v, !cfg.has(m));
            if !flipped.is_false() {
                found = flipped;
                toggled.push(m);
            }
        }
        let mut modules = ModuleSet::EMPTY;
        for m in cfg.modules.iter().filter(|m| !toggled.contains(m)) {
            modules.insert(m);
        }
        for &m in toggled.iter().filter(|&&m| !cfg.has(m)) {
            modules.insert(m);
        }
        Ok(Some((toggled, Config { modules, ..*cfg })))
    }

    /// The command that shows `selection`'s turn order.
    pub fn command(&self, selection: &Selection) -> String {
        crate::command::order(self.catalog, selection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::new(
            &[("C1", "1st", VariantId(0)), ("C2", "new", VariantId(0)), ("WE", "winter", VariantId(0))],
            &[("hig", "HiG"), ("zmg", "ZMG"), ("rgg", "RGG")],
            &[("dragon", "Dragon", true), ("fairy", "Fairy", true), ("abbey", "Abbey", true)],
            &[("x", "X", &["C1"], &[ModuleId(0), ModuleId(1), ModuleId(2)])],
        )
    }

    fn empty(logic: &Logic, cond: &Cond) -> bool {
        logic.cond(cond).is_false()
    }

    #[test]
    fn the_domain_is_one_edition_and_one_variant() {
        let catalog = catalog();
        let logic = Logic::over(&catalog, &[], Budget::new(BUDGET));
        let dragon = Cond::Module(ModuleId(0));
        assert!(!empty(&logic, &dragon));
        assert!(empty(&logic, &Cond::All(vec![dragon.clone(), Cond::Not(Box::new(dragon.clone()))])));
        assert!(empty(&logic, &Cond::All(vec![Cond::Edition(EditionId(0)), Cond::Edition(EditionId(1))])));
        assert!(!empty(&logic, &Cond::All(vec![Cond::Variant(VariantId(2)), Cond::Edition(EditionId(0))])));
        assert!(empty(&logic, &Cond::Edition(EditionId(3))), "edition 3 does not exist");
        assert!(empty(&logic, &Cond::False));
        let flags = [Flag {
            id: "no_dragon".into(),
            when: Cond::Not(Box::new(dragon.clone())),
            span: NOWHERE,
            name_span: NOWHERE,
        }];
        let logic = Logic::over(&catalog, &flags, Budget::new(BUDGET));
        assert!(empty(&logic, &Cond::All(vec![dragon, Cond::Flag(0)])), "flags are expanded");
    }

    #[test]
    fn huge_conditions_are_decided_exactly_and_quickly() {
        // `(m and not m)` 1,000 times over 3 modules, and a 20-module
        // contradiction: trying every selection would visit 10^10 terms.
        let catalog = catalog();
        let logic = Logic::over(&catalog, &[], Budget::new(BUDGET));
        let never = |m: u8| Cond::All(vec![Cond::Module(ModuleId(m)), Cond::Not(Box::new(Cond::Module(ModuleId(m))))]);
        let started = std::time::Instant::now();
        assert!(empty(&logic, &Cond::Any((0..1000).map(|i| never((i % 3) as u8)).collect())));
        assert!(logic.witness(&logic.cond(&never(0))).is_none());
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn fewest_prefers_the_modules_named_first() {
        let catalog = catalog();
        let logic = Logic::over(&catalog, &[], Budget::new(BUDGET));
        let [dragon, fairy, abbey] = [0, 1, 2].map(|m| Cond::Module(ModuleId(m)));
        // abbey or fairy, named so: abbey is the one.
        let set = logic.cond(&Cond::Any(vec![abbey.clone(), fairy.clone()]));
        let cfg = logic.fewest(&set, &[ModuleId(2), ModuleId(1)]).expect("satisfiable");
        assert_eq!(cfg.modules.iter().collect::<Vec<_>>(), [ModuleId(2)]);
        assert_eq!((cfg.edition, cfg.variant), (EditionId(0), VariantId(0)));
        // Two of three: the first two named.
        let two = Cond::Any(vec![
            Cond::All(vec![dragon.clone(), fairy.clone()]),
            Cond::All(vec![dragon.clone(), abbey.clone()]),
            Cond::All(vec![fairy.clone(), abbey.clone()]),
        ]);
        let named = [ModuleId(0), ModuleId(1), ModuleId(2)];
        let cfg = logic.fewest(&logic.cond(&two), &named).expect("satisfiable");
        assert_eq!(cfg.modules.iter().collect::<Vec<_>>(), [ModuleId(0), ModuleId(1)]);
        let we = logic.cond(&Cond::All(vec![Cond::Edition(EditionId(2)), Cond::Variant(VariantId(1))]));
        let cfg = logic.fewest(&we, &[]).expect("satisfiable");
        assert_eq!((cfg.edition, cfg.variant, cfg.modules), (EditionId(2), VariantId(1), ModuleSet::EMPTY));
    }

    #[test]
    fn two_catalogs_in_one_space_compare_by_the_variables_given() {
        // The same modules in another order, and one more: placed by id into
        // one variable set, each catalog's `dragon` is the same variable.
        let first = catalog();
        let second = Catalog::new(
            &[("C1", "1st", VariantId(0))],
            &[("hig", "HiG")],
            &[("tower", "Tower", true), ("abbey", "Abbey", true), ("dragon", "Dragon", true)],
            &[("x", "X", &["C1"], &[ModuleId(0), ModuleId(1), ModuleId(2)])],
        );
        let vars = BddVariableSet::new_anonymous(6);
        let [dragon, fairy, abbey, tower, c1, hig] = vars.variables()[..] else { unreachable!() };
        let domain = vars.mk_var(c1).and(&vars.mk_var(hig));
        let space = |modules: Vec<BddVariable>| Space {
            modules,
            editions: vec![c1],
            variants: vec![hig],
            domain: domain.clone(),
        };
        let budget = Budget::new(BUDGET);
        let a = Logic::in_space(&first, &[], vars.clone(), space(vec![dragon, fairy, abbey]), budget.clone());
        let b = Logic::in_space(&second, &[], vars.clone(), space(vec![tower, abbey, dragon]), budget);
        assert_eq!(a.cond(&Cond::Module(ModuleId(0))), b.cond(&Cond::Module(ModuleId(2))), "dragon in both");
        assert_eq!(a.cond(&Cond::Module(ModuleId(2))), b.cond(&Cond::Module(ModuleId(1))), "abbey in both");
        assert_ne!(a.cond(&Cond::Module(ModuleId(0))), b.cond(&Cond::Module(ModuleId(0))), "dragon is not tower");
        // The domain is the caller's: a second edition of `first` has no variable here.
        assert!(a.cond(&Cond::Edition(EditionId(1))).is_false());
        assert_eq!(a.everything(), &domain);
    }

    const NOWHERE: crate::model::Span = crate::model::Span { file: crate::diagnostics::FileId(0), start: 0, len: 0 };

    #[test]
    fn nearest_toggles_the_fewest_modules_earliest_first() {
        let catalog = catalog();
        let logic = Logic::over(&catalog, &[], Budget::new(BUDGET));
        let [dragon, fairy, abbey] = [0, 1, 2].map(|m| Cond::Module(ModuleId(m)));
        let cfg = Config { edition: EditionId(1), variant: VariantId(0), modules: [ModuleId(1)].into_iter().collect() };
        // dragon and not fairy, or abbey: adding abbey is one change.
        let set = logic
            .cond(&Cond::Any(vec![Cond::All(vec![dragon.clone(), Cond::Not(Box::new(fairy.clone()))]), abbey.clone()]));
        let all = [ModuleId(0), ModuleId(1), ModuleId(2)];
        let (toggled, flipped) = logic.nearest(&set, &cfg, &all).expect("within the budget").expect("reachable");
        assert_eq!(toggled, [ModuleId(2)]);
        assert!(logic.contains(&set, &flipped) && !logic.contains(&set, &cfg));
        // Without abbey movable, it takes two: add dragon, remove fairy.
        let (toggled, flipped) = logic.nearest(&set, &cfg, &all[..2]).expect("within the budget").expect("reachable");
        assert_eq!(toggled, [ModuleId(0), ModuleId(1)]);
        assert_eq!(flipped.modules.iter().collect::<Vec<_>>(), [ModuleId(0)]);
        assert!(
            logic.nearest(&logic.cond(&Cond::Edition(EditionId(0))), &cfg, &all).expect("within the budget").is_none(),
            "editions stay"
        );
    }
}
