//! Every output on arbitrary names and texts (issue 13): the input after its
//! first byte (which picks the output), split at each byte 0xFF into strings,
//! rewrites every name, title, text, marker label and file name of the bundled
//! model, and codegen, the page, the wiki export, Markdown and text must keep
//! the structure they have for a stand-in model (`src/outputs.rs`).

#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use carcassonne_rules_fuzz::outputs::{self, Bed, Output};
use libfuzzer_sys::fuzz_target;

fn bed() -> &'static Bed {
    static BED: OnceLock<Bed> = OnceLock::new();
    BED.get_or_init(|| Bed::new(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules")))
}

fuzz_target!(|input: &[u8]| {
    // The first byte picks the output, so that each execution checks one
    // (all four take about a second on the bundled rules).
    let Some((&which, rest)) = input.split_first() else { return };
    let output = Output::ALL[usize::from(which) % Output::ALL.len()];
    bed().check_only(&outputs::strings(rest), output);
});
