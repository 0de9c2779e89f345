//! One rules file as a YAML tree with a byte span on every node, read once
//! from the event parser `check`'s reader is built on (so flow and block
//! style, quoting and comments are read as `check` reads them). The tree
//! exists for broken input too: where the parser stops, every container still
//! open is closed, the error's line is mended and the file read again, so
//! what came before the error and most of what follows it is there, the
//! first error beside it (rust-analyzer's `Parse<T>`, taplo's DOM).
//!
//! Bounded: at most [`MAX_DEPTH`] containers deep and [`MAX_NODES`] nodes;
//! it is built, queried and walked without recursion. `check` reads the
//! records from it (`syntax::de`), the language server its every question.

use std::ops::Range;

use granit_parser::{Event, Parser, ScalarStyle, StructureStyle};

/// The most containers one inside another a file may nest.
pub const MAX_DEPTH: usize = 64;
/// The most nodes (scalars, sequences and mappings) a file may hold: far
/// beyond any real rules file (the largest bundled one has about 4,000).
pub const MAX_NODES: usize = 250_000;

/// A parsed file: its tree (an empty mapping for an empty file) and the
/// error reading stopped at, if it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Parse {
    /// What parsed.
    pub tree: Node,
    /// Where and why reading stopped early.
    pub error: Option<ParseError>,
}

/// Why and where reading a file stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The byte offset.
    pub at: usize,
    /// What stopped it.
    pub kind: ParseErrorKind,
}

/// What stops reading a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The YAML parser's refusal, in its words.
    Syntax(String),
    /// More than [`MAX_DEPTH`] containers one inside another.
    TooDeep,
    /// More than [`MAX_NODES`] nodes.
    TooManyNodes,
    /// A second YAML document (after `---`): a rules file holds one.
    SecondDocument,
}

impl std::fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseErrorKind::Syntax(words) => f.write_str(words),
            ParseErrorKind::TooDeep => write!(f, "nested more than {MAX_DEPTH} deep"),
            ParseErrorKind::TooManyNodes => write!(f, "more than {MAX_NODES} YAML nodes"),
            ParseErrorKind::SecondDocument => f.write_str("a second YAML document"),
        }
    }
}

/// A YAML node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its bytes in the file (a scalar's quotes included).
    pub span: Range<usize>,
    /// What it is.
    pub value: Value,
}

/// A node's content.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar (an alias and a missing value are empty plain scalars).
    Scalar(Scalar),
    /// A mapping's (key, value) pairs in the order written.
    Map(Container<(Node, Node)>),
    /// A sequence's entries.
    Seq(Container<Node>),
}

/// A mapping's or a sequence's entries and how it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Container<T> {
    /// The entries in order.
    pub entries: Vec<T>,
    /// Written in flow style (`{…}`, `[…]`) rather than by indentation.
    pub flow: bool,
    /// Closed where the parser stopped, not by the file.
    pub unclosed: bool,
}

/// A scalar's value and how it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    /// Its value, quotes and escapes resolved.
    pub value: String,
    /// Written without quotes.
    pub plain: bool,
    /// Where the value stands verbatim in the file (`None` when escapes or
    /// line folding make the file's text differ from the value).
    pub verbatim: Option<usize>,
    /// An alias (`*name`), kept as an empty value: rules files do not use
    /// them, and `check` refuses one (`syntax::de`).
    pub alias: bool,
}

impl Node {
    /// The scalar's value, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(s) => Some(&s.value),
            _ => None,
        }
    }

    /// The value of `key`, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(map) => map.entries.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Moves every offset back past the brackets mending added at `closers`
    /// (ascending), so spans are `text`'s own again, and forgets where a
    /// scalar stands verbatim where mending changed it. A loop, not a recursion.
    fn unmend(&mut self, closers: &[usize], text: &str) {
        let back = |at: usize| at - closers.partition_point(|&c| c < at);
        let mut todo: Vec<&mut Node> = vec![self];
        while let Some(node) = todo.pop() {
            node.span = back(node.span.start)..back(node.span.end);
            match &mut node.value {
                Value::Scalar(scalar) => {
                    let verbatim = scalar.verbatim.map(back);
                    scalar.verbatim =
                        verbatim.filter(|&at| text.get(at..).is_some_and(|t| t.starts_with(&scalar.value)));
                }
                Value::Map(map) => todo.extend(map.entries.iter_mut().flat_map(|(k, v)| [k, v])),
                Value::Seq(seq) => todo.extend(seq.entries.iter_mut()),
            }
        }
    }

    fn empty(at: usize) -> Node {
        Node {
            span: at..at,
            value: Value::Scalar(Scalar { value: String::new(), plain: true, verbatim: Some(at), alias: false }),
        }
    }
}

/// A container being read.
struct Open {
    start: usize,
    flow: bool,
    is_map: bool,
    /// A mapping's key waiting for its value.
    key: Option<Node>,
    pairs: Vec<(Node, Node)>,
    entries: Vec<Node>,
}

impl Open {
    fn close(mut self, end: usize, unclosed: bool) -> Node {
        if let Some(key) = self.key.take() {
            // A key whose value was never written: an empty one after it.
            let at = key.span.end;
            self.pairs.push((key, Node::empty(at)));
        }
        let last = if self.is_map {
            self.pairs.last().map(|(_, v)| v.span.end)
        } else {
            self.entries.last().map(|n| n.span.end)
        };
        let end = if self.flow || unclosed { end } else { last.unwrap_or(self.start) }.max(self.start);
        let value = if self.is_map {
            Value::Map(Container { entries: self.pairs, flow: self.flow, unclosed })
        } else {
            Value::Seq(Container { entries: self.entries, flow: self.flow, unclosed })
        };
        Node { span: self.start..end, value }
    }

    fn add(&mut self, node: Node) {
        if !self.is_map {
            self.entries.push(node);
        } else if let Some(key) = self.key.take() {
            self.pairs.push((key, node));
        } else {
            self.key = Some(node);
        }
    }
}

/// How many times a broken file is read again past an error: each time one
/// more line is mended, so the work stays a fixed multiple of one read.
/// Four, not eight: eight cost the server's requests on a broken file about
/// 1.5 times more (crates/lsp/tests/robustness.rs) and gave the recorded
/// session no better answer.
const RECOVERIES: usize = 4;

/// Parses `text`; never fails: a parse error is kept beside what parsed.
///
/// Past an error the file is read again with the error's line mended, so
/// what follows it is in the tree too (a stray line in the middle of a file
/// leaves the items below it answerable): a `[` or `{` left open is closed at
/// the end of its own line; any other error has the rest of its line blanked
/// out. The error kept is the first one, where the file is really broken.
pub fn parse(text: &str) -> Parse {
    let mut mended = Mended { text: text.to_string(), closers: Vec::new() };
    let mut parse = read(&mended.text, &[], Dangling::Keep);
    let first = parse.error.clone();
    for _ in 0..RECOVERIES {
        let Some(stop) = parse.stop.take() else { break };
        if !mended.mend(stop) {
            break;
        }
        parse = read(&mended.text, &mended.closers, Dangling::Keep);
    }
    let mut tree = parse.tree;
    if mended.text != text {
        tree.unmend(&mended.closers, text);
    }
    Parse { tree, error: first }
}

/// Parses `text` as far as it is well-formed, mending nothing: the tree of
/// what comes before the error, without a key whose value the error cut
/// off, and nothing after it. `check` reads the records from this one, so
/// neither a mended line nor a made-up value stands for what the author
/// wrote.
pub fn parse_strict(text: &str) -> Parse {
    let read = read(text, &[], Dangling::Drop);
    Parse { tree: read.tree, error: read.error }
}

/// The text being read again: `text` with the brackets added at `closers`
/// (its offsets, ascending) and broken lines blanked out in place.
struct Mended {
    text: String,
    closers: Vec<usize>,
}

impl Mended {
    /// Mends the line where reading stopped; false if nothing is left to mend.
    fn mend(&mut self, stop: Stop) -> bool {
        match stop {
            Stop::Unclosed { open, bracket } => {
                let end = line_end(&self.text, boundary(&self.text, open));
                self.text.insert(end, if bracket == '[' { ']' } else { '}' });
                // Later closers move with the text after this one.
                for at in &mut self.closers {
                    if *at >= end {
                        *at += 1;
                    }
                }
                self.closers.push(end);
                self.closers.sort_unstable();
                true
            }
            Stop::Broken { at } => {
                let at = boundary(&self.text, at);
                let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
                let end = line_end(&self.text, at);
                // The rest of the line from the error, else the whole line.
                let has_text = |range: Range<usize>, text: &str| !text[range].trim().is_empty();
                let range = if has_text(at..end, &self.text) {
                    at..end
                } else if has_text(start..end, &self.text) {
                    start..end
                } else {
                    return false;
                };
                let spaces = " ".repeat(range.len());
                self.text.replace_range(range, &spaces);
                true
            }
        }
    }
}

/// `at`, or the nearest character boundary before it, within `text`.
fn boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

/// Where the line holding `at` (a character boundary) ends (before its
/// `\r\n` or `\n`).
fn line_end(text: &str, at: usize) -> usize {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    if end > at && text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end }
}

/// The innermost `[` or `{` before `before` that no bracket closes, and
/// which it is: brackets in quotes and comments are not counted (a quoted
/// scalar is taken to end on its line, as rules texts do).
fn unmatched_bracket(text: &str, before: usize) -> Option<(usize, char)> {
    let mut open: Vec<(usize, char)> = Vec::new();
    let (mut quote, mut comment, mut prev) = (None, false, '\n');
    for (at, c) in text[..before.min(text.len())].char_indices() {
        // A quote or a bracket starts a token, not the middle of a word.
        let starts = prev.is_whitespace() || "[{,:".contains(prev);
        match (c, quote) {
            ('\n', _) => (quote, comment) = (None, false),
            _ if comment => {}
            (_, Some(q)) if c == q => quote = None,
            (_, Some(_)) => {}
            ('\'' | '"', None) if starts => quote = Some(c),
            ('#', None) if prev.is_whitespace() => comment = true,
            ('[' | '{', None) if starts => open.push((at, c)),
            (']' | '}', None) if open.last().is_some_and(|&(_, o)| (o == '[') == (c == ']')) => {
                open.pop();
            }
            _ => {}
        }
        prev = c;
    }
    open.pop()
}

/// Why a read stopped before the end, for mending.
#[derive(Clone, Copy, Debug)]
enum Stop {
    /// A `[` or `{` at `open` was never closed.
    Unclosed { open: usize, bracket: char },
    /// The parser refused what is at `at`.
    Broken { at: usize },
}

/// What one read gives: the tree, the error, and why it stopped if mending
/// may get further (not past the budget).
struct Read {
    tree: Node,
    error: Option<ParseError>,
    stop: Option<Stop>,
}

/// What becomes of a key whose value reading stopped before.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dangling {
    /// It gets an empty value: an editor asks about the key being typed.
    Keep,
    /// It is left out: the empty value would not be the author's.
    Drop,
}

/// Reads the events of `text` into a tree; a container closed by one of the
/// brackets at `closers` (added by [`Mended`]) counts as closed by none.
fn read(text: &str, closers: &[usize], dangling: Dangling) -> Read {
    let mut documents = 0;
    let mut stack: Vec<Open> = Vec::new();
    let mut root: Option<Node> = None;
    let mut error = None;
    let mut stop = None;
    let mut nodes = 0usize;
    let mut last_end = 0;
    for next in Parser::new_from_str(text) {
        let (event, span) = match next {
            Ok(next) => next,
            Err(e) => {
                let marker = e.marker().byte_offset().unwrap_or(last_end);
                // Where the parser stopped, which may be before what it read
                // (the start of a flow collection left open).
                let at = marker.max(last_end).min(text.len());
                stop = Some(match e.kind() {
                    granit_parser::ErrorKind::UnclosedFlowCollection { open } => {
                        Stop::Unclosed { open: marker, bracket: *open }
                    }
                    // A `[` or `{` whose line ended unclosed swallows the
                    // lines after it, where the parser then stops: close it.
                    _ => match unmatched_bracket(text, at) {
                        Some((open, bracket)) if at > line_end(text, open) => Stop::Unclosed { open, bracket },
                        _ => Stop::Broken { at },
                    },
                });
                error = Some(ParseError { at, kind: ParseErrorKind::Syntax(e.info()) });
                break;
            }
        };
        let range = span.byte_range().unwrap_or(last_end..last_end);
        let range = range.start.min(text.len())..range.end.min(text.len());
        last_end = range.end.max(last_end);
        let node = match event {
            Event::MappingStart(style, ..) | Event::SequenceStart(style, ..) => {
                nodes += 1;
                let too_big = if stack.len() >= MAX_DEPTH {
                    Some(ParseErrorKind::TooDeep)
                } else {
                    (nodes > MAX_NODES).then_some(ParseErrorKind::TooManyNodes)
                };
                if let Some(kind) = too_big {
                    error = Some(ParseError { at: range.start, kind });
                    break;
                }
                let is_map = matches!(event, Event::MappingStart(..));
                let flow = style == StructureStyle::Flow;
                stack.push(Open {
                    start: range.start,
                    flow,
                    is_map,
                    key: None,
                    pairs: Vec::new(),
                    entries: Vec::new(),
                });
                continue;
            }
            Event::MappingEnd | Event::SequenceEnd => match stack.pop() {
                // Closed by a bracket mending added: closed by none written.
                Some(open) => open.close(range.end, closers.binary_search(&range.start).is_ok()),
                None => continue,
            },
            Event::Scalar(value, style, ..) => {
                nodes += 1;
                if nodes > MAX_NODES {
                    error = Some(ParseError { at: range.start, kind: ParseErrorKind::TooManyNodes });
                    break;
                }
                // A plain scalar starts right at its span; a quoted one one
                // character later.
                let verbatim = [range.start, range.start + 1]
                    .into_iter()
                    .find(|&at| text.get(at..).is_some_and(|rest| rest.starts_with(value.as_ref())));
                let plain = style == ScalarStyle::Plain;
                if plain && range.is_empty() {
                    // A value not written (the parser's `~`).
                    Node::empty(range.start)
                } else {
                    Node {
                        span: range,
                        value: Value::Scalar(Scalar { value: value.into_owned(), plain, verbatim, alias: false }),
                    }
                }
            }
            Event::Alias(..) | Event::UnresolvedAlias(..) => Node {
                span: range,
                value: Value::Scalar(Scalar { value: String::new(), plain: true, verbatim: None, alias: true }),
            },
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    let at = text[range.end..].find(|c: char| !c.is_whitespace()).map_or(text.len(), |i| range.end + i);
                    error = Some(ParseError { at, kind: ParseErrorKind::SecondDocument });
                    break;
                }
                continue;
            }
            _ => continue,
        };
        match stack.last_mut() {
            Some(open) => open.add(node),
            None => {
                root.get_or_insert(node);
            }
        }
    }
    // Whatever is still open closes where the parser stopped.
    let closed_at = error.as_ref().map_or(text.len(), |e| e.at);
    while let Some(mut open) = stack.pop() {
        if dangling == Dangling::Drop {
            open.key = None;
        }
        let node = open.close(closed_at, true);
        match stack.last_mut() {
            Some(parent) => parent.add(node),
            None => root = Some(node),
        }
    }
    let tree = root.unwrap_or(Node {
        span: 0..0,
        value: Value::Map(Container { entries: Vec::new(), flow: false, unclosed: false }),
    });
    Read { tree, error, stop }
}

/// One step of a path from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment<'t> {
    /// Into the value of a mapping's key (`?` for a key that is not a scalar).
    Key(&'t str),
    /// Into a sequence's entry.
    Index(usize),
}

/// Where a cursor is: the path from the root to the deepest node holding it.
#[derive(Clone, Debug)]
pub struct At<'t> {
    /// The steps from the root.
    pub path: Vec<Segment<'t>>,
    /// The containers along the path, the root first: the last is the one the
    /// cursor is in (or whose value slot it is in).
    pub containers: Vec<&'t Node>,
    /// The scalar under the cursor, if it is on one (a key or a value).
    pub node: Option<&'t Node>,
    /// On a key, or where a new key of the last container is written.
    pub at_key: bool,
}

/// Where a scalar stands in its container, for what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot<'t> {
    /// A key of a mapping.
    Key,
    /// The value of a key.
    Value(&'t str),
    /// An entry of a sequence.
    Entry,
}

impl<'t> At<'t> {
    /// The keys that hold the cursor, innermost first.
    pub fn keys(&self) -> Vec<&'t str> {
        self.path
            .iter()
            .rev()
            .filter_map(|s| match s {
                Segment::Key(k) => Some(*k),
                Segment::Index(_) => None,
            })
            .collect()
    }

    /// The `id:` of the innermost mapping around the cursor that has one.
    pub fn id(&self) -> Option<&'t str> {
        self.field("id")
    }

    /// The scalar `key` of the innermost mapping around the cursor that has
    /// an `id:` (the item, step or module being written), if it has one.
    pub fn field(&self, key: &str) -> Option<&'t str> {
        let owner = self.containers.iter().rev().find(|c| c.get("id").is_some())?;
        owner.get(key).and_then(Node::as_str)
    }

    /// Where the cursor stands in its container, and the key that container
    /// is the value of.
    pub fn slot(&self) -> (Option<&'t str>, Slot<'t>) {
        let keys = self.keys();
        if self.at_key {
            return (keys.first().copied(), Slot::Key);
        }
        // Stopped in a sequence, between its entries: a new entry.
        let in_seq = self.containers.len() > self.path.len()
            && self.containers.last().is_some_and(|c| matches!(c.value, Value::Seq(_)));
        match self.path.last() {
            Some(Segment::Key(k)) if !in_seq => (keys.get(1).copied(), Slot::Value(k)),
            _ => (keys.first().copied(), Slot::Entry),
        }
    }
}

/// The column of `offset` and the indentation of its line.
fn line_of(text: &str, offset: usize) -> (usize, usize) {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[start..].find(|c: char| c != ' ').map_or(text.len() - start, |i| i);
    (start, indent)
}

fn column(text: &str, offset: usize) -> usize {
    offset - text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

fn same_line(text: &str, a: usize, b: usize) -> bool {
    let (a, b) = (a.min(b), a.max(b));
    !text[a..b].contains('\n')
}

impl Node {
    /// The path to the deepest node holding byte `offset` of `text` (the
    /// file this tree was parsed from), what taplo calls `Query::at`. In a
    /// block container the indentation of the cursor's line decides, so a
    /// cursor at the end of a half-typed line lands in the mapping being
    /// written.
    pub fn at<'t>(&'t self, text: &str, offset: usize) -> At<'t> {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let (line_start, indent) = line_of(text, offset);
        let mut at = At { path: Vec::new(), containers: Vec::new(), node: None, at_key: false };
        let mut node = self;
        loop {
            // Does the cursor fall into `entry`, which starts at `start`
            // (a key's or an entry's place) in container `c`?
            let inside = |flow: bool, start: usize, child: &Node| {
                if flow {
                    // Up to the comma after it.
                    offset <= child.span.end
                        || child_is_open(child)
                        || !text[child.span.end.max(start)..offset].contains(',')
                } else {
                    same_line(text, start, offset) || (offset >= line_start && indent > column(text, start))
                }
            };
            match &node.value {
                Value::Scalar(_) => {
                    if node.span.start <= offset && offset <= node.span.end {
                        at.node = Some(node);
                    }
                    return at;
                }
                Value::Map(map) => {
                    at.containers.push(node);
                    let Some((key, value)) = map.entries.iter().rev().find(|(k, _)| k.span.start <= offset) else {
                        at.at_key = true;
                        return at;
                    };
                    if offset <= key.span.end && (map.flow || same_line(text, key.span.start, offset)) {
                        at.at_key = true;
                        at.node = Some(key);
                        return at;
                    }
                    let in_value = inside(map.flow, if map.flow { key.span.end } else { key.span.start }, value);
                    if !in_value {
                        at.at_key = true;
                        return at;
                    }
                    at.path.push(Segment::Key(key.as_str().unwrap_or("?")));
                    node = value;
                }
                Value::Seq(seq) => {
                    at.containers.push(node);
                    let Some((i, entry)) = seq.entries.iter().enumerate().rev().find(|(_, e)| e.span.start <= offset)
                    else {
                        return at;
                    };
                    // A block entry's place is its dash, before its node.
                    let start = if seq.flow { entry.span.start } else { dash_before(text, entry.span.start) };
                    if !inside(seq.flow, start, entry) {
                        return at;
                    }
                    at.path.push(Segment::Index(i));
                    node = entry;
                }
            }
        }
    }
}

fn child_is_open(node: &Node) -> bool {
    match &node.value {
        Value::Map(c) => c.unclosed,
        Value::Seq(c) => c.unclosed,
        Value::Scalar(_) => false,
    }
}

/// The `-` of the block sequence entry whose node starts at `start` (the
/// node's own start if no dash stands right before it).
fn dash_before(text: &str, start: usize) -> usize {
    let before = text[..start].trim_end_matches(' ');
    if before.ends_with('-') { before.len() - 1 } else { start }
}

/// A scalar and where it stands, as [`Node::scalars`] visits it.
#[derive(Clone, Copy, Debug)]
pub struct Visit<'t> {
    /// The scalar node.
    pub node: &'t Node,
    /// Its place in its container.
    pub slot: Slot<'t>,
    /// The key its container is the value of (for a sequence's mapping
    /// entries, the sequence's key).
    pub under: Option<&'t str>,
    /// The `id:` of the mapping that holds it directly.
    pub owner: Option<&'t str>,
}

impl Node {
    /// Every scalar in the order written, with its place.
    pub fn scalars(&self) -> Vec<Visit<'_>> {
        let mut out = Vec::new();
        let mut stack = vec![Visit { node: self, slot: Slot::Entry, under: None, owner: None }];
        while let Some(visit) = stack.pop() {
            // The key the node's entries are under: its own, else its container's.
            let here = match visit.slot {
                Slot::Value(key) => Some(key),
                Slot::Key | Slot::Entry => visit.under,
            };
            match &visit.node.value {
                Value::Scalar(_) => out.push(visit),
                Value::Map(map) => {
                    let owner = visit.node.get("id").and_then(Node::as_str);
                    for (k, v) in map.entries.iter().rev() {
                        let slot = Slot::Value(k.as_str().unwrap_or("?"));
                        stack.push(Visit { node: v, slot, under: here, owner });
                        stack.push(Visit { node: k, slot: Slot::Key, under: here, owner });
                    }
                }
                Value::Seq(seq) => {
                    for entry in seq.entries.iter().rev() {
                        stack.push(Visit { node: entry, slot: Slot::Entry, under: here, owner: None });
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
