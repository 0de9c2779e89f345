//! `carcassonne-rules lsp` as an editor runs it, fed frames no client should
//! send: a lone surrogate in a string (half an emoji, which serde_json
//! refuses) and a Content-Length of 99,999,999,999,999 with no body. Each is
//! answered with a JSON-RPC parse error (id null) and the server goes on
//! answering: it neither exits nor aborts allocating the length.
//! (`crates/lsp/tests/framing.rs` holds the framing's cases one by one.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Every frame the server writes, as JSON, until its stdout closes.
fn frames(stdout: impl Read + Send + 'static) -> mpsc::Receiver<Value> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                match line.trim_end() {
                    "" => break,
                    header => {
                        if let Some(n) = header.strip_prefix("Content-Length: ") {
                            length = Some(n.parse::<usize>().unwrap());
                        }
                    }
                }
            }
            let mut body = vec![0; length.expect("a Content-Length")];
            stdout.read_exact(&mut body).unwrap();
            if send.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    receive
}

#[test]
fn the_server_answers_a_lone_surrogate_and_a_huge_content_length_with_errors_and_goes_on() {
    let root = carcassonne_rules_lsp::uri::from_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne-rules"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let received = frames(child.stdout.take().unwrap());
    // The responses, skipping the server's notifications.
    let next_response = || loop {
        let message = received.recv_timeout(Duration::from_secs(120)).expect("the server stopped answering");
        if message.get("method").is_none() {
            return message;
        }
    };
    let request = |id: u32, method: &str, params: Value| {
        frame(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string())
    };

    let init = json!({ "processId": null, "rootUri": root, "capabilities": {} });
    stdin.write_all(&request(1, "initialize", init)).unwrap();
    stdin.write_all(&frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)).unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_response()["id"], 1);

    let surrogate = r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"\ud83d"},"position":{"line":0,"character":0}}}"#;
    stdin.write_all(&frame(surrogate)).unwrap();
    stdin.write_all(b"Content-Length: 99999999999999\r\n\r\n").unwrap();
    let base = format!("{root}/rules/base.yaml");
    let hover = json!({ "textDocument": { "uri": base }, "position": { "line": 0, "character": 0 } });
    stdin.write_all(&request(3, "textDocument/hover", hover)).unwrap();
    stdin.flush().unwrap();

    for refused in ["the lone surrogate", "the huge Content-Length"] {
        let error = next_response();
        assert_eq!(error["id"], Value::Null, "{refused}: {error}");
        assert_eq!(error["error"]["code"], -32700, "{refused}: {error}");
    }
    let answer = next_response();
    assert_eq!(answer["id"], 3, "the request after them is answered: {answer}");
    assert!(answer.get("error").is_none(), "{answer}");

    stdin.write_all(&request(4, "shutdown", Value::Null)).unwrap();
    stdin.write_all(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#)).unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_response()["id"], 4);
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {log}", out.status);
    assert_eq!(log.matches("refused a frame").count(), 2, "each refusal is in the log: {log}");
}
