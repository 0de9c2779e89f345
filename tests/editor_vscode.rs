//! The VS Code extension (editors/vscode) as a user gets it: installed from
//! its lock file with npm, bundled and packaged by `vsce` with no warning,
//! the package holding the bundle, manifest, readme and licence only, and
//! its rules-folder finder run by Node. It needs npm and the npm registry:
//! `cargo test` reports it as ignored, `cargo test --test editor_vscode --
//! --ignored` (as `.ci/run` does) runs it, failing where npm is missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output};

fn ok(what: &str, out: std::io::Result<Output>) -> String {
    let out = out.unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what}:\n{text}");
    text
}

/// The extension's own files, without what npm and the bundler make.
fn copy_sources(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if entry.file_type().unwrap().is_file() && !name.to_string_lossy().ends_with(".vsix") {
            std::fs::copy(entry.path(), to.join(name)).unwrap();
        }
    }
}

#[test]
#[ignore = "needs npm and the npm registry; .ci/run runs it with --ignored"]
fn the_extension_packages_cleanly_and_finds_its_rules_folder() {
    assert!(Command::new("npm").arg("--version").output().is_ok(), "npm is not installed");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = tempfile::tempdir().unwrap();
    let ext = work.path().join("vscode");
    copy_sources(&repo.join("editors/vscode"), &ext);
    let npm = |args: &[&str]| Command::new("npm").args(args).current_dir(&ext).output();
    ok("npm ci", npm(&["ci", "--no-audit", "--no-fund"]));
    let packaged = ok("vsce package", npm(&["run", "package", "--", "--out", "extension.vsix"]));
    assert!(!packaged.contains("WARNING"), "vsce warned:\n{packaged}");

    // The package: its files, and the manifest's publisher, repository,
    // licence and activation.
    let listed = ok(
        "listing the package",
        Command::new("python3").args(["-m", "zipfile", "-l"]).arg(ext.join("extension.vsix")).output(),
    );
    let mut files: Vec<&str> = listed.lines().skip(1).filter_map(|line| line.split_whitespace().next()).collect();
    files.sort_unstable();
    assert_eq!(
        files,
        [
            "[Content_Types].xml",
            "extension.vsixmanifest",
            "extension/LICENSE.txt",
            "extension/dist/extension.js",
            "extension/package.json",
            "extension/readme.md"
        ],
        "{listed}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ext.join("package.json")).unwrap()).unwrap();
    assert_eq!(manifest["publisher"], "carcassonne-rules");
    assert!(manifest["repository"]["url"].as_str().is_some_and(|url| url.starts_with("https://")), "{manifest}");
    assert_eq!(manifest["license"], "MIT OR Apache-2.0");
    assert_eq!(manifest["activationEvents"], serde_json::json!(["onLanguage:yaml"]));
    let bundle = std::fs::read_to_string(ext.join("dist/extension.js")).unwrap();
    assert!(bundle.contains("require(\"vscode\")") && !bundle.contains("require(\"vscode-languageclient"));
    assert_eq!(manifest["extensionDependencies"], serde_json::json!(["redhat.vscode-yaml"]));
    // The licence holds both of the repository's texts, as it declares.
    let licence = std::fs::read_to_string(ext.join("LICENSE")).unwrap();
    assert!(licence.ends_with(&std::fs::read_to_string(repo.join("LICENSE-MIT")).unwrap()));
    assert!(licence.contains(std::fs::read_to_string(repo.join("LICENSE-APACHE")).unwrap().trim_end()));

    // Which files the extension starts a server for.
    let rules = work.path().join("game/rules");
    std::fs::create_dir_all(rules.join("expansions")).unwrap();
    std::fs::write(rules.join("modules.yaml"), "").unwrap();
    std::fs::write(rules.join("base.yaml"), "").unwrap();
    // A language's folder mirrors the rules files, modules.yaml among them.
    std::fs::create_dir_all(rules.join("translations/nl/expansions")).unwrap();
    std::fs::write(rules.join("translations/nl/modules.yaml"), "").unwrap();
    std::fs::create_dir_all(work.path().join("game/.github")).unwrap();
    let root_of = |file: &Path| {
        let script = "console.log(require(process.argv[1]).rulesRoot(process.argv[2]) ?? '(none)')";
        let found =
            ok("node", Command::new("node").args(["-e", script]).arg(ext.join("rules-root.js")).arg(file).output());
        found.trim().to_string()
    };
    let rules_shown = rules.display().to_string();
    assert_eq!(root_of(&rules.join("expansions/abbey-and-mayor.yaml")), rules_shown);
    assert_eq!(root_of(&rules.join("base.yaml")), rules_shown);
    assert_eq!(root_of(&rules.join("translations/nl/modules.yaml")), rules_shown);
    assert_eq!(root_of(&rules.join("translations/nl/expansions/abbey-and-mayor.yaml")), rules_shown);
    assert_eq!(root_of(&rules.join("translations/languages.yaml")), rules_shown);
    assert_eq!(root_of(&work.path().join("game/.github/ci.yaml")), "(none)");
}
