//! The server reads the rules folder only through the compiler's checked
//! reader, as `check` does: a FIFO, a link to a device, a linked folder that
//! leads out of the workspace and a buffer over the size limit are each
//! refused with a diagnostic, and the server goes on answering.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use common::Client;
use serde_json::{Value, json};

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";

fn messages(diagnostics: &[Value]) -> String {
    diagnostics.iter().map(|d| format!("{}\n", d["message"].as_str().unwrap_or_default())).collect()
}

/// Every diagnostic published so far, of every file.
fn all_messages(client: &Client) -> String {
    client.diagnostics.values().map(|d| messages(d)).collect()
}

/// The server still answers, and still analyses: an edit that breaks the
/// abbey file is reported, and undoing it clears the report.
fn still_answers(client: &mut Client) {
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey.replacen("when: mayor\n", "when: mayro\n", 1));
    assert!(messages(&client.diagnostics_of(ABBEY)).contains("mayro"), "the server analyses edits");
    client.change(ABBEY, &abbey);
    assert!(!messages(&client.diagnostics_of(ABBEY)).contains("mayro"));
}

#[test]
fn a_fifo_named_as_a_rules_file_is_refused() {
    let mut client = Client::start_after(false, json!({}), |rules| {
        let fifo = rules.join("editions.yaml");
        std::fs::remove_file(&fifo).unwrap();
        let path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    });
    let found = messages(&client.diagnostics_of("editions.yaml"));
    assert!(found.contains("is not a regular file (a FIFO, socket or device)"), "{found}");
    still_answers(&mut client);
}

#[test]
fn a_link_to_a_device_is_refused_unread() {
    let mut client = Client::start_after(false, json!({}), |rules| {
        std::os::unix::fs::symlink("/dev/zero", rules.join("expansions/zero.yaml")).unwrap();
    });
    let found = messages(&client.diagnostics_of("expansions/zero.yaml"));
    assert!(found.contains("zero.yaml` is a symbolic link"), "{found}");
    still_answers(&mut client);
}

#[test]
fn a_linked_folder_leading_out_of_the_workspace_is_not_read() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.yaml"), "private_key_0123: hunter2\n").unwrap();
    let target = outside.path().to_path_buf();
    let mut client = Client::start_after(false, json!({}), |rules: &Path| {
        let expansions = rules.join("expansions");
        std::fs::rename(&expansions, rules.join("../moved-away")).unwrap();
        std::os::unix::fs::symlink(&target, &expansions).unwrap();
    });
    client.diagnostics_of("base.yaml");
    let found = all_messages(&client);
    assert!(found.contains("expansions` is a symbolic link"), "{found}");
    assert!(!found.contains("private_key") && !found.contains("hunter2"), "nothing from outside is quoted: {found}");
}

#[test]
fn a_buffer_over_the_size_limit_is_refused_and_the_server_goes_on() {
    let mut client = Client::start(false);
    let base = client.text("base.yaml");
    // A valid file, padded with comments to 100 MB.
    let mut huge = base.clone();
    let line = format!("# {}\n", "x".repeat(98));
    while huge.len() < 100 << 20 {
        huge.push_str(&line);
    }
    client.open("base.yaml", &huge);
    let found = messages(&client.diagnostics_of("base.yaml"));
    assert!(found.contains("the buffer of `base.yaml` is 104857"), "{found}");
    assert!(found.contains("rules files are read up to 8388608 bytes"), "{found}");
    still_answers(&mut client);
    // Back within the limit, the buffer is analysed again.
    client.change("base.yaml", &base);
    assert_eq!(client.diagnostics_of("base.yaml"), Vec::<Value>::new());
}
