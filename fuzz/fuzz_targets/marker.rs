//! The marker parser (`dsl::marker`) on any UTF-8 string (one YAML scalar's
//! value): no panic, errors located in the input, the same result twice.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    // YAML scalars are UTF-8: other bytes never reach the parser.
    if let Ok(input) = std::str::from_utf8(input) {
        carcassonne_rules_fuzz::invariants::marker(input);
    }
});
