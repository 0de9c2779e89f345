//! The logic (`logic::Logic::try_cond`) on random conditions over many
//! modules: decided exactly within the budget, or refused at the condition.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    carcassonne_rules_fuzz::invariants::logic(input);
});
