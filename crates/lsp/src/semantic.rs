//! Semantic tokens for the DSL inside the rules' strings: in conditions (an
//! item's or step's `when:`, a marker's and a repeat's `when …`, a derived
//! flag's definition) the keywords, operators, module and flag names and
//! editions; in a text, its variants' edition labels and punctuation.
//!
//! The strings are lexed rather than parsed, so a half-typed condition is
//! still coloured; names are classified by the last checked rules.

use carcassonne_rules_compiler::Rules;
use carcassonne_rules_compiler::positions::{self, Columns};

use carcassonne_rules_compiler::syntax::tree::Node;
use carcassonne_rules_compiler::syntax::{DslKind as Kind, DslString, dsl_strings};

/// What a token is; its position in [`LEGEND`] is its protocol number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `and`, `or`, `not`, `when`, `edition`, `variant`, `true`, `false`, a
    /// repeat's kind.
    Keyword = 0,
    /// `==`, `!=`, parentheses; a text variant's `{`, `|`, `:`, `}`.
    Operator = 1,
    /// A module or an expansion.
    Module = 2,
    /// A derived flag.
    Flag = 3,
    /// An edition or a rule variant.
    Edition = 4,
    /// A marker's name.
    Marker = 5,
}

/// The token types, in [`TokenKind`]'s order, as the protocol names them.
pub const LEGEND: [&str; 6] = ["keyword", "operator", "namespace", "variable", "enumMember", "macro"];

/// A token at a byte range of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Byte offset in the file.
    pub start: usize,
    /// Length in bytes.
    pub len: usize,
    /// What it is.
    pub kind: TokenKind,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every token of the rules file `file`, whose tree is `tree`, in order;
/// names the rules do not know get none (their diagnostic says why).
pub fn tokens(rules: Option<&Rules>, file: &str, tree: &Node) -> Vec<Token> {
    let mut out = Vec::new();
    for string in dsl_strings(file, tree) {
        let Some(base) = string.verbatim else { continue };
        let mut lexer = Lexer { rules, base, out: &mut out };
        lexer.string(&string);
    }
    out
}

struct Lexer<'a> {
    rules: Option<&'a Rules>,
    base: usize,
    out: &'a mut Vec<Token>,
}

impl Lexer<'_> {
    fn push(&mut self, start: usize, len: usize, kind: TokenKind) {
        self.out.push(Token { start: self.base + start, len, kind });
    }

    fn string(&mut self, string: &DslString<'_>) {
        let value = string.value;
        match string.kind {
            Kind::Condition => self.condition(value, 0),
            Kind::FlagName => self.push(0, value.len(), TokenKind::Flag),
            Kind::Text => self.text(value),
            Kind::Marker | Kind::Repeat => {
                // A leading name (the marker, or the repeat's kind), a quoted
                // argument, then `when` and a condition.
                let name_end = value.find(|c: char| !is_word_char(c)).unwrap_or(value.len());
                let kind = if string.kind == Kind::Marker { TokenKind::Marker } else { TokenKind::Keyword };
                if name_end > 0 {
                    self.push(0, name_end, kind);
                }
                let mut rest = name_end;
                if let Some(open) = value[rest..].find('"') {
                    rest = value[rest + open + 1..].find('"').map_or(value.len(), |close| rest + open + close + 2);
                }
                self.condition(&value[rest..], rest);
            }
        }
    }

    /// A condition starting at byte `at` of the string.
    fn condition(&mut self, condition: &str, at: usize) {
        let mut after_test = false;
        let mut chars = condition.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '(' || c == ')' {
                self.push(at + i, 1, TokenKind::Operator);
            } else if (c == '=' || c == '!') && chars.peek().is_some_and(|&(_, next)| next == '=') {
                chars.next();
                self.push(at + i, 2, TokenKind::Operator);
            } else if is_word_char(c) {
                let end = condition[i..].find(|c: char| !is_word_char(c)).map_or(condition.len(), |n| i + n);
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
                let word = &condition[i..end];
                let kind = match word {
                    "and" | "or" | "not" | "when" | "true" | "false" => Some(TokenKind::Keyword),
                    "edition" | "variant" => {
                        after_test = true;
                        self.push(at + i, word.len(), TokenKind::Keyword);
                        continue;
                    }
                    _ if after_test => Some(TokenKind::Edition),
                    _ => self.name(word),
                };
                after_test = false;
                if let Some(kind) = kind {
                    self.push(at + i, word.len(), kind);
                }
            }
        }
    }

    fn name(&self, word: &str) -> Option<TokenKind> {
        let rules = self.rules?;
        let catalog = &rules.catalog;
        if catalog.module(word).is_some() || catalog.expansions.iter().any(|x| x.id == word) {
            Some(TokenKind::Module)
        } else if rules.flags.iter().any(|f| f.id == word) {
            Some(TokenKind::Flag)
        } else {
            None
        }
    }

    /// A text's variants: `{`, each alternative's editions and `:`, `|`, `}`;
    /// the words in between are the author's.
    fn text(&mut self, text: &str) {
        let mut inside = false;
        let mut labels = false;
        for (i, c) in text.char_indices() {
            match c {
                '{' => (inside, labels) = (true, true),
                '|' if inside => labels = true,
                '}' if inside => (inside, labels) = (false, false),
                ':' if labels => labels = false,
                _ => {
                    // An edition label: a word whose previous character is not one.
                    let starts = is_word_char(c) && !text[..i].ends_with(is_word_char);
                    if labels && starts {
                        let len = text[i..].find(|c: char| !is_word_char(c)).unwrap_or(text.len() - i);
                        self.push(i, len, TokenKind::Edition);
                    }
                    continue;
                }
            }
            if inside || c == '}' {
                self.push(i, 1, TokenKind::Operator);
            }
        }
    }
}

/// The protocol's encoding of `tokens` (sorted, each on one line): per token
/// its line and start relative to the previous one, its length, its type
/// and no modifiers, in the client's columns.
pub fn encode(text: &str, tokens: &[Token], columns: Columns) -> Vec<u32> {
    let mut data = Vec::with_capacity(tokens.len() * 5);
    let (mut last_line, mut last_start, mut last_end) = (0, 0, 0);
    let lines = positions::Lines::new(text);
    for token in tokens {
        let (line, start) = lines.position(token.start, columns);
        let (end_line, end) = lines.position(token.start + token.len, columns);
        // Each token on one line, after the one before (the deltas are unsigned).
        if end_line != line || end <= start || (line, start) < (last_line, last_end) {
            continue;
        }
        let delta_start = if line == last_line { start - last_start } else { start };
        for n in [line - last_line, delta_start, end - start, token.kind as usize, 0] {
            data.push(u32::try_from(n).unwrap_or(u32::MAX));
        }
        (last_line, last_start, last_end) = (line, start, end);
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, tokens: &[Token]) -> Vec<(String, TokenKind)> {
        tokens.iter().map(|t| (text[t.start..t.start + t.len].to_string(), t.kind)).collect()
    }

    #[test]
    fn conditions_markers_and_texts_are_lexed_without_rules() {
        use TokenKind::*;
        let text = "- id: x\n  when: not (edition == C1 or variant != rgg) and abbey\n  text: \"a {C1: b | C2, WE: c} d\"\n  markers: ['MESSAGES \"#1\" when true']\n";
        let tree = carcassonne_rules_compiler::syntax::tree::parse(text).tree;
        let found = words(text, &tokens(None, "base.yaml", &tree));
        let expected: Vec<(String, TokenKind)> = [
            ("not", Keyword),
            ("(", Operator),
            ("edition", Keyword),
            ("==", Operator),
            ("C1", Edition),
            ("or", Keyword),
            ("variant", Keyword),
            ("!=", Operator),
            ("rgg", Edition),
            (")", Operator),
            ("and", Keyword),
            ("{", Operator),
            ("C1", Edition),
            (":", Operator),
            ("|", Operator),
            ("C2", Edition),
            ("WE", Edition),
            (":", Operator),
            ("}", Operator),
            ("MESSAGES", Marker),
            ("when", Keyword),
            ("true", Keyword),
        ]
        .into_iter()
        .map(|(w, k)| (w.to_string(), k))
        .collect();
        // `abbey` is no token without rules to say what it is.
        assert_eq!(found, expected);
    }

    #[test]
    fn encoding_is_relative_and_in_the_clients_columns() {
        let text = "é: ab\nx: cd";
        let tokens =
            [Token { start: 4, len: 2, kind: TokenKind::Module }, Token { start: 10, len: 2, kind: TokenKind::Flag }];
        assert_eq!(encode(text, &tokens, Columns::Utf16), [0, 3, 2, 2, 0, 1, 3, 2, 3, 0]);
        assert_eq!(encode(text, &tokens, Columns::Utf8), [0, 4, 2, 2, 0, 1, 3, 2, 3, 0]);
        // A token that would go back or overlap is left out, not encoded as a
        // negative delta.
        let back = [tokens[1], tokens[0], Token { start: 11, len: 1, kind: TokenKind::Keyword }];
        assert_eq!(encode(text, &back, Columns::Utf16), [1, 3, 2, 3, 0]);
    }
}
