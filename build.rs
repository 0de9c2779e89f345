//! Compiles `rules/` into Rust in `OUT_DIR`, so that editing a rule and running
//! `cargo test` uses the new rules. It never writes into the source tree: the
//! checked-in `generated/` is refreshed by `carcassonne-rules gen`, and a test
//! fails while the two differ.
//!
//! When the rules do not check, the build compiles in an empty rule set, so
//! that `carcassonne-rules check` can still be built to show the diagnostics
//! (the tests then fail, as they should).

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=rules");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("turn_order.rs");
    let compiled = carcassonne_rules_compiler::compile_dir(Path::new("rules"));
    let code = match compiled.result {
        Ok(rules) => carcassonne_rules_compiler::codegen::generate(&rules),
        Err(problems) => {
            // No rules compiled in, but a crate that builds, so that
            // `carcassonne-rules check` can show the problems.
            println!(
                "cargo::warning=rules/ has {} problem(s); building without compiled-in rules. Run `cargo run -- check` to see them.",
                problems.len()
            );
            carcassonne_rules_compiler::codegen::generate(&Default::default())
        }
    };
    // Write only on change, so dependants are not rebuilt needlessly.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).expect("write generated code to OUT_DIR");
    }
}
