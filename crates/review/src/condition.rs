//! A set of selections (a BDD) printed as a small DSL condition.
//!
//! The set is split by edition and then by rule variant, editions (and
//! variants) with the same set of module choices are grouped into one test,
//! and what remains — a function of the modules alone — is written as a
//! disjunction of prime implicants without redundant ones: biodivine's
//! optimised DNF, each clause widened while it stays inside the set, then
//! clauses covered by the others dropped. Modules an edition does not have
//! are false in it, so they never appear in that edition's part, and an
//! edition test is left out where the modules alone rule the other editions
//! out.

use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddVariable};

use super::space::Vars;

/// `set` (within the domain) as a condition that holds exactly there.
pub(crate) fn condition(vars: &Vars, set: &Bdd) -> String {
    let work = &vars.work;
    let set = work.and(set, &vars.domain);
    if set.is_false() {
        return "false".into();
    }
    if work.within(&vars.domain, &set) {
        return "true".into();
    }
    // Editions with the same choices of variant and modules, grouped.
    let mut by_edition: Vec<(Vec<usize>, Bdd)> = Vec::new();
    for e in 0..vars.editions.len() {
        let mut fixed: Vec<(BddVariable, bool)> = vars.editions.iter().enumerate().map(|(i, &v)| (v, i == e)).collect();
        let absent = vars.edition_modules[e].iter().zip(&vars.modules).filter(|(p, _)| !**p).map(|(_, &m)| (m, false));
        fixed.extend(absent);
        let here = set.restrict(&fixed);
        if here.is_false() {
            continue;
        }
        match by_edition.iter_mut().find(|(_, f)| work.same(f, &here)) {
            Some((editions, _)) => editions.push(e),
            None => by_edition.push((vec![e], here)),
        }
    }
    let mut terms = Vec::new();
    for (editions, f) in &by_edition {
        let edition = test("edition", &vars.edition_ids, editions);
        let mut by_variant: Vec<(Vec<usize>, Bdd)> = Vec::new();
        for v in 0..vars.variants.len() {
            let fixed: Vec<(BddVariable, bool)> = vars.variants.iter().enumerate().map(|(i, &x)| (x, i == v)).collect();
            let here = f.restrict(&fixed);
            if here.is_false() {
                continue;
            }
            match by_variant.iter_mut().find(|(_, g)| work.same(g, &here)) {
                Some((variants, _)) => variants.push(v),
                None => by_variant.push((vec![v], here)),
            }
        }
        if vars.variants.is_empty() {
            by_variant.push((Vec::new(), f.clone()));
        }
        for (variants, g) in &by_variant {
            let variant = test("variant", &vars.variant_ids, variants);
            // The edition test says nothing where the modules already rule
            // the other editions out (the abbey is not in the Winter edition).
            let in_variants = if vars.variants.is_empty() {
                vars.set.mk_true()
            } else {
                variants.iter().fold(vars.set.mk_false(), |acc, &v| work.or(&acc, &vars.set.mk_var(vars.variants[v])))
            };
            let there = work.and(&work.and(&in_variants, g), &vars.domain);
            let edition = match work.within(&there, &set) {
                true => None,
                false => edition.clone(),
            };
            let parts: Vec<Expr> = [edition, variant, modules(vars, g)].into_iter().flatten().collect();
            terms.push(Expr::and(parts));
        }
    }
    Expr::or(terms).to_string()
}

/// `edition == C1`, `edition != WE` or `(edition == C1 or edition == C2)`;
/// nothing when every value is in `chosen`.
fn test(what: &str, ids: &[String], chosen: &[usize]) -> Option<Expr> {
    if chosen.len() == ids.len() {
        return None;
    }
    if chosen.len() + 1 == ids.len() && ids.len() > 2 {
        let other = (0..ids.len()).find(|i| !chosen.contains(i))?;
        return Some(Expr::Atom(format!("{what} != {}", ids[other])));
    }
    Some(Expr::or(chosen.iter().map(|&i| Expr::Atom(format!("{what} == {}", ids[i]))).collect()))
}

/// The most terms a printed condition may have.
const TERMS: usize = 256;

/// A function of the modules as a small disjunction of conjunctions;
/// nothing when it always holds.
fn modules(vars: &Vars, f: &Bdd) -> Option<Expr> {
    if f.is_true() {
        return None;
    }
    let work = &vars.work;
    // Each step of the DNF's search walks `f`: charged so. A condition of
    // more than `TERMS` terms is refused rather than printed (a hostile one
    // has exponentially many).
    let size = f.size();
    let dnf = f._to_optimized_dnf(true, &|found: &[BddPartialValuation]| {
        let ok = if found.len() > TERMS { work.refuse() } else { work.charge(size) };
        ok.then_some(()).ok_or(())
    });
    let Ok(mut clauses) = dnf else { return Some(Expr::Atom("false".into())) };
    // Widen each clause to a prime implicant: drop every literal it can do without.
    for clause in &mut clauses {
        for (var, _) in clause.to_values() {
            let mut wider = clause.clone();
            wider.unset_value(var);
            if work.within(&vars.set.mk_conjunctive_clause(&wider), f) {
                *clause = wider;
            }
        }
    }
    clauses.sort_by_key(|c| c.cardinality());
    clauses.dedup();
    // Drop clauses the others cover, the widest kept first.
    let mut kept: Vec<BddPartialValuation> = clauses.clone();
    for clause in clauses.iter().rev() {
        let others: Vec<&BddPartialValuation> = kept.iter().filter(|c| *c != clause).collect();
        let covered =
            others.iter().fold(vars.set.mk_false(), |acc, c| work.or(&acc, &vars.set.mk_conjunctive_clause(c)));
        if work.within(f, &covered) {
            kept.retain(|c| c != clause);
        }
    }
    // Literals every clause has are written once, in front.
    let values: Vec<Vec<(BddVariable, bool)>> = kept.iter().map(BddPartialValuation::to_values).collect();
    let shared: Vec<(BddVariable, bool)> = match values.split_first() {
        Some((first, rest)) if !rest.is_empty() => {
            first.iter().filter(|l| rest.iter().all(|c| c.contains(l))).copied().collect()
        }
        _ => Vec::new(),
    };
    let conjunction = |literals: Vec<(BddVariable, bool)>| {
        let mut literals = literals;
        // Modules needed first, then those excluded; by id within each.
        // (`module_ids` is sorted; the variables are in the order of mention.)
        let index = |var: BddVariable| vars.modules.iter().position(|&m| m == var);
        literals.sort_by_key(|&(var, value)| (!value, index(var)));
        let atoms = literals.into_iter().filter_map(|(var, value)| {
            let id = index(var).map(|i| vars.module_ids[i].clone())?;
            Some(Expr::Atom(if value { id } else { format!("not {id}") }))
        });
        atoms.collect::<Vec<_>>()
    };
    let mut terms: Vec<Expr> = values
        .into_iter()
        .map(|clause| Expr::and(conjunction(clause.into_iter().filter(|l| !shared.contains(l)).collect())))
        .collect();
    terms.sort_by_key(|t| t.to_string());
    let mut parts = conjunction(shared);
    parts.push(Expr::or(terms));
    Some(Expr::and(parts))
}

/// A condition being written: `and` binds tighter than `or`.
#[derive(Clone)]
enum Expr {
    Atom(String),
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

impl Expr {
    fn and(parts: Vec<Expr>) -> Expr {
        let mut parts: Vec<Expr> = parts
            .into_iter()
            .flat_map(|p| match p {
                Expr::And(inner) => inner,
                other => vec![other],
            })
            .collect();
        match parts.len() {
            0 => Expr::Atom("true".into()),
            1 => parts.remove(0),
            _ => Expr::And(parts),
        }
    }

    fn or(mut parts: Vec<Expr>) -> Expr {
        match parts.len() {
            0 => Expr::Atom("false".into()),
            1 => parts.remove(0),
            _ => Expr::Or(parts),
        }
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let join = |parts: &[Expr], op: &str, f: &mut std::fmt::Formatter<'_>| {
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    write!(f, " {op} ")?;
                }
                // Parentheses around an `or` inside an `and` are needed, and
                // around an `and` inside an `or` they help the reader.
                match part {
                    Expr::Atom(a) => f.write_str(a)?,
                    nested => write!(f, "({nested})")?,
                }
            }
            Ok(())
        };
        match self {
            Expr::Atom(a) => f.write_str(a),
            Expr::And(parts) => join(parts, "and", f),
            Expr::Or(parts) => join(parts, "or", f),
        }
    }
}
