//! The variable space two versions of the rules share: one BDD variable
//! per module (the union of both versions', by id), edition and rule
//! variant; the domain of every selection; exact counts, example selections
//! and their command lines.

use biodivine_lib_bdd::{Bdd, BddValuation, BddVariable, BddVariableSet};
use carcassonne_rules_core::EditionId;
use carcassonne_rules_core::catalog::SelectionPart;

use super::work::Work;
use carcassonne_rules_compiler::command::option;
use carcassonne_rules_compiler::logic::{Logic, Space};
use carcassonne_rules_compiler::model::Rules;

/// The variable space shared by both versions.
pub(crate) struct Vars {
    pub(super) set: BddVariableSet,
    pub(super) module_ids: Vec<String>,
    pub(super) modules: Vec<BddVariable>,
    pub(super) edition_ids: Vec<String>,
    pub(super) editions: Vec<BddVariable>,
    pub(super) variant_ids: Vec<String>,
    pub(super) variants: Vec<BddVariable>,
    /// Per edition, whether each module exists in it (in either version).
    pub(super) edition_modules: Vec<Vec<bool>>,
    /// Whether each module exists in both versions (examples prefer those).
    pub(super) common: Vec<bool>,
    /// Per edition, its default variant's index.
    pub(super) default_variant: Vec<usize>,
    /// Every selection: one edition, one variant, modules of that edition.
    pub(super) domain: Bdd,
    /// One edition and one variant, whatever the modules: what conditions
    /// are built within (a far smaller BDD than the domain, so cheaper to
    /// combine with); every change is cut to the domain when recorded.
    pub(super) within: Bdd,
    /// The budget of BDD work both versions share.
    pub(super) work: Work,
}

impl Vars {
    pub(super) fn new(base: &Rules, head: &Rules) -> Vars {
        let (b, h) = (&base.catalog, &head.catalog);
        let mut module_ids: Vec<String> = b.modules.iter().chain(&h.modules).map(|m| m.id.clone()).collect();
        module_ids.sort();
        module_ids.dedup();
        let mut edition_ids: Vec<String> = Vec::new();
        for e in h.editions.iter().chain(&b.editions) {
            if !edition_ids.contains(&e.id) {
                edition_ids.push(e.id.clone());
            }
        }
        let mut variant_ids: Vec<String> = Vec::new();
        for v in h.variants.iter().chain(&b.variants) {
            if !variant_ids.contains(&v.id) {
                variant_ids.push(v.id.clone());
            }
        }
        let count = module_ids.len() + edition_ids.len() + variant_ids.len();
        let set = BddVariableSet::new_anonymous(u16::try_from(count).unwrap_or(u16::MAX));
        let all = set.variables();
        let (placed, rest) = all.split_at(module_ids.len().min(all.len()));
        // Variables in the order the conditions name the modules (the
        // head's, then the base's), as `check` places them: ordered by id,
        // one condition pairing modules far apart in it grows exponentially.
        let mut order: Vec<&str> = Vec::new();
        for rules in [head, base] {
            for m in Logic::module_order(rules) {
                let id = rules.catalog.modules.get(usize::from(m.0)).map(|m| m.id.as_str());
                if let Some(id) = id.filter(|id| !order.contains(id)) {
                    order.push(id);
                }
            }
        }
        order.extend(module_ids.iter().map(String::as_str).filter(|id| !order.contains(id)).collect::<Vec<_>>());
        let modules: Vec<BddVariable> = module_ids
            .iter()
            .filter_map(|id| order.iter().position(|o| o == id).and_then(|i| placed.get(i).copied()))
            .collect();
        let modules = modules.as_slice();
        let (editions, variants) = rest.split_at(edition_ids.len().min(rest.len()));
        let mut edition_modules = vec![vec![false; module_ids.len()]; edition_ids.len()];
        for catalog in [b, h] {
            for x in &catalog.expansions {
                for e in x.editions.iter().filter_map(|e| edition_ids.iter().position(|id| id == e)) {
                    for m in x.modules.iter().filter_map(|m| module_ids.iter().position(|id| *id == m.id)) {
                        edition_modules[e][m] = true;
                    }
                }
            }
        }
        let common = module_ids.iter().map(|id| b.module(id).is_some() && h.module(id).is_some()).collect::<Vec<_>>();
        let default_variant = edition_ids
            .iter()
            .map(|id| {
                let (catalog, e) = match h.edition(id) {
                    Some(e) => (h, e),
                    None => (b, b.edition(id).unwrap_or(EditionId(0))),
                };
                let v = catalog.editions.get(usize::from(e.0)).map(|e| e.default_variant);
                let v = v.and_then(|v| catalog.variants.get(usize::from(v.0)));
                v.and_then(|v| variant_ids.iter().position(|id| *id == v.id)).unwrap_or(0)
            })
            .collect();
        let one_variant = if variants.is_empty() { set.mk_true() } else { set.mk_sat_exactly_k(1, variants) };
        let within = set.mk_sat_exactly_k(1, editions).and(&one_variant);
        let mut domain = within.clone();
        for (e, present) in edition_modules.iter().enumerate() {
            let absent = present
                .iter()
                .zip(modules)
                .filter(|(p, _)| !**p)
                .fold(set.mk_true(), |acc, (_, &m)| acc.and(&set.mk_not_var(m)));
            domain = domain.and(&set.mk_var(editions[e]).imp(&absent));
        }
        Vars {
            work: Work::new(&set),
            module_ids,
            modules: modules.to_vec(),
            edition_ids,
            editions: editions.to_vec(),
            variant_ids,
            variants: variants.to_vec(),
            edition_modules,
            common,
            default_variant,
            domain,
            within,
            set,
        }
    }

    /// Where `rules`' catalog indices stand in this space.
    pub(super) fn space(&self, rules: &Rules) -> Space {
        let c = &rules.catalog;
        let find = |ids: &[String], vars: &[BddVariable], id: &str| {
            ids.iter().position(|x| x == id).and_then(|i| vars.get(i).copied()).unwrap_or(BddVariable::from_index(0))
        };
        Space {
            modules: c.modules.iter().map(|m| find(&self.module_ids, &self.modules, &m.id)).collect(),
            editions: c.editions.iter().map(|e| find(&self.edition_ids, &self.editions, &e.id)).collect(),
            variants: c.variants.iter().map(|v| find(&self.variant_ids, &self.variants, &v.id)).collect(),
            domain: self.within.clone(),
        }
    }

    pub(super) fn edition(&self, e: usize) -> Bdd {
        self.set.mk_var(self.editions[e])
    }

    /// The exact number of selections in `set`, per edition.
    pub(super) fn counts(&self, set: &Bdd) -> Vec<(String, u128)> {
        let within = self.work.and(set, &self.domain);
        self.edition_ids
            .iter()
            .enumerate()
            .map(|(e, id)| {
                let n = self.work.and(&within, &self.edition(e)).exact_cardinality();
                (id.clone(), n.to_string().parse().unwrap_or(u128::MAX))
            })
            .collect()
    }

    /// A selection in `set` that is easy to try: in its first edition, the
    /// edition's default variant, modules both versions know, and as few
    /// modules as can be (none of them can be left out).
    pub(super) fn witness(&self, set: &Bdd) -> Option<BddValuation> {
        let mut narrowed = self.work.and(set, &self.domain);
        let first = (0..self.editions.len()).find(|&e| !self.work.and(&narrowed, &self.edition(e)).is_false())?;
        narrowed = self.work.and(&narrowed, &self.edition(first));
        let prefer = |narrowed: &mut Bdd, var: BddVariable, value: bool| {
            let there = narrowed.var_select(var, value);
            if !there.is_false() {
                *narrowed = there;
            }
        };
        if let Some(&v) = self.variants.get(self.default_variant[first]) {
            prefer(&mut narrowed, v, true);
        }
        for (&var, _) in self.modules.iter().zip(&self.common).filter(|(_, common)| !**common) {
            prefer(&mut narrowed, var, false);
        }
        for &m in &self.modules {
            prefer(&mut narrowed, m, false);
        }
        narrowed.sat_witness()
    }

    /// The edition, variant and modules of a valuation, by index.
    pub(super) fn selection(&self, v: &BddValuation) -> (usize, usize, Vec<usize>) {
        let first = |vars: &[BddVariable]| vars.iter().position(|&x| v.value(x)).unwrap_or(0);
        let modules = (0..self.modules.len()).filter(|&m| v.value(self.modules[m])).collect();
        (first(&self.editions), first(&self.variants), modules)
    }

    /// The `order` command line of a valuation, without the program name
    /// (as [`carcassonne_rules_compiler::command::order`] writes it, over both versions' names).
    pub(super) fn command(&self, v: &BddValuation) -> String {
        let (e, variant, modules) = self.selection(v);
        let mut command = format!("order {} {}", option(SelectionPart::Edition), self.edition_ids[e]);
        if !self.variants.is_empty() && variant != self.default_variant[e] {
            command.push_str(&format!(" {} {}", option(SelectionPart::Variant), self.variant_ids[variant]));
        }
        if !modules.is_empty() {
            let ids: Vec<&str> = modules.iter().map(|&m| self.module_ids[m].as_str()).collect();
            command.push_str(&format!(" {} {}", option(SelectionPart::Modules), ids.join(",")));
        }
        command
    }
}
