//! `play` on a real terminal: tmux runs the command line in a pane, and the
//! test answers each prompt by reading the screen — a whole builder double
//! turn to its end, then leaving with Ctrl-D (end of input) and Ctrl-C.
//! Skipped with a message where `tmux` is absent, unless
//! CARCASSONNE_TERMINAL_TESTS=1 (CI), where that fails.

// Helpers outside `#[test]` functions panic when the terminal misbehaves, as tests do.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server of its own (`-L`), ended when the test ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `play` with `args` in a 120×40 pane; when it ends the pane
    /// prints its exit status on a line of its own and stays, for the test
    /// to read.
    fn play(name: &str, args: &str) -> Tmux {
        let tmux = Tmux { socket: format!("carcassonne-play-{name}-{}", std::process::id()) };
        let bin = env!("CARGO_BIN_EXE_carcassonne-rules");
        let command = format!("NO_COLOR=1 '{bin}' play {args}; s=$?; echo; echo \"exit status $s\"; exec sleep 600");
        tmux.run(&["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", "play"])
            .run(&["set-option", "-g", "history-limit", "10000"])
            .run(&["respawn-pane", "-k", "-t", "play", "-c", env!("CARGO_MANIFEST_DIR"), &command]);
        tmux
    }

    fn run(&self, args: &[&str]) -> &Tmux {
        let out = Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("run tmux");
        assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        self
    }

    /// Everything the pane printed, wrapped lines joined.
    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "play"])
            .output()
            .expect("run tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `keys` (tmux key names: `Enter`, `C-d`, …).
    fn keys(&self, keys: &[&str]) {
        self.run(&[&["send-keys", "-t", "play"][..], keys].concat());
    }

    /// The screen once `ready` says so; fails after ten seconds.
    fn wait(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "waited for {what}; the screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for prompt `seq` and returns what it asks.
    fn prompt(&self, seq: u32) -> Question {
        let heading = format!("[{seq}] part ");
        let screen = self.wait(&format!("prompt {seq}"), |s| {
            s.lines().any(|l| l.starts_with(&heading)) && question(s, &heading).is_some()
        });
        question(&screen, &heading).unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
    }
}

#[derive(Debug)]
enum Question {
    /// `  id — text? [y/n] `
    Do(String),
    /// `  1. id — text` lines, then `  choose [a number from 1 to n]: `
    Choose(Vec<String>),
    Count,
}

/// The question after `heading`, once its last line (waiting for input) is on
/// the screen.
fn question(screen: &str, heading: &str) -> Option<Question> {
    let after: Vec<&str> = screen.lines().skip_while(|l| !l.starts_with(heading)).skip(1).collect();
    let last = after.iter().rev().find(|l| !l.trim().is_empty())?;
    let id = |line: &str| line.trim().split(" — ").next().unwrap().to_string();
    if last.trim_end().ends_with("[y/n]") {
        Some(Question::Do(id(after[0])))
    } else if last.trim_start().starts_with("choose [") {
        let options = after.iter().take_while(|l| !l.trim_start().starts_with("choose ["));
        Some(Question::Choose(options.map(|l| id(l.trim().split_once(". ").unwrap().1)).collect()))
    } else if last.contains("how many features were completed?") {
        Some(Question::Count)
    } else {
        None
    }
}

fn exit_status(screen: &str) -> Option<&str> {
    screen.lines().find_map(|l| l.strip_prefix("exit status "))
}

fn tmux_present() -> bool {
    let required = std::env::var("CARCASSONNE_TERMINAL_TESTS").is_ok_and(|v| v == "1");
    if Command::new("tmux").arg("-V").output().is_err() {
        assert!(!required, "CARCASSONNE_TERMINAL_TESTS=1 but tmux is not installed");
        eprintln!("skipped: tmux is not installed (apt-get install tmux); CARCASSONNE_TERMINAL_TESTS=1 makes this a failure");
        return false;
    }
    true
}

#[test]
fn a_whole_builder_double_turn_played_on_a_terminal() {
    if !tmux_present() {
        return;
    }
    let tmux = Tmux::play("builder", "--edition C2 --with builder");
    let mut seq = 0;
    let mut chose = Vec::new();
    // A builder who extends the feature: the double turn yes, every other
    // item no, the first option, one completed feature.
    let screen = loop {
        let screen = tmux.screen();
        if screen.contains("end of turn") {
            break tmux.wait("the exit status", |s| exit_status(s).is_some());
        }
        let key = match tmux.prompt(seq) {
            Question::Do(item) => if item == "builder-double-turn" { "y" } else { "n" }.to_string(),
            Question::Choose(options) => {
                chose.push(options[0].clone());
                "1".to_string()
            }
            Question::Count => "1".to_string(),
        };
        tmux.keys(&[&key, "Enter"]);
        seq += 1;
        // The answer echoed in the trace (or the end) before the next prompt.
        tmux.wait(&format!("the answer to prompt {}", seq - 1), |s| {
            s.contains("end of turn") || s.lines().any(|l| l.starts_with(&format!("[{seq}] part ")))
        });
        assert!(seq < 500, "the turn does not end");
    };
    assert_eq!(exit_status(&screen), Some("0"), "{screen}");
    assert!(!screen.contains("panicked"), "{screen}");
    let lines: Vec<&str> = screen.lines().collect();
    let part2 = lines.iter().position(|l| *l == "part 2").unwrap_or_else(|| panic!("no part 2:\n{screen}"));
    let earned = lines.iter().position(|l| l.trim() == "builder-double-turn: yes").expect("the double turn earned");
    assert!(earned < part2, "{screen}");
    assert!(lines[part2..].iter().any(|l| l.starts_with("[") && l.contains("] part 2, step ")), "part 2 asks");
    assert!(!lines[part2..].iter().any(|l| l.trim() == "builder-double-turn: yes"), "4B is not replayed");
    assert!(chose.iter().all(|c| screen.contains(&format!("chose {c}"))), "{screen}");
    assert_eq!(lines.iter().filter(|l| **l == "end of turn").count(), 1, "{screen}");
}

#[test]
fn end_of_input_and_ctrl_c_leave_cleanly() {
    if !tmux_present() {
        return;
    }
    let eof = Tmux::play("eof", "--edition C2 --with builder");
    assert!(matches!(eof.prompt(0), Question::Do(_)));
    eof.keys(&["n", "Enter"]);
    eof.prompt(1);
    eof.keys(&["C-d"]);
    let screen = eof.wait("the exit status", |s| exit_status(s).is_some());
    assert_eq!(exit_status(&screen), Some("0"), "{screen}");
    assert!(screen.contains("(left the turn at prompt 1)"), "{screen}");
    assert!(!screen.contains("panicked") && !screen.contains("error"), "{screen}");

    let interrupt = Tmux::play("ctrl-c", "--edition C2 --with builder");
    interrupt.prompt(0);
    interrupt.keys(&["C-c"]);
    let screen = interrupt.wait("the exit status", |s| exit_status(s).is_some());
    assert_eq!(exit_status(&screen), Some("130"), "{screen}");
    assert!(!screen.contains("panicked") && !screen.contains("error"), "{screen}");
}
