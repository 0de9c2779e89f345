//! Compiles `rules/` into Rust in `OUT_DIR`, so that editing a rule and running
//! `cargo test` uses the new rules. It never writes into the source tree: the
//! checked-in `generated/` is refreshed by `carcassonne-rules gen`, and a test
//! fails while the two differ.
//!
//! When the rules do not check, the build falls back to the checked-in code so
//! that `carcassonne-rules check` can still be built to show the diagnostics.

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=rules");
    println!("cargo::rerun-if-changed=generated/turn_order.rs");
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("turn_order.rs");
    let compiled = carcassonne_rules_compiler::compile_dir(Path::new("rules"));
    let code = match compiled.result {
        Ok(rules) => carcassonne_rules_compiler::codegen::generate(&rules),
        Err(problems) => {
            println!(
                "cargo::warning=rules/ has {} problem(s); building with the checked-in generated/turn_order.rs. Run `cargo run -- check` to see them.",
                problems.len()
            );
            // Without a checked-in copy (a fresh checkout with broken rules), an
            // empty rule set still lets the command line build and report.
            std::fs::read_to_string("generated/turn_order.rs").unwrap_or_else(|_| {
                carcassonne_rules_compiler::codegen::generate(&Default::default())
            })
        }
    };
    // Write only on change, so dependants are not rebuilt needlessly.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).expect("write generated code to OUT_DIR");
    }
}
