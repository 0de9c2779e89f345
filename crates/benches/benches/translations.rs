//! `compile_dir` on the bundled rules with their translations and on a copy
//! without them: what the translations cost `check` in the compiler itself,
//! the freeing of the compiled rules and the process's start and end left
//! out (`docs/performance.md` times the whole command too).
//!
//! `cargo bench -p carcassonne-rules-benches --bench translations`

#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::compile_dir;
use carcassonne_rules_compiler::translation::TRANSLATIONS_DIR;
use criterion::{Criterion, criterion_group, criterion_main};

/// The bundled rules.
fn rules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules")
}

/// Copies the folder `from` into `to`, leaving out `translations/`.
fn copy_without_translations(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder is made");
    for entry in std::fs::read_dir(from).expect("the rules are listed") {
        let entry = entry.expect("a rules file is listed");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file has a type").is_dir() {
            if entry.file_name() != TRANSLATIONS_DIR {
                copy_without_translations(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).expect("a rules file is copied");
        }
    }
}

fn translations(c: &mut Criterion) {
    let without = tempfile::tempdir().expect("a temporary folder");
    copy_without_translations(&rules(), without.path());
    let mut group = c.benchmark_group("compile_dir");
    for (name, dir) in [("with translations", rules()), ("without translations", without.path().to_path_buf())] {
        let compiled = compile_dir(&dir);
        assert!(compiled.result.is_ok() && compiled.translation_problems.is_empty(), "{name}: the rules check");
        assert_eq!(compiled.translations.locales.is_empty(), name.starts_with("without"), "{name}");
        group.bench_function(name, |bench| bench.iter_with_large_drop(|| compile_dir(&dir)));
    }
    group.finish();
}

criterion_group!(benches, translations);
criterion_main!(benches);
