//! Reading a rules folder (or an editor's texts) into its records, one file
//! after another in name order, and the cache that spares the language
//! server reading again a file that has not changed.

use std::collections::BTreeMap;
use std::path::Path;

use carcassonne_rules_core::escape::terminal::quoted;
use serde::Deserialize;

use super::diagnose::{misread, parse_error, record_error};
use super::safe_read::{add_source, list_folder, read_file, read_text};
use super::{
    BASE_FILE, EDITIONS_FILE, EXPANSIONS_DIR, MODULES_FILE, RawBaseFile, RawDoubleTurn, RawEdition, RawEditionsFile,
    RawExpansion, RawExpansionFile, RawMarker, RawModulesFile, RawPhase, RawSections, RawVariant, Spanned, de,
    editor_backup, translation_file, tree,
};
use crate::codes::Code;
use crate::diagnostics::{Diagnostic, FileId, Sources};
use crate::lexicon;

/// Everything read from a rules folder. Files that failed to parse are absent
/// (their diagnostics are in `problems`).
#[derive(Debug, Default)]
pub struct RawRules {
    /// From `editions.yaml`.
    pub editions: Vec<RawEdition>,
    /// The rule variants, from `editions.yaml`.
    pub variants: Vec<RawVariant>,
    /// From `modules.yaml`.
    pub expansions: Vec<RawExpansion>,
    /// Derived flags of `modules.yaml`: each name with its defining condition.
    pub derived: Vec<(Spanned<String>, Spanned<String>)>,
    /// The turn's skeleton, from `base.yaml`.
    pub phases: Vec<RawPhase>,
    /// The double-turn block of `base.yaml`, if it declares one.
    pub double_turn: Option<RawDoubleTurn>,
    /// The markers `base.yaml` declares.
    pub markers: Vec<RawMarker>,
    /// `base.yaml`, if it was read.
    pub base_file: Option<FileId>,
    /// The items of `base.yaml`, by section.
    pub base_sections: RawSections,
    /// The files of `expansions/`, in name order.
    pub expansion_files: Vec<RawExpansionFile>,
    /// The files read, relative to the rules folder (`/`-separated), in reading order.
    pub inputs: Vec<String>,
    /// Which files could not be read: what follows only from their absence is
    /// not reported again.
    pub failed: Failed,
    /// The files that could not be read or parsed, relative to the rules folder.
    pub unread: Vec<String>,
}

/// The rules files that could not be read or parsed.
#[derive(Debug, Default, Clone, Copy)]
pub struct Failed {
    /// `editions.yaml`: edition and variant names cannot be checked.
    pub editions: bool,
    /// `modules.yaml`: module, expansion and flag names cannot be checked.
    pub modules: bool,
    /// `base.yaml`: step and section names cannot be checked.
    pub base: bool,
    /// Some expansion file: references to items cannot be checked, nor which
    /// expansions have a file.
    pub expansion: bool,
}

/// Reads every rules file under `dir`. Files are visited in name order so the
/// outcome never depends on the file system's listing order.
pub fn load_dir(dir: &Path, sources: &mut Sources, problems: &mut Vec<Diagnostic>) -> RawRules {
    let mut raw = RawRules::default();
    if !dir.is_dir() {
        let problem = if dir.exists() {
            Diagnostic::global(Code::RulesFolder, format!("`{}` is not a folder", dir.display()))
                .with_help("--rules takes the rules folder, the one that holds base.yaml")
        } else {
            Diagnostic::global(Code::RulesFolder, format!("rules folder `{}` not found", dir.display()))
                .with_help("run from the repository root, or pass --rules DIR")
        };
        problems.push(problem);
        raw.failed = Failed { editions: true, modules: true, base: true, expansion: true };
        return raw;
    }
    if [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().all(|f| !dir.join(f).exists()) {
        problems.push(
            Diagnostic::global(Code::RulesFolder, format!("`{}` holds no rules", dir.display()))
                .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/"),
        );
        raw.failed = Failed { editions: true, modules: true, base: true, expansion: true };
        return raw;
    }
    load(dir, &DiskFiles { dir }, None, sources, problems)
}

/// Reads the rules from `files` (path relative to the rules folder,
/// `/`-separated → text) instead of the disk: an editor's buffers. Diagnostics
/// name each file as `dir` joined with its path.
pub fn load_files(
    dir: &Path,
    files: &BTreeMap<String, String>,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawRules {
    if [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().all(|f| !files.contains_key(*f)) {
        problems.push(
            Diagnostic::global(Code::RulesFolder, format!("`{}` holds no rules", dir.display()))
                .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/"),
        );
        return RawRules {
            failed: Failed { editions: true, modules: true, base: true, expansion: true },
            ..RawRules::default()
        };
    }
    load(dir, &MemoryFiles { dir, files }, None, sources, problems)
}

/// As [`load_files`], reusing what `cache` holds: a file whose text is the
/// one last deserialized under its name is not read again.
pub fn load_files_cached(
    dir: &Path,
    files: &BTreeMap<String, String>,
    cache: &mut ParseCache,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawRules {
    if [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().all(|f| !files.contains_key(*f)) {
        return load_files(dir, files, sources, problems);
    }
    load(dir, &MemoryFiles { dir, files }, Some(cache), sources, problems)
}

/// Rules files as last deserialized, by their path relative to the rules
/// folder: the text, the file id its spans carry, and what it gave (one entry
/// a file, so it stays as small as the rules). The language server compiles
/// on every keystroke, and reading the YAML is most of a compile; only the
/// files that changed are read again. A file that does not deserialize is
/// not kept.
#[derive(Default)]
pub struct ParseCache {
    files: std::collections::HashMap<String, Cached>,
}

/// One file as last read: its text, its id, its tree and its records.
struct Cached {
    text: String,
    file: FileId,
    tree: tree::Node,
    records: Box<dyn std::any::Any>,
}

impl ParseCache {
    fn get<T: Clone + 'static>(&self, name: &str, file: FileId, text: &str) -> Option<T> {
        let cached = self.files.get(name)?;
        (cached.text == text && cached.file == file).then(|| cached.records.downcast_ref::<T>().cloned()).flatten()
    }

    fn put<T: Clone + 'static>(&mut self, name: &str, file: FileId, text: String, read: Read<T>) {
        let records = Box::new(read.records);
        self.files.insert(name.to_string(), Cached { text, file, tree: read.tree, records });
    }

    /// The tree of the file `name` (relative to the rules folder) if `text`
    /// is the text last read under that name: what `check` read, for the
    /// questions an editor asks, so a clean file is parsed once.
    pub fn tree(&self, name: &str, text: &str) -> Option<&tree::Node> {
        self.files.get(name).filter(|cached| cached.text == text).map(|cached| &cached.tree)
    }
}

/// Where the rules files come from: a folder, or texts held in memory.
trait RulesFiles {
    /// The text of the file at `rel` (relative to the rules folder).
    fn read(&self, rel: &str) -> Result<String, Diagnostic>;
    /// The names of the entries of `expansions/`, in any order.
    fn expansion_names(&self) -> Result<Vec<std::ffi::OsString>, Diagnostic>;
}

struct DiskFiles<'a> {
    dir: &'a Path,
}

impl RulesFiles for DiskFiles<'_> {
    fn read(&self, rel: &str) -> Result<String, Diagnostic> {
        read_text(&self.dir.join(rel))
    }

    fn expansion_names(&self) -> Result<Vec<std::ffi::OsString>, Diagnostic> {
        list_folder(&self.dir.join(EXPANSIONS_DIR))
    }
}

struct MemoryFiles<'a> {
    dir: &'a Path,
    files: &'a BTreeMap<String, String>,
}

impl RulesFiles for MemoryFiles<'_> {
    fn read(&self, rel: &str) -> Result<String, Diagnostic> {
        self.files.get(rel).cloned().ok_or_else(|| {
            Diagnostic::about_file(
                Code::MissingFile,
                self.dir.join(rel).display().to_string(),
                format!("`{}` is missing", self.dir.join(rel).display()),
            )
            .with_help("a rules folder holds editions.yaml, modules.yaml, base.yaml and expansions/")
        })
    }

    fn expansion_names(&self) -> Result<Vec<std::ffi::OsString>, Diagnostic> {
        let prefix = format!("{EXPANSIONS_DIR}/");
        Ok(self
            .files
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|name| !name.contains('/'))
            .map(std::ffi::OsString::from)
            .collect())
    }
}

/// Reads every rules file from `files`, in name order.
fn load(
    dir: &Path,
    files: &dyn RulesFiles,
    cache: Option<&mut ParseCache>,
    sources: &mut Sources,
    problems: &mut Vec<Diagnostic>,
) -> RawRules {
    let mut raw = RawRules::default();
    let mut loader = Loader { dir, files, cache, sources, problems, inputs: Vec::new(), unread: Vec::new() };

    let editions = loader.read::<RawEditionsFile>(Path::new(EDITIONS_FILE));
    raw.failed.editions = editions.is_none();
    if let Some((_, file)) = editions {
        raw.editions = file.editions;
        raw.variants = file.variants;
    }
    let modules = loader.read::<RawModulesFile>(Path::new(MODULES_FILE));
    raw.failed.modules = modules.is_none();
    if let Some((_, file)) = modules {
        raw.expansions = file.expansions;
        raw.derived = file.derived;
    }
    let base = loader.read::<RawBaseFile>(Path::new(BASE_FILE));
    raw.failed.base = base.is_none();
    if let Some((id, file)) = base {
        raw.base_file = Some(id);
        raw.phases = file.phases;
        raw.double_turn = file.double_turn;
        raw.base_sections = file.sections;
        raw.markers = file.markers;
    }

    let expansions_dir = dir.join(EXPANSIONS_DIR);
    let mut names = match files.expansion_names() {
        Ok(names) => names,
        Err(problem) => {
            loader.problems.push(problem);
            raw.failed.expansion = true;
            Vec::new()
        }
    };
    names.sort();
    // Hidden files (editor swap files, `.DS_Store`) and editors' backups are not rules.
    for name in names.into_iter().filter(|n| !n.as_encoded_bytes().starts_with(b".") && !editor_backup(n)) {
        let Some(name) = name.to_str().filter(|n| lexicon::accepts_file_name(n)) else {
            let lossy = name.to_string_lossy();
            let shown_name = quoted(&format!("{}/{lossy}", expansions_dir.display()));
            let help = if lossy.ends_with(".yaml") || lossy.ends_with(".yml") {
                format!(
                    "expansion files are named `{}`, such as `abbey-and-mayor.yaml`: rename it",
                    lexicon::RULES_FILE_PATTERN
                )
            } else {
                "rules files end in `.yaml`; rename it, or move it out of the rules folder".to_string()
            };
            loader.problems.push(
                Diagnostic::global(Code::NotARulesFile, format!("`{shown_name}` is not a rules file")).with_help(help),
            );
            raw.failed.expansion = true;
            continue;
        };
        let rel = Path::new(EXPANSIONS_DIR).join(name);
        match loader.read::<RawExpansionFile>(&rel) {
            Some((_, file)) => raw.expansion_files.push(file),
            None => raw.failed.expansion = true,
        }
    }
    raw.inputs = loader.inputs;
    raw.unread = loader.unread;
    raw
}

/// The rules files of the folder `dir` as [`load_dir`] would read them, for
/// a reader of its own (the language server): every text by its path
/// relative to the folder (`base.yaml`, `expansions/abbey.yaml`), and a
/// diagnostic for each one the checked reader refuses (a link, a FIFO, a
/// device, a file over [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES), a linked `expansions/`). A
/// missing file is neither: compiling the texts says it is missing.
pub fn read_folder(dir: &Path) -> (BTreeMap<String, String>, Vec<Diagnostic>) {
    let mut texts = BTreeMap::new();
    let mut refused = Vec::new();
    let mut names: Vec<String> = [EDITIONS_FILE, MODULES_FILE, BASE_FILE].iter().map(|n| n.to_string()).collect();
    match list_folder(&dir.join(EXPANSIONS_DIR)) {
        Ok(found) => names.extend(
            found
                .iter()
                .filter_map(|n| n.to_str())
                .filter(|n| !n.starts_with('.') && !editor_backup(std::ffi::OsStr::new(n)))
                .map(|n| format!("{EXPANSIONS_DIR}/{n}")),
        ),
        Err(problem) => refused.push(problem),
    }
    names.extend(translation_names(dir, &mut refused));
    for rel in names {
        match read_file(dir, &rel) {
            Ok(Some(text)) => {
                texts.insert(rel, text);
            }
            Ok(None) => {}
            Err(problem) => refused.push(problem),
        }
    }
    (texts, refused)
}

/// The translation files of the folder `dir`, as [`read_folder`] reads them:
/// `translations/languages.yaml` and each language folder's files (one level
/// of `expansions/` in it), by their path relative to `dir`.
pub(crate) fn translation_names(dir: &Path, refused: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut names = vec!["translations/languages.yaml".to_string()];
    let mut folders = vec!["translations".to_string()];
    while let Some(folder) = folders.pop() {
        let found = match list_folder(&dir.join(&folder)) {
            Ok(found) => found,
            Err(problem) => {
                refused.push(problem);
                continue;
            }
        };
        for name in found.iter().filter_map(|n| n.to_str()).filter(|n| !n.starts_with('.')) {
            let rel = format!("{folder}/{name}");
            if translation_file(&rel) {
                names.push(rel);
            } else if folder.matches('/').count() < 2 && dir.join(&rel).is_dir() {
                folders.push(rel);
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// Reads and deserializes one YAML file, keeping its text in `sources`; a file
/// that cannot be read or does not fit `T` is a diagnostic at the mistake,
/// which names the file `name`. Only regular files are read, never through a
/// symbolic link, and at most [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES) of them, so a FIFO, a device,
/// a link out of the rules folder or a huge file cannot hang the compiler,
/// leak what it points at or exhaust memory.
pub fn read_yaml<T: for<'de> Deserialize<'de>>(
    path: &Path,
    name: &str,
    sources: &mut Sources,
) -> Result<(FileId, T), Diagnostic> {
    parse_yaml(read_text(path)?, path, name, sources)
}

fn parse_yaml<T: for<'de> Deserialize<'de>>(
    text: String,
    path: &Path,
    name: &str,
    sources: &mut Sources,
) -> Result<(FileId, T), Diagnostic> {
    let file = add_source(text, path, sources);
    deserialize(file, path, name, sources).map(|read| (file, read.records))
}

/// A file's records and the tree they were read from.
struct Read<T> {
    records: T,
    tree: tree::Node,
}

/// Deserializes `file` of `sources`, the text of the file at `path`.
fn deserialize<T: for<'de> Deserialize<'de>>(
    file: FileId,
    path: &Path,
    name: &str,
    sources: &Sources,
) -> Result<Read<T>, Diagnostic> {
    let content = sources.text(file);
    // The YAML reader takes only `\n` and `\r\n` as line ends: with old Mac
    // line ends the whole file would read as its first line.
    let bytes = content.as_bytes();
    if let Some(at) = (0..bytes.len()).find(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
        // No snippet: a terminal would print the lone `\r` as a jump to the
        // start of the line.
        let (line, col) = crate::diagnostics::line_col(content, at);
        let shown = path.display();
        return Err(Diagnostic::about_file(
            Code::NotText,
            path.display().to_string(),
            format!("`{shown}` has a carriage return without a line feed at {shown}:{line}:{col}"),
        )
        .with_help("save the file with Unix (`\\n`) or Windows (`\\r\\n`) line ends"));
    }
    if content.lines().all(|line| line.trim().is_empty() || line.trim_start().starts_with('#')) {
        return Err(Diagnostic::about_file(
            Code::NotText,
            path.display().to_string(),
            format!("`{}` is empty", path.display()),
        )
        .with_help(format!("{name} must hold a YAML mapping; rules/README.md shows what it contains")));
    }
    let parse = tree::parse_strict(content);
    let read = de::from_tree::<T>(&parse.tree, file);
    match (parse.error, read) {
        (None, Ok(records)) => Ok(Read { records, tree: parse.tree }),
        (None, Err(err)) => Err(record_error(&err, name, file, sources)),
        // What parsed before the error was read as the file is read, in
        // order: a value that does not fit before the error is the first
        // mistake. A key missing or unknown is more likely the error's doing
        // (a line out of place drops the keys below it from their mapping).
        (Some(stop), Err(err)) if !misread(&err) && err.at.as_ref().is_some_and(|at| at.start < stop.at) => {
            Err(record_error(&err, name, file, sources))
        }
        (Some(stop), _) => Err(parse_error(&stop, name, file, sources)),
    }
}

struct Loader<'a> {
    dir: &'a Path,
    files: &'a dyn RulesFiles,
    cache: Option<&'a mut ParseCache>,
    sources: &'a mut Sources,
    problems: &'a mut Vec<Diagnostic>,
    inputs: Vec<String>,
    unread: Vec<String>,
}

impl Loader<'_> {
    /// Reads and deserializes one file; reports and returns `None` on failure.
    fn read<T: for<'de> Deserialize<'de> + Clone + 'static>(&mut self, rel: &Path) -> Option<(FileId, T)> {
        let name = rel.iter().map(|part| part.to_string_lossy()).collect::<Vec<_>>().join("/");
        let read = self
            .files
            .read(&name)
            .and_then(|text| self.parse(text, rel, &name))
            .map_err(|d| self.problems.push(d))
            .ok();
        if read.is_none() {
            self.unread.push(name.clone());
        }
        self.inputs.push(name);
        read
    }

    /// [`parse_yaml`], unless the cache holds what this very text, as this
    /// very file, gives.
    fn parse<T: for<'de> Deserialize<'de> + Clone + 'static>(
        &mut self,
        text: String,
        rel: &Path,
        name: &str,
    ) -> Result<(FileId, T), Diagnostic> {
        let path = self.dir.join(rel);
        let file = add_source(text, &path, self.sources);
        read_source(file, &path, name, self.sources, self.cache.as_deref_mut()).map(|records| (file, records))
    }
}

/// Deserializes `file` of `sources` (the text of the file at `path`, named
/// `name` relative to the rules folder), unless `cache` holds what this very
/// text, as this very file, gives; what is read goes into the cache.
pub(crate) fn read_source<T: for<'de> Deserialize<'de> + Clone + 'static>(
    file: FileId,
    path: &Path,
    name: &str,
    sources: &Sources,
    cache: Option<&mut ParseCache>,
) -> Result<T, Diagnostic> {
    let Some(cache) = cache else { return deserialize(file, path, name, sources).map(|read| read.records) };
    if let Some(value) = cache.get::<T>(name, file, sources.text(file)) {
        return Ok(value);
    }
    let read = deserialize::<T>(file, path, name, sources)?;
    let records = read.records.clone();
    cache.put(name, file, sources.text(file).to_string(), read);
    Ok(records)
}
