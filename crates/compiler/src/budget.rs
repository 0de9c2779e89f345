//! The work one run may do: one [`Budget`] per command, made before
//! `check` and handed on to every pass after it (the BDDs of
//! [`crate::logic`], the origins' walk of [`crate::model`], `explain`, the
//! wiki export, `verify`). Below both the logic and the model, which charge it.

use std::cell::Cell;
use std::rc::Rc;

use biodivine_lib_bdd::{Bdd, op_function};

/// The work one run may do, in steps: BDD nodes built, and the steps of the
/// passes that charge the same budget (a node walked, a line written). The
/// bundled rules build
/// about 20,000 and a hundred times their conditions 1.1 million (see
/// docs/performance.md); this many take under 2 s even in a build script's
/// unoptimised compiler.
pub const BUDGET: usize = 1 << 21;

/// The most steps one operation may take: what bounds the memory of a run
/// (its tables take a few dozen bytes a step).
pub const OPERATION: usize = 1 << 20;

/// The budget of BDD work was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooComplex {
    /// By this condition: the one to report.
    Here,
    /// Before: some earlier condition was reported.
    Earlier,
}

/// The work a run may still do: one per command, made before `check` and
/// handed on to every pass after it. Clones share it, so that the caller
/// can read what a run spent.
#[derive(Debug, Clone)]
pub struct Budget {
    left: Rc<Cell<usize>>,
    total: usize,
}

impl Budget {
    /// A budget of `steps` apply steps.
    pub fn new(steps: usize) -> Self {
        Budget { left: Rc::new(Cell::new(steps)), total: steps }
    }

    /// The steps spent so far.
    pub fn spent(&self) -> usize {
        self.total - self.left.get()
    }

    /// Whether nothing is left: what was decided since may be wrong.
    pub fn exhausted(&self) -> bool {
        self.left.get() == 0
    }

    /// Charges `steps` of work done outside the operations below (a walk
    /// of a BDD or of a condition, a node built, a line written): more
    /// than are left spends the budget.
    pub fn charge(&self, steps: usize) -> Result<(), TooComplex> {
        let left = self.left.get();
        if left == 0 {
            return Err(TooComplex::Earlier);
        }
        if steps > left {
            self.left.set(0);
            return Err(TooComplex::Here);
        }
        self.left.set(left - steps);
        Ok(())
    }

    /// `op` of `a` and `b`, charged the nodes it builds. An operation that
    /// could take more steps than one may, or than are left (the product of
    /// its operands' sizes bounds them), is counted first, and refused
    /// without doing the work when it takes more: that spends the budget.
    pub(crate) fn apply(&self, a: &Bdd, b: &Bdd, op: Op) -> Result<Bdd, TooComplex> {
        let left = self.left.get();
        if left == 0 {
            return Err(TooComplex::Earlier);
        }
        let most = left.min(OPERATION);
        if a.size().saturating_mul(b.size()) > most {
            // A dry run counts the steps in less memory than the work takes.
            let function = match op {
                Op::And => op_function::and,
                Op::Or => op_function::or,
                Op::AndNot => op_function::and_not,
            };
            let steps = Bdd::check_binary_op(most, a, b, function).map_or(usize::MAX, |(_, steps)| steps);
            self.charge(steps)?;
        }
        // The BDD crate's own `and` and `or`, not its generic `binary_op`:
        // they are compiled (and optimised, even in the debug build: see the
        // workspace's Cargo.toml) in that crate, not in this one.
        let result = match op {
            Op::And => a.and(b),
            Op::Or => a.or(b),
            Op::AndNot => a.and_not(b),
        };
        self.charge(result.size())?;
        Ok(result)
    }

    /// `a and b`, within the budget.
    pub fn and(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooComplex> {
        self.apply(a, b, Op::And)
    }

    /// `a or b`, within the budget.
    pub fn or(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooComplex> {
        self.apply(a, b, Op::Or)
    }

    /// `a and not b`, within the budget.
    pub fn and_not(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, TooComplex> {
        self.apply(a, b, Op::AndNot)
    }
}

/// The operations [`Budget::apply`] does.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op {
    And,
    Or,
    AndNot,
}
