//! With the `compile-rules` feature (the workspace's own builds), compiles the
//! bundled rules (`rules/` at the repository root) into Rust in `OUT_DIR`,
//! which the crate includes: editing a rule and running `cargo build` or
//! `cargo test` uses the new rules. Without it (an engine's build) there is
//! nothing to do: the crate includes the checked-in `generated/` copy.
//!
//! Rules that do not check stop the build with the compiler's located
//! diagnostics, as prost's and tonic's build scripts do. The checked-in copy in
//! `generated/` is written only by `carcassonne-rules gen`; `gen --check` (and
//! the test that runs it) says when it is stale.

#![forbid(unsafe_code)]

use std::process::ExitCode;

/// The repository root, seen from this crate.
#[cfg(feature = "compile-rules")]
const ROOT: &str = "../..";
/// The bundled rules, seen from the root.
#[cfg(feature = "compile-rules")]
const RULES: &str = "rules";

#[cfg(not(feature = "compile-rules"))]
fn main() -> ExitCode {
    // Run once, not on every change of the crate's files.
    println!("cargo::rerun-if-changed=build.rs");
    ExitCode::SUCCESS
}

#[cfg(feature = "compile-rules")]
fn main() -> ExitCode {
    use std::path::Path;

    use carcassonne_rules_compiler::{codegen, compile_dir, diagnostics};

    println!("cargo::rerun-if-changed={ROOT}/{RULES}");
    let Some(out) = std::env::var_os("OUT_DIR") else {
        eprintln!("OUT_DIR is not set: run this build script through cargo");
        return ExitCode::FAILURE;
    };
    // From the root, diagnostics name `rules/…` files as the command line does.
    if let Err(err) = std::env::set_current_dir(ROOT) {
        eprintln!("cannot enter the repository root {ROOT}: {err}");
        return ExitCode::FAILURE;
    }
    let compiled = compile_dir(Path::new(RULES));
    let code = match compiled.result {
        Ok(rules) => codegen::generate(&rules),
        Err(problems) => {
            eprint!("{}", diagnostics::render(&problems, false));
            let n = problems.len();
            eprintln!("error: rules/ has {n} problem{}; fix them to build the runtime", if n == 1 { "" } else { "s" });
            return ExitCode::FAILURE;
        }
    };
    let out = Path::new(&out).join("turn_order.rs");
    // Write only on change, so that dependants are not rebuilt needlessly.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str())
        && let Err(err) = std::fs::write(&out, code)
    {
        eprintln!("cannot write {}: {err}", out.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
