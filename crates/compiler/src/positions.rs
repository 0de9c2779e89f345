//! The one mapping between byte offsets and line/column positions: the
//! command line's `file:line:col` counts characters, as rustc does; an editor
//! counts UTF-16 code units, or bytes where it says so.
//!
//! Line breaks are `\n`, `\r\n` and a lone `\r`, as in miette's header.

/// What a column counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// Bytes of UTF-8 (LSP's `utf-8` position encoding).
    Utf8,
    /// UTF-16 code units (LSP's default).
    Utf16,
    /// Characters (Unicode scalar values), as rustc's `file:line:col`.
    Chars,
}

impl Columns {
    fn width(self, c: char) -> usize {
        match self {
            Columns::Utf8 => c.len_utf8(),
            Columns::Utf16 => c.len_utf16(),
            Columns::Chars => 1,
        }
    }

    /// The columns `text` (within one line) takes.
    fn count(self, text: &str) -> usize {
        match self {
            Columns::Utf8 => text.len(),
            _ => text.chars().map(|c| self.width(c)).sum(),
        }
    }
}

/// 0-based line and column of byte `offset` in `text` (an offset inside a
/// character or past the end is taken at that character's start, or the end).
pub fn position(text: &str, offset: usize, columns: Columns) -> (usize, usize) {
    let offset = snapped(text, offset);
    let start = line_start(text, offset);
    let line = line_breaks(&text.as_bytes()[..start]);
    (line, columns.count(&text[start..offset]))
}

/// The byte offsets where a text's lines start, computed once: the one
/// index of a source that its `file:line:col`s, the snippets miette reads
/// and the language server's positions all use, so that many positions of
/// one text cost a binary search each, not a scan of the text before them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineStarts(Vec<usize>);

impl LineStarts {
    /// Indexes `text`'s line breaks.
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let breaks = (0..bytes.len())
            .filter(|&i| bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .map(|i| i + 1);
        LineStarts(std::iter::once(0).chain(breaks).collect())
    }

    /// The 0-based line that byte `offset` is on (the last line past the end).
    pub fn line_of(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset) - 1
    }

    /// Where 0-based `line` starts, if the text has it.
    pub fn start(&self, line: usize) -> Option<usize> {
        self.0.get(line).copied()
    }

    /// What [`position`] says of `offset` in `text`, which this indexes.
    pub fn position(&self, text: &str, offset: usize, columns: Columns) -> (usize, usize) {
        let offset = snapped(text, offset);
        let line = self.line_of(offset);
        (line, columns.count(&text[self.0[line]..offset]))
    }
}

/// A text with its [`LineStarts`], for asking many positions of it.
#[derive(Clone, Debug)]
pub struct Lines<'t> {
    text: &'t str,
    starts: LineStarts,
}

impl<'t> Lines<'t> {
    /// Indexes `text`'s line breaks.
    pub fn new(text: &'t str) -> Self {
        Lines { text, starts: LineStarts::new(text) }
    }

    /// What [`position`] says of `offset` in the indexed text.
    pub fn position(&self, offset: usize, columns: Columns) -> (usize, usize) {
        self.starts.position(self.text, offset, columns)
    }
}

/// `offset` within `text` at a character's start, and at the `\r` of a
/// `\r\n` (where that line break starts).
fn snapped(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    if offset > 0 && text.as_bytes()[offset - 1] == b'\r' && text.as_bytes().get(offset) == Some(&b'\n') {
        offset -= 1;
    }
    offset
}

/// The byte offset of 0-based `line` and `column`; a column past the line's
/// end is its end, a line past the text's end is the text's end, and a column
/// inside a character is that character's start.
pub fn offset(text: &str, line: usize, column: usize, columns: Columns) -> usize {
    let bytes = text.as_bytes();
    let mut at = 0;
    for _ in 0..line {
        match bytes[at..].iter().position(|&b| matches!(b, b'\n' | b'\r')) {
            Some(i) => {
                at += i + 1;
                if bytes[at - 1] == b'\r' && bytes.get(at) == Some(&b'\n') {
                    at += 1;
                }
            }
            None => return text.len(),
        }
    }
    let mut counted = 0;
    for (i, c) in text[at..].char_indices() {
        if matches!(c, '\n' | '\r') || counted + columns.width(c) > column {
            return at + i;
        }
        counted += columns.width(c);
    }
    text.len()
}

fn line_start(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset].iter().rposition(|&b| matches!(b, b'\n' | b'\r')).map_or(0, |i| i + 1)
}

/// Line breaks in `bytes`, a `\r\n` counting once.
fn line_breaks(bytes: &[u8]) -> usize {
    (0..bytes.len()).filter(|&i| bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "a: 1\n  text: \"Bürgermeister → {C1: mayor | C9: Mayor}\"\r\nz𝄞x\rend";

    #[test]
    fn columns_count_what_each_reader_counts() {
        let c9 = LINE.find("C9").unwrap_or(0);
        // rustc-style columns count characters: ü and → are one each.
        assert_eq!(position(LINE, c9, Columns::Chars), (1, 38));
        assert_eq!(position(LINE, c9, Columns::Utf8), (1, 41));
        assert_eq!(position(LINE, c9, Columns::Utf16), (1, 38));
        let x = LINE.rfind('x').unwrap_or(0);
        // 𝄞 is two UTF-16 code units and four bytes.
        assert_eq!(position(LINE, x, Columns::Utf16), (2, 3));
        assert_eq!(position(LINE, x, Columns::Chars), (2, 2));
        // A lone `\r` ends a line too.
        assert_eq!(position(LINE, LINE.len(), Columns::Chars), (3, 3));
    }

    #[test]
    fn the_line_index_answers_as_position_does() {
        for text in [LINE, "", "\n", "\r", "\r\n\r\n", "a\r\rb\n\nc", "ü\r\n→𝄞\n", "end\r"] {
            let lines = Lines::new(text);
            for columns in [Columns::Utf8, Columns::Utf16, Columns::Chars] {
                for offset in 0..=text.len() + 2 {
                    assert_eq!(
                        lines.position(offset, columns),
                        position(text, offset, columns),
                        "{text:?} at {offset}, {columns:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn offsets_and_positions_round_trip() {
        for columns in [Columns::Utf8, Columns::Utf16, Columns::Chars] {
            for (at, _) in LINE.char_indices().filter(|&(at, c)| !(c == '\n' && LINE[..at].ends_with('\r'))) {
                let (line, col) = position(LINE, at, columns);
                assert_eq!(offset(LINE, line, col, columns), at, "{columns:?} at {at}");
            }
        }
        // Past the end of a line or of the text, and inside a character.
        assert_eq!(offset(LINE, 0, 99, Columns::Utf16), 4);
        assert_eq!(offset(LINE, 9, 0, Columns::Utf16), LINE.len());
        let clef = LINE.find('𝄞').unwrap_or(0);
        assert_eq!(offset(LINE, 2, 2, Columns::Utf16), clef);
    }
}
