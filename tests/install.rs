//! The packaged command line, installed as a user would from the registry:
//! `cargo package --workspace`, the packages unpacked, the command line's
//! installed with `cargo install --path` (the other packages standing in for
//! crates.io through `patch`), the build-script crate built from its package,
//! then `order`, `site` and `wiki` run from a folder outside the repository.
//! Every published package is built so, from its package alone. Slow (a whole release build from cold), so
//! ignored: `.ci/run` runs it with `cargo test --test install -- --ignored`.

// Helpers outside `#[test]` functions panic on a broken setup, as tests do.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace's packages, each named by its crate.
const PACKAGES: [&str; 9] = [
    "carcassonne-rules-core",
    "carcassonne-rules-compiler",
    "carcassonne-rules-backends",
    "carcassonne-rules-tools",
    "carcassonne-rules-review",
    "carcassonne-rules-build",
    "carcassonne-rules-runtime",
    "carcassonne-rules-lsp",
    "carcassonne-rules-wiki",
];
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn ok(what: &str, out: Output) -> String {
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Unpacks `target/package/NAME-VERSION.crate` into `into`.
fn unpack(repo: &Path, name: &str, into: &Path) -> PathBuf {
    let crate_file = repo.join(format!("target/package/{name}-{VERSION}.crate"));
    let run = Command::new("tar").arg("xzf").arg(&crate_file).arg("-C").arg(into).output().expect("tar");
    ok(&format!("unpacking {}", crate_file.display()), run);
    into.join(format!("{name}-{VERSION}"))
}

#[test]
#[ignore = "slow: a release build of the packaged command line from cold; .ci/run runs it"]
fn the_installed_package_runs_order_site_and_wiki_from_any_folder() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = tempfile::tempdir().expect("temp dir");
    // The packages, as `cargo publish` would upload them (the names, versions
    // and files of each; no build here: the builds below are of the packages).
    let packaged = cargo().current_dir(repo).args(["package", "--workspace", "--no-verify", "--allow-dirty"]).output();
    ok("cargo package --workspace", packaged.expect("cargo package"));
    let cli = unpack(repo, "carcassonne-rules", work.path());
    // Each package stands in for its crates.io release.
    let mut patches = Vec::new();
    for name in PACKAGES {
        let dir = unpack(repo, name, work.path());
        patches.push("--config".to_string());
        patches.push(format!("patch.crates-io.{name}.path={:?}", dir.display().to_string()));
    }
    // Its own target folder: nothing of the workspace's build is reused.
    let target = work.path().join("target");
    let mut install = cargo();
    install.current_dir(work.path()).arg("install").arg("--path").arg(&cli).arg("--root").arg(work.path().join("root"));
    install.args(&patches).env("CARGO_TARGET_DIR", &target);
    ok("cargo install --path <the package>", install.output().expect("cargo install"));
    // The one package the command line does not build: the build scripts'
    // compiler, with the command line's lock file (its versions, pruned).
    let build = work.path().join(format!("carcassonne-rules-build-{VERSION}"));
    std::fs::copy(cli.join("Cargo.lock"), build.join("Cargo.lock")).expect("copy the lock file");
    let mut build_crate = cargo();
    build_crate.current_dir(&build).args(["build", "--release"]).args(&patches).env("CARGO_TARGET_DIR", &target);
    ok("cargo build <carcassonne-rules-build's package>", build_crate.output().expect("cargo build"));

    let bin = work.path().join("root/bin/carcassonne-rules");
    // `.ci/run` measures SECURITY.md's bound on this release build
    // (tests/bounded.rs) rather than make another.
    if let Some(keep) = std::env::var_os("CARCASSONNE_KEEP_INSTALLED") {
        std::fs::copy(&bin, keep).expect("copy the installed binary");
    }
    let anywhere = work.path().join("anywhere");
    std::fs::create_dir(&anywhere).expect("mkdir");
    let run = |args: &[&str]| {
        ok(&format!("{args:?}"), Command::new(&bin).current_dir(&anywhere).args(args).output().expect("run"))
    };
    let workspace_bin = env!("CARGO_BIN_EXE_carcassonne-rules");
    let from_repo = |args: &[&str]| {
        ok(&format!("{args:?}"), Command::new(workspace_bin).current_dir(repo).args(args).output().expect("run"))
    };

    let order = ["order", "--edition", "C2", "--with", "builder,abbey_and_mayor"];
    assert_eq!(run(&order), from_repo(&order), "the installed binary's turn order is the workspace's");
    assert!(run(&order).contains("1B"), "a turn order");

    let wrote = run(&["site", "--out", "site"]);
    assert!(wrote.starts_with("wrote site/index.html"), "{wrote}");
    run(&["wiki", "--out", "order.wikitext"]);
    let reference = tempfile::tempdir().expect("temp dir");
    from_repo(&["site", "--out", reference.path().join("site").to_str().expect("utf-8")]);
    from_repo(&["wiki", "--out", reference.path().join("order.wikitext").to_str().expect("utf-8")]);
    for file in ["site/index.html", "site/rules.js", "order.wikitext"] {
        let installed = std::fs::read(anywhere.join(file)).expect("written by the installed binary");
        assert_eq!(installed, std::fs::read(reference.path().join(file)).expect("from rules/"), "{file}");
    }
}
