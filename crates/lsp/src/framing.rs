//! The protocol's framing on a byte stream (`Content-Length: N`, a blank
//! line, N bytes of JSON), bounded and forgiving: `lsp-server`'s own reader
//! allocates whatever length a header claims and ends the server on a body
//! serde_json refuses (a lone surrogate, half an emoji).
//!
//! Here a length is checked against [`MAX_MESSAGE_BYTES`] before a byte of
//! the body is read or allocated, and a frame that is no message is
//! [`Frame::Refused`], which the transport answers with a JSON-RPC error
//! (id null) while the server goes on.
//!
//! After a bad header or a length over the cap the reader resynchronises: it
//! discards bytes, a few at a time, until either the claimed length has
//! gone by (a real client's oversized message, a huge buffer in `didOpen`,
//! is skipped exactly) or a `Content-Length: N` header line starts the next
//! frame. That line cannot occur inside a JSON body, which holds no raw line
//! break in a string and no bare word outside one, so a lying length costs
//! one refusal, not the session: VS Code and Neovim keep talking to a
//! server that answers, where a server that exits is restarted a few times
//! and then given up on.

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread;

use carcassonne_rules_compiler::syntax::MAX_FILE_BYTES;
use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message};
use serde_json::{Value, json};

/// The longest body taken: a buffer at the rules files' cap of 8 MiB,
/// escaped as a JSON string (about twice as long at worst for ordinary
/// text), so that the workspace, not the framing, refuses a buffer over it
/// with its diagnostic.
pub const MAX_MESSAGE_BYTES: u64 = 2 * MAX_FILE_BYTES;

/// The longest header line read: a real one is about 30 bytes.
const MAX_HEADER_LINE: u64 = 1024;

/// JSON-RPC's code for a body that is not JSON (or no frame at all).
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is no request, response or notification.
pub const INVALID_REQUEST: i32 = -32600;

/// What one frame of the stream holds.
#[derive(Debug)]
pub enum Frame {
    /// A message, to hand to the server.
    Message(Message),
    /// A frame that is no message: the error to answer it with.
    Refused {
        /// JSON-RPC's error code.
        code: i32,
        /// Why, for the client's log.
        message: String,
    },
}

/// Reads frames from `input`, one at a time.
pub struct Reader<R> {
    input: R,
    /// After a refusal: how many bytes to skip at most (`None`: until the
    /// next header), before reading a frame again.
    resync: Option<Option<u64>>,
}

/// A header line, or the blank line that ends the headers.
enum Line {
    End,
    Header(Vec<u8>),
    /// Over [`MAX_HEADER_LINE`], or not a header (no colon, not UTF-8).
    Bad(String),
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`, at the start of a frame.
    pub fn new(input: R) -> Reader<R> {
        Reader { input, resync: None }
    }

    /// The next frame, or `None` at the end of the stream.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        let mut length = None;
        if let Some(limit) = self.resync.take() {
            match self.skip(limit)? {
                Skipped::End => return Ok(None),
                Skipped::Limit => {}
                Skipped::Header(n) => length = Some(n),
            }
        }
        // The headers: only Content-Length is read (Content-Type is utf-8 or absent).
        loop {
            match self.line()? {
                None => return Ok(None),
                Some(Line::End) => break,
                Some(Line::Bad(why)) => return Ok(Some(self.refuse(why, None))),
                Some(Line::Header(line)) => {
                    if let Some(value) = content_length(&line) {
                        match value.trim().parse::<u64>() {
                            Ok(n) => length = Some(n),
                            Err(_) => {
                                let why = format!("unreadable Content-Length `{}`", value.escape_debug());
                                return Ok(Some(self.refuse(why, None)));
                            }
                        }
                    }
                }
            }
        }
        let Some(length) = length else {
            return Ok(Some(self.refuse("a frame without Content-Length".into(), None)));
        };
        if length > MAX_MESSAGE_BYTES {
            let why = format!("a message of {length} bytes; messages are read up to {MAX_MESSAGE_BYTES} bytes");
            return Ok(Some(self.refuse(why, Some(length))));
        }
        // Allocated as the bytes arrive, within the cap.
        let mut body = Vec::new();
        if (&mut self.input).take(length).read_to_end(&mut body)? as u64 != length {
            return Ok(None);
        }
        Ok(Some(parse(&body)))
    }

    /// A refusal; the reader resynchronises before the next frame, skipping
    /// at most `skip` bytes (`None`: until the next header).
    fn refuse(&mut self, message: String, skip: Option<u64>) -> Frame {
        self.resync = Some(skip);
        Frame::Refused { code: PARSE_ERROR, message }
    }

    /// One header line, within [`MAX_HEADER_LINE`]; `None` at the end of the stream.
    fn line(&mut self) -> io::Result<Option<Line>> {
        let mut line = Vec::new();
        (&mut self.input).take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if line.last() != Some(&b'\n') {
            if (line.len() as u64) < MAX_HEADER_LINE {
                return Ok(None);
            }
            return Ok(Some(Line::Bad(format!("a header line over {MAX_HEADER_LINE} bytes"))));
        }
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            return Ok(Some(Line::End));
        }
        // A header's name is a token (RFC 7230): a line of JSON is no header.
        let name = line.split(|&b| b == b':').next().unwrap_or_default();
        let token = !name.is_empty() && name.iter().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(b));
        if !token || !line.contains(&b':') || std::str::from_utf8(&line).is_err() {
            let shown = String::from_utf8_lossy(&line).escape_debug().to_string();
            return Ok(Some(Line::Bad(format!("`{shown}` is not a header"))));
        }
        Ok(Some(Line::Header(line)))
    }

    /// Discards bytes until `limit` of them have gone by or a Content-Length
    /// header line has been read.
    fn skip(&mut self, limit: Option<u64>) -> io::Result<Skipped> {
        let mut left = limit.unwrap_or(u64::MAX);
        // The end of the current line, enough to hold a header.
        let mut tail: Vec<u8> = Vec::with_capacity(2 * TAIL);
        while left > 0 {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(Skipped::End);
            }
            let take = chunk.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            let mut found = None;
            let mut used = take;
            for (i, &byte) in chunk[..take].iter().enumerate() {
                if byte == b'\n' {
                    found = header_at_end(&tail);
                    tail.clear();
                    if found.is_some() {
                        used = i + 1;
                        break;
                    }
                } else {
                    if tail.len() == 2 * TAIL {
                        tail.drain(..TAIL);
                    }
                    tail.push(byte);
                }
            }
            self.input.consume(used);
            left -= used as u64;
            if let Some(n) = found {
                return Ok(Skipped::Header(n));
            }
        }
        Ok(Skipped::Limit)
    }
}

/// How a resynchronisation ended.
enum Skipped {
    End,
    /// The bytes to skip have gone by: a frame starts here.
    Limit,
    /// A Content-Length header line was read: its length.
    Header(u64),
}

/// How much of a line [`Reader::skip`] keeps (a header line is shorter).
const TAIL: usize = 64;

/// The value of a Content-Length header line, if it is one.
fn content_length(line: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(line).ok()?;
    let (name, value) = text.split_once(':')?;
    name.trim().eq_ignore_ascii_case("content-length").then_some(value)
}

/// The length of a `Content-Length: N` (CR) that ends `line`, if one does.
fn header_at_end(line: &[u8]) -> Option<u64> {
    const NAME: &[u8] = b"content-length:";
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let digits = line.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let (before, number) = line.split_at(line.len() - digits);
    let before = before.trim_ascii_end();
    let at = before.len().checked_sub(NAME.len())?;
    // Not the end of a longer name (`X-Content-Length`).
    let joined = at > 0 && (before[at - 1].is_ascii_alphanumeric() || before[at - 1] == b'-');
    if digits == 0 || joined || !before[at..].eq_ignore_ascii_case(NAME) {
        return None;
    }
    std::str::from_utf8(number).ok()?.parse().ok()
}

/// A body as a message, or the refusal of it.
fn parse(body: &[u8]) -> Frame {
    match serde_json::from_slice::<Message>(body) {
        Ok(message) => Frame::Message(message),
        Err(error) => {
            let code = if serde_json::from_slice::<Value>(body).is_ok() { INVALID_REQUEST } else { PARSE_ERROR };
            Frame::Refused { code, message: format!("the message is not {}: {error}", what(code)) }
        }
    }
}

fn what(code: i32) -> &'static str {
    if code == PARSE_ERROR { "JSON" } else { "a request, response or notification" }
}

/// The error response to a refused frame: its id is null, as the frame's is unknown.
pub fn refusal(code: i32, message: &str) -> Vec<u8> {
    let body = json!({ "jsonrpc": "2.0", "id": null, "error": { "code": code, "message": message } }).to_string();
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body.as_bytes());
    frame
}

/// The threads of a [`transport`]: join them once the server has returned.
pub struct Threads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for both threads, with the first error either met.
    pub fn join(self) -> io::Result<()> {
        let reader = self.reader.join().map_err(|_| io::Error::other("the reader panicked"))?;
        let writer = self.writer.join().map_err(|_| io::Error::other("the writer panicked"))?;
        reader.and(writer)
    }
}

/// A connection over `input` and `output` (stdin and stdout in the server):
/// a thread reads frames, answering refused ones itself, and a thread writes
/// the server's messages; a frame is written whole under the output's lock.
/// The channels hold no message (as `lsp-server`'s): a client that sends
/// faster than the server reads waits.
pub fn transport<R, W>(input: R, output: W) -> (Connection, Threads)
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let (to_server, from_client): (Sender<Message>, Receiver<Message>) = bounded(0);
    let (to_client, from_server): (Sender<Message>, Receiver<Message>) = bounded(0);
    let out = Arc::clone(&output);
    let writer = thread::spawn(move || {
        for message in from_server {
            let mut output = out.lock().map_err(|_| io::Error::other("the output's lock is poisoned"))?;
            message.write(&mut *output)?;
        }
        Ok(())
    });
    let reader = thread::spawn(move || {
        let mut frames = Reader::new(io::BufReader::new(input));
        while let Some(frame) = frames.next_frame()? {
            match frame {
                Frame::Message(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || exit {
                        break;
                    }
                }
                Frame::Refused { code, message } => {
                    eprintln!("carcassonne-rules lsp: refused a frame: {message}");
                    let mut output = output.lock().map_err(|_| io::Error::other("the output's lock is poisoned"))?;
                    output.write_all(&refusal(code, &message))?;
                    output.flush()?;
                }
            }
        }
        Ok(())
    });
    (Connection { sender: to_client, receiver: from_client }, Threads { reader, writer })
}
