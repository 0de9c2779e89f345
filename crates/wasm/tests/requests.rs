//! The module's requests, answered natively: the same code the WebAssembly
//! build runs (js/test holds the module itself against the command line).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use carcassonne_rules_wasm::{MAX_REQUEST_BYTES, Refused, handle};
use serde_json::{Value, json};

fn ok(request: Value) -> Value {
    let answer = handle(request.to_string().as_bytes()).unwrap_or_else(|r| panic!("refused: {r:?}"));
    serde_json::from_str(&answer).expect("the answer is JSON")
}

fn refused(request: Value) -> Refused {
    handle(request.to_string().as_bytes()).expect_err("refused")
}

/// Answers the pending prompt of a play result the first way it allows.
fn first_answer(played: &Value) -> Value {
    let pending = played["prompts"].as_array().and_then(|p| p.last()).expect("a pending prompt");
    match pending["kind"].as_str() {
        // "No" to every question but a must: a "yes" to a tile without a spot goes back to 1B.
        Some("do") => json!({"do": pending["must"] == true}),
        Some("count") => json!({"count": 1}),
        _ => json!({"choose": pending["options"][0]}),
    }
}

#[test]
fn a_turn_resumed_after_every_answer_plays_as_one_uninterrupted_turn() {
    let selection = json!({"edition": "C2", "with": ["builder", "abbey_and_mayor"]});
    let mut answers = Vec::new();
    let mut state = ok(json!({"op": "play", "selection": selection, "answers": []}))["state"].clone();
    loop {
        let played = ok(json!({"op": "play", "selection": selection, "answers": answers}));
        if played["over"] == true {
            let mut resumed = Value::Null;
            // Answer by answer, each from the state the one before saved.
            for answer in &answers {
                resumed = ok(json!({"op": "resume", "state": state, "answers": [answer]}));
                state = resumed["state"].clone();
            }
            assert_eq!(resumed["trace"], played["trace"]);
            assert_eq!(resumed["state"], played["state"]);
            assert!(answers.len() > 10, "a turn of {} answers", answers.len());
            return;
        }
        assert!(answers.len() < 200, "the turn does not end");
        answers.push(first_answer(&played));
    }
}

#[test]
fn a_refused_answer_names_its_code_and_its_index() {
    let selection = json!({"edition": "C2", "with": []});
    let r = refused(json!({"op": "play", "selection": selection, "answers": [{"do": true}, {"count": 3}]}));
    assert_eq!((r.code, r.answer), ("answers", Some(1)));
    assert_eq!(r.message, "a `count` answer to a `do` prompt");
    assert_eq!(r.reason, Some("wrong-kind"));
    assert!(r.help.expect("help").starts_with("prompt 1 asks: do `"));
    let r = refused(json!({"op": "play", "selection": selection, "answers": [{"choose": "no-such-item"}]}));
    assert_eq!((r.code, r.answer), ("answers", Some(0)));
    assert!(r.message.contains("no item of this turn"), "{}", r.message);
}

#[test]
fn a_bad_selection_is_the_command_line_s_error_with_its_suggestion() {
    let r = refused(json!({"op": "order", "selection": {"edition": "C2", "with": ["buildr"]}}));
    assert_eq!(r.code, "command-line");
    assert_eq!(r.help.as_deref(), Some("did you mean `builder`?"));
    let r = refused(json!({"op": "order", "selection": {"edition": "C9", "with": []}}));
    assert_eq!(r.code, "command-line");
    let r = refused(json!({"op": "order", "selection": {"edition": "C2", "lang": "xx"}}));
    assert_eq!((r.code, r.message.as_str()), ("command-line", "unknown language `xx`"));
}

#[test]
fn a_translated_order_says_its_language() {
    let order = ok(json!({"op": "order", "selection": {"edition": "C2", "with": ["builder"], "lang": "nl"}}));
    assert_eq!(order["lang"], "nl");
    let english = ok(json!({"op": "order", "selection": {"edition": "C2", "with": ["builder"]}}));
    assert_ne!(order["phases"][0]["title"], english["phases"][0]["title"]);
}

#[test]
fn malformed_oversized_and_forged_requests_are_refused() {
    for request in [b"".as_slice(), b"{", b"[]", b"{\"op\": \"delete\"}", b"{\"op\": \"modules\", \"x\": 1}"] {
        assert_eq!(handle(request).expect_err("refused").code, "command-line", "{request:?}");
    }
    let r = refused(json!({"op": "order", "selection": {"edition": "C2"}, "answers": []}));
    assert_eq!(r.message, "`order` takes selection");
    let r = refused(json!({"op": "resume", "answers": []}));
    assert_eq!(r.message, "`resume` takes state and answers");
    let big = vec![b' '; MAX_REQUEST_BYTES + 1];
    assert!(handle(&big).expect_err("refused").message.contains("more than"));
    let selection = json!({"edition": "C2", "with": ["builder"]});
    let mut state = ok(json!({"op": "play", "selection": selection, "answers": []}))["state"].clone();
    state["turn"]["rules"] = json!("0000000000000000");
    let r = refused(json!({"op": "resume", "state": state, "answers": []}));
    assert_eq!(r.code, "answers");
    assert!(r.message.contains("other rules"), "{}", r.message);
    assert_eq!(r.reason, Some("other-rules"));
    let r = refused(json!({"op": "resume", "state": {"turn": 1}, "answers": []}));
    assert!(r.message.starts_with("not a saved turn"), "{}", r.message);
}

#[test]
fn modules_lists_the_catalog() {
    let modules = ok(json!({"op": "modules"}));
    let ids: Vec<&str> =
        modules["expansions"].as_array().expect("expansions").iter().filter_map(|e| e["id"].as_str()).collect();
    assert!(ids.contains(&"abbey_and_mayor"), "{ids:?}");
}
