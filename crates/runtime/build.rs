//! With the `compile-rules` feature (the repository's own builds), compiles the
//! bundled rules (`rules/` at the repository root) into `OUT_DIR` with
//! `carcassonne-rules-build`, as any engine's build script would: editing a
//! rule and running `cargo build` or `cargo test` uses the new rules. Without
//! it (an engine's build, any build from a package) there is nothing to do:
//! the crate includes its checked-in `src/generated/turn_order.rs` (and the
//! languages' tables beside it), which `carcassonne-rules gen` writes and
//! `gen --check` keeps current. Either way each language is compiled in only
//! under its feature (`lang-nl`).
//!
//! Rules that do not check stop the build with the compiler's located
//! diagnostics, as prost's and tonic's build scripts do.

#![forbid(unsafe_code)]

use std::process::ExitCode;

#[cfg(not(feature = "compile-rules"))]
fn main() -> ExitCode {
    // Run once, not on every change of the crate's files.
    println!("cargo::rerun-if-changed=build.rs");
    ExitCode::SUCCESS
}

#[cfg(feature = "compile-rules")]
fn main() -> ExitCode {
    use std::path::Path;

    /// The repository root, seen from this crate.
    const ROOT: &str = "../..";
    if !Path::new(ROOT).join("rules").is_dir() {
        eprintln!(
            "error: the feature `compile-rules` compiles the repository's rules/, which is not at {ROOT}/rules \
             (a build from a package has none): build without the feature to use the checked-in rules"
        );
        return ExitCode::FAILURE;
    }
    // From the root, diagnostics name `rules/…` files as the command line does.
    if let Err(err) = std::env::set_current_dir(ROOT) {
        eprintln!("error: cannot enter the repository root {ROOT}: {err}");
        return ExitCode::FAILURE;
    }
    // Every language's table, each compiled in only under its feature, as in
    // the checked-in code.
    match carcassonne_rules_build::Build::new("rules").languages_by_feature().compile() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}
