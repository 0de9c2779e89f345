//! Writing what `gen`, `site` and `wiki` produce, without ever writing
//! through a symbolic link or onto a device, and leaving no temporaries.
//!
//! A folder's files are written as one set: every file is first written into
//! a hidden folder of temporaries inside the output folder ([`WORK_DIR`]),
//! then, once all are written, each is renamed over its target. The hidden
//! folder exists only while a lock is held that Ctrl-C and SIGTERM wait for,
//! and is removed on an error: a signal never leaves a temporary nor half a
//! set. A `kill -9` can leave it behind, git-ignored, and the next run
//! removes it.
//! `gen` also takes a lock in the hidden folder, so a second `gen` waits.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The hidden folder of temporaries (and `gen`'s lock) in an output folder.
pub const WORK_DIR: &str = ".carcassonne-rules";

/// Held while temporaries exist: from the first temporary written to the
/// last renamed into place (or removed after an error). Generating, the slow
/// part, comes before, so a signal waits a few milliseconds at most.
static WRITING: Mutex<()> = Mutex::new(());

/// Ends the program on Ctrl-C, SIGTERM and SIGHUP once no temporaries exist:
/// a set being written is finished first.
pub fn finish_writing_on_signal() {
    // Without a handler a signal still ends the program; what it leaves is
    // in the git-ignored hidden folder, and the next run removes it.
    let _ = ctrlc::set_handler(|| {
        let _writing = WRITING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        std::process::exit(130);
    });
}

/// Runs `write`, which creates and removes its temporaries, with no signal
/// ending the program in between.
fn uninterrupted<T>(write: impl FnOnce() -> T) -> T {
    let _writing = WRITING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    write()
}

fn remove(path: &Path) {
    let _ = if path.is_dir() { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
}

/// What is at a path, looked at without following a symbolic link.
enum Found {
    Nothing,
    File,
    Folder,
    /// A symbolic link, FIFO, socket or device: never written to nor replaced.
    Other(&'static str),
}

fn look(path: &Path) -> Result<Found, String> {
    match std::fs::symlink_metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Found::Nothing),
        Err(err) => Err(format!("cannot look at {}: {err}", path.display())),
        Ok(meta) if meta.file_type().is_symlink() => Ok(Found::Other("a symbolic link")),
        Ok(meta) if meta.is_file() => Ok(Found::File),
        Ok(meta) if meta.is_dir() => Ok(Found::Folder),
        Ok(meta) => Ok(Found::Other(special(&meta.file_type()))),
    }
}

/// Which kind of special file `kind` is.
#[cfg(unix)]
fn special(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special(_: &std::fs::FileType) -> &'static str {
    "not a regular file"
}

/// What is at `path` if it is neither missing nor a regular file.
fn not_a_file(path: &Path) -> Result<Option<&'static str>, String> {
    Ok(match look(path)? {
        Found::Nothing | Found::File => None,
        Found::Folder => Some("a folder"),
        Found::Other(what) => Some(what),
    })
}

/// Makes `dir` a folder of its own: created if missing, refused if it is a
/// symbolic link or anything but a folder.
fn real_folder(dir: &Path) -> Result<(), String> {
    match look(dir)? {
        Found::Folder => Ok(()),
        Found::Nothing => std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display())),
        Found::File => Err(format!("{} is a file, not a folder", dir.display())),
        Found::Other(what) => Err(format!("{} is {what}: refusing to write through it", dir.display())),
    }
}

/// A file's current contents, `None` if it does not exist; an error if the
/// path is anything but a regular file (a link is never followed).
pub fn current(path: &Path) -> Result<Option<String>, String> {
    match look(path)? {
        Found::Nothing => Ok(None),
        // An unreadable or non-UTF-8 file is simply stale.
        Found::File => Ok(Some(std::fs::read_to_string(path).unwrap_or_default())),
        Found::Folder => Err(format!("{} is a folder, not a file", path.display())),
        Found::Other(what) => Err(format!("{} is {what}: refusing to read or replace it", path.display())),
    }
}

/// Refuses to replace the regular file `path` when it is read-only (no write
/// permission for anyone): a rename over it would succeed, since only the
/// folder's permission counts, and quietly replace a file its owner
/// protected. The mode bits themselves are read, not access(2), which says
/// yes to root.
fn writable(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() && meta.permissions().readonly() => Err(format!(
            "{} is read-only: refusing to replace it (make it writable, `chmod u+w`, or write elsewhere)",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// How a set of files is written into its folder.
pub struct SetOptions {
    /// Take the folder's lock first (waiting for the holder, and saying so).
    pub lock: bool,
    /// Keep the hidden folder (with its lock and its `.gitignore`) afterwards.
    pub keep_work_dir: bool,
}

/// The lock of an output folder, held while it lives.
struct Lock(#[allow(dead_code)] File);

fn take_lock(work: &Path) -> Result<Lock, String> {
    let path = work.join("lock");
    if let Some(what) = not_a_file(&path)? {
        return Err(format!("{} is {what}: remove it", path.display()));
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open the lock {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => return Ok(Lock(file)),
        Err(std::fs::TryLockError::WouldBlock) => {
            eprintln!(
                "waiting for another run that is writing into {} (it holds {})",
                display_parent(work),
                path.display()
            );
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(format!("cannot lock {}: {e}", path.display())),
    }
    file.lock().map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
    Ok(Lock(file))
}

fn display_parent(work: &Path) -> String {
    work.parent().map_or_else(|| ".".to_string(), |p| p.display().to_string())
}

/// Writes `files` (paths relative to `out`, `/`-separated, with their
/// contents) into `out` as one set; only those whose contents differ from
/// what is there are written. Returns the paths written.
pub fn write_set(out: &Path, files: &[(String, String)], options: &SetOptions) -> Result<Vec<PathBuf>, String> {
    real_folder(out)?;
    let work = out.join(WORK_DIR);
    real_folder(&work)?;
    write_small(&work.join(".gitignore"), "# Temporaries and the lock of carcassonne-rules: never committed.\n*\n")?;
    let _lock = if options.lock { Some(take_lock(&work)?) } else { None };
    remove_leftovers(&work)?;

    let targets = match changed_targets(out, files) {
        Ok(targets) => targets,
        Err(refusal) => {
            finish(&work, options);
            return Err(refusal);
        }
    };
    if targets.is_empty() {
        finish(&work, options);
        return Ok(Vec::new());
    }

    let stage = work.join(format!("stage-{}", std::process::id()));
    uninterrupted(|| {
        let committed = stage_files(&stage, &targets).and_then(|staged| {
            for ((target, _), path) in targets.iter().zip(&staged) {
                if let Some(parent) = target.parent() {
                    real_folder(parent)?;
                }
                std::fs::rename(path, target).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
            }
            Ok(())
        });
        remove(&stage);
        committed
    })?;
    finish(&work, options);
    Ok(targets.into_iter().map(|(target, _)| target).collect())
}

/// The files of a set whose contents differ from what is there, as target
/// paths with their contents; an error, before anything is written, if one
/// would be written through something that is not a folder or over a
/// read-only file.
fn changed_targets<'f>(out: &Path, files: &'f [(String, String)]) -> Result<Vec<(PathBuf, &'f String)>, String> {
    let mut targets = Vec::new();
    for (name, contents) in files {
        let target = out.join(name);
        for folder in Path::new(name).ancestors().skip(1).filter(|a| !a.as_os_str().is_empty()) {
            let folder = out.join(folder);
            let what = match look(&folder)? {
                Found::Nothing | Found::Folder => continue,
                Found::File => "a file",
                Found::Other(what) => what,
            };
            return Err(format!("{} is {what}: refusing to write through it", folder.display()));
        }
        if current(&target)?.as_deref() != Some(contents.as_str()) {
            writable(&target)?;
            targets.push((target, contents));
        }
    }
    Ok(targets)
}

/// Writes each target's contents into a new folder `stage`, by number.
fn stage_files(stage: &Path, targets: &[(PathBuf, &String)]) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir(stage).map_err(|e| format!("cannot create {}: {e}", stage.display()))?;
    let mut staged = Vec::new();
    for (i, (target, contents)) in targets.iter().enumerate() {
        let path = stage.join(i.to_string());
        write_new(&path, contents, std::fs::metadata(target).ok().map(|m| m.permissions()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        staged.push(path);
    }
    Ok(staged)
}

/// Removes what a killed run left in the hidden folder (under the lock, or
/// by the only writer).
fn remove_leftovers(work: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(work).map_err(|e| format!("cannot list {}: {e}", work.display()))?;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("stage-") || name.ends_with(".tmp") {
            remove(&entry.path());
        }
    }
    Ok(())
}

fn finish(work: &Path, options: &SetOptions) {
    if !options.keep_work_dir {
        let _ = std::fs::remove_file(work.join(".gitignore"));
        let _ = std::fs::remove_dir(work);
    }
}

/// Writes a small file unless it already holds `contents`; never through a link.
fn write_small(path: &Path, contents: &str) -> Result<(), String> {
    if current(path)?.as_deref() == Some(contents) {
        return Ok(());
    }
    let tmp = path.with_extension("tmp");
    uninterrupted(|| replace_with(&tmp, path, contents, None))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Creates `path` (which must not exist) with `contents`, flushed to disk,
/// with `permissions` or the usual ones for a new file.
fn write_new(path: &Path, contents: &str, permissions: Option<std::fs::Permissions>) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(contents.as_bytes())?;
    match permissions {
        Some(p) => file.set_permissions(p)?,
        None => set_default_mode(&file)?,
    }
    file.sync_all()
}

#[cfg(unix)]
fn set_default_mode(file: &File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_default_mode(_: &File) -> std::io::Result<()> {
    Ok(())
}

/// Checks that `dir` can take a page: it is missing, or a folder (not a
/// link) that holds nothing but the files named in `owned` (each a regular
/// file) and the hidden folder of temporaries.
pub fn owned_folder(dir: &Path, owned: &[&str]) -> Result<(), String> {
    match look(dir)? {
        Found::Nothing => return Ok(()),
        Found::Folder => {}
        Found::File => return Err(format!("{} is a file, not a folder", dir.display())),
        Found::Other(what) => return Err(format!("{} is {what}: refusing to write through it", dir.display())),
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == WORK_DIR {
            continue;
        }
        if !owned.contains(&name.as_ref()) {
            return Err(format!(
                "{} holds {}, which this command did not write: give an empty or new folder",
                dir.display(),
                carcassonne_rules_runtime::core::escape::terminal::quoted(&name)
            ));
        }
        if let Some(what) = not_a_file(&entry.path())? {
            return Err(format!("{} is {what}: refusing to replace it", entry.path().display()));
        }
    }
    Ok(())
}

/// Writes one file through a temporary beside it, renamed over it once
/// complete. The target must be missing or a regular file that is not
/// read-only: a link, a FIFO or a device (`/dev/null`) is never replaced,
/// nor a file its owner made read-only.
pub fn write_file(path: &Path, contents: &str) -> Result<(), String> {
    let permissions = match look(path)? {
        Found::Nothing => None,
        Found::File => {
            writable(path)?;
            std::fs::metadata(path).ok().map(|m| m.permissions())
        }
        Found::Folder => return Err(format!("{} is a folder, not a file", path.display())),
        Found::Other(what) => {
            return Err(format!("{} is {what}: refusing to replace it with a regular file", path.display()));
        }
    };
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    real_folder(dir)?;
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    uninterrupted(|| replace_with(&tmp, path, contents, permissions))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes `contents` into the temporary `tmp`, then renames it over `path`;
/// removes it on failure.
fn replace_with(
    tmp: &Path,
    path: &Path,
    contents: &str,
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    // A killed run with the same process id may have left it.
    remove(tmp);
    let written = write_new(tmp, contents, permissions).and_then(|()| std::fs::rename(tmp, path));
    if written.is_err() {
        remove(tmp);
    }
    written
}
