//! Writes one `#[test]` per case file of `tests/corpus/` (`pass/`, and `fail/`
//! in a folder per pass) into `$OUT_DIR/corpus_cases.rs`, which
//! `tests/corpus.rs` includes: a new case file is a new test, no Rust needed.

#![forbid(unsafe_code)]

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut code = String::new();
    let mut names = Vec::new();
    for top in ["pass", "fail"] {
        if let Err(err) = module(Path::new("tests/corpus"), top, &mut code, &mut names) {
            eprintln!("error: cannot list the corpus cases in tests/corpus/{top}: {err}");
            return ExitCode::FAILURE;
        }
    }
    // A case's snapshot is named after its file: two files of one name would share one.
    names.sort();
    if let Some(twice) = names.windows(2).find(|pair| pair[0] == pair[1]) {
        eprintln!("error: two corpus cases are named {}.yaml", twice[0]);
        return ExitCode::FAILURE;
    }
    let Some(out) = std::env::var_os("OUT_DIR") else {
        eprintln!("error: OUT_DIR is not set: run this build script through cargo");
        return ExitCode::FAILURE;
    };
    if let Err(err) = std::fs::write(Path::new(&out).join("corpus_cases.rs"), code) {
        eprintln!("error: cannot write the corpus tests: {err}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// A module for the folder `rel` of `root`, named after it: a test per
/// `.yaml` file, a module per subfolder, in name order.
fn module(root: &Path, rel: &str, code: &mut String, names: &mut Vec<String>) -> std::io::Result<()> {
    let dir = root.join(rel);
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let entry = entry?;
        entries.push((entry.file_name().to_string_lossy().into_owned(), entry.file_type()?.is_dir()));
    }
    entries.sort();
    let leaf = rel.rsplit('/').next().unwrap_or(rel);
    code.push_str(&format!("mod {} {{\n", ident(leaf)));
    for (name, is_dir) in entries {
        if is_dir {
            module(root, &format!("{rel}/{name}"), code, names)?;
        } else if let Some(stem) = name.strip_suffix(".yaml") {
            // `{:?}` of a str is a valid Rust string literal.
            let case = format!("{rel}/{name}");
            code.push_str(&format!(
                "    #[test]\n    fn {}() {{\n        crate::run_file({case:?});\n    }}\n",
                ident(stem)
            ));
            names.push(stem.to_string());
        }
    }
    code.push_str("}\n");
    Ok(())
}

/// A kebab-case file name as a Rust identifier.
fn ident(name: &str) -> String {
    let snake = name.replace(['-', '.'], "_");
    if snake.starts_with(|c: char| c.is_ascii_digit()) { format!("_{snake}") } else { snake }
}
