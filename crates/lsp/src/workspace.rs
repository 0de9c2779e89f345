//! The rules folder as the editor sees it: the files on disk with the open
//! buffers in their place, compiled on every change.

use carcassonne_rules_compiler::codes::Code;
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use carcassonne_rules_compiler::diagnostics::{FileId, Span};
use carcassonne_rules_compiler::syntax::{self, BASE_FILE, EXPANSIONS_DIR, MAX_FILE_BYTES, tree};
use carcassonne_rules_compiler::translation::{State, Translations};
use carcassonne_rules_compiler::{Cache, Diagnostic, Rules, RulesTexts, Sources, compile_files_cached};
use carcassonne_rules_tools::verify;

/// A problem's severity (its code's): `check` refuses the rules (error),
/// or `verify` found a property that fails (warning).
pub use carcassonne_rules_compiler::codes::Severity;

/// A place in a rules file, by its path relative to the rules folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// `base.yaml`, `expansions/abbey.yaml`…
    pub file: String,
    /// Byte offset in that file's text.
    pub start: usize,
    /// Length in bytes.
    pub len: usize,
}

/// One problem, for one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The kind of problem.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The primary place (the start of the file for a problem without one).
    pub at: Place,
    /// The message, the primary label and the help (not the notes naming
    /// other places: those are `related`).
    pub message: String,
    /// The other places, with their labels.
    pub related: Vec<(Place, String)>,
    /// Edits that mend it: each a title and its replacement of a place.
    pub fixes: Vec<ProblemFix>,
    /// For a problem of another file shown in the file an edit caused it
    /// from: the file where it is reported.
    pub landed: Option<String>,
}

/// One edit that mends a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemFix {
    /// What it does, as the editor's menu shows it.
    pub title: String,
    /// The text replaced.
    pub at: Place,
    /// What goes in its place.
    pub replacement: String,
}

/// One translation of a unit, where it is written: what the editor shows
/// of it and renames with its item.
#[derive(Clone, Debug, PartialEq)]
pub struct TranslationSite {
    /// The unit's id (`draw-tile`, `step.1B`).
    pub unit: String,
    /// The language's tag.
    pub lang: String,
    /// Its key, quotes left out.
    pub key: Place,
    /// Its `from:`.
    pub from: Place,
    /// Its `text:`.
    pub text: Place,
    /// Translated or outdated.
    pub state: State,
    /// The English it was translated from, canonical.
    pub was: String,
    /// The English as the rules hold it now, canonical.
    pub now: String,
}

/// The outcome of one analysis.
pub struct Analysis {
    /// Each rules file's problems (empty for a clean file).
    pub problems: BTreeMap<String, Vec<Problem>>,
    /// The texts analysed (a broken file's last good version in its place).
    pub texts: BTreeMap<String, String>,
    /// The checked rules, when `check` accepted them.
    pub rules: Option<Rc<Rules>>,
    /// Every translation, when `check` accepted the rules.
    pub translations: Rc<Vec<TranslationSite>>,
    /// What `check` made of the translations: every unit, each language's
    /// state of each (what a translator has still to write is worked out
    /// from it when asked, not at every edit).
    pub checked_translations: Rc<Translations>,
}

/// The rules folder: files on disk, open buffers, and each file's last
/// version that the YAML reader accepted.
pub struct Workspace {
    /// The rules folder.
    pub dir: PathBuf,
    disk: BTreeMap<String, String>,
    /// What the checked reader refused on disk (a link, a FIFO, a device, a
    /// file over the size limit), as `check` would.
    unreadable: Vec<Diagnostic>,
    open: HashMap<String, String>,
    /// The buffers refused for their size, by file: the last accepted text
    /// stays in their place.
    oversized: BTreeMap<String, Diagnostic>,
    last_good: HashMap<String, String>,
    /// The last compiled texts and their outcomes, the latest last.
    remembered: Vec<(BTreeMap<String, String>, Rc<Outcome>)>,
    /// Each file as last deserialized: an edit reads only the edited file.
    parsed: Cache,
    /// The rules files' texts last verified and what `verify` found there:
    /// an edit that leaves them as they were (to a translation) proves
    /// nothing again.
    verified: Option<(RulesTexts, Vec<Problem>)>,
    /// Each file's current text as a syntax tree, for what the editor asks
    /// about a text `check` did not read (a broken one): parsed at the first
    /// question after an edit, so that an edit's diagnostics do not wait.
    trees: HashMap<String, OnceCell<tree::Parse>>,
    /// The editors' backups and auto-saves in `expansions/`
    /// (`expansions/abbey.yaml~`), which the folder reader skips: each gets
    /// one message at itself.
    backups: BTreeSet<String>,
}

/// How many compiled texts are remembered: the buffers as typed, and the
/// same with a broken file's last good version in its place.
const REMEMBERED: usize = 2;

/// What load, check and verify made of one set of texts.
struct Outcome {
    rules: Option<Rc<Rules>>,
    found: Vec<Problem>,
    unread: Vec<String>,
    translations: Rc<Vec<TranslationSite>>,
    checked_translations: Rc<Translations>,
}

impl Workspace {
    /// The rules folder at `dir`, its files read from disk by the compiler's
    /// checked reader, the one `check` reads with.
    pub fn new(dir: PathBuf) -> Self {
        let (disk, unreadable) = syntax::read_folder(&dir);
        let dir_of_expansions = dir.join(EXPANSIONS_DIR);
        let trees = disk.keys().map(|rel| (rel.clone(), OnceCell::new())).collect();
        Workspace {
            dir,
            disk,
            unreadable,
            open: HashMap::new(),
            oversized: BTreeMap::new(),
            last_good: HashMap::new(),
            remembered: Vec::new(),
            parsed: Cache::default(),
            verified: None,
            trees,
            backups: backups_in(&dir_of_expansions),
        }
    }

    /// The file's path relative to the rules folder, if it is an editor's
    /// backup or auto-save in `expansions/`.
    pub fn backup(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(self.dir.join(EXPANSIONS_DIR)).ok()?;
        let name = rel.to_str().filter(|n| !n.contains(std::path::MAIN_SEPARATOR))?;
        syntax::editor_backup(std::ffi::OsStr::new(name)).then(|| format!("{EXPANSIONS_DIR}/{name}"))
    }

    /// A file of the folder changed on disk (created, changed or deleted):
    /// it is read again, through the checked reader. Whether what the
    /// analysis sees changed.
    pub fn changed_on_disk(&mut self, path: &Path) -> bool {
        if let Some(backup) = self.backup(path) {
            return if path.is_file() { self.backups.insert(backup) } else { self.backups.remove(&backup) };
        }
        let Some(rel) = self.relative(path) else { return false };
        let before = (self.disk.get(&rel).cloned(), self.unreadable.len());
        self.reread(&rel);
        let after = (self.disk.get(&rel).cloned(), self.unreadable.len());
        before != after && !self.open.contains_key(&rel)
    }

    /// Every file read again from disk, for a client that watches none:
    /// whether anything changed.
    pub fn reread_folder(&mut self) -> bool {
        let (disk, unreadable) = syntax::read_folder(&self.dir);
        let backups = backups_in(&self.dir.join(EXPANSIONS_DIR));
        let same = disk == self.disk && backups == self.backups && unreadable.len() == self.unreadable.len();
        if same {
            return false;
        }
        for rel in disk.keys().filter(|rel| self.disk.get(*rel) != disk.get(*rel)) {
            if !self.open.contains_key(rel) {
                self.trees.insert(rel.clone(), OnceCell::new());
            }
        }
        self.disk = disk;
        self.unreadable = unreadable;
        self.backups = backups;
        true
    }

    /// `rel` read again from disk into [`Self::disk`].
    fn reread(&mut self, rel: &str) {
        let path = self.dir.join(rel).display().to_string();
        self.unreadable.retain(|d| d.file() != Some(path.as_str()));
        match syntax::read_file(&self.dir, rel) {
            Ok(Some(text)) => {
                self.disk.insert(rel.to_string(), text);
            }
            Ok(None) => {
                self.disk.remove(rel);
            }
            Err(refused) => {
                self.disk.remove(rel);
                self.unreadable.push(refused);
            }
        }
        if !self.open.contains_key(rel) {
            match self.disk.get(rel) {
                Some(_) => self.trees.insert(rel.to_string(), OnceCell::new()),
                None => self.trees.remove(rel),
            };
        }
    }

    /// The file's path relative to the rules folder, if it is a rules file
    /// or a translation file.
    pub fn relative(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.dir).ok()?;
        let rel = rel.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>().join("/");
        (syntax::rules_file(&rel).is_some() || syntax::translation_file(&rel)).then_some(rel)
    }

    /// An editor's buffer of `rel`, now in place of the file; a buffer over
    /// the size limit of a rules file is refused with a diagnostic, and the
    /// last text accepted stays in its place.
    pub fn set_buffer(&mut self, rel: &str, text: String) {
        if text.len() as u64 > MAX_FILE_BYTES {
            let refusal = Diagnostic::about_file(
                Code::FileTooLong,
                self.dir.join(rel).display().to_string(),
                format!(
                    "the buffer of `{rel}` is {} bytes long; rules files are read up to {MAX_FILE_BYTES} bytes",
                    text.len()
                ),
            )
            .with_help("this buffer is not analysed until it is shorter: split the file");
            self.oversized.insert(rel.to_string(), refusal);
            return;
        }
        self.oversized.remove(rel);
        self.trees.insert(rel.to_string(), OnceCell::new());
        self.open.insert(rel.to_string(), text);
    }

    /// The buffer is closed: the file on disk counts again (re-read through
    /// the checked reader, as it may have been saved).
    pub fn close_buffer(&mut self, rel: &str) {
        self.open.remove(rel);
        self.oversized.remove(rel);
        self.reread(rel);
    }

    /// The current text of `rel`: the buffer, else the file.
    pub fn text(&self, rel: &str) -> Option<&str> {
        self.open.get(rel).or_else(|| self.disk.get(rel)).map(String::as_str)
    }

    /// The syntax tree of the current text of `rel` (see [`Self::text`]):
    /// the one `check` last read when that was this text, else this text's
    /// own, mended past its errors.
    pub fn tree(&self, rel: &str) -> Option<&tree::Node> {
        let text = self.text(rel)?;
        if let Some(tree) = self.parsed.tree(rel, text) {
            return Some(tree);
        }
        Some(&self.trees.get(rel)?.get_or_init(|| tree::parse(text)).tree)
    }

    /// Load, check and verify the rules as they stand. A file the YAML reader
    /// refuses gets that one diagnostic, and the rest is analysed with its
    /// last good version in its place.
    pub fn analyse(&mut self) -> Analysis {
        let mut texts = self.disk.clone();
        for (rel, text) in &self.open {
            texts.insert(rel.clone(), text.clone());
        }
        let outcome = self.outcome_of(&texts);
        let refused = self.refused();
        let broken: Vec<String> = outcome.unread.iter().filter(|rel| texts.contains_key(*rel)).cloned().collect();
        let mut problems: BTreeMap<String, Vec<Problem>> = texts.keys().map(|k| (k.clone(), Vec::new())).collect();
        let substitutes: Vec<(String, String)> = broken
            .iter()
            .filter_map(|rel| {
                self.last_good.get(rel).filter(|good| Some(*good) != texts.get(rel)).map(|g| (rel.clone(), g.clone()))
            })
            .collect();
        for (rel, text) in &texts {
            if !broken.contains(rel) {
                self.last_good.insert(rel.clone(), text.clone());
            }
        }
        for problem in refused.into_iter().chain(self.backups.iter().map(|rel| backup_problem(rel))) {
            problems.entry(problem.at.file.clone()).or_default().push(problem);
        }
        if substitutes.is_empty() {
            for problem in &outcome.found {
                problems.entry(problem.at.file.clone()).or_default().push(problem.clone());
            }
            return Analysis {
                problems,
                texts,
                rules: outcome.rules.clone(),
                translations: Rc::clone(&outcome.translations),
                checked_translations: Rc::clone(&outcome.checked_translations),
            };
        }
        // The broken files' own diagnostics, from the buffers as they are.
        for problem in outcome.found.iter().filter(|p| broken.contains(&p.at.file)) {
            problems.entry(problem.at.file.clone()).or_default().push(problem.clone());
        }
        let mut good = texts;
        for (rel, text) in substitutes {
            good.insert(rel, text);
        }
        // While a file stays broken its last good version is the same, so
        // this is usually the outcome of an earlier analysis, not a compile.
        let again = self.outcome_of(&good);
        for problem in again.found.iter().filter(|p| !broken.contains(&p.at.file)) {
            problems.entry(problem.at.file.clone()).or_default().push(problem.clone());
        }
        Analysis {
            problems,
            texts: good,
            rules: again.rules.clone(),
            translations: Rc::clone(&again.translations),
            checked_translations: Rc::clone(&again.checked_translations),
        }
    }

    /// What the reader refused, on disk and in buffers, each at the start of
    /// the file it names (else of base.yaml).
    fn refused(&self) -> Vec<Problem> {
        let none = Sources::default();
        let on_disk = self.unreadable.iter().map(|d| self.problem(d, &none));
        let buffers = self
            .oversized
            .iter()
            .map(|(rel, d)| Problem { at: Place { file: rel.clone(), start: 0, len: 0 }, ..self.problem(d, &none) });
        on_disk.chain(buffers).collect()
    }

    /// Load, check and verify of exactly `texts`: remembered from one of the
    /// last analyses, else compiled.
    fn outcome_of(&mut self, texts: &BTreeMap<String, String>) -> Rc<Outcome> {
        if let Some(at) = self.remembered.iter().position(|(known, _)| known == texts) {
            let hit = self.remembered.remove(at);
            let outcome = Rc::clone(&hit.1);
            self.remembered.push(hit);
            return outcome;
        }
        let compiled = compile_files_cached(&self.dir, texts, &mut self.parsed);
        let (rules, mut found) = self.outcome(compiled.result, &compiled.sources, texts);
        found.extend(compiled.translation_problems.iter().map(|d| self.problem(d, &compiled.sources)));
        let translations = Rc::new(self.translation_sites(&compiled.translations, &compiled.sources));
        let outcome = Rc::new(Outcome {
            rules: rules.map(Rc::new),
            found,
            unread: compiled.unread,
            translations,
            checked_translations: Rc::new(compiled.translations),
        });
        if self.remembered.len() == REMEMBERED {
            self.remembered.remove(0);
        }
        self.remembered.push((texts.clone(), Rc::clone(&outcome)));
        outcome
    }

    /// `check`'s errors, or `verify`'s warnings on the checked rules.
    fn outcome(
        &mut self,
        result: Result<Rules, Vec<Diagnostic>>,
        sources: &Sources,
        texts: &BTreeMap<String, String>,
    ) -> (Option<Rules>, Vec<Problem>) {
        match result {
            Ok(rules) => {
                if let Some((verified, found)) = &self.verified
                    && verified.are(&rules.inputs, texts)
                {
                    return (Some(rules), found.clone());
                }
                let report = verify::verify(&rules, sources);
                let found: Vec<Problem> = report.problems.iter().map(|d| self.problem(d, sources)).collect();
                self.verified = Some((RulesTexts::of(&rules.inputs, texts), found.clone()));
                (Some(rules), found)
            }
            Err(diagnostics) => (None, diagnostics.iter().map(|d| self.problem(d, sources)).collect()),
        }
    }

    /// Where each translation of `translations` is written.
    fn translation_sites(&self, translations: &Translations, sources: &Sources) -> Vec<TranslationSite> {
        let english: HashMap<&str, &str> =
            translations.units.iter().map(|u| (u.id.as_str(), u.english.as_str())).collect();
        // Each file's name as a place gives it, made once per file: every
        // translation has three places.
        let mut names: HashMap<FileId, String> = HashMap::new();
        let mut place = |span: Span| {
            let file = names.entry(span.file).or_insert_with(|| self.place(sources, span).file).clone();
            Place { file, start: span.start, len: span.len }
        };
        let mut sites = Vec::new();
        for locale in &translations.locales {
            for (unit, t) in &locale.units {
                sites.push(TranslationSite {
                    unit: unit.clone(),
                    lang: locale.lang.clone(),
                    key: place(t.key_span),
                    from: place(t.from_span),
                    text: place(t.span),
                    state: t.state.clone(),
                    was: t.from.clone(),
                    now: english.get(unit.as_str()).map_or_else(String::new, |e| e.to_string()),
                });
            }
        }
        sites
    }

    fn place(&self, sources: &Sources, span: Span) -> Place {
        let name = sources.name(span.file);
        let file = self.relative(Path::new(name)).unwrap_or_else(|| name.to_string());
        Place { file, start: span.start, len: span.len }
    }

    fn problem(&self, d: &Diagnostic, sources: &Sources) -> Problem {
        let places = d.places();
        let at = match places.first() {
            Some((span, _)) => self.place(sources, *span),
            // A problem of no place is shown at the start of the file it is
            // about (a missing or unreadable one), else of base.yaml.
            None => {
                let file = d.file().and_then(|name| self.relative(Path::new(name)));
                Place { file: file.unwrap_or_else(|| BASE_FILE.to_string()), start: 0, len: 0 }
            }
        };
        let mut message = d.message().to_string();
        // The label joins the message unless the message already ends with it
        // ("invalid condition: expected a condition" is not said twice).
        if let Some((_, label)) =
            places.first().filter(|(_, label)| !label.is_empty() && !message.ends_with(label.as_str()))
        {
            message = format!("{message}: {label}");
        }
        if let Some(help) = d.help_text() {
            message = format!("{message}\nhelp: {help}");
        }
        let related = places.iter().skip(1).map(|(span, label)| (self.place(sources, *span), label.clone())).collect();
        let fixes = d
            .fixes()
            .iter()
            .map(|fix| ProblemFix {
                title: fix.title.clone(),
                at: self.place(sources, fix.span),
                replacement: fix.replacement.clone(),
            })
            .collect();
        Problem { code: d.code(), severity: d.severity(), at, message, related, fixes, landed: None }
    }
}

/// The editors' backups and auto-saves in the folder `expansions` (which
/// may be missing), by their path relative to the rules folder.
fn backups_in(expansions: &Path) -> BTreeSet<String> {
    let Ok(entries) = std::fs::read_dir(expansions) else { return BTreeSet::new() };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| syntax::editor_backup(std::ffi::OsStr::new(name)))
        .map(|name| format!("{EXPANSIONS_DIR}/{name}"))
        .collect()
}

/// What the editor shows at an editor's backup or auto-save: it is not
/// read, and why.
fn backup_problem(rel: &str) -> Problem {
    let shown = carcassonne_rules_core::escape::terminal::quoted(rel);
    Problem {
        code: Code::NotARulesFile,
        severity: Severity::Warning,
        at: Place { file: rel.to_string(), start: 0, len: 0 },
        message: format!(
            "`{shown}` is an editor's backup or auto-save, not a rules file: check and the language server skip it\n\
             help: nothing to do; delete it when the editor no longer needs it"
        ),
        related: Vec::new(),
        fixes: Vec::new(),
        landed: None,
    }
}
