//! Compiles this engine's rules (`rules/`) into `OUT_DIR`, as any engine's
//! build script does: bad rules fail the build with located diagnostics.

#![forbid(unsafe_code)]

fn main() -> Result<(), carcassonne_rules_build::Error> {
    carcassonne_rules_build::compile("rules")
}
