//! Compiles the bundled rules (`rules/` at the repository root) into Rust in
//! `OUT_DIR`, which the crate includes: editing a rule and running `cargo
//! build` or `cargo test` uses the new rules. Rules that do not check stop the
//! build with the compiler's located diagnostics, as prost's and tonic's build
//! scripts do. The checked-in copy in `generated/` is written only by
//! `carcassonne-rules gen`; `gen --check` (and the test that runs it) says when
//! it is stale.

use std::path::Path;
use std::process::ExitCode;

use carcassonne_rules_compiler::{codegen, compile_dir, diagnostics};

/// The repository root, seen from this crate.
const ROOT: &str = "../..";
/// The bundled rules, seen from the root.
const RULES: &str = "rules";

fn main() -> ExitCode {
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
