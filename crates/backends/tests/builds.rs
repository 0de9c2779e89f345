//! Rules that pass `check` build: the generated code of rules made to be
//! nasty — ids that mangle alike, markers that meet the de-duplication
//! suffix, names that are Rust keywords in some edition, items nested as
//! deep as `check` accepts — is compiled by a real rustc (edition 2024)
//! against the core crate, with its language's tables (each gated by its
//! feature, or not). One level deeper is a located diagnostic.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used)]

#[path = "../../compiler/tests/common/mod.rs"]
mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use carcassonne_rules_backends::codegen;
use carcassonne_rules_compiler::model::MAX_DEPTH;
use carcassonne_rules_compiler::{compile_dir, diagnostics};

/// The small rules of the tests with an expansion whose ids collide once
/// mangled, and a chain of `depth` items each `under:` the one before.
fn nasty(dir: &Path, depth: usize) {
    common::copy_dir(Path::new("../compiler/tests/fixtures/minimal"), dir);
    let path = dir.join("modules.yaml");
    let modules = std::fs::read_to_string(&path).expect("modules").replace(
        "derived:\n",
        "  - id: nasty\n    name: Nasty\n    editions: [C1, C2]\n    modules:\n      \
         - { id: \"20th\", name: Twentieth }\n      - { id: m_20th, name: M twentieth }\n      \
         - { id: try, name: Try }\nderived:\n  \"21st\": \"20th\"\n  f_21st: m_20th and try\n  \
         gen: \"m_20th or 20th\"\n  async: gen and f_21st\n",
    );
    std::fs::write(path, modules).expect("write");
    let base = dir.join("base.yaml");
    let markers = std::fs::read_to_string(&base).expect("base").replace(
        "markers:\n",
        "markers:\n  - { id: HANS_STATUE, meaning: Statue. }\n  - { id: TREE_TRAP, meaning: Trap. }\n",
    );
    std::fs::write(base, markers).expect("write");
    let mut items = String::from(
        "expansion: nasty\nitems:\n  1A:\n    - id: 1-a\n      when: \"20th\"\n      text: t\n      \
         markers: [\"HANS_STATUE when gen\", \"HANS_STATUE when 21st\", 'HANS_STATUE \"2\"']\n    \
         - id: i-1-a\n      when: m_20th and f_21st\n      text: t\n      markers: [TREE_TRAP, TREE_TRAP, 'TREE_TRAP \"2\"', 'TREE_TRAP \"3\"']\n",
    );
    for level in 1..=depth {
        write!(items, "    - id: deep-{level}\n      when: async or try\n      text: t\n").expect("write");
        if level > 1 {
            writeln!(items, "      under: deep-{}", level - 1).expect("write");
        }
    }
    std::fs::write(dir.join("expansions/nasty.yaml"), items).expect("write");
}

/// The core crate's library beside this test's executable, and the folder
/// of its dependencies.
fn core_rlib() -> (PathBuf, PathBuf) {
    let deps = std::env::current_exe().expect("test exe").parent().expect("deps folder").to_path_buf();
    let newest = std::fs::read_dir(&deps)
        .expect("read deps")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("libcarcassonne_rules_core-") && name.ends_with(".rlib")
        })
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .expect("the core crate is built before its dependants' tests");
    (newest, deps)
}

#[test]
fn the_nastiest_rules_check_accepts_build_with_rustc() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    nasty(&dir, MAX_DEPTH);
    let compiled = compile_dir(&dir);
    let rules = compiled.result.unwrap_or_else(|p| panic!("{}", diagnostics::render(&p, false)));
    let code = codegen::generate(&rules);
    // The colliding ids got distinct names, the keywords a prefix.
    for name in ["M_20TH:", "M_20TH_2:", "I_1_A:", "I_1_A_2:", "fn f_21st(", "fn f_21st_2(", "fn f_gen(", "fn f_async("]
    {
        assert!(code.contains(name), "no {name} in the generated code");
    }
    for name in ["I_1_A_HANS_STATUE:", "I_1_A_HANS_STATUE_2:", "I_1_A_HANS_STATUE_3:", "I_1_A_TREE_TRAP_4:"] {
        assert!(code.contains(name), "no {name} in the generated code");
    }
    let file = temp.path().join("turn_order.rs");
    std::fs::write(&file, &code).expect("write");
    rustc(&file, &[]);
    // With the fixture's Dutch, each table a file beside the rules' own: gated
    // by the feature (off, then on), and compiled in unconditionally.
    let nl = compiled.translations.locale("nl").expect("the fixture's Dutch");
    std::fs::write(
        temp.path().join(codegen::language_file("turn_order.rs", "nl")),
        codegen::generate_language(&rules, nl),
    )
    .expect("write");
    for (by_feature, cfg) in [(true, &[][..]), (true, &["--cfg", "feature=\"lang-nl\""][..]), (false, &[][..])] {
        let languages = codegen::Languages::beside("turn_order.rs", [nl], by_feature);
        std::fs::write(&file, codegen::generate_with(&rules, &languages)).expect("write");
        rustc(&file, cfg);
    }
}

/// Compiles the generated `file` as a library (metadata only) against the core crate.
fn rustc(file: &Path, args: &[&str]) {
    let (core, deps) = core_rlib();
    let out_dir = file.parent().expect("a folder");
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--edition", "2024", "--crate-type", "lib", "--crate-name", "nasty_rules", "--emit", "metadata"])
        .args(args)
        .arg("--extern")
        .arg(format!("carcassonne_rules_core={}", core.display()))
        .arg("-L")
        .arg(format!("dependency={}", deps.display()))
        .arg("--out-dir")
        .arg(out_dir)
        .arg(file)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "rustc refused the generated code ({args:?}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn one_level_deeper_is_a_located_diagnostic() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("rules");
    nasty(&dir, MAX_DEPTH + 1);
    let problems = compile_dir(&dir).result.err().unwrap_or_default();
    let text = diagnostics::render(&problems, false);
    assert_eq!(problems.len(), 1, "{text}");
    assert!(
        text.contains(&format!("item `deep-{}` is nested more than {MAX_DEPTH} levels deep", MAX_DEPTH + 1)),
        "{text}"
    );
    let location = problems[0].location().expect("located");
    assert!(location.contains("expansions/nasty.yaml:"), "{location}");
}
