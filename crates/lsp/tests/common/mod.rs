//! A client of the server: a copy of the bundled rules in a temporary
//! folder, the server on a thread over `Connection::memory` or, with
//! [`Transport::Binary`], a `<binary> lsp` process over its stdin and stdout
//! (the client's side is the same channel pair either way).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

/// Where the server runs.
#[derive(Clone, Debug)]
pub enum Transport {
    /// `carcassonne_rules_lsp::serve` on a thread of the test.
    InProcess,
    /// `<binary> lsp` as a child process, over its stdin and stdout.
    Binary(PathBuf),
}

impl Transport {
    /// The binary `CARCASSONNE_LSP_SERVER` names, else the server in process.
    pub fn from_env() -> Transport {
        match std::env::var_os("CARCASSONNE_LSP_SERVER") {
            Some(binary) if !binary.is_empty() => Transport::Binary(binary.into()),
            _ => Transport::InProcess,
        }
    }
}

/// The running server, to wait for at the end.
enum Server {
    Thread(std::thread::JoinHandle<()>),
    /// The process and the thread that reads its stdout.
    Process(Child, std::thread::JoinHandle<()>),
}

pub struct Client {
    pub conn: Connection,
    pub dir: tempfile::TempDir,
    server: Option<Server>,
    next_id: i32,
    /// The latest diagnostics of each URI.
    pub diagnostics: HashMap<String, Vec<Value>>,
    /// The parameters of every `window/showMessage`, in order.
    pub messages: Vec<Value>,
    /// How many `textDocument/publishDiagnostics` came, of any file.
    pub published: usize,
}

pub fn bundled_rules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

impl Client {
    /// A server for a workspace holding a copy of `rules/`.
    pub fn start(utf8: bool) -> Client {
        Client::start_with(utf8, json!({}))
    }

    /// As [`Client::start`], the client declaring `text_document` as its
    /// `textDocument` capabilities.
    pub fn start_with(utf8: bool, text_document: Value) -> Client {
        Client::start_after(utf8, text_document, |_| {})
    }

    /// As [`Client::start_with`], `setup` changing the copy of the rules
    /// (given its folder) before the server starts.
    pub fn start_after(utf8: bool, text_document: Value, setup: impl FnOnce(&Path)) -> Client {
        Client::start_declaring(utf8, json!({ "textDocument": text_document }), setup)
    }

    /// As [`Client::start_after`], the client declaring `capabilities`
    /// (besides its position encodings).
    pub fn start_declaring(utf8: bool, capabilities: Value, setup: impl FnOnce(&Path)) -> Client {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&bundled_rules(), &dir.path().join("rules"));
        setup(&dir.path().join("rules"));
        Client::launch(dir, "", utf8, capabilities, &Transport::InProcess)
    }

    /// As [`Client::start`], the server run by `transport`.
    pub fn start_on(transport: &Transport, utf8: bool) -> Client {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&bundled_rules(), &dir.path().join("rules"));
        Client::launch(dir, "", utf8, json!({ "textDocument": {} }), transport)
    }

    /// A server whose workspace root is `below` the temporary folder, which
    /// holds a copy of `rules/` or, unless `with_rules`, nothing but `below`.
    pub fn start_in(below: &str, with_rules: bool) -> Client {
        let dir = tempfile::tempdir().unwrap();
        if with_rules {
            copy_dir(&bundled_rules(), &dir.path().join("rules"));
        }
        std::fs::create_dir_all(dir.path().join(below)).unwrap();
        Client::launch(dir, below, false, json!({ "textDocument": {} }), &Transport::InProcess)
    }

    fn launch(
        dir: tempfile::TempDir,
        below: &str,
        utf8: bool,
        mut capabilities: Value,
        transport: &Transport,
    ) -> Client {
        let (server_side, conn) = Connection::memory();
        let server = match transport {
            Transport::InProcess => {
                Server::Thread(std::thread::spawn(move || carcassonne_rules_lsp::serve(&server_side).unwrap()))
            }
            Transport::Binary(binary) => spawn(binary, dir.path(), server_side),
        };
        let mut client = Client {
            conn,
            dir,
            server: Some(server),
            next_id: 0,
            diagnostics: HashMap::new(),
            messages: Vec::new(),
            published: 0,
        };
        let encodings = if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
        capabilities["general"] = json!({ "positionEncodings": encodings });
        let root = carcassonne_rules_lsp::uri::from_path(&client.dir.path().join(below));
        let init =
            client.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": capabilities }));
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
        client.notify("initialized", json!({}));
        client
    }

    pub fn uri(&self, rel: &str) -> String {
        carcassonne_rules_lsp::uri::from_path(&self.dir.path().join("rules").join(rel))
    }

    pub fn text(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.path().join("rules").join(rel)).unwrap()
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    pub fn open(&self, rel: &str, text: &str) {
        let uri = self.uri(rel);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
        );
    }

    pub fn change(&self, rel: &str, text: &str) {
        let uri = self.uri(rel);
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// Sends a request and waits for its answer, keeping the diagnostics
    /// published meanwhile.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.try_request(method, params).unwrap_or_else(|e| panic!("{method} failed: {e}"))
    }

    pub fn try_request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("the server stopped answering") {
                Message::Response(r) if r.id == id => {
                    return r.response_result.map_err(|e| e.message);
                }
                Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                    let uri = n.params["uri"].as_str().unwrap().to_string();
                    self.published += 1;
                    self.diagnostics.insert(uri, n.params["diagnostics"].as_array().unwrap().clone());
                }
                Message::Notification(n) if n.method == "window/showMessage" => self.messages.push(n.params),
                _ => {}
            }
        }
    }

    /// The diagnostics of `rel` once every change sent has been analysed.
    pub fn diagnostics_of(&mut self, rel: &str) -> Vec<Value> {
        let uri = self.uri(rel);
        self.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } }),
        );
        self.diagnostics.get(&self.uri(rel)).cloned().unwrap_or_default()
    }

    pub fn at(&self, rel: &str, line: usize, character: usize) -> Value {
        json!({ "textDocument": { "uri": self.uri(rel) }, "position": { "line": line, "character": character } })
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.try_request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        match self.server.take() {
            Some(Server::Thread(thread)) => {
                let _ = thread.join();
            }
            Some(Server::Process(mut child, reader)) => {
                let deadline = Instant::now() + Duration::from_secs(10);
                while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(20));
                }
                let _ = child.kill();
                let _ = child.wait();
                let _ = reader.join();
            }
            None => {}
        }
    }
}

/// `<binary> lsp` in `dir`, bridged to `server_side`: what the client sends
/// is written to its stdin, what it writes to its stdout is received. The
/// writing thread ends when the client's connection is dropped.
fn spawn(binary: &Path, dir: &Path, server_side: Connection) -> Server {
    let mut child = Command::new(binary)
        .arg("lsp")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} lsp: {e}", binary.display()));
    let (mut stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
    let Connection { sender, receiver } = server_side;
    std::thread::spawn(move || {
        for message in receiver {
            if message.write(&mut stdin).is_err() {
                break;
            }
        }
    });
    let reader = std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        while let Ok(Some(message)) = Message::read(&mut stdout) {
            if sender.send(message).is_err() {
                break;
            }
        }
    });
    Server::Process(child, reader)
}

/// 0-based line and UTF-16 column of the first `needle` in `text`, plus `skip` characters.
pub fn find(text: &str, needle: &str, skip: usize) -> (usize, usize) {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in the text")) + skip;
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..at].encode_utf16().count())
}

/// One random edit: insert, delete or duplicate a character or a line.
pub fn edit(rng: &mut fastrand::Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return "x".into();
    }
    let at = rng.usize(..chars.len());
    match rng.u8(..6) {
        0 => chars.insert(at, rng.choice([':', ' ', '-', '"', '{', '|', '\n', 'a', 'é', '(']).unwrap()),
        1 => {
            chars.remove(at);
        }
        2 => {
            let c = chars[at];
            chars.insert(at, c);
        }
        _ => {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let i = rng.usize(..lines.len());
            let mut out: Vec<&str> = lines.clone();
            match rng.u8(..3) {
                0 => {
                    out.remove(i);
                }
                1 => out.insert(i, lines[i]),
                _ => out.insert(i, lines[rng.usize(..lines.len())]),
            }
            return out.concat();
        }
    }
    chars.into_iter().collect()
}
