//! `file:` URIs ↔ paths: the one escaper of paths into URIs (RFC 3986
//! percent-encoding of everything but unreserved characters and `/`).

use std::path::{Path, PathBuf};

/// The `file:` URI of an absolute path.
pub fn from_path(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The path of a `file:` URI, if it is one.
pub fn to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host is ours.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_survive_the_round_trip_escaped() {
        let path = Path::new("/tmp/Règles 2/a%b#c?.yaml");
        let uri = from_path(path);
        assert_eq!(uri, "file:///tmp/R%C3%A8gles%202/a%25b%23c%3F.yaml");
        assert_eq!(to_path(&uri).as_deref(), Some(path));
        assert_eq!(to_path("file://localhost/x/y").as_deref(), Some(Path::new("/x/y")));
        assert_eq!(to_path("untitled:1"), None);
        assert_eq!(to_path("file:///bad%G1"), None);
    }
}
