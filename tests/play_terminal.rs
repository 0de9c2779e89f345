//! `play` in a real terminal: tmux runs it and a script reads the screen and
//! types the answers — a whole builder double turn (y/n, numbered options,
//! counts), a turn in Dutch (j/n), then leaving with end of input and with
//! Ctrl-C. They need tmux: `cargo test` reports them as ignored, `cargo test
//! --test play_terminal -- --ignored` (as `.ci/run` does) runs them, failing
//! where tmux is missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// One tmux server of its own (`-L`), so that tests never meet each other's
/// sessions nor the user's.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, args: &str) -> Tmux {
        assert!(Command::new("tmux").arg("-V").output().is_ok(), "tmux is not installed (apt-get install tmux)");
        let tmux = Tmux { socket: format!("carcassonne-play-{name}-{}", std::process::id()) };
        let bin = env!("CARGO_BIN_EXE_carcassonne-rules");
        // The shell reports the exit status, then keeps the pane open.
        let command = format!("NO_COLOR=1 '{bin}' play {args}; echo \"exit status $?\"; sleep 60");
        let out = tmux.run(&["new-session", "-d", "-x", "200", "-y", "50", "-s", "play", &command]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        tmux.run(&["set-option", "-t", "play", "history-limit", "100000"]);
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux").args(["-L", &self.socket]).args(args).output().expect("run tmux")
    }

    /// Everything the pane has shown, history included.
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-J", "-S", "-", "-t", "play"]).stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let out = self.run(&[&["send-keys", "-t", "play"], keys].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }

    /// The screen once `done` holds of it (within ten seconds).
    fn wait(&self, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "timed out; the screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The last line that asks something: ends with its input marker.
fn question(screen: &str) -> Option<&str> {
    let last = screen.lines().rev().find(|l| !l.trim().is_empty())?;
    [" [y/n]", " [j/n]", " [y]", " [j]", "]:", "[0-64]"]
        .iter()
        .any(|end| last.trim_end().ends_with(end))
        .then_some(last)
}

#[test]
#[ignore = "needs tmux (apt-get install tmux); .ci/run runs it with --ignored"]
fn a_whole_builder_double_turn_on_a_terminal() {
    let tmux = Tmux::start("builder", "--edition C2 --with builder");
    let mut asked = 0;
    loop {
        let screen = tmux.wait(|s| question(s).is_some() || s.contains("exit status"));
        if screen.contains("exit status") {
            assert!(screen.contains("exit status 0"), "{screen}");
            assert!(screen.contains("end of turn"), "{screen}");
            assert!(screen.contains("part 2\n"), "no second part:\n{screen}");
            assert_eq!(screen.matches("builder-double-turn — ").count(), 1, "asked once:\n{screen}");
            assert_eq!(screen.matches("step 1B\n").count(), 2, "the block twice:\n{screen}");
            assert_eq!(screen.matches("step 4B\n").count(), 1, "4B once:\n{screen}");
            assert!(screen.contains("1. deploy-meeple — "), "numbered options:\n{screen}");
            assert!(screen.contains("  asks: each player who scores\n"), "who is asked:\n{screen}");
            assert!(screen.contains("draw-tile — Draw a tile at random. (a must) [y]"), "a must:\n{screen}");
            break;
        }
        let last = question(&screen).unwrap().to_string();
        let answer = if last.trim_end().ends_with("[y/n]") {
            if last.contains("builder-double-turn") { "y" } else { "n" }
        } else if last.trim_end().ends_with("(a must) [y]") {
            // A must takes yes alone.
            "y"
        } else {
            // The first option, or one completed feature.
            "1"
        };
        // Waits for the answer's echo and what follows it, then answers on.
        let before = screen.len();
        tmux.keys(&[answer, "Enter"]);
        tmux.wait(|s| s.len() > before && s.lines().rev().find(|l| !l.trim().is_empty()) != Some(&last));
        asked += 1;
        assert!(asked < 300, "the turn does not end");
    }
    assert!(asked > 20, "{asked} prompts");
}

#[test]
#[ignore = "needs tmux (apt-get install tmux); .ci/run runs it with --ignored"]
fn a_wrong_key_is_asked_again_and_end_of_input_leaves_cleanly() {
    let tmux = Tmux::start("eof", "--edition C2");
    tmux.wait(|s| question(s).is_some());
    // Drawing a tile is a must: yes alone is asked for, and "no" is refused.
    tmux.keys(&["maybe", "Enter"]);
    tmux.wait(|s| s.contains("please answer y\n"));
    tmux.keys(&["n", "Enter"]);
    tmux.wait(|s| s.contains("refused: this must be done: it cannot be declined"));
    tmux.keys(&["C-d"]);
    let screen = tmux.wait(|s| s.contains("exit status"));
    assert!(screen.contains("(left the turn at prompt 0)"), "{screen}");
    assert!(screen.contains("exit status 0"), "{screen}");
    assert!(!screen.contains("panicked"), "{screen}");
}

#[test]
#[ignore = "needs tmux (apt-get install tmux); .ci/run runs it with --ignored"]
fn ctrl_c_leaves_cleanly() {
    let tmux = Tmux::start("ctrl-c", "--edition C2");
    tmux.wait(|s| question(s).is_some());
    tmux.keys(&["C-c"]);
    let screen = tmux.wait(|s| s.contains("exit status"));
    assert!(screen.contains("exit status 130"), "{screen}");
    assert!(!screen.contains("panicked") && !screen.contains("error"), "{screen}");
}

#[test]
#[ignore = "needs tmux (apt-get install tmux); .ci/run runs it with --ignored"]
fn in_dutch_the_terminal_asks_and_takes_j_or_n_and_english_still() {
    let tmux = Tmux::start("dutch", "--edition C2 --lang nl");
    // Drawing and showing the tile are musts: `j` alone is asked for.
    let screen = tmux.wait(|s| question(s).is_some());
    assert!(question(&screen).unwrap().trim_end().ends_with("(verplicht) [j]"), "{screen}");
    tmux.keys(&["j", "Enter"]);
    // `j` is yes: the trace says so in Dutch.
    tmux.wait(|s| s.matches("draw-tile").count() >= 2 && s.contains(": ja"));
    tmux.keys(&["ja", "Enter"]);
    let screen = tmux.wait(|s| s.contains("place-tile") && question(s).is_some_and(|q| q.contains("place-tile")));
    assert!(question(&screen).unwrap().trim_end().ends_with("? [j/n]"), "{screen}");
    // A word it does not take is asked again, with the Dutch hint.
    tmux.keys(&["misschien", "Enter"]);
    tmux.wait(|s| s.contains("j (ja) of n (nee)"));
    // The next question answered in English, `no`, is taken as well.
    let before = tmux.screen().matches(": nee").count();
    tmux.keys(&["no", "Enter"]);
    tmux.wait(|s| s.matches(": nee").count() > before);
    tmux.keys(&["C-d"]);
    let screen = tmux.wait(|s| s.contains("exit status"));
    assert!(screen.contains("exit status 0"), "{screen}");
}

/// The language's answer for yes, which the question shows as its key
/// (`[j/n]`), is a translation like any other: it reaches the terminal
/// through the terminal escaper (a soft hyphen shown as `\u{ad}`).
#[test]
#[ignore = "needs tmux (apt-get install tmux); .ci/run runs it with --ignored"]
fn a_translated_answer_key_reaches_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    let copied = Command::new("cp").arg("-r").arg(concat!(env!("CARGO_MANIFEST_DIR"), "/rules")).arg(&rules).status();
    assert!(copied.unwrap().success());
    let program = rules.join("translations/nl/program.yaml");
    let text = std::fs::read_to_string(&program).unwrap();
    assert!(text.contains("text: \"j ja\""));
    std::fs::write(&program, text.replacen("text: \"j ja\"", "text: \"<b>j\u{ad} ja\"", 1)).unwrap();
    let args = format!("--edition C2 --lang nl --rules '{}'", rules.display());
    let tmux = Tmux::start("key", &args);
    let screen = tmux.wait(|s| s.contains("[<b>"));
    assert!(screen.contains("(verplicht) [<b>j\\u{ad}]"), "{screen}");
}
