//! The server's framing on raw bytes: a length over the cap is refused
//! before any of it is read, a body that is not a message is refused, and
//! either way the next frame is read as if nothing had happened.
//! (`tests/lsp_framing.rs` at the root feeds the same to the real binary.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use carcassonne_rules_lsp::framing::{Frame, INVALID_REQUEST, MAX_MESSAGE_BYTES, PARSE_ERROR, Reader};
use lsp_server::Message;

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

const HOVER: &str = r#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{}}"#;

/// Every frame of `bytes`: a message's method (or `response`), or a refusal's code.
fn frames(bytes: &[u8]) -> Vec<Result<String, (i32, String)>> {
    let mut reader = Reader::new(bytes);
    let mut out = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        out.push(match frame {
            Frame::Message(Message::Request(r)) => Ok(r.method),
            Frame::Message(Message::Notification(n)) => Ok(n.method),
            Frame::Message(Message::Response(_)) => Ok("response".into()),
            Frame::Refused { code, message } => Err((code, message)),
        });
        assert!(out.len() < 100, "no end: {out:?}");
    }
    out
}

fn codes(frames: &[Result<String, (i32, String)>]) -> Vec<String> {
    frames.iter().map(|f| f.clone().unwrap_or_else(|(code, _)| code.to_string())).collect()
}

#[test]
fn a_lone_surrogate_is_a_parse_error_and_the_next_request_is_read() {
    let mut bytes = frame(r#"{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"x":"\ud83d"}}"#);
    bytes.extend(frame(HOVER));
    let read = frames(&bytes);
    assert_eq!(codes(&read), ["-32700", "textDocument/hover"], "{read:?}");
    let Err((_, why)) = &read[0] else { unreachable!() };
    assert!(why.starts_with("the message is not JSON"), "{why}");
}

#[test]
fn json_that_is_no_message_is_an_invalid_request() {
    let mut bytes = frame("[1, 2]");
    bytes.extend(frame(r#"{"jsonrpc":"2.0","hello":true}"#));
    bytes.extend(frame(HOVER));
    assert_eq!(
        codes(&frames(&bytes)),
        [INVALID_REQUEST.to_string(), INVALID_REQUEST.to_string(), "textDocument/hover".into()]
    );
}

/// 99,999,999,999,999 bytes claimed and none sent: refused at once (no
/// allocation: it would abort), and the next frame is found by its header.
#[test]
fn a_huge_content_length_is_refused_and_the_next_frame_found() {
    let mut bytes = b"Content-Length: 99999999999999\r\n\r\n".to_vec();
    bytes.extend(frame(HOVER));
    let read = frames(&bytes);
    assert_eq!(codes(&read), ["-32700", "textDocument/hover"], "{read:?}");
    let Err((_, why)) = &read[0] else { unreachable!() };
    assert!(why.contains("99999999999999 bytes") && why.contains(&MAX_MESSAGE_BYTES.to_string()), "{why}");

    // With other headers around it, in any case.
    let mut bytes = b"Content-Length: 99999999999999\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"jsonrpc\"".to_vec();
    bytes.extend(format!("content-length: {}\r\nContent-Type: x\r\n\r\n", HOVER.len() + 4).bytes());
    bytes.extend(HOVER.as_bytes());
    bytes.extend(b"    ");
    assert_eq!(codes(&frames(&bytes)), ["-32700", "textDocument/hover"]);
}

/// A real client's message over the cap (an editor's buffer of 17 MiB):
/// its body is skipped exactly, though it mentions headers in its strings.
#[test]
fn an_oversized_message_that_comes_is_skipped_exactly() {
    let filler = "Content-Length: 12\\r\\n".repeat((MAX_MESSAGE_BYTES as usize) / 20);
    let big = format!(r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"text":"{filler}"}}}}"#);
    assert!(big.len() as u64 > MAX_MESSAGE_BYTES);
    let mut bytes = frame(&big);
    bytes.extend(frame(HOVER));
    assert_eq!(codes(&frames(&bytes)), ["-32700", "textDocument/hover"]);
}

#[test]
fn bad_headers_are_refused_and_the_next_frame_found() {
    for bad in [
        "Content-Length: twelve\r\n\r\n{}".to_string(),
        "Content-Length: -5\r\n\r\n".to_string(),
        "Content-Type: text/plain\r\n\r\n{}".to_string(),
        "hello\r\n\r\n".to_string(),
        format!("X-Padding: {}\r\n\r\n", "a".repeat(5000)),
        "{\"jsonrpc\":\"2.0\"}\r\n".to_string(),
    ] {
        let mut bytes = bad.clone().into_bytes();
        bytes.extend(frame(HOVER));
        assert_eq!(codes(&frames(&bytes)), [PARSE_ERROR.to_string(), "textDocument/hover".into()], "{bad:?}");
    }
}

#[test]
fn the_end_of_the_stream_ends_the_frames_anywhere() {
    let whole = frame(HOVER);
    for cut in 0..whole.len() {
        let read = frames(&whole[..cut]);
        assert!(read.is_empty(), "{cut}: {read:?}");
    }
    assert_eq!(frames(b"Content-Length: 99999999999999\r\n\r\n{").len(), 1);
}
