//! The one guarded reader of the files the program is given: rules files,
//! and `play`'s saved turns and answers. Only a regular file is read, never
//! through a symbolic link, opened without waiting on a FIFO, checked to be
//! the file that was looked at, and at most a bound of bytes of it, so a
//! FIFO, a device, a link to `/proc/self/environ` or a huge file can neither
//! hang a command, leak what it points at, nor exhaust memory.

use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum Refused {
    /// There is no such file.
    Missing,
    /// A symbolic link.
    Link,
    /// A folder.
    Folder,
    /// A FIFO, socket or device.
    NotRegular,
    /// The path named another file by the time it was opened.
    Changed,
    /// Longer than the bound.
    TooLong,
    /// Not UTF-8: the text before the first invalid byte.
    NotUtf8 {
        /// The valid text before the invalid byte.
        before: String,
    },
    /// The system refused.
    Io(std::io::Error),
}

/// The text of the regular file at `path`, of at most `max_bytes`.
pub fn text(path: &Path, max_bytes: u64) -> Result<String, Refused> {
    let kind = |meta: &std::fs::Metadata| -> Result<(), Refused> {
        if meta.file_type().is_symlink() {
            Err(Refused::Link)
        } else if meta.is_dir() {
            Err(Refused::Folder)
        } else if meta.is_file() {
            Ok(())
        } else {
            Err(Refused::NotRegular)
        }
    };
    let meta = std::fs::symlink_metadata(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => Refused::Missing,
        _ => Refused::Io(err),
    })?;
    kind(&meta)?;
    let file = open_no_follow(path).map_err(Refused::Io)?;
    // The path may have been swapped for something else since it was looked at.
    let opened = file.metadata().map_err(Refused::Io)?;
    kind(&opened)?;
    if !same_file(&meta, &opened) {
        return Err(Refused::Changed);
    }
    // Room for the whole file and one byte more: read in one call, and one
    // that finds the end (not in doubling steps: a system call each). The
    // size is counted while reading: `/proc` files say they hold nothing.
    let mut bytes = Vec::with_capacity(opened.len().min(max_bytes) as usize + 1);
    std::io::Read::read_to_end(&mut std::io::Read::take(file, max_bytes + 1), &mut bytes).map_err(Refused::Io)?;
    text_of(bytes, max_bytes)
}

/// Standard input's text, of at most `max_bytes`.
pub fn stdin(max_bytes: u64) -> Result<String, Refused> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(std::io::stdin().lock(), max_bytes + 1), &mut bytes)
        .map_err(Refused::Io)?;
    text_of(bytes, max_bytes)
}

/// `bytes` as text, refused past `max_bytes` (one more was read to tell).
fn text_of(bytes: Vec<u8>, max_bytes: u64) -> Result<String, Refused> {
    if bytes.len() as u64 > max_bytes {
        return Err(Refused::TooLong);
    }
    String::from_utf8(bytes).map_err(|err| {
        let at = err.utf8_error().valid_up_to();
        Refused::NotUtf8 { before: String::from_utf8_lossy(&err.as_bytes()[..at]).into_owned() }
    })
}

/// Opens `path` for reading without following a final symbolic link and
/// without waiting on a FIFO that replaced the file.
#[cfg(unix)]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether two metadata describe the same file.
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}
