//! The layout of the generated Rust for the bundled rules: within 120 columns
//! (only a long text's first line, a string literal that cannot break, may
//! pass), `\n` line ends with no trailing spaces, and the same bytes on every
//! run.

use std::path::Path;

use carcassonne_rules_backends::codegen;
use carcassonne_rules_compiler::compile_dir;

const BUNDLED: &str = "../../rules";

fn generated() -> String {
    let Ok(rules) = compile_dir(Path::new(BUNDLED)).result else { panic!("the bundled rules compile") };
    codegen::generate(&rules)
}

#[test]
fn lines_stay_within_120_columns_but_for_string_literals() {
    let code = generated();
    let long: Vec<&str> = code.lines().filter(|line| line.chars().count() > 120).collect();
    for line in &long {
        assert!(line.trim_start().starts_with("text: ") && line.contains('"'), "a line passes 120 columns: {line}");
    }
    // The bundled rules have long tests, which the dispatch breaks.
    assert!(code.lines().any(|line| line.trim_start().starts_with("|| cfg.has(")), "no test was broken");
}

#[test]
fn lines_end_in_newlines_without_trailing_spaces_and_runs_agree() {
    let code = generated();
    assert!(!code.contains('\r'));
    assert!(code.ends_with("}\n"), "{:?}", &code[code.len().saturating_sub(20)..]);
    for (number, line) in code.lines().enumerate() {
        assert_eq!(line.trim_end(), line, "line {} ends in spaces", number + 1);
    }
    assert_eq!(generated(), code);
}

/// Each language's tables of the bundled rules.
fn languages() -> Vec<(String, String)> {
    let compiled = compile_dir(Path::new(BUNDLED));
    let Ok(rules) = compiled.result else { panic!("the bundled rules compile") };
    compiled.translations.locales.iter().map(|l| (l.lang.clone(), codegen::generate_language(&rules, l))).collect()
}

#[test]
fn the_languages_tables_keep_the_same_layout() {
    let files = languages();
    assert_eq!(files.iter().map(|(lang, _)| lang.as_str()).collect::<Vec<_>>(), ["nl", "ru"]);
    for (lang, code) in &files {
        for (number, line) in code.lines().enumerate() {
            assert_eq!(line.trim_end(), line, "{lang}: line {} ends in spaces", number + 1);
            // Only a long text's first line (a literal continued with `\`) may pass.
            if line.chars().count() > 120 {
                assert!(line.trim_start().starts_with("text: ") && line.contains('"'), "{lang}: {line}");
            }
        }
        assert!(code.ends_with("};\n") && !code.contains('\r'), "{lang}");
    }
    assert_eq!(languages(), files, "the same bytes on every run");
}
