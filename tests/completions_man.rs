//! `completions` and `man`: the bash script is valid bash that completes every
//! subcommand, the man pages render with groff and name every subcommand, and
//! `man` never writes through a link (output.rs refuses, as for `gen`). The subcommands are read from `--help`,
//! so a new command is checked without editing this file.

// Helpers outside `#[test]` functions panic when the binary misbehaves, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules")).args(args).output().expect("run the binary")
}

fn stdout(args: &[&str]) -> String {
    let out = cli(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The subcommands `--help` lists, `help` aside.
fn subcommands() -> Vec<String> {
    let help = stdout(&["--help"]);
    let listed = help.split("Commands:\n").nth(1).expect("a Commands section");
    let names: Vec<String> = listed
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect();
    for expected in ["order", "gen", "completions", "man"] {
        assert!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
    }
    names
}

/// What bash completes for the one word `word` after the program's name.
fn bash_completes(script: &Path, word: &str) -> Vec<String> {
    let program = format!(
        "source {}; COMP_WORDS=(carcassonne-rules {word}); COMP_CWORD=1; \
         _carcassonne__rules carcassonne-rules {word} carcassonne-rules; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = Command::new("bash").arg("-c").arg(program).output().expect("bash");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect()
}

#[test]
fn the_bash_script_is_valid_and_completes_every_subcommand() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("carcassonne-rules.bash");
    std::fs::write(&script, stdout(&["completions", "bash"])).expect("write the script");
    let check = Command::new("bash").arg("-n").arg(&script).output().expect("bash -n");
    assert!(check.status.success(), "bash -n: {}", String::from_utf8_lossy(&check.stderr));
    for name in subcommands() {
        assert!(bash_completes(&script, &name).contains(&name), "bash does not complete {name}");
    }
    // A prefix completes to the commands it starts.
    let completed = bash_completes(&script, "m");
    assert!(completed.contains(&"man".to_string()) && completed.contains(&"modules".to_string()), "{completed:?}");
    assert!(!completed.contains(&"order".to_string()), "{completed:?}");
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand_and_others_are_refused() {
    let names = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell}'s script does not name {name}");
        }
    }
    let out = cli(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values: bash"), "clap says which shells exist");
}

/// A page as groff renders it for a terminal, with every warning on; groff's
/// complaints fail the test.
fn render(page: &Path) -> String {
    let out =
        Command::new("groff").args(["-k", "-ww", "-man", "-Tutf8", "-P", "-cbou"]).arg(page).output().expect("groff");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "groff {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    // Justified lines stretch their spaces: compare words.
    String::from_utf8(out.stdout).expect("UTF-8 page").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn man_writes_a_page_per_subcommand_that_groff_renders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("man1");
    let said = stdout(&["man", "--out", out.to_str().expect("UTF-8 path")]);
    let main = render(&out.join("carcassonne-rules.1"));
    assert!(main.contains("NAME") && main.contains("SYNOPSIS"), "{main}");
    let names = subcommands();
    for name in &names {
        let page = format!("carcassonne-rules-{name}.1");
        assert!(main.contains(&format!("carcassonne-rules-{name}(1)")), "the main page does not list {name}");
        assert!(said.contains(&page), "man did not say it wrote {page}: {said}");
        let text = render(&out.join(&page));
        assert!(text.contains(&format!("carcassonne-rules {name}")), "{page} has no synopsis of {name}: {text}");
    }
    // Only the pages, no temporaries; a second run finds them current.
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into())
        .collect();
    written.sort();
    assert_eq!(written.len(), names.len() + 1, "{written:?}");
    assert!(stdout(&["man", "--out", out.to_str().expect("UTF-8 path")]).contains("is up to date"));
}

#[test]
fn man_and_completions_read_no_rules() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no-rules-here");
    let missing = missing.to_str().expect("UTF-8 path");
    assert_eq!(stdout(&["completions", "fish"]), stdout(&["--rules", missing, "completions", "fish"]));
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    stdout(&["man", "--out", a.to_str().expect("UTF-8 path")]);
    stdout(&["--rules", missing, "man", "--out", b.to_str().expect("UTF-8 path")]);
    let page = |dir: &Path| std::fs::read_to_string(dir.join("carcassonne-rules-order.1")).expect("page");
    assert_eq!(page(&a), page(&b));
}

#[test]
fn man_never_writes_through_a_link() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("target");
    std::fs::create_dir(&target).expect("mkdir");
    let kept = target.join("carcassonne-rules.1");
    std::fs::write(&kept, "not a page\n").expect("write");

    // The folder itself a link: refused, nothing written where it points.
    let linked = dir.path().join("linked");
    std::os::unix::fs::symlink(&target, &linked).expect("symlink");
    let out = cli(&["man", "--out", linked.to_str().expect("UTF-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to write through it"));

    // A page a link in a real folder: refused, the link and its target kept.
    let real = dir.path().join("real");
    std::fs::create_dir(&real).expect("mkdir");
    std::os::unix::fs::symlink(&kept, real.join("carcassonne-rules.1")).expect("symlink");
    let out = cli(&["man", "--out", real.to_str().expect("UTF-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a symbolic link"));
    assert!(std::fs::symlink_metadata(real.join("carcassonne-rules.1")).expect("page").file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&kept).expect("kept"), "not a page\n");
    assert_eq!(std::fs::read_dir(&target).expect("list").count(), 1);
}
