//! Reading the base version of a review: a rules folder, or the rules folder
//! of a git revision, read from the repository with the `git` command and
//! never from (or into) the work tree.
//!
//! A revision's files are written into a fresh temporary folder, and that
//! folder is compiled as any other, so the reader's limits apply to both
//! alike; on the way, the git side refuses what a folder could not hold
//! safely: symbolic links, submodules, blobs over the size limit, names
//! that would leave the folder, and more files or bytes than rules need.

use carcassonne_rules_compiler::codes::Code;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use carcassonne_rules_core::escape::terminal::quoted;

use carcassonne_rules_compiler::Compiled;
use carcassonne_rules_compiler::diagnostics::Diagnostic;
use carcassonne_rules_compiler::syntax::MAX_FILE_BYTES;

/// The most files a revision's rules folder may hold (the bundled rules have 59).
pub const MAX_FILES: usize = 2_000;
/// The most bytes a revision's rules folder may hold, all files together.
pub const MAX_TOTAL_BYTES: u64 = 64 << 20;

/// Compiles the base: `base` names a folder or a git revision of the
/// repository that holds `head_dir` (whose rules folder is at the same place
/// in the repository as `head_dir`), never both: the version under review
/// could add a folder or a link named as the revision it is compared with
/// (`main`, `origin/main`) and be compared with itself, so a name that is
/// both is refused. A revision's temporary folder is gone when this
/// returns: the compiled sources hold the texts that diagnostics show.
pub fn compile_base(base: &str, head_dir: &Path) -> Result<Base, Vec<Diagnostic>> {
    let as_dir = Path::new(base);
    let repo = Repo::of(head_dir);
    let tree = repo.as_ref().ok().and_then(|repo| repo.tree_of(base));
    match (as_dir.is_dir(), tree) {
        (true, Some(tree)) => return Err(vec![ambiguous(base, as_dir, &tree)]),
        (true, None) => return Ok(Base { compiled: carcassonne_rules_compiler::compile_dir(as_dir), renamed: None }),
        (false, _) => {}
    }
    let repo = repo.map_err(|d| vec![d])?;
    let files = repo.rules_at(base).map_err(|d| vec![d])?;
    let tmp = tempfile::Builder::new().prefix("carcassonne-review-").tempdir().map_err(|e| {
        vec![Diagnostic::global(
            Code::Io,
            format!("cannot make a temporary folder for revision `{}`: {e}", quoted(base)),
        )]
    })?;
    let root = tmp.path().join("rules");
    for (rel, contents) in &files {
        let path = root.join(rel);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::File::create_new(&path))
            .and_then(|mut f| f.write_all(contents));
        written.map_err(|e| {
            vec![Diagnostic::global(Code::Io, format!("cannot write `{}`: {e}", quoted(&path.display().to_string())))]
        })?;
    }
    let mut compiled = carcassonne_rules_compiler::compile_dir(&root);
    // Name the files as git does: `REV:rules/base.yaml`.
    let shown_root = format!("{}/", root.display());
    let as_git = format!("{}:{}", quoted(base), quoted(&repo.prefix));
    compiled.result = compiled
        .result
        .map_err(|problems| problems.into_iter().map(|d| d.with_files_renamed(&shown_root, &as_git)).collect());
    Ok(Base { compiled, renamed: Some((shown_root, as_git)) })
}

/// The compiled base, and how diagnostics name its files.
pub struct Base {
    /// Its rules (whose problems name their files as git does), or its problems.
    pub compiled: Compiled,
    /// A revision's temporary folder, and its name as git writes it (`HEAD:rules/`).
    renamed: Option<(String, String)>,
}

impl Base {
    /// `found`, a diagnostic about the base's files, naming them as the user did.
    pub fn named(&self, found: Diagnostic) -> Diagnostic {
        match &self.renamed {
            Some((from, to)) => found.with_files_renamed(from, to),
            None => found,
        }
    }
}

/// A name that is both a folder and a revision: which one was meant cannot
/// be told, and the folder may come from the version under review.
fn ambiguous(base: &str, dir: &Path, tree: &str) -> Diagnostic {
    let folder = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => "a symbolic link to a folder",
        _ => "a folder",
    };
    let name = quoted(base);
    Diagnostic::global(
        Code::Revision,
        format!(
            "`{name}` names both {folder} (`{}`) and a revision of the repository (tree {})",
            quoted(&dir.display().to_string()),
            quoted(tree)
        ),
    )
    .with_help(format!(
        "the files under review could have made either one, so neither is read: for the folder write a path that no \
         revision has (`./{name}`), for the revision its commit (`git rev-parse {name}`), or rename the folder"
    ))
}

/// A git repository and where the head's rules folder is inside it.
struct Repo {
    /// The rules folder, where git commands run.
    dir: PathBuf,
    /// The rules folder's path from the repository's root, `/`-terminated
    /// (`rules/`), or empty for the root itself.
    prefix: String,
}

impl Repo {
    fn of(head_dir: &Path) -> Result<Repo, Diagnostic> {
        let not_dir = || {
            Diagnostic::global(
                Code::Revision,
                format!(
                    "`{}` is not a folder, so there is no repository to read a revision from",
                    quoted(&head_dir.display().to_string())
                ),
            )
            .with_help("--base takes a folder or a git revision of the repository that holds --rules")
        };
        if !head_dir.is_dir() {
            return Err(not_dir());
        }
        let prefix = git(head_dir, &["rev-parse", "--show-prefix"], None).map_err(|e| {
            Diagnostic::global(
                Code::Revision,
                format!("`{}` is not inside a git repository: {e}", quoted(&head_dir.display().to_string())),
            )
            .with_help("--base takes a folder, or a revision of the repository that holds --rules")
        })?;
        let prefix = String::from_utf8_lossy(&prefix).trim_end_matches(['\n', '\r']).to_string();
        Ok(Repo { dir: head_dir.to_path_buf(), prefix })
    }

    /// The tree `rev` names, if it is a revision of the repository.
    fn tree_of(&self, rev: &str) -> Option<String> {
        // A value git would take for an option is no revision.
        if rev.starts_with('-') || rev.is_empty() || rev.contains('\0') {
            return None;
        }
        let tree =
            git(&self.dir, &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}^{{tree}}")], None)
                .ok()?;
        Some(String::from_utf8_lossy(&tree).trim().to_string())
    }

    /// Every file of the rules folder at `rev`, by its path inside the folder.
    fn rules_at(&self, rev: &str) -> Result<Vec<(PathBuf, Vec<u8>)>, Diagnostic> {
        // The name as messages quote it; git is given `rev` itself.
        let name = quoted(rev);
        let unknown = |detail: String| {
            Diagnostic::global(
                Code::Revision,
                format!("`{name}` is neither a folder nor a revision of the repository: {detail}"),
            )
            .with_help("pass a folder that exists, or a revision such as HEAD~1, main or a commit hash")
        };
        if rev.starts_with('-') || rev.is_empty() || rev.contains('\0') {
            return Err(unknown("not a revision name".into()));
        }
        let tree = self.tree_of(rev).ok_or_else(|| unknown("git knows no such revision".into()))?;
        let listing =
            git(&self.dir, &["ls-tree", "-r", "-z", "--full-tree", "--long", &tree, "--", &self.pathspec()], None)
                .map_err(|e| Diagnostic::global(Code::Revision, format!("cannot list revision `{name}`: {e}")))?;
        let entries = self.entries(&name, &listing)?;
        if entries.is_empty() {
            return Err(Diagnostic::global(
                Code::Revision,
                format!("revision `{name}` has no folder `{}`", quoted(self.shown_dir())),
            )
            .with_help("--base REV reads the folder that --rules names, at that revision"));
        }
        let request: String = entries.iter().map(|e| format!("{}\n", e.object)).collect();
        let blobs = git(&self.dir, &["cat-file", "--batch"], Some(request.as_bytes()))
            .map_err(|e| Diagnostic::global(Code::Revision, format!("cannot read revision `{name}`: {e}")))?;
        let contents = split_batch(&blobs, entries.len()).ok_or_else(|| {
            Diagnostic::global(
                Code::Revision,
                format!("cannot read revision `{name}`: unexpected output of git cat-file"),
            )
        })?;
        Ok(entries.into_iter().map(|e| e.path).zip(contents).collect())
    }

    fn pathspec(&self) -> String {
        // A literal path, not a pattern: rules folders may have `*` in their names.
        if self.prefix.is_empty() { ":(literal).".to_string() } else { format!(":(literal){}", self.prefix) }
    }

    fn shown_dir(&self) -> &str {
        if self.prefix.is_empty() { "." } else { self.prefix.trim_end_matches('/') }
    }

    /// The listing's files, checked: regular blobs only, of sensible sizes,
    /// with names that stay inside the folder. `rev` is the revision's name
    /// as messages quote it.
    fn entries(&self, rev: &str, listing: &[u8]) -> Result<Vec<Entry>, Diagnostic> {
        let mut entries = Vec::new();
        let mut total = 0u64;
        for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
            let bad = || {
                Diagnostic::global(
                    Code::Revision,
                    format!("cannot read revision `{rev}`: unexpected output of git ls-tree"),
                )
            };
            let tab = record.iter().position(|&b| b == b'\t').ok_or_else(bad)?;
            let meta = String::from_utf8_lossy(&record[..tab]).into_owned();
            let full = String::from_utf8(record[tab + 1..].to_vec()).map_err(|_| {
                Diagnostic::global(
                    Code::Revision,
                    format!("revision `{rev}` has a file name that is not UTF-8 in `{}`", quoted(self.shown_dir())),
                )
            })?;
            let named = format!("{rev}:{}", quoted(&full));
            let [mode, kind, object, size] = meta.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(bad());
            };
            let rel = full.strip_prefix(&self.prefix).ok_or_else(bad)?;
            match (mode, kind) {
                ("100644" | "100755", "blob") => {}
                ("120000", _) => {
                    return Err(Diagnostic::global(Code::UnreadableFile, format!("`{named}` is a symbolic link"))
                        .with_help("the rules folder holds YAML files only; a link could read outside it"));
                }
                _ => {
                    return Err(Diagnostic::global(
                        Code::UnreadableFile,
                        format!("`{named}` is not a regular file ({})", quoted(kind)),
                    )
                    .with_help("the rules folder holds YAML files only"));
                }
            }
            let size: u64 = size.parse().map_err(|_| bad())?;
            if size > MAX_FILE_BYTES {
                return Err(Diagnostic::global(
                    Code::FileTooLong,
                    format!("`{named}` is {size} bytes long; rules files are read up to {MAX_FILE_BYTES} bytes"),
                )
                .with_help("split it, or check that it is the file you meant"));
            }
            total += size;
            if entries.len() == MAX_FILES || total > MAX_TOTAL_BYTES {
                return Err(Diagnostic::global(
                    Code::FileTooLong,
                    format!(
                        "revision `{rev}` has more in `{}` than rules need (at most {MAX_FILES} files, {MAX_TOTAL_BYTES} bytes)",
                        quoted(self.shown_dir())
                    ),
                ));
            }
            let path = safe_path(rel).ok_or_else(|| {
                Diagnostic::global(Code::Revision, format!("`{named}` has a name that would leave the rules folder"))
            })?;
            entries.push(Entry { path, object: object.to_string() });
        }
        Ok(entries)
    }
}

/// One file of a revision's listing.
struct Entry {
    path: PathBuf,
    object: String,
}

/// `rel` as a path inside a folder: plain names only (no root, `.`, `..`).
fn safe_path(rel: &str) -> Option<PathBuf> {
    let path = Path::new(rel);
    let plain = !rel.is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)));
    (plain && !rel.contains('\\')).then(|| path.to_path_buf())
}

/// The contents of `count` blobs from `git cat-file --batch` output
/// (`<oid> blob <size>\n<bytes>\n` each).
fn split_batch(mut out: &[u8], count: usize) -> Option<Vec<Vec<u8>>> {
    let mut blobs = Vec::with_capacity(count);
    for _ in 0..count {
        let eol = out.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&out[..eol]).ok()?;
        let mut parts = header.split(' ');
        let (_, kind, size) = (parts.next()?, parts.next()?, parts.next()?);
        let size: usize = size.parse().ok()?;
        if kind != "blob" {
            return None;
        }
        let body = out.get(eol + 1..eol + 1 + size)?;
        blobs.push(body.to_vec());
        out = out.get(eol + 2 + size..)?;
    }
    Some(blobs)
}

/// Runs git in `dir` with `args` (and `input` on its standard input), and
/// returns its standard output, or its error message.
fn git(dir: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>, String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        // Never a pager, a prompt or a hook: this only reads objects.
        .arg("--no-pager")
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    // Feed standard input from a thread, so a large answer cannot block the request.
    let feeder = match (input, child.stdin.take()) {
        (Some(input), Some(mut stdin)) => {
            let input = input.to_vec();
            Some(std::thread::spawn(move || stdin.write_all(&input)))
        }
        _ => None,
    };
    let output = child.wait_with_output().map_err(|e| format!("git did not finish: {e}"))?;
    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    let (status, stdout, stderr) = (output.status, output.stdout, output.stderr);
    if !status.success() {
        // git may echo what it was given: each line is quoted escaped.
        let message = String::from_utf8_lossy(&stderr).trim().lines().map(quoted).collect::<Vec<_>>().join("\n");
        return Err(if message.is_empty() { format!("git {} failed", args.join(" ")) } else { message });
    }
    Ok(stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_stay_inside_the_folder() {
        assert!(safe_path("expansions/abbey.yaml").is_some());
        for bad in ["", "../x.yaml", "expansions/../../x", "/etc/passwd", "a\\b", "./x"] {
            assert!(safe_path(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn batch_output_is_split_by_sizes() {
        let out = b"abc blob 3\nx\ny\ndef blob 0\n\n";
        assert_eq!(split_batch(out, 2), Some(vec![b"x\ny".to_vec(), Vec::new()]));
        assert_eq!(split_batch(b"abc missing\n", 1), None);
    }
}
