//! The one way generated Rust is laid out: a [`Writer`] of lines, code
//! blocks and data blocks within 120 columns, tests broken before their
//! outermost operators ([`wrap`]), long string literals continued on further
//! lines ([`literal`]), doc lines made from Markdown ([`doc`]).

use crate::escape::rust;

/// String literals longer than this are continued on the next line.
const LITERAL_WIDTH: usize = 80;

/// Columns a generated line may take.
pub(super) const WIDTH: usize = 120;

/// Spaces a block is indented by.
pub(super) const INDENT: usize = 4;

/// An expression made by [`super::cond`], broken before its outermost `||` (else
/// `&&`) where it would pass [`WIDTH`] at `indent` columns with `tail` more
/// characters after it; continuation lines are indented one level more.
pub(super) fn wrap(code: &str, indent: usize, tail: usize) -> String {
    if indent + code.len() + tail <= WIDTH {
        return code.to_string();
    }
    let parts = ["||", "&&"].iter().map(|op| (op, outermost(code, op))).find(|(_, parts)| parts.len() > 1);
    let Some((op, parts)) = parts else { return code.to_string() };
    let mut lines = Vec::new();
    let mut line = parts[0].to_string();
    for part in &parts[1..] {
        // A continuation line holds its own indentation.
        if indent + line.len() + op.len() + part.len() + 2 + tail <= WIDTH {
            line.push_str(&format!(" {op} {part}"));
        } else {
            lines.push(std::mem::replace(&mut line, format!("{:INDENT$}{op} {part}", "")));
        }
    }
    lines.push(line);
    lines.join("\n")
}

/// `code` split at ` op ` outside parentheses. The code is [`super::cond`]'s, made
/// of names and calls only, so parentheses are all there is to track.
fn outermost<'a>(code: &'a str, op: &str) -> Vec<&'a str> {
    let separator = format!(" {op} ");
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ if depth == 0 && bytes[i..].starts_with(separator.as_bytes()) => {
                parts.push(&code[start..i]);
                i += separator.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&code[start..]);
    parts
}

/// Generated Rust, line by line: the one way this crate writes it. Code
/// (a module, a function, an `if`) is a [`Writer::code`] block, each of its
/// lines indented; data (the fields and lists of a table) is nested with
/// [`Writer::block`], which indents where a line starts (a string literal
/// continued on further lines, [`literal`], keeps its own indentation there).
#[derive(Default)]
pub(super) struct Writer {
    pub(super) text: String,
    /// Columns a line starts at.
    pub(super) indent: usize,
    /// Columns the further lines of one [`Writer::line`] start at: the code
    /// blocks' indentation, not the data's.
    frame: usize,
}

impl Writer {
    /// `line`, each of its lines indented; a blank line stays empty.
    pub(super) fn line(&mut self, line: &str) {
        for (i, part) in line.split('\n').enumerate() {
            if !part.is_empty() {
                let indent = if i == 0 { self.indent } else { self.frame };
                self.text.push_str(&" ".repeat(indent));
            }
            self.text.push_str(part);
            self.text.push('\n');
        }
    }

    /// The line `open`, the lines `body` writes one level deeper, and `close`:
    /// data nested in data.
    pub(super) fn block(&mut self, open: &str, close: &str, body: impl FnOnce(&mut Writer)) {
        self.line(open);
        self.indent += INDENT;
        body(self);
        self.indent -= INDENT;
        self.line(close);
    }

    /// `open {`, the lines `body` writes one level deeper, and `}`: a
    /// module, a function, an `if`.
    pub(super) fn code(&mut self, open: &str, body: impl FnOnce(&mut Writer)) {
        self.line(&format!("{open} {{"));
        let (indent, frame) = (self.indent, self.frame);
        (self.indent, self.frame) = (indent + INDENT, indent + INDENT);
        body(self);
        (self.indent, self.frame) = (indent, frame);
        self.line("}");
    }

    /// `if test { body }`, the test broken over lines where it is long.
    pub(super) fn if_block(&mut self, test: &str, body: impl FnOnce(&mut Writer)) {
        // ` {` follows the test.
        let open = wrap(&format!("if {test}"), self.indent, 2);
        self.code(&open, body);
    }

    /// A module of `super`'s items: its doc, `use super::{import};` and what
    /// `body` writes.
    pub(super) fn module(&mut self, name: &str, doc_text: &str, import: &str, body: impl FnOnce(&mut Writer)) {
        self.line(&doc(doc_text));
        self.code(&format!("pub mod {name}"), |out| {
            out.line(&format!("use super::{import};"));
            out.line("");
            body(out);
        });
    }

    /// `name: value,` where value may be a long string literal.
    pub(super) fn field(&mut self, name: &str, value: &str) {
        self.line(&format!("{name}: {value},"));
    }

    /// `head[a, b, c]tail` on one line if it fits, else one element a line.
    pub(super) fn list(&mut self, head: &str, elements: &[String], tail: &str) {
        let one = format!("{head}[{}]{tail}", elements.join(", "));
        if self.indent + one.len() <= WIDTH || elements.is_empty() {
            self.line(&one);
            return;
        }
        self.line(&format!("{head}["));
        self.indent += INDENT;
        for e in elements {
            self.line(&format!("{e},"));
        }
        self.indent -= INDENT;
        self.line(&format!("]{tail}"));
    }
}

/// A `///` line from Markdown built with [`markdown`]'s escapers (and made
/// one line again, should a caller forget).
pub(super) fn doc(markdown: &str) -> String {
    format!("/// {}", rust::comment(markdown))
}

/// A string literal, continued on further lines (`\` + newline) at spaces
/// when long, so that the generated file stays within 120 columns.
pub(super) fn literal(text: &str) -> String {
    let escaped = rust::string(text);
    if escaped.len() <= LITERAL_WIDTH {
        return escaped;
    }
    let inner = &escaped[1..escaped.len() - 1];
    let mut out = String::from("\"");
    let mut line = 0;
    for (i, word) in inner.split(' ').enumerate() {
        if i > 0 {
            // Break before a word only where no space follows the break: the
            // continuation swallows the next line's leading whitespace.
            if line + word.len() > LITERAL_WIDTH && !word.is_empty() {
                out.push_str(" \\\n                ");
                line = 0;
            } else {
                out.push(' ');
                line += 1;
            }
        }
        out.push_str(word);
        line += word.len();
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wrapped` made one line again: each break is a newline and indentation
    /// before an operator.
    fn unwrap(wrapped: &str) -> String {
        wrapped.lines().map(str::trim_start).collect::<Vec<_>>().join(" ")
    }

    fn tests(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("cfg.has(module::MODULE_NUMBER_{i})")).collect()
    }

    #[test]
    fn short_code_is_not_wrapped() {
        let code = tests(3).join(" || ");
        assert_eq!(wrap(&code, INDENT, 2), code);
    }

    #[test]
    fn long_code_breaks_before_outermost_operators_within_the_width() {
        let inner = format!("({})", tests(2).join(" || "));
        let code = [tests(6), vec![inner.clone()], tests(6)].concat().join(" && ");
        for indent in [INDENT, 3 * INDENT] {
            let wrapped = wrap(&code, indent, 2);
            let lines: Vec<&str> = wrapped.lines().collect();
            assert!(lines.len() > 1, "{wrapped}");
            for line in &lines {
                assert!(indent + line.len() + 2 <= WIDTH, "{line:?} passes {WIDTH} columns at {indent}");
            }
            for line in &lines[1..] {
                assert!(line.starts_with(&format!("{:INDENT$}&& ", "")), "{line:?}");
            }
            assert!(wrapped.contains(&inner), "the parenthesised part was split: {wrapped}");
            assert_eq!(unwrap(&wrapped), code);
        }
    }

    #[test]
    fn disjunctions_break_before_conjunctions() {
        let code = format!("{} || {}", tests(4).join(" && "), tests(4).join(" && "));
        let wrapped = wrap(&code, INDENT, 0);
        assert!(wrapped.lines().skip(1).all(|line| line.trim_start().starts_with("|| ")), "{wrapped}");
        assert_eq!(unwrap(&wrapped), code);
    }
}
