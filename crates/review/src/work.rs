//! The BDD work of one `review`: both versions' conditions, their
//! comparison and the printing of each change count toward one
//! [`Budget`]. Past it, every operation gives no selection at once (so the
//! rest of the run does no work) and the condition the work was for when
//! the budget ran out is the one to report ([`TooComplex`]).

use std::cell::Cell;

use biodivine_lib_bdd::{Bdd, BddVariableSet};

use carcassonne_rules_compiler::logic::{self, Budget};
use carcassonne_rules_compiler::model::Span;

/// Which version of the rules a condition is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The version compared against (`--base`).
    Base,
    /// The version under review.
    Head,
}

/// The condition whose comparison spent the budget, if one did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooComplex {
    /// The version it is in.
    pub side: Side,
    /// Where it is written.
    pub span: Span,
}

/// The budget both versions share, and the condition being worked on.
pub(super) struct Work {
    budget: Budget,
    none: Bdd,
    /// The condition the work is for now.
    at: Cell<Option<TooComplex>>,
    /// The condition the work was for when the budget ran out.
    failed: Cell<Option<Option<TooComplex>>>,
}

impl Work {
    pub(super) fn new(set: &BddVariableSet) -> Self {
        Work { budget: Budget::new(logic::BUDGET), none: set.mk_false(), at: Cell::new(None), failed: Cell::new(None) }
    }

    /// The budget, for the versions' [`Logic`](carcassonne_rules_compiler::logic::Logic).
    pub(super) fn budget(&self) -> Budget {
        self.budget.clone()
    }

    /// The work from now on is for the condition at `span` in `side`.
    pub(super) fn at(&self, side: Side, span: Span) {
        self.at.set(Some(TooComplex { side, span }));
    }

    /// What ran out, if the budget did: `Some(None)` when no condition was
    /// being worked on.
    pub(super) fn failed(&self) -> Option<Option<TooComplex>> {
        self.failed.get()
    }

    /// The result of an operation: on failure, no selection (and the
    /// condition worked on is recorded, the first time).
    pub(super) fn done(&self, result: Result<Bdd, logic::TooComplex>) -> Bdd {
        result.unwrap_or_else(|_| {
            self.fail();
            self.none.clone()
        })
    }

    fn fail(&self) {
        if self.failed.get().is_none() {
            self.failed.set(Some(self.at.get()));
        }
    }

    /// Charges `steps` of other work; false once the budget is spent.
    pub(super) fn charge(&self, steps: usize) -> bool {
        let ok = self.budget.charge(steps).is_ok();
        if !ok {
            self.fail();
        }
        ok
    }

    /// Spends what is left (the work asked for would not be worth showing):
    /// false, as [`Work::charge`] past the budget.
    pub(super) fn refuse(&self) -> bool {
        self.charge(usize::MAX)
    }

    pub(super) fn and(&self, a: &Bdd, b: &Bdd) -> Bdd {
        self.done(self.budget.and(a, b))
    }

    pub(super) fn or(&self, a: &Bdd, b: &Bdd) -> Bdd {
        self.done(self.budget.or(a, b))
    }

    pub(super) fn and_not(&self, a: &Bdd, b: &Bdd) -> Bdd {
        self.done(self.budget.and_not(a, b))
    }

    /// `a` and not `b` is empty.
    pub(super) fn within(&self, a: &Bdd, b: &Bdd) -> bool {
        self.and_not(a, b).is_false()
    }

    /// Two sets are the same set.
    pub(super) fn same(&self, a: &Bdd, b: &Bdd) -> bool {
        self.within(a, b) && self.within(b, a)
    }

    /// The sets where exactly one of `a` and `b` holds.
    pub(super) fn xor(&self, a: &Bdd, b: &Bdd) -> Bdd {
        let (one, other) = (self.and_not(a, b), self.and_not(b, a));
        self.or(&one, &other)
    }
}
