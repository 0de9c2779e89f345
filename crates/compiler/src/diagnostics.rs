//! Source files and the diagnostics that point into them.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceCode};

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
    files: Vec<NamedSource<Arc<String>>>,
}

impl Sources {
    /// Keeps a file's text under `name` (the path shown in diagnostics).
    pub fn add(&mut self, name: impl AsRef<str>, text: String) -> FileId {
        self.files.push(NamedSource::new(name, Arc::new(text)).with_language("yaml"));
        FileId(self.files.len() - 1)
    }

    /// The text of a loaded file.
    pub fn text(&self, file: FileId) -> &str {
        self.files[file.0].inner()
    }

    /// The name a loaded file was added under.
    pub fn name(&self, file: FileId) -> &str {
        self.files[file.0].name()
    }

    fn named(&self, file: FileId) -> NamedSource<Arc<String>> {
        self.files[file.0].clone()
    }
}

/// One problem in the rules: a message, the places it concerns and, where we
/// can tell, how to fix it.
pub struct Diagnostic {
    message: String,
    /// Boxed to keep `Diagnostic` small, as it is the error of many `Result`s.
    source: Option<Box<NamedSource<Arc<String>>>>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    /// `file:line:col` of the primary place, shown or not.
    location: Option<String>,
}

/// Two places in a file are shown together when at most this many lines apart.
const MAX_LINES_BETWEEN: usize = 8;

/// A labelled place is shown with its source lines only when they are at most
/// this long together; a 10 MB line would otherwise be printed whole.
const MAX_SHOWN_BYTES: usize = 2_000;

impl Diagnostic {
    /// A diagnostic that concerns no particular place (a missing folder, say).
    pub fn global(message: impl Into<String>) -> Self {
        Diagnostic { message: clip(message.into()), source: None, labels: Vec::new(), help: None, location: None }
    }

    /// A diagnostic labelling `span` with `label`. Where the lines to show
    /// are very long, the place is given as `file:line:col` in the help instead.
    pub fn at(sources: &Sources, span: Span, message: impl Into<String>, label: impl Into<String>) -> Self {
        let text = sources.text(span.file);
        let (start, len) = within(text, span);
        let (line, col) = line_col(text, start);
        let location = format!("{}:{line}:{col}", sources.name(span.file));
        let label = clip(label.into());
        if shown_bytes(text, start, len) > MAX_SHOWN_BYTES {
            return Diagnostic {
                message: clip(message.into()),
                source: None,
                labels: Vec::new(),
                help: Some(format!("{location}: {label} (the line is too long to show)")),
                location: Some(location),
            };
        }
        Diagnostic {
            message: clip(message.into()),
            source: Some(Box::new(sources.named(span.file))),
            labels: vec![LabeledSpan::new_primary_with_span(Some(label), (start, len))],
            help: None,
            location: Some(location),
        }
    }

    /// A further label in the same file (labels in other files are dropped into
    /// the help text, since miette shows one source per diagnostic).
    pub fn also(mut self, sources: &Sources, span: Span, label: impl Into<String>) -> Self {
        let label = label.into();
        let same_file = self.source.as_ref().is_some_and(|s| s.name() == sources.name(span.file));
        // Places far apart would show every line between them: name the other place instead.
        let near = self.labels.first().is_some_and(|first| {
            let text = sources.text(span.file);
            let (a, b) = (first.offset().min(span.start), first.offset().max(span.start));
            text.as_bytes()
                .get(a..b.min(text.len()))
                .is_some_and(|between| between.iter().filter(|&&c| c == b'\n').count() <= MAX_LINES_BETWEEN)
        });
        if same_file && near {
            self.labels.push(LabeledSpan::new_with_span(Some(label), within(sources.text(span.file), span)));
        } else {
            let (line, col) = line_col(sources.text(span.file), span.start);
            let note = format!("{label}: {}:{line}:{col}", sources.name(span.file));
            self.help = Some(match self.help.take() {
                Some(help) => format!("{help}\n{note}"),
                None => note,
            });
        }
        self
    }

    /// Adds how to fix the problem; help given earlier follows it.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = clip(help.into());
        self.help = Some(match self.help.take() {
            Some(other) => format!("{help}\n{other}"),
            None => help,
        });
        self
    }

    /// The one-line description of the problem, without places or help.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The help, including notes about places in other files.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The diagnostic with the file names that start with `from` shown as
    /// starting with `to` instead: rules read from a git revision through a
    /// temporary folder are named `REV:path` (`review`).
    pub fn with_files_renamed(mut self, from: &str, to: &str) -> Self {
        let rename = |text: &str| text.replace(from, to);
        self.message = rename(&self.message);
        self.help = self.help.as_deref().map(rename);
        self.location = self.location.as_deref().map(rename);
        for label in &mut self.labels {
            let renamed = label.label().map(rename);
            label.set_label(renamed);
        }
        if let Some(source) = self.source.take() {
            let renamed = NamedSource::new(rename(source.name()), source.inner().clone()).with_language("yaml");
            self.source = Some(Box::new(renamed));
        }
        self
    }

    /// `file:line:col` of the primary label, if the diagnostic has one.
    pub fn location(&self) -> Option<String> {
        self.location.clone()
    }
}

/// Messages, labels and help longer than this are cut (they quote names from
/// the input, which can be any length).
const MAX_TEXT: usize = 300;

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

/// The bytes of the whole lines that a span touches.
fn shown_bytes(text: &str, start: usize, len: usize) -> usize {
    let bytes = text.as_bytes();
    let start = start.min(bytes.len());
    let end = start.saturating_add(len).min(bytes.len());
    let first = bytes[..start].iter().rposition(|&b| matches!(b, b'\n' | b'\r')).map_or(0, |i| i + 1);
    let last = bytes[end..].iter().position(|&b| matches!(b, b'\n' | b'\r')).map_or(bytes.len(), |i| end + i);
    last - first
}

/// 1-based line and column (in characters) of a byte offset. Line breaks are
/// `\n`, `\r\n` and a lone `\r`, as in miette's header (rules files with a
/// lone `\r` are refused before they are read, as the YAML reader ignores it).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let bytes = text.as_bytes();
    let (mut line, mut line_start) = (1, 0);
    for (i, &b) in bytes[..offset].iter().enumerate() {
        let lone_cr = b == b'\r' && bytes.get(i + 1) != Some(&b'\n');
        if b == b'\n' || lone_cr {
            line += 1;
            line_start = i + 1;
        }
    }
    (line, text[line_start..offset].chars().count() + 1)
}

/// `file:line:col: message (help: …)`: what a failing test should print,
/// rather than the source text and raw offsets.
impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = self.location() {
            write!(f, "{location}: ")?;
        }
        f.write_str(&self.message)?;
        match &self.help {
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
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
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
