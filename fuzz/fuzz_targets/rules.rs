//! The loader and the checker on one YAML file: each input replaces one file
//! of a copy of the bundled rules (made once per process, in a temporary
//! folder), which is compiled twice. No panic, every diagnostic located inside
//! its file and renderable, the same outcome twice.

#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use carcassonne_rules_fuzz::invariants::RulesBed;
use libfuzzer_sys::fuzz_target;

fn bed() -> &'static RulesBed {
    static BED: OnceLock<RulesBed> = OnceLock::new();
    BED.get_or_init(|| {
        let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
        RulesBed::new(&rules).unwrap_or_else(|err| panic!("cannot copy {}: {err}", rules.display()))
    })
}

fuzz_target!(|input: &[u8]| {
    bed().check(input);
});
