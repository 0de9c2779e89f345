//! `play`, scripted: the JSON contract, a whole builder double turn answered
//! one prompt per run through `--save`/`--resume` (the same trace as one run),
//! and every kind of wrong answer located at its file and line, with nothing
//! written.

// Helpers outside `#[test]` functions panic when the binary misbehaves, as tests do.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn play(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .arg("play")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run play in {}: {e}", dir.display()))
}

fn write_answers(dir: &Path, answers: &[Value]) -> String {
    let path = dir.join("answers.jsonl");
    let text: String = answers.iter().map(|a| format!("{a}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The answer a builder who always extends the feature gives: the double
/// turn yes, every other item no (the tile fits) but a must, the first
/// option, one feature.
fn builder_answer(prompt: &Value) -> Value {
    match prompt["kind"].as_str().unwrap() {
        "do" => json!({ "do": prompt["item"] == "builder-double-turn" || prompt["must"] == true }),
        "choose" => json!({ "choose": prompt["options"][0] }),
        "count" => json!({ "count": 1 }),
        other => panic!("kind {other}"),
    }
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().expect("an object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

#[test]
fn a_builder_double_turn_one_answer_per_run_gives_the_trace_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("turn.json");
    let state = state.to_str().unwrap();
    let selection = ["--edition", "C2", "--with", "builder", "--format", "json"];
    // The first run only starts the turn: no answers yet.
    let empty = write_answers(dir.path(), &[]);
    let mut out = json_of(&play(&[&selection[..], &["--answers", &empty, "--save", state]].concat(), dir.path()));
    let mut answers = Vec::new();
    let mut seqs = Vec::new();
    while !out["over"].as_bool().unwrap() {
        let pending = out["prompts"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(pending["pending"], true, "{pending}");
        seqs.push(pending["seq"].as_u64().unwrap());
        let answer = builder_answer(&pending);
        answers.push(answer.clone());
        let file = write_answers(dir.path(), &[answer]);
        let args = ["--resume", state, "--answers", &file, "--save", state, "--format", "json"];
        out = json_of(&play(&args, dir.path()));
        assert!(answers.len() < 500, "the turn does not end");
    }
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>(), "seq counts from the start, across resumes");

    let file = write_answers(dir.path(), &answers);
    let whole = json_of(&play(&[&selection[..], &["--answers", &file]].concat(), dir.path()));
    assert_eq!(whole["trace"], out["trace"], "resumed at every prompt: the same trace");
    assert_eq!(whole["over"], true);
    let prompts = whole["prompts"].as_array().unwrap();
    assert_eq!(prompts.len(), answers.len());
    let trace = whole["trace"].as_array().unwrap();
    assert_eq!(trace.last(), Some(&json!({ "event": "end" })));
    assert!(trace.contains(&json!({ "event": "part", "part": 2 })));
    let begun = |step: &str| trace.iter().filter(|e| e["event"] == "step" && e["step"] == step).count();
    assert_eq!((begun("1A"), begun("1B"), begun("4A"), begun("4B")), (1, 2, 2, 1));
    // The contract's shapes.
    for prompt in prompts {
        let expected: &[&str] = match prompt["kind"].as_str().unwrap() {
            "do" => &["actor", "feature", "item", "kind", "must", "part", "seq", "step"],
            "choose" => &["actor", "feature", "kind", "may_pass", "must", "of", "options", "part", "seq", "step"],
            _ => &["actor", "feature", "kind", "part", "seq", "step"],
        };
        assert_eq!(keys(prompt), expected, "{prompt}");
    }
    let choose = prompts.iter().find(|p| p["kind"] == "choose").expect("2B-1 is a choice");
    assert_eq!(choose["step"], "2B-1");
    assert_eq!(choose["options"], json!(["deploy-meeple", "deploy-other-figures"]));
    assert_eq!(choose["of"], Value::Null, "the step's own choice");
    assert_eq!((&choose["must"], &choose["actor"]), (&json!(false), &json!("active")), "a step that may pass");
    // A feature is one of its kinds (or none that this step scores, a tent): score-feature's choice.
    let of_an_item = prompts.iter().find(|p| p["kind"] == "choose" && p["of"].is_string());
    assert!(of_an_item.is_some_and(|p| p["of"] == "score-feature" && p["may_pass"] == true), "{prompts:?}");
    // A must is asked to be acknowledged; who scores decides the order.
    let draw = prompts.iter().find(|p| p["item"] == "draw-tile").expect("draw-tile asked");
    assert_eq!((&draw["must"], &draw["actor"]), (&json!(true), &json!("active")));
    let order = prompts.iter().find(|p| p["item"] == "choose-scoring-order").expect("asked");
    assert_eq!((&order["must"], &order["actor"]), (&json!(false), &json!("scorers")));
    for event in trace {
        let expected: &[&str] = match event["event"].as_str().unwrap() {
            "step" => &["event", "feature", "part", "step"],
            "item" => &["actor", "done", "event", "item", "part", "step"],
            "chose" | "taken" => &["actor", "event", "item", "part", "step"],
            "part" => &["event", "part"],
            "no_features" | "skipped" => &["event", "part", "step"],
            "end" => &["event"],
            other => panic!("event {other} in {event}"),
        };
        assert_eq!(keys(event), expected, "{event}");
    }
    let feature = trace.iter().find(|e| e["step"] == "3B").expect("3B");
    assert_eq!(feature["feature"], json!([1, 1]));
}

#[test]
fn a_go_back_is_in_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    // Draw, show, cannot place: and "no legal spot" holds.
    let answers = write_answers(
        dir.path(),
        &[json!({"do": true}), json!({"do": true}), json!({"do": false}), json!({"do": true})],
    );
    let out = json_of(&play(&["--edition", "C2", "--answers", &answers, "--format", "json"], dir.path()));
    let trace = out["trace"].as_array().unwrap();
    assert!(trace.contains(&json!({ "event": "go_back", "part": 1, "from": "1C", "to": "1B" })), "{out}");
    assert_eq!(out["over"], false);
    assert_eq!(out["prompts"].as_array().unwrap().last().unwrap()["item"], "draw-tile");
}

/// Runs `play` with `answers` (on the selection `extra` names, else C2 with
/// the builder), expecting a refusal
/// located at `line` of the answers file, and no state written.
fn refused(answers: &str, line: usize, message: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answers.jsonl");
    std::fs::write(&file, answers).unwrap();
    let file = file.to_str().unwrap();
    let state = dir.path().join("turn.json");
    let selection = if extra.is_empty() { &["--edition", "C2", "--with", "builder"][..] } else { extra };
    let args = [selection, &["--answers", file, "--save", state.to_str().unwrap()]].concat();
    let out = play(&args, dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("{file}:{line}:")), "not at line {line}: {stderr}");
    assert!(stderr.contains(message), "{message:?} not in {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!state.exists(), "a state was written");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn every_kind_of_wrong_answer_is_located_and_writes_nothing() {
    refused("{\"do\": true}\n{\"count\": 2}\n", 2, "a `count` answer to a `do` prompt", &[]);
    refused("{\"do\": true}\n\n{\"choose\": 7}\n", 3, "`choose` takes an item id", &[]);
    refused("{\"do\": \"yes\"}\n", 1, "`do` takes true or false", &[]);
    refused("{\"do\": true}\n{\"do\": false", 2, "not JSON", &[]);
    // Drawing a tile is a must: "no" is refused.
    refused("{\"do\": false}\n", 1, "this must be done: it cannot be declined", &[]);
    refused("[1]\n", 1, "a JSON object", &[]);
    refused("{\"do\": true, \"choose\": null}\n", 1, "exactly one of", &[]);
    refused("{\"do\": true, \"do\": false}\n", 1, "duplicate field `do`", &[]);
    refused("{\"do\": true, \"seq\": 5}\n", 1, "the answer is for prompt 5, but prompt 0 is pending", &[]);
    refused("{\"any_time\": \"draw-tile\"}\n", 1, "is not an \"at any time\" item", &[]);
    // Up to 2B-1 (the tile drawn, shown and placed), then an item that is not an option there.
    let placed = "{\"do\": true}\n".repeat(3);
    let not_offered = "`builder-deploy` is not offered here";
    refused(&format!("{placed}{{\"choose\": \"builder-deploy\"}}\n"), 4, not_offered, &[]);
    refused(&format!("{placed}{{\"choose\": \"no-such-item\"}}\n"), 4, "`no-such-item` is no item of this turn", &[]);
    // 2B-1 may be passed; the figure under deploy-meeple, once taken, may not (with
    // the mayor and the wagon there are three; from the supply no abbey, so a drawn tile).
    let abbey = ["--edition", "C2", "--with", "abbey_and_mayor"];
    let drawn = "{\"do\": false}\n{\"do\": true}\n{\"do\": true}\n{\"do\": true}\n";
    let meeple = format!("{drawn}{{\"choose\": \"deploy-meeple\"}}\n");
    refused(&format!("{meeple}{{\"choose\": null}}\n"), 6, "one of the options must be taken", &abbey);
}

#[test]
fn an_answer_after_the_turn_is_over_is_refused() {
    // The base game: every item no but a must, the first option, no feature — then one more.
    let dir = tempfile::tempdir().unwrap();
    let mut answers = Vec::new();
    loop {
        let file = write_answers(dir.path(), &answers);
        let out = json_of(&play(&["--edition", "C2", "--answers", &file, "--format", "json"], dir.path()));
        if out["over"] == true {
            break;
        }
        let pending = out["prompts"].as_array().unwrap().last().unwrap().clone();
        answers.push(match pending["kind"].as_str().unwrap() {
            "do" => json!({"do": pending["must"] == true}),
            "choose" => json!({"choose": pending["options"][0]}),
            _ => json!({"count": 0}),
        });
    }
    let text: String = answers.iter().map(|a| format!("{a}\n")).collect();
    refused(
        &format!("{text}{{\"do\": true}}\n"),
        answers.len() + 1,
        "an answer after the turn is over",
        &["--edition", "C2"],
    );
}

#[test]
fn an_any_time_item_is_taken_after_the_last_prompt() {
    // The tower: every item no but a must, the first option, no feature; then the ransom, which the
    // turn still takes, though once only.
    let dir = tempfile::tempdir().unwrap();
    let mut answers = Vec::new();
    let with = ["--edition", "C2", "--with", "tower"];
    let out = loop {
        let file = write_answers(dir.path(), &answers);
        let out = json_of(&play(&[&with[..], &["--answers", &file, "--format", "json"]].concat(), dir.path()));
        if out["over"] == true {
            break out;
        }
        let pending = out["prompts"].as_array().unwrap().last().unwrap().clone();
        answers.push(match pending["kind"].as_str().unwrap() {
            "do" => json!({"do": pending["must"] == true}),
            "choose" => json!({"choose": pending["options"][0]}),
            _ => json!({"count": 0}),
        });
    };
    let last_step = out["trace"].as_array().unwrap().iter().rev().find_map(|e| e["step"].as_str()).unwrap().to_string();
    answers.push(json!({"any_time": "tower-ransom"}));
    let file = write_answers(dir.path(), &answers);
    let after = json_of(&play(&[&with[..], &["--answers", &file, "--format", "json"]].concat(), dir.path()));
    let trace = after["trace"].as_array().unwrap();
    assert_eq!(
        trace.last().unwrap(),
        &json!({"event": "any_time", "part": 1, "step": last_step, "item": "tower-ransom"})
    );
    assert_eq!(after["over"], true);
    answers.push(json!({"any_time": "tower-ransom"}));
    let file = write_answers(dir.path(), &answers);
    let twice = play(&[&with[..], &["--answers", &file]].concat(), dir.path());
    assert_eq!(twice.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("only once per turn"));
}

#[test]
fn a_state_from_other_rules_is_refused_at_its_stamp() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("turn.json");
    let empty = write_answers(dir.path(), &[]);
    let saved = play(
        &["--edition", "C2", "--with", "builder", "--answers", &empty, "--save", state.to_str().unwrap()],
        dir.path(),
    );
    assert!(saved.status.success(), "{}", String::from_utf8_lossy(&saved.stderr));
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.len() < 2048, "{} bytes", text.len());
    // Resumed on another selection.
    let out = play(&["--edition", "C1", "--resume", state.to_str().unwrap(), "--answers", &empty], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let line = text.lines().position(|l| l.contains("\"rules\"")).unwrap() + 1;
    assert!(stderr.contains(&format!("turn.json:{line}:")), "{stderr}");
    assert!(stderr.contains("saved from other rules or another selection"), "{stderr}");
    // Resumed on its own selection, named by the state alone: fine.
    let out = play(&["--resume", state.to_str().unwrap(), "--answers", &empty], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A forged state is a located error, not a panic.
    std::fs::write(&state, text.replace("\"draw-tile\"", "\"no-such-item\"")).unwrap();
    let out = play(&["--resume", state.to_str().unwrap(), "--answers", &empty], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("turn.json:"), "{stderr}");
}

#[test]
fn a_saved_turn_edited_by_hand_is_refused_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("turn.json");
    let answers = write_answers(dir.path(), &[json!({"do": true}), json!({"do": true})]);
    let saved = play(&["--edition", "C2", "--answers", &answers, "--save", state.to_str().unwrap()], dir.path());
    assert!(saved.status.success(), "{}", String::from_utf8_lossy(&saved.stderr));
    let text = std::fs::read_to_string(&state).unwrap();
    let empty = write_answers(dir.path(), &[]);
    let pending =
        json_of(&play(&["--resume", state.to_str().unwrap(), "--answers", &empty, "--format", "json"], dir.path()));
    let item = pending["prompts"][0]["item"].as_str().unwrap().to_string();
    let edits = [
        // A double turn granted where the selection has none.
        text.replace("\"double_turn\": false", "\"double_turn\": true"),
        // Another prompt of the same step, as if jumped to.
        text.replace(&format!("\"item\": \"{item}\""), "\"item\": \"place-tile-no-legal-spot\""),
        // An answer struck from the trace.
        {
            let mut value: Value = serde_json::from_str(&text).unwrap();
            let trace = value["trace"].as_array_mut().unwrap();
            let answer = trace.iter().position(|e| e["item"] == "show-tile").unwrap();
            trace.remove(answer);
            serde_json::to_string_pretty(&value).unwrap()
        },
    ];
    assert_eq!(item, "place-tile");
    for edited in edits {
        assert_ne!(edited, text, "the edit applies");
        std::fs::write(&state, &edited).unwrap();
        let out = play(&["--resume", state.to_str().unwrap(), "--answers", &empty], dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{edited}\n{stderr}");
        assert!(stderr.contains("turn.json:") && stderr.contains("changed since"), "{stderr}");
    }
}

#[test]
fn a_turn_in_another_language_is_the_same_turn_in_its_texts() {
    let dir = tempfile::tempdir().unwrap();
    let selection = ["--edition", "C2", "--with", "builder"];
    // Scripted, the turn's JSON names ids: the same in every language.
    let empty = write_answers(dir.path(), &[]);
    let json = |lang: &str| {
        json_of(&play(
            &[&selection[..], &["--answers", &empty, "--format", "json", "--lang", lang]].concat(),
            dir.path(),
        ))
    };
    assert_eq!(json("nl"), json("en"));
    // In text, the trace and the pending prompt are in Dutch, the ids kept.
    let text = |lang: &str| {
        let out = play(&[&selection[..], &["--answers", &empty, "--lang", lang]].concat(), dir.path());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (english, dutch) = (text("en"), text("nl"));
    assert!(english.contains("pending: do `draw-tile`, a must (part 1, step 1B: Draw a tile)"), "{english}");
    assert!(dutch.contains("open: doe `draw-tile`, verplicht (deel 1, stap 1B: Een tegel trekken)"), "{dutch}");
    assert!(english.contains("  step 1A\n") && dutch.contains("  stap 1A\n"), "{dutch}");
}

#[test]
fn saved_turns_and_answers_are_read_only_from_regular_files_of_bounded_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let fifo = path("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::os::unix::fs::symlink("/proc/self/environ", path("environ")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", path("zero")).unwrap();
    std::fs::write(path("big"), vec![b' '; 10 << 20]).unwrap();
    let cases = [
        (fifo.as_str(), "not a regular file"),
        (&path("environ"), "symbolic link"),
        (&path("zero"), "symbolic link"),
        ("/dev/zero", "not a regular file"),
        (&path("big"), "longer than"),
        (&path("missing"), "missing"),
    ];
    for (file, says) in cases {
        for option in ["--resume", "--answers"] {
            let started = std::time::Instant::now();
            let out = play(&["--edition", "C2", option, file], dir.path());
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{option} {file}: {stderr}");
            assert!(stderr.contains(says), "{option} {file}: {stderr}");
            assert!(!stderr.contains("PATH="), "the environment leaked: {stderr}");
            assert!(
                started.elapsed() < std::time::Duration::from_secs(10),
                "{option} {file} took {:?}",
                started.elapsed()
            );
        }
    }
}

#[test]
fn the_wire_types_read_and_write_exactly_play_s_json() {
    use carcassonne_rules_runtime::wire::{AnswerJson, Output, Saved};
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("turn.json");
    let mut answers = Vec::new();
    for round in 0..200 {
        let file = write_answers(dir.path(), &answers);
        let args = ["--edition", "C2", "--with", "builder,tower", "--answers", &file, "--format", "json"];
        let out = json_of(&play(&[&args[..], &["--save", state.to_str().unwrap()]].concat(), dir.path()));
        let typed: Output = serde_json::from_value(out.clone()).expect("play's JSON is an Output");
        assert_eq!(serde_json::to_value(&typed).unwrap(), out, "Output round-trips");
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
        let typed: Saved = serde_json::from_value(saved.clone()).expect("the saved turn is a Saved");
        assert_eq!(serde_json::to_value(&typed).unwrap(), saved, "Saved round-trips");
        if out["over"] == true {
            assert!(round > 10);
            break;
        }
        let pending = out["prompts"].as_array().unwrap().last().unwrap().clone();
        let answer = match pending["kind"].as_str().unwrap() {
            "do" => AnswerJson::Do(pending["item"] == "builder-double-turn" || pending["must"] == true),
            "choose" => AnswerJson::Choose(pending["options"][0].as_str().map(String::from)),
            _ => AnswerJson::Count(1),
        };
        let value = serde_json::to_value(&answer).unwrap();
        assert_eq!(serde_json::from_value::<AnswerJson>(value.clone()).unwrap(), answer);
        answers.push(value);
    }
    assert_eq!(answers[0], json!({"do": true}), "drawing a tile, a must");
    assert!(answers.contains(&json!({"do": false})));
    assert!(answers.iter().any(|a| a.get("choose").is_some()) && answers.iter().any(|a| a.get("count").is_some()));
}
