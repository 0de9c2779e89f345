//! `compile_into` on a real rules folder writes the generated code, and on a
//! broken copy fails with the problem count and writes nothing.

// Helpers outside `#[test]` functions panic on a broken setup, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use carcassonne_rules_backends::codegen;
use carcassonne_rules_build::{Build, Error, compile_into};

/// The compiler's small test rules.
const FIXTURE: &str = "../compiler/tests/fixtures/minimal";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
}

#[test]
fn good_rules_become_the_generated_code() {
    let out = tempfile::tempdir().expect("temp dir");
    let file = out.path().join("rules.rs");
    compile_into(Path::new(FIXTURE), &file).expect("the fixture compiles");
    let code = std::fs::read_to_string(&file).expect("written");
    let rules = carcassonne_rules_compiler::compile_dir(Path::new(FIXTURE)).result.expect("compiles");
    assert_eq!(code, codegen::generate(&rules));
    assert!(code.contains("pub static TABLES"), "the tables include_rules! names");
}

#[test]
fn bad_rules_fail_with_their_problem_count_and_write_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(Path::new(FIXTURE), dir.path());
    let base = dir.path().join("base.yaml");
    let text = std::fs::read_to_string(&base).expect("base");
    std::fs::write(&base, text.replacen("Show the tile.", "Show the {tile.", 1)).expect("break it");
    let file = dir.path().join("rules.rs");
    match compile_into(dir.path(), &file) {
        Err(err @ Error::Rules { problems, .. }) => {
            assert_eq!(problems, 1);
            assert!(err.to_string().ends_with("have 1 problem (shown above); fix them to build"), "{err}");
            assert_eq!(format!("{err:?}"), err.to_string(), "a build.rs returning it prints the sentence");
        }
        other => panic!("expected the rules' problems, got {other:?}"),
    }
    assert!(!file.exists(), "nothing is written from bad rules");
}

#[test]
fn a_language_is_compiled_in_only_when_asked_for() {
    let out = tempfile::tempdir().expect("temp dir");
    let file = out.path().join("rules.rs");
    let names = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("out")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into())
            .collect();
        names.sort();
        names
    };
    // None by default: the list is empty, and no table is written.
    compile_into(Path::new(FIXTURE), &file).expect("the fixture compiles");
    assert!(std::fs::read_to_string(&file).expect("written").contains("pub static LANGUAGES: &[&LangTable] = &[];"));
    assert_eq!(names(out.path()), ["rules.rs"]);

    // Asked for: the table beside the code, compiled in unconditionally.
    Build::new(FIXTURE).out_file(&file).language("nl").compile().expect("the fixture's Dutch");
    assert_eq!(names(out.path()), ["rules.rs", "rules_lang_nl.rs"]);
    let code = std::fs::read_to_string(&file).expect("written");
    let compiled = carcassonne_rules_compiler::compile_dir(Path::new(FIXTURE));
    let rules = compiled.result.expect("compiles");
    let nl = compiled.translations.locale("nl").expect("Dutch");
    let languages = codegen::Languages::beside("rules.rs", [nl], false);
    assert_eq!(code, codegen::generate_with(&rules, &languages));
    assert!(code.contains("pub mod lang_nl {\n    include!(\"rules_lang_nl.rs\");\n}") && !code.contains("#[cfg("));
    let table = std::fs::read_to_string(out.path().join("rules_lang_nl.rs")).expect("written");
    assert_eq!(table, codegen::generate_language(&rules, nl));

    // By feature, as the runtime builds its bundled rules.
    Build::new(FIXTURE).out_file(&file).languages_by_feature().compile().expect("compiles");
    assert!(
        std::fs::read_to_string(&file).expect("written").contains("#[cfg(feature = \"lang-nl\")]\npub mod lang_nl")
    );

    // A language the rules do not have.
    match Build::new(FIXTURE).out_file(&file).language("de").compile() {
        Err(err @ Error::UnknownLanguage { .. }) => {
            assert_eq!(err.to_string(), "the rules are not translated into `de`; their languages are: nl");
        }
        other => panic!("expected an unknown language, got {other:?}"),
    }
}
