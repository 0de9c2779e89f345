//! The server remembers compile outcomes between analyses; what it finds
//! after a sequence of edits must be exactly what a cold analysis of the
//! same texts finds.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use carcassonne_rules_lsp::workspace::{Analysis, Severity, Workspace};
use common::{bundled_rules, edit};

/// A fresh workspace's analysis of `texts`, whose broken files' last good
/// versions are those in `good`: one analysis of `good`, then of `texts`.
fn cold(texts: &[(&str, String)], good: &Analysis) -> Analysis {
    let mut fresh = Workspace::new(bundled_rules());
    for (file, text) in &good.texts {
        fresh.set_buffer(file, text.clone());
    }
    let first = fresh.analyse();
    assert_eq!(&first.texts, &good.texts);
    for (file, text) in texts {
        fresh.set_buffer(file, text.clone());
    }
    fresh.analyse()
}

#[test]
fn after_edits_the_server_finds_what_a_cold_analysis_finds() {
    let files = ["base.yaml", "modules.yaml", "expansions/abbey-and-mayor.yaml", "expansions/the-tower.yaml"];
    let mut hot = Workspace::new(bundled_rules());
    let originals: Vec<String> = files.iter().map(|f| hot.text(f).unwrap().to_string()).collect();
    let mut texts: Vec<(&str, String)> = files.iter().copied().zip(originals.iter().cloned()).collect();
    let mut rng = fastrand::Rng::with_seed(14);
    let (mut broken, mut checked, mut refused) = (0, 0, 0);
    for n in 0..40 {
        let f = rng.usize(..files.len());
        // Random edits pile up; now and then a file goes back to its
        // original (an undo), or to its original with a misspelt id, which
        // `check` refuses.
        texts[f].1 = match n % 10 {
            4 => originals[f].replacen("- id: ", "- id: -", 1),
            9 => originals[f].clone(),
            _ => edit(&mut rng, &texts[f].1),
        };
        hot.set_buffer(files[f], texts[f].1.clone());
        let analysis = hot.analyse();
        let expected = cold(&texts, &analysis);
        assert_eq!(analysis.problems, expected.problems, "after edit {n}");
        assert_eq!(analysis.texts, expected.texts, "after edit {n}");
        assert_eq!(analysis.rules, expected.rules, "after edit {n}");
        // What the edit left the edited file: not YAML, refused by `check`, or clean.
        let errors = analysis.problems[files[f]].iter().filter(|p| p.severity == Severity::Error).count();
        if analysis.texts[files[f]] != texts[f].1 {
            broken += 1;
        } else if errors > 0 {
            refused += 1;
        } else {
            checked += 1;
        }
    }
    // The sequence went through each kind of state.
    assert!(broken > 0 && checked > 0 && refused > 0, "{broken} broken, {checked} checked, {refused} refused");
}
