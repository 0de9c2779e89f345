//! Source files and the diagnostics that point into them.
//!
//! A diagnostic is printed to a terminal, and everything in it may come from
//! a hostile rules file: the message and labels quote names, the snippet
//! quotes the file's lines, the header names the file. So each diagnostic
//! shows a display copy of its source, in which every control character other
//! than a line break or a tab is written visibly (`\u{1b}`), with its labels'
//! places moved to match; messages, labels, help and file names are escaped
//! the same way.

use std::fmt;
use std::sync::{Arc, OnceLock};

use miette::{LabeledSpan, NamedSource, SourceCode};

use crate::codes::{Code, Severity};
use crate::positions::{Columns, LineStarts};
use carcassonne_rules_core::escape::terminal;

/// Index of a loaded file in [`Sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub usize);

/// A byte range inside one loaded file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// Byte offset of the range's start.
    pub start: usize,
    /// Length in bytes.
    pub len: usize,
}

/// Every file a compilation read, so diagnostics can show their lines.
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

/// A loaded file, and what a terminal is shown of it.
#[derive(Debug)]
struct SourceFile {
    name: String,
    text: Arc<String>,
    /// The text's line starts, made when a diagnostic first points into it.
    lines: OnceLock<LineStarts>,
    /// Made when a diagnostic first shows the file: most files of a
    /// compile (every file on every edit, in the language server) have none.
    display: OnceLock<Display>,
}

/// What a terminal is shown of a file.
#[derive(Debug)]
struct Display {
    /// The display copy (the same text where nothing needs showing).
    shown: NamedSource<Arc<String>>,
    /// The display copy's line starts, shared by the diagnostics that show it.
    shown_lines: Arc<LineStarts>,
    /// For each character written visibly in the display copy: its offset in
    /// the text, and how many bytes longer the display copy is from its end.
    shifts: Vec<(usize, usize)>,
}

impl SourceFile {
    fn new(name: &str, text: String) -> Self {
        SourceFile { name: name.to_string(), text: Arc::new(text), lines: OnceLock::new(), display: OnceLock::new() }
    }

    fn display(&self) -> &Display {
        self.display.get_or_init(|| {
            let (shown, shifts) = display_copy(&self.text);
            let shown_lines = Arc::new(match &shown {
                Some(shown) => LineStarts::new(shown),
                None => self.lines().clone(),
            });
            let shown = shown.map_or_else(|| Arc::clone(&self.text), Arc::new);
            let shown = NamedSource::new(terminal::line(&self.name), shown).with_language("yaml");
            Display { shown, shown_lines, shifts }
        })
    }

    fn lines(&self) -> &LineStarts {
        self.lines.get_or_init(|| LineStarts::new(&self.text))
    }

    /// 1-based line and column (in characters) of byte `offset` of the text.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let (line, col) = self.lines().position(&self.text, offset, Columns::Chars);
        (line + 1, col + 1)
    }

    /// Where byte `offset` of the text is in the display copy.
    fn shown_offset(&self, offset: usize) -> usize {
        let shifts = &self.display().shifts;
        let before = shifts.partition_point(|&(at, _)| at < offset);
        offset + before.checked_sub(1).map_or(0, |i| shifts[i].1)
    }

    /// A range of the text as a range of the display copy.
    fn shown_span(&self, (start, len): (usize, usize)) -> (usize, usize) {
        let shown_start = self.shown_offset(start);
        (shown_start, self.shown_offset(start + len) - shown_start)
    }
}

/// Whether `text[at..]` starts with a character the display copy shows
/// visibly: any control character but a line feed, a tab, or the carriage
/// return of a CRLF.
fn shown_visibly(text: &str, at: usize, c: char) -> bool {
    terminal::is_unsafe(c) && !matches!(c, '\n' | '\t') && !(c == '\r' && text[at + 1..].starts_with('\n'))
}

/// The display copy of `text` and its shifts; `None` when it would be the same.
fn display_copy(text: &str) -> (Option<String>, Vec<(usize, usize)>) {
    if !text.char_indices().any(|(at, c)| shown_visibly(text, at, c)) {
        return (None, Vec::new());
    }
    let mut shown = String::with_capacity(text.len() + 64);
    let mut shifts = Vec::new();
    for (at, c) in text.char_indices() {
        if shown_visibly(text, at, c) {
            terminal::push_visible(&mut shown, c);
            shifts.push((at, shown.len() - (at + c.len_utf8())));
        } else {
            shown.push(c);
        }
    }
    (Some(shown), shifts)
}

impl Sources {
    /// How many files are kept: the id the next one gets.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is kept.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Keeps a file's text under `name` (the path shown in diagnostics).
    pub fn add(&mut self, name: impl AsRef<str>, text: String) -> FileId {
        self.files.push(SourceFile::new(name.as_ref(), text));
        FileId(self.files.len() - 1)
    }

    /// The text of a loaded file.
    pub fn text(&self, file: FileId) -> &str {
        &self.files[file.0].text
    }

    /// The text of a loaded file, shared (for reading it while `self` is borrowed).
    pub fn shared_text(&self, file: FileId) -> Arc<String> {
        Arc::clone(&self.files[file.0].text)
    }

    /// The name a loaded file was added under.
    pub fn name(&self, file: FileId) -> &str {
        &self.files[file.0].name
    }

    /// The name as a terminal is shown it.
    fn shown_name(&self, file: FileId) -> &str {
        self.files[file.0].display().shown.name()
    }

    /// The display copy as miette reads it, with its line index.
    fn shown_source(&self, file: FileId) -> CharColumns {
        let display = self.files[file.0].display();
        CharColumns(display.shown.clone(), Arc::clone(&display.shown_lines))
    }
}

/// A change to the rules that mends a problem, for an editor to apply: the
/// text at `span` replaced by `replacement` (an insertion where `span` is
/// empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the change does, as an editor's menu shows it.
    pub title: String,
    /// The range replaced.
    pub span: Span,
    /// What goes in its place.
    pub replacement: String,
}

/// One problem in the rules: its code, a message, the places it concerns and,
/// where we can tell, how to fix it — in words (help) and as edits (fixes).
/// The parts are kept as data; only [`render`] turns them into text.
pub struct Diagnostic {
    code: Code,
    /// A boxed `str`, to keep `Diagnostic` small with its code.
    message: Box<str>,
    /// Boxed to keep `Diagnostic` small, as it is the error of many `Result`s.
    source: Option<Box<CharColumns>>,
    /// Every place the diagnostic concerns, the primary one first, with its
    /// label: what an editor shows, whether miette draws it or not.
    /// (A boxed slice, to keep `Diagnostic` small.)
    places: Box<[(Span, String)]>,
    /// What miette draws: the places near the primary one (boxed, as `places`).
    labels: Box<[LabeledSpan]>,
    help: Option<String>,
    /// Fixes, notes and the file of a placeless problem: rarer, so boxed, to
    /// keep `Diagnostic` small.
    more: Option<Box<More>>,
    /// `file:line:col` of the primary place, shown or not.
    location: Option<String>,
}

/// The parts of a diagnostic that few have.
#[derive(Default)]
struct More {
    /// Edits that mend the problem, each complete on its own.
    fixes: Vec<Fix>,
    /// Where the places miette does not draw are (`label: file:line:col`),
    /// one a line: the command line shows them after the help; an editor has
    /// the places themselves.
    notes: Option<String>,
    /// The file a problem of no place concerns (a missing or unreadable
    /// file), by the name diagnostics show.
    file: Option<String>,
}

/// Two places in a file are shown together when at most this many lines apart.
const MAX_LINES_BETWEEN: usize = 8;

/// A labelled place is shown with its source lines only when they are at most
/// this long together; a 10 MB line would otherwise be printed whole.
const MAX_SHOWN_BYTES: usize = 2_000;

impl Diagnostic {
    /// A diagnostic that concerns no particular place (a missing folder, say).
    pub fn global(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            message: shown(message.into()).into(),
            source: None,
            places: Box::default(),
            labels: Box::default(),
            help: None,
            more: None,
            location: None,
        }
    }

    /// A diagnostic about file `name` as a whole (missing, unreadable, too
    /// long), which has no place inside it.
    pub fn about_file(code: Code, name: impl Into<String>, message: impl Into<String>) -> Self {
        let more = More { file: Some(name.into()), ..More::default() };
        Diagnostic { more: Some(Box::new(more)), ..Diagnostic::global(code, message) }
    }

    /// A diagnostic labelling `span` with `label`. Where the lines to show
    /// are very long, the place is given as `file:line:col` in the help instead.
    pub fn at(code: Code, sources: &Sources, span: Span, message: impl Into<String>, label: impl Into<String>) -> Self {
        let text = sources.text(span.file);
        let (start, len) = within(text, span);
        let (line, col) = sources.files[span.file.0].line_col(start);
        let location = format!("{}:{line}:{col}", sources.shown_name(span.file));
        let label = shown(label.into());
        let places: Box<[_]> = Box::new([(Span { file: span.file, start, len }, label.clone())]);
        if shown_bytes(text, start, len) > MAX_SHOWN_BYTES {
            return Diagnostic {
                code,
                message: shown(message.into()).into(),
                source: None,
                places,
                labels: Box::default(),
                help: None,
                more: Some(Box::new(More {
                    notes: Some(format!("{location}: {label} (the line is too long to show)")),
                    ..More::default()
                })),
                location: Some(location),
            };
        }
        Diagnostic {
            code,
            message: shown(message.into()).into(),
            source: Some(Box::new(sources.shown_source(span.file))),
            places,
            labels: Box::new([LabeledSpan::new_primary_with_span(
                Some(label),
                sources.files[span.file.0].shown_span((start, len)),
            )]),
            help: None,
            more: None,
            location: Some(location),
        }
    }

    /// A further labelled place. miette shows one source per diagnostic, so a
    /// place in another file, or far from the first, is named in a note after
    /// the help; [`Diagnostic::places`] has it all the same.
    pub fn also(mut self, sources: &Sources, span: Span, label: impl Into<String>) -> Self {
        let label = shown(label.into());
        let (start, len) = within(sources.text(span.file), span);
        let mut places = std::mem::take(&mut self.places).into_vec();
        places.push((Span { file: span.file, start, len }, label.clone()));
        self.places = places.into_boxed_slice();
        let same_file = self.source.as_ref().is_some_and(|s| s.0.name() == sources.shown_name(span.file));
        // Places far apart would show every line between them: name the other place instead.
        let near = self.labels.first().is_some_and(|first| {
            let file = &sources.files[span.file.0];
            let at = file.shown_offset(span.start);
            let lines = &file.display().shown_lines;
            lines.line_of(first.offset().max(at)) - lines.line_of(first.offset().min(at)) <= MAX_LINES_BETWEEN
        });
        if same_file && near {
            let place = sources.files[span.file.0].shown_span(within(sources.text(span.file), span));
            let mut labels = std::mem::take(&mut self.labels).into_vec();
            labels.push(LabeledSpan::new_with_span(Some(label), place));
            self.labels = labels.into_boxed_slice();
        } else {
            let (line, col) = sources.files[span.file.0].line_col(span.start);
            let note = format!("{label}: {}:{line}:{col}", sources.shown_name(span.file));
            let notes = &mut self.more.get_or_insert_default().notes;
            *notes = Some(match notes.take() {
                Some(notes) => format!("{notes}\n{note}"),
                None => note,
            });
        }
        self
    }

    /// Adds how to fix the problem; help given earlier follows it (and the
    /// notes of other places follow all help).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = shown(help.into());
        self.help = Some(match self.help.take() {
            Some(other) => format!("{help}\n{other}"),
            None => help,
        });
        self
    }

    /// Adds "did you mean `name`?" as help and, as a fix, `name` written in
    /// place of the text at `span` (the misspelt name).
    pub fn with_suggestion(self, span: Span, name: &str) -> Self {
        let fix =
            Fix { title: format!("Replace with `{}`", shown(name.to_string())), span, replacement: name.to_string() };
        self.with_help(format!("did you mean `{name}`?")).with_fix(fix)
    }

    /// Adds an edit that mends the problem.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.more.get_or_insert_default().fixes.push(fix);
        self
    }

    /// The edits that mend the problem, each complete on its own.
    pub fn fixes(&self) -> &[Fix] {
        self.more.as_ref().map_or(&[], |more| &more.fixes)
    }

    /// The file a problem of no place concerns, if it is about one.
    pub fn file(&self) -> Option<&str> {
        self.more.as_ref()?.file.as_deref()
    }

    /// The one-line description of the problem, without places or help.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The help, without the notes that name places miette does not draw.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The kind of problem.
    pub fn code(&self) -> Code {
        self.code
    }

    /// Whether it refuses the input or warns (the code's severity).
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// What miette shows as help: the help, then the notes.
    fn shown_help(&self) -> Option<String> {
        let notes = self.more.as_ref().and_then(|more| more.notes.as_ref());
        match (&self.help, notes) {
            (Some(help), Some(notes)) => Some(format!("{help}\n{notes}")),
            (one, other) => one.clone().or_else(|| other.cloned()),
        }
    }

    /// The diagnostic with the file names that start with `from` shown as
    /// starting with `to` instead: rules read from a git revision through a
    /// temporary folder are named `REV:path` (`review`).
    pub fn with_files_renamed(mut self, from: &str, to: &str) -> Self {
        let rename = |text: &str| text.replace(from, to);
        self.message = rename(&self.message).into();
        self.help = self.help.as_deref().map(rename);
        self.location = self.location.as_deref().map(rename);
        if let Some(more) = self.more.as_mut() {
            more.file = more.file.as_deref().map(rename);
            more.notes = more.notes.as_deref().map(rename);
        }
        for label in self.labels.iter_mut() {
            let renamed = label.label().map(rename);
            label.set_label(renamed);
        }
        if let Some(source) = self.source.take() {
            let renamed = NamedSource::new(rename(source.0.name()), source.0.inner().clone()).with_language("yaml");
            self.source = Some(Box::new(CharColumns(renamed, Arc::clone(&source.1))));
        }
        self
    }

    /// Every place the diagnostic concerns, the primary one first, each with
    /// its label (places in other files and far apart included).
    pub fn places(&self) -> &[(Span, String)] {
        &self.places
    }

    /// `file:line:col` of the primary label, if the diagnostic has one.
    pub fn location(&self) -> Option<String> {
        self.location.clone()
    }
}

/// Messages, labels and help longer than this are cut (they quote names from
/// the input, which can be any length).
const MAX_TEXT: usize = 300;

/// A file as miette reads it, with two changes: the column of the header's
/// `file:line:col` counted in characters, as rustc and editors count it
/// (miette counts bytes), and each span read from the few lines around it,
/// found in the file's line index, where miette scans the file from its
/// start for every span (every diagnostic, in a file of many, 142 s for
/// 30,000 in 2.2 MB).
struct CharColumns(NamedSource<Arc<String>>, Arc<LineStarts>);

impl SourceCode for CharColumns {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let text = self.0.inner();
        if span.offset() > text.len() {
            return Err(miette::MietteError::OutOfBounds);
        }
        // miette's own reading of a window of whole lines: a line more than
        // the context on either side, so it ends where it would in the whole
        // file; its lines and offsets are then the file's.
        let lines = &self.1;
        let first = lines.line_of(span.offset());
        let last = lines.line_of(span.offset().saturating_add(span.len()).min(text.len()));
        let first_line = first.saturating_sub(context_lines_before + 1);
        let from = lines.start(first_line).unwrap_or(0);
        let to = lines.start(last.saturating_add(context_lines_after + 2)).unwrap_or(text.len());
        let window = &text.as_bytes()[from..to];
        let inner = miette::SourceSpan::new((span.offset() - from).into(), span.len());
        let read = window.read_span(&inner, context_lines_before, context_lines_after)?;
        let mut column = read.column();
        if column != 0 {
            // Only the span's own line is counted: a line can be megabytes long.
            let mut offset = span.offset();
            while !text.is_char_boundary(offset) {
                offset -= 1;
            }
            let line = lines.start(lines.line_of(offset)).unwrap_or(0).min(offset);
            // As miette's header counts: after the `\r` of a CRLF, too.
            let line_start = text[line..offset].rfind(['\n', '\r']).map_or(line, |i| line + i + 1);
            column = text[line_start..offset].chars().count();
        }
        let contents = miette::MietteSpanContents::new_named(
            self.0.name().to_string(),
            read.data(),
            miette::SourceSpan::new((read.span().offset() + from).into(), read.span().len()),
            read.line() + first_line,
            column,
            read.line_count() + first_line,
        )
        .with_language("yaml");
        Ok(Box::new(contents))
    }
}

/// `text` as a terminal is shown it: one line, control characters visible,
/// cut to [`MAX_TEXT`] bytes.
fn shown(text: String) -> String {
    clip(terminal::line(&text).into_owned())
}

/// `text`, cut to [`MAX_TEXT`] bytes with a note of its length.
fn clip(text: String) -> String {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let mut cut = MAX_TEXT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..cut], text.len())
}

/// `span` as a start and length of whole characters inside `text`. A place
/// past the end (a YAML error at the end of the file, where the reader points
/// at the character after the last) becomes the file's last character other
/// than a line break: past the end, miette would not render the diagnostic,
/// and an empty label at the end is not drawn, its text lost.
fn within(text: &str, span: Span) -> (usize, usize) {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.start.saturating_add(span.len).clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    if start == text.len() && span.len > 0 {
        let last = text.char_indices().rev().find(|&(_, c)| !matches!(c, '\n' | '\r'));
        if let Some((at, c)) = last {
            return (at, c.len_utf8());
        }
    }
    (start, end - start)
}

/// The bytes of the whole lines that a span touches, counted up to a little
/// over [`MAX_SHOWN_BYTES`] on either side (all that matters of a long line:
/// that it is too long, found without reading all of it for each span).
fn shown_bytes(text: &str, start: usize, len: usize) -> usize {
    let bytes = text.as_bytes();
    let start = start.min(bytes.len());
    let end = start.saturating_add(len).min(bytes.len());
    let is_break = |b: &u8| matches!(b, b'\n' | b'\r');
    let before = bytes[..start].iter().rev().take(MAX_SHOWN_BYTES + 1).position(is_break);
    let after = bytes[end..].iter().take(MAX_SHOWN_BYTES + 1).position(is_break);
    let before = before.unwrap_or(if start <= MAX_SHOWN_BYTES { start } else { MAX_SHOWN_BYTES + 1 });
    let after =
        after.unwrap_or(if bytes.len() - end <= MAX_SHOWN_BYTES { bytes.len() - end } else { MAX_SHOWN_BYTES + 1 });
    before + (end - start) + after
}

/// 1-based line and column (in characters) of a byte offset. Line breaks are
/// `\n`, `\r\n` and a lone `\r`, as in miette's header (rules files with a
/// lone `\r` are refused before they are read, as the YAML reader ignores it).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let (line, col) = crate::positions::position(text, offset, crate::positions::Columns::Chars);
    (line + 1, col + 1)
}

/// `file:line:col: message (help: …)`: what a failing test should print,
/// rather than the source text and raw offsets.
impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = self.location() {
            write!(f, "{location}: ")?;
        }
        write!(f, "[{}] {}", self.code, self.message)?;
        match &self.shown_help() {
            Some(help) => write!(f, " (help: {help})"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_deref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() { None } else { Some(Box::new(self.labels.iter().cloned())) }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.shown_help().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code.id()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.code.severity() {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
}

pub use carcassonne_rules_core::suggest::{did_you_mean, suggestion};

/// Renders diagnostics as the command line and the build script print them:
/// message, `file:line:col`, the source line with the label, and help.
pub fn render(problems: &[Diagnostic], color: bool) -> String {
    use miette::{GraphicalReportHandler, GraphicalTheme};
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_context_lines(1);
    let mut out = String::new();
    for problem in problems {
        if handler.render_report(&mut out, problem).is_err() {
            out.push_str(&format!("error: {problem}\n"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rules file whose lines hold ESC sequences (colour, an OSC 52
    /// clipboard write, a title), C1 controls and a bidi override.
    const HOSTILE: &str =
        "text: \"\u{1b}[2J\u{1b}]52;c;ZWNobyBoaQ==\u{7}\u{9b}31m\u{202e}\"\nwhen: peasant_refolts\r\n";

    fn rendered(d: &Diagnostic) -> String {
        render(std::slice::from_ref(d), false)
    }

    /// The indexed reading of a span is miette's reading of the whole file,
    /// for every span of small texts with every kind of line break and the
    /// context miette asks for (its column counted in characters).
    #[test]
    fn spans_read_from_the_line_index_are_miette_s() {
        let texts = ["", "a", "\n", "ab\ncd\nef", "a\r\nb\r\n\r\nc", "x\ry\n\nz\n", "ü→\n𝄞x\ny\n", "\n\n\n\nq\n\n\n"];
        for text in texts {
            let source = NamedSource::new("f", Arc::new(text.to_string()));
            let ours = CharColumns(source.clone(), Arc::new(LineStarts::new(text)));
            // Spans of whole characters within the text, as diagnostics make theirs
            // (miette panics past the end).
            for start in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                for len in (0..=text.len() - start).filter(|&n| text.is_char_boundary(start + n)) {
                    for context in [0, 1, 2] {
                        let span = miette::SourceSpan::new(start.into(), len);
                        let want = source.read_span(&span, context, context);
                        let got = ours.read_span(&span, context, context);
                        let (want, got) = match (want, got) {
                            (Ok(want), Ok(got)) => (want, got),
                            (Err(_), Err(_)) => continue,
                            (want, got) => {
                                panic!("{text:?} {start}+{len} ({context}): {:?} / {:?}", want.is_ok(), got.is_ok())
                            }
                        };
                        let at = format!("{text:?} {start}+{len} ({context})");
                        assert_eq!(got.data(), want.data(), "{at}");
                        assert_eq!(got.span(), want.span(), "{at}");
                        assert_eq!(got.line(), want.line(), "{at}");
                        assert_eq!(got.line_count(), want.line_count(), "{at}");
                        // The column in characters, counted on the span's line as before the index.
                        let before = &text[..start];
                        let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
                        let column = if want.column() == 0 { 0 } else { before[line_start..].chars().count() };
                        assert_eq!(got.column(), column, "{at}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_snippet_shows_control_characters_and_keeps_its_label_in_place() {
        let mut sources = Sources::default();
        let file = sources.add("rules/x\u{1b}]0;title\u{7}.yaml", HOSTILE.to_string());
        let start = HOSTILE.find("peasant").unwrap_or_default();
        let span = Span { file, start, len: "peasant_refolts".len() };
        let first = Span { file, start: HOSTILE.find('\u{9b}').unwrap_or_default(), len: 2 };
        let d = Diagnostic::at(
            Code::UnknownModule,
            &sources,
            span,
            "unknown module \u{1b}[31m`x`",
            "not in modules.yaml\u{85}",
        )
        .also(&sources, first, "C1 here")
        .with_help("did you mean\n`peasant_revolts`?");
        let out = rendered(&d);
        assert!(!out.chars().any(|c| terminal::is_unsafe(c) && c != '\n'), "{out:?}");
        assert!(out.contains("\\u{1b}[2J\\u{1b}]52;c;ZWNobyBoaQ==\\u{7}\\u{9b}31m\\u{202e}"), "{out}");
        assert!(out.contains("rules/x\\u{1b}]0;title\\u{7}.yaml:2:7"), "{out}");
        assert!(out.contains("unknown module \\u{1b}[31m`x`"), "{out}");
        assert!(out.contains("did you mean\\n`peasant_revolts`?"), "{out}");
        // The underline is under `peasant_refolts`, the C1 label under `\u{9b}3`.
        let lines: Vec<&str> = out.lines().collect();
        let at = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap_or_default();
        let source_line = lines[at("when: peasant_refolts")];
        let underline = lines[at("when: peasant_refolts") + 1];
        let column = |line: &str, needle: &str| line.find(needle).map(|b| line[..b].chars().count());
        assert_eq!(column(underline, "─"), column(source_line, "peasant"), "{out}");
        let first_line = lines[at("ZWNobyBoaQ")];
        let first_underline = lines[at("ZWNobyBoaQ") + 1];
        assert_eq!(column(first_underline, "─"), column(first_line, "\\u{9b}"), "{out}");
        // The checks still see the text as it is.
        assert_eq!(sources.text(file), HOSTILE);
        assert_eq!(d.location().as_deref(), Some("rules/x\\u{1b}]0;title\\u{7}.yaml:2:7"));
    }

    #[test]
    fn the_code_is_shown_and_a_place_in_another_file_is_a_note_for_the_terminal_only() {
        let mut sources = Sources::default();
        let base = sources.add("rules/base.yaml", "items:\n  - id: a\n".to_string());
        let other = sources.add("rules/expansions/x.yaml", "items:\n  - id: a\n".to_string());
        let d =
            Diagnostic::at(Code::DuplicateId, &sources, Span { file: other, start: 15, len: 1 }, "duplicate", "again")
                .also(&sources, Span { file: base, start: 15, len: 1 }, "first defined here")
                .with_help("rename one");
        let out = rendered(&d);
        assert!(out.starts_with("duplicate-id\n"), "{out}");
        assert!(out.contains("help: rename one\n") && out.contains("first defined here: rules/base.yaml:2:9"), "{out}");
        assert_eq!(d.help_text(), Some("rename one"));
        assert_eq!(d.places().len(), 2);
        assert_eq!(d.places()[1], (Span { file: base, start: 15, len: 1 }, "first defined here".to_string()));
        assert_eq!(d.severity(), Severity::Error);
        let warning = Diagnostic::global(Code::PropertyFails, "never true");
        assert!(rendered(&warning).contains('⚠'), "{}", rendered(&warning));
    }

    #[test]
    fn a_plain_file_is_shown_as_it_is() {
        let mut sources = Sources::default();
        let file = sources.add("rules/base.yaml", "a: 1\r\nb:\t2\n".to_string());
        assert!(sources.files[file.0].display().shifts.is_empty());
        assert_eq!(sources.files[file.0].display().shown.inner().as_str(), "a: 1\r\nb:\t2\n");
        let d = Diagnostic::at(Code::InvalidYaml, &sources, Span { file, start: 9, len: 1 }, "m", "l");
        assert_eq!(d.labels[0].offset(), 9);
    }
}
