//! The properties every input must keep, shared by the fuzz targets
//! (`fuzz/fuzz_targets/*`) and the proptest in `cargo test`
//! (`crates/compiler/tests/properties.rs`, which includes this file by path).
//!
//! For each entry point: no panic (the harness catches one), any error is
//! located inside the input, and the same input gives the same result twice.
//! The checks panic, so that the fuzzer and proptest report the input.

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use carcassonne_rules_compiler::dsl::{self, Condition, Name, SyntaxError, TextPart};
use carcassonne_rules_compiler::{Diagnostic, compile_dir};

/// A condition (`when:`) parses twice alike; errors and names are located.
pub fn condition(input: &str) {
    dsl_entry_point(input, dsl::condition, |c| c.names().into_iter().cloned().collect());
}

/// An item's text parses twice alike; errors and edition names are located.
pub fn text(input: &str) {
    dsl_entry_point(input, dsl::text, |parts| {
        let mut names = Vec::new();
        for part in parts {
            if let TextPart::Variants(alternatives) = part {
                names.extend(alternatives.iter().flat_map(|(editions, _)| editions.iter().cloned()));
            }
        }
        names
    });
}

/// A marker parses twice alike; errors and names (its own and its
/// condition's) are located.
pub fn marker(input: &str) {
    dsl_entry_point(input, dsl::marker, |m| {
        let mut names = vec![m.name.clone()];
        names.extend(m.when.iter().flat_map(Condition::names).cloned());
        names
    });
}

/// Runs `parse` twice on `input`: both results must be equal, an error must
/// be located in the input, and every name must be the text at its range.
fn dsl_entry_point<T: PartialEq + Debug>(
    input: &str,
    parse: fn(&str) -> Result<T, SyntaxError>,
    names: fn(&T) -> Vec<Name>,
) {
    let first = parse(input);
    let again = parse(input);
    assert_eq!(first, again, "two parses of {input:?} differ");
    match &first {
        Ok(tree) => {
            for name in names(tree) {
                let (start, end) = name.at;
                assert!(start < end, "empty range for name {name:?} in {input:?}");
                assert_eq!(input.get(start..end), Some(name.text.as_str()), "name {name:?} in {input:?}");
            }
        }
        Err(err) => syntax_error_is_located(input, err),
    }
}

/// A syntax error's range is a non-empty slice of the input, or the position
/// just past its end (`(len, len + 1)`) when more input was expected.
pub fn syntax_error_is_located(input: &str, err: &SyntaxError) {
    let (start, end) = err.at;
    assert!(!err.message.is_empty(), "no message for {input:?}");
    let at_end = (start, end) == (input.len(), input.len() + 1);
    assert!(
        at_end || (start < end && input.get(start..end).is_some()),
        "error {err:?} is not a range of characters of the {}-byte input {input:?}",
        input.len()
    );
}

/// A copy of a rules folder in a temporary folder of its own, into which one
/// file at a time is replaced by an input and checked.
pub struct RulesBed {
    dir: PathBuf,
    /// Every file of the copy (relative path) with its original bytes.
    files: Vec<(PathBuf, Vec<u8>)>,
}

impl RulesBed {
    /// Copies the rules folder `rules` into a new temporary folder.
    pub fn new(rules: &Path) -> std::io::Result<Self> {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("carcassonne-rules-fuzz-{}-{n}", std::process::id()));
        let dir = root.join("rules");
        let mut files = Vec::new();
        copy_dir(rules, &dir, Path::new(""), &mut files)?;
        files.sort();
        Ok(RulesBed { dir, files })
    }

    /// The file an input replaces: `base.yaml`, `editions.yaml` or
    /// `modules.yaml` when it looks like one, else the expansion file its
    /// `expansion:` header names, else `expansions/abbey-and-mayor.yaml`.
    pub fn target_for(&self, input: &[u8]) -> PathBuf {
        let text = String::from_utf8_lossy(input);
        let top_key = |key: &str| text.lines().any(|line| line.starts_with(key));
        if top_key("phases:") {
            return PathBuf::from("base.yaml");
        }
        if top_key("editions:") || top_key("variants:") {
            return PathBuf::from("editions.yaml");
        }
        if top_key("expansions:") || top_key("derived:") {
            return PathBuf::from("modules.yaml");
        }
        let named = text.lines().find_map(|line| line.strip_prefix("expansion:")).map(|id| {
            let file = format!("{}.yaml", id.trim().trim_matches(['"', '\'']).replace('_', "-"));
            Path::new("expansions").join(file)
        });
        match named {
            Some(path) if self.files.iter().any(|(p, _)| *p == path) => path,
            _ => Path::new("expansions").join("abbey-and-mayor.yaml"),
        }
    }

    /// Writes `input` over one file of the copy (see [`RulesBed::target_for`]),
    /// compiles the copy twice and checks that: both outcomes are the same; a
    /// failure has at least one diagnostic; every diagnostic's location and
    /// labels lie inside its file, on character boundaries; every diagnostic
    /// renders. Then puts the original file back. Returns whether the rules
    /// checked.
    pub fn check(&self, input: &[u8]) -> bool {
        let target = self.target_for(input);
        let path = self.dir.join(&target);
        if let Err(err) = std::fs::write(&path, input) {
            panic!("cannot write {}: {err}", path.display());
        }
        let first = outcome(&self.dir);
        let again = outcome(&self.dir);
        let original = self.files.iter().find(|(p, _)| *p == target).map_or(&[][..], |(_, bytes)| bytes);
        if let Err(err) = std::fs::write(&path, original) {
            panic!("cannot restore {}: {err}", path.display());
        }
        assert_eq!(first, again, "two compilations of the same rules differ");
        first.is_ok()
    }
}

impl Drop for RulesBed {
    fn drop(&mut self) {
        if let Some(root) = self.dir.parent() {
            let _ = std::fs::remove_dir_all(root);
        }
    }
}

/// Compiles `dir`, checks the diagnostics, and returns the outcome as text
/// (the model's debug form, or the diagnostics rendered) for comparing.
fn outcome(dir: &Path) -> Result<String, String> {
    match compile_dir(dir).result {
        Ok(rules) => Ok(format!("{rules:?}")),
        Err(problems) => {
            assert!(!problems.is_empty(), "the rules failed without a diagnostic");
            Err(problems.iter().map(|d| diagnostic_is_located(d, dir)).collect())
        }
    }
}

/// Checks one diagnostic and returns it rendered.
fn diagnostic_is_located(d: &Diagnostic, dir: &Path) -> String {
    assert!(!d.message().is_empty(), "a diagnostic without a message");
    if let Some(location) = d.location() {
        let mut parts = location.rsplitn(3, ':');
        let (col, line, file) = (parts.next(), parts.next(), parts.next());
        let (Some(col), Some(line), Some(file)) = (col, line, file) else {
            panic!("location {location:?} is not file:line:col")
        };
        let (Ok(line), Ok(col)) = (line.parse::<usize>(), col.parse::<usize>()) else {
            panic!("location {location:?} is not file:line:col")
        };
        assert!(Path::new(file).starts_with(dir), "location {location:?} is outside the rules folder");
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(err) => panic!("location {location:?} names a file that cannot be read: {err}"),
        };
        // The loader drops a byte-order mark; offsets count from after it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let lines: Vec<&str> = text.split('\n').collect();
        assert!(line >= 1 && line <= lines.len(), "{location}: line beyond the file's {} lines", lines.len());
        let width = lines[line - 1].chars().count();
        assert!(col >= 1 && col <= width + 1, "{location}: column beyond the line's {width} characters");
        // Labels point into the source the diagnostic shows: the file, or its
        // display copy where control characters are written visibly.
        let Some(source) = miette::Diagnostic::source_code(d) else {
            panic!("{location}: a located diagnostic without its source")
        };
        for label in miette::Diagnostic::labels(d).into_iter().flatten() {
            let (start, end) = (label.offset(), label.offset() + label.len());
            // The lines around the label, and where they start in the source.
            let lines = source.read_span(label.inner(), 0, 0).ok().and_then(|read| {
                let text = std::str::from_utf8(read.data()).ok()?.to_string();
                Some((read.span().offset(), text))
            });
            let inside = lines.is_some_and(|(from, text)| {
                let (Some(start), Some(end)) = (start.checked_sub(from), end.checked_sub(from)) else { return false };
                end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end)
            });
            assert!(inside, "{location}: label {start}..{end} is not a range of characters of the source it shows");
        }
    } else {
        assert!(miette::Diagnostic::labels(d).is_none(), "a diagnostic with labels but no location: {d:?}");
    }
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    let mut out = String::new();
    if let Err(err) = handler.render_report(&mut out, d) {
        panic!("{d:?} does not render: {err}");
    }
    out
}

fn copy_dir(from: &Path, to: &Path, rel: &Path, files: &mut Vec<(PathBuf, Vec<u8>)>) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (source, target, rel) = (entry.path(), to.join(entry.file_name()), rel.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            copy_dir(&source, &target, &rel, files)?;
        } else {
            let bytes = std::fs::read(&source)?;
            std::fs::write(&target, &bytes)?;
            files.push((rel, bytes));
        }
    }
    Ok(())
}

/// Random conditions over 48 modules, read from `input` as a stack machine
/// (a byte pushes a module, or joins the top two with `and`/`or`, or negates
/// the top), are decided within the logic's budget or refused as too
/// complex, at them; a decided one holds exactly where the condition does,
/// at selections the rest of the input picks.
pub fn logic(input: &[u8]) {
    use carcassonne_rules_compiler::logic::{BUDGET, Budget, Logic, TooComplex};
    use carcassonne_rules_compiler::model::Cond;
    use carcassonne_rules_core::{Catalog, Config, EditionId, ModuleId, VariantId};

    const MODULES: u8 = 48;
    let ids: Vec<String> = (0..MODULES).map(|m| format!("m{m:02}")).collect();
    let modules: Vec<(&str, &str, bool)> = ids.iter().map(|id| (id.as_str(), id.as_str(), true)).collect();
    let all: Vec<ModuleId> = (0..MODULES).map(ModuleId).collect();
    let catalog =
        Catalog::new(&[("C1", "1st", VariantId(0))], &[("hig", "HiG")], &modules, &[("x", "X", &["C1"], &all)]);
    let mut stack: Vec<Cond> = Vec::new();
    for &byte in input {
        let top_two = |stack: &mut Vec<Cond>| Some((stack.pop()?, stack.pop()?));
        match byte % 8 {
            // Half the bytes push a module: 128 values, every module reached.
            0..=3 => stack.push(Cond::Module(ModuleId((byte / 8 * 4 + byte % 8) % MODULES))),
            4 | 5 => {
                if let Some((a, b)) = top_two(&mut stack) {
                    stack.push(Cond::All(vec![b, a]));
                }
            }
            6 => {
                if let Some((a, b)) = top_two(&mut stack) {
                    stack.push(Cond::Any(vec![b, a]));
                }
            }
            _ => {
                if let Some(top) = stack.pop() {
                    stack.push(Cond::Not(Box::new(top)));
                }
            }
        }
    }
    let cond = Cond::Any(stack);
    let logic = Logic::over(&catalog, &[], Budget::new(BUDGET));
    match logic.try_cond(&cond) {
        Err(why) => assert_eq!(why, TooComplex::Here, "the first refusal is this condition's"),
        Ok(set) => {
            for window in input.chunks(6) {
                let mut bits = [0u8; 6];
                bits[..window.len()].copy_from_slice(window);
                let chosen = (0..MODULES).filter(|&m| bits[usize::from(m / 8)] & (1 << (m % 8)) != 0);
                let cfg =
                    Config { edition: EditionId(0), variant: VariantId(0), modules: chosen.map(ModuleId).collect() };
                assert_eq!(logic.contains(&set, &cfg), cond.eval(&[], &cfg), "at {cfg:?}");
            }
        }
    }
}
