//! The rules folder on disk through the one guarded reader
//! ([`crate::read`]): only regular files inside the folder, never through a
//! symbolic link, at most [`MAX_FILE_BYTES`] of each; what is refused is a
//! diagnostic that says why and what to do.

use std::path::Path;

use carcassonne_rules_core::escape::terminal::quoted;

use crate::codes::Code;
use crate::diagnostics::{Diagnostic, FileId, Sources};
use crate::read::Refused;

/// The text of the rules file `rel` of the folder `dir`, through the checked
/// reader; `None` when there is no such file.
pub fn read_file(dir: &Path, rel: &str) -> Result<Option<String>, Diagnostic> {
    let path = dir.join(rel);
    match std::fs::symlink_metadata(&path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_text(&path).map(Some),
    }
}

/// The names in the folder `dir`, which may be missing (no names) but must
/// be a folder of its own, not a symbolic link to one elsewhere.
pub(super) fn list_folder(dir: &Path) -> Result<Vec<std::ffi::OsString>, Diagnostic> {
    let shown_dir = quoted(&dir.display().to_string());
    match std::fs::symlink_metadata(dir) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(Diagnostic::global(Code::RulesFolder, format!("`{shown_dir}` is a symbolic link"))
                .with_help(SYMLINK_HELP));
        }
        _ => {}
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|err| Diagnostic::global(Code::RulesFolder, format!("cannot list `{shown_dir}`: {err}")))?;
    Ok(entries.filter_map(Result::ok).map(|e| e.file_name()).collect())
}

/// Why a symbolic link is refused, and what to do instead.
const SYMLINK_HELP: &str = "rules files are read only as regular files inside the rules folder, never through a \
     symbolic link (it could point anywhere): replace the link with a copy of its file";

/// The largest rules file read, in bytes: far beyond any real one (the
/// largest bundled file is about 50 KB), and small enough to read at once.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// Keeps the text of the file at `path` in `sources`.
pub(crate) fn add_source(text: String, path: &Path, sources: &mut Sources) -> FileId {
    sources.add(path.display().to_string(), without_bom(text))
}

/// A file's text without its byte-order mark, which is not part of the YAML.
fn without_bom(text: String) -> String {
    text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text)
}

/// A file's text, if it is a regular file (not a link) of at most
/// [`MAX_FILE_BYTES`] in UTF-8, through the guarded reader.
pub(super) fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let shown_path = quoted(&path.display().to_string());
    let problem = |code, message: String| Diagnostic::about_file(code, path.display().to_string(), message);
    crate::read::text(path, MAX_FILE_BYTES).map_err(|refused| match refused {
        Refused::Missing => problem(Code::MissingFile, format!("`{shown_path}` is missing"))
            .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/"),
        Refused::Link => {
            problem(Code::UnreadableFile, format!("`{shown_path}` is a symbolic link")).with_help(SYMLINK_HELP)
        }
        Refused::Folder | Refused::NotRegular => {
            let what = if matches!(refused, Refused::Folder) {
                "a folder"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            problem(Code::UnreadableFile, format!("`{shown_path}` is {what}"))
                .with_help("the rules folder holds YAML files only; remove it or move it elsewhere")
        }
        Refused::Changed => problem(Code::UnreadableFile, format!("`{shown_path}` changed while it was being opened"))
            .with_help("run the command again once nothing else writes into the rules folder"),
        Refused::TooLong => problem(
            Code::FileTooLong,
            format!("`{shown_path}` is longer than {MAX_FILE_BYTES} bytes, the most a rules file may hold"),
        )
        .with_help("split it, or check that it is the file you meant"),
        Refused::NotUtf8 { before } => {
            let (line, col) = crate::diagnostics::line_col(&before, before.len());
            problem(Code::NotText, format!("`{shown_path}` is not UTF-8: invalid byte at {shown_path}:{line}:{col}"))
                .with_help("save the file as UTF-8")
        }
        Refused::Io(err) => problem(Code::UnreadableFile, format!("cannot read `{shown_path}`: {err}")),
    })
}
