//! The raw records read from a file's tree: a serde [`Deserializer`] over
//! `tree::Node`, so `check` and the language server read one parse of a
//! file, and a mistake comes out as data (its kind and its place), not as a
//! reader's message to take apart.
//!
//! The YAML it accepts is the YAML a rules file is written in: a scalar is
//! a string (numbers and `true` read as their text) unless a boolean or a
//! number is asked for; `~`, `null` and nothing are no value; a key stands once in a
//! mapping; an alias (`*name`) is refused, so no file can make the reader
//! expand one node into millions. Tags are not looked at.
//!
//! `Spanned` values take their place from the node they are read from:
//! its deserializer asks for a struct named `SPANNED`, which only this
//! deserializer answers (with the node's file, span and verbatim start),
//! the way `toml`'s `Spanned` is read.

use std::collections::HashSet;
use std::fmt;
use std::ops::Range;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use super::tree::{Node, Scalar, Value};
use crate::diagnostics::FileId;

/// The struct name by which [`Spanned`](super::Spanned) asks for its place.
pub(crate) const SPANNED: &str = "$carcassonne_rules::Spanned";
/// The fields it is given, in this order.
pub(crate) const SPANNED_FIELDS: [&str; 5] = ["file", "start", "end", "verbatim", "value"];

/// A value that does not fit the record it is read into, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What is wrong.
    pub kind: ErrorKind,
    /// The bytes it is about, once known.
    pub at: Option<Range<usize>>,
}

/// What is wrong with a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A key the record does not have, and the keys it has.
    UnknownKey {
        /// The key as written.
        key: String,
        /// The record's keys, in the order the records declare them.
        expected: &'static [&'static str],
    },
    /// A key the record needs is not there.
    MissingKey(&'static str),
    /// A key written twice in one mapping.
    DuplicateKey(String),
    /// Not the kind of node the record needs there (`string scalar`,
    /// `mapping start`, `sequence start`, the parser's names for them, or
    /// a number).
    Expected(&'static str),
    /// A word where `true` or `false` goes.
    InvalidBoolean,
    /// No value where a text goes.
    Null,
    /// An alias (`*name`).
    Alias,
    /// Anything else a record's reader refuses.
    Other(String),
}

impl Error {
    fn new(kind: ErrorKind, at: Range<usize>) -> Error {
        Error { kind, at: Some(at) }
    }

    /// Places the error at `at` unless it has a place already (an error
    /// from inside a value knows where it is better than its container).
    fn or_at(mut self, at: impl FnOnce() -> Range<usize>) -> Error {
        if self.at.is_none() {
            self.at = Some(at());
        }
        self
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnknownKey { key, expected: [] } => {
                write!(f, "unknown field `{key}`, there are no fields")
            }
            ErrorKind::UnknownKey { key, expected } => {
                write!(f, "unknown field `{key}`, expected one of {}", expected.join(", "))
            }
            ErrorKind::MissingKey(key) => write!(f, "missing field `{key}`"),
            ErrorKind::DuplicateKey(key) => write!(f, "duplicate mapping key: {key}"),
            ErrorKind::Expected(what) => write!(f, "expected {what}"),
            ErrorKind::InvalidBoolean => f.write_str("invalid boolean"),
            ErrorKind::Null => f.write_str("no value where a text goes"),
            ErrorKind::Alias => f.write_str("an alias, which rules files do not use"),
            ErrorKind::Other(message) => f.write_str(message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error { kind: ErrorKind::Other(message.to_string()), at: None }
    }

    fn unknown_field(key: &str, expected: &'static [&'static str]) -> Self {
        Error { kind: ErrorKind::UnknownKey { key: key.to_string(), expected }, at: None }
    }

    fn missing_field(key: &'static str) -> Self {
        Error { kind: ErrorKind::MissingKey(key), at: None }
    }
}

/// Reads `T` from the tree of the file `file`.
pub fn from_tree<T: de::DeserializeOwned>(tree: &Node, file: FileId) -> Result<T, Error> {
    T::deserialize(NodeDeserializer { node: tree, file })
}

/// Whether a plain scalar stands for no value.
fn is_null(scalar: &Scalar) -> bool {
    scalar.plain && matches!(scalar.value.as_str(), "" | "~" | "null" | "Null" | "NULL")
}

/// A YAML 1.1 boolean, as the reader `check` used before read them (so
/// `yes` and `on` still mean true).
fn boolean(word: &str) -> Option<bool> {
    let word = word.trim();
    let any = |words: [&str; 4]| words.iter().any(|w| word.eq_ignore_ascii_case(w));
    if any(["true", "yes", "y", "on"]) {
        Some(true)
    } else if any(["false", "no", "n", "off"]) {
        Some(false)
    } else {
        None
    }
}

/// Reads one node.
#[derive(Clone, Copy)]
struct NodeDeserializer<'de> {
    node: &'de Node,
    file: FileId,
}

impl<'de> NodeDeserializer<'de> {
    /// The node's value; an error at the node if it is an alias, which
    /// nothing is read from.
    fn value(&self) -> Result<&'de Value, Error> {
        match &self.node.value {
            Value::Scalar(scalar) if scalar.alias => Err(self.error(ErrorKind::Alias)),
            value => Ok(value),
        }
    }

    /// The node's scalar; an error at the node if it is not one (`what`
    /// says what was expected).
    fn scalar(&self, what: &'static str) -> Result<&'de Scalar, Error> {
        match self.value()? {
            Value::Scalar(scalar) => Ok(scalar),
            _ => Err(self.error(ErrorKind::Expected(what))),
        }
    }

    /// An error at the node.
    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.place())
    }

    /// Where an error about the node is: a scalar, or a container's first
    /// character.
    fn place(&self) -> Range<usize> {
        let span = &self.node.span;
        match self.node.value {
            Value::Scalar(_) => span.clone(),
            _ => span.start..(span.start + 1).min(span.end),
        }
    }

    fn map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value()? {
            Value::Map(map) => {
                let access = Entries::new(&map.entries, self.file);
                // A key missing: at the last key written, else the mapping.
                let last_key = map.entries.last().map(|(k, _)| k.span.clone());
                visitor.visit_map(access).map_err(|e| e.or_at(|| last_key.unwrap_or_else(|| self.place())))
            }
            _ => Err(self.error(ErrorKind::Expected("mapping start"))),
        }
    }

    /// The node's place, for [`Spanned`](super::Spanned).
    fn spanned<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let verbatim = match &self.node.value {
            Value::Scalar(scalar) => scalar.verbatim,
            _ => None,
        };
        visitor.visit_map(SpannedAccess { node: self, verbatim, field: 0 })
    }
}

/// A number read from a plain scalar's text (decimal, as rules files and
/// the errata write line numbers).
macro_rules! numbers {
    ($($method:ident $ty:ident $visit:ident $what:literal),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let scalar = self.scalar("string scalar")?;
            match scalar.value.trim().parse::<$ty>() {
                Ok(number) if scalar.plain => visitor.$visit(number),
                _ => Err(self.error(ErrorKind::Expected($what))),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for NodeDeserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value()? {
            Value::Scalar(scalar) if is_null(scalar) => visitor.visit_unit(),
            Value::Scalar(scalar) => visitor.visit_str(&scalar.value),
            Value::Seq(_) => self.deserialize_seq(visitor),
            Value::Map(_) => self.map(visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let scalar = self.scalar("string scalar")?;
        match boolean(&scalar.value) {
            Some(value) => visitor.visit_bool(value),
            None => Err(self.error(ErrorKind::InvalidBoolean)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let scalar = self.scalar("string scalar")?;
        if is_null(scalar) {
            return Err(self.error(ErrorKind::Null));
        }
        visitor.visit_str(&scalar.value)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value()? {
            Value::Scalar(scalar) if is_null(scalar) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value()? {
            Value::Seq(seq) => visitor.visit_seq(Entries::new(&seq.entries, self.file)),
            _ => Err(self.error(ErrorKind::Expected("sequence start"))),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.map(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == SPANNED { self.spanned(visitor) } else { self.map(visitor) }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    numbers! {
        deserialize_i8 i8 visit_i8 "a whole number", deserialize_i16 i16 visit_i16 "a whole number",
        deserialize_i32 i32 visit_i32 "a whole number", deserialize_i64 i64 visit_i64 "a whole number",
        deserialize_u8 u8 visit_u8 "a whole number, 0 or more", deserialize_u16 u16 visit_u16 "a whole number, 0 or more",
        deserialize_u32 u32 visit_u32 "a whole number, 0 or more", deserialize_u64 u64 visit_u64 "a whole number, 0 or more",
        deserialize_f32 f32 visit_f32 "a number", deserialize_f64 f64 visit_f64 "a number",
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct newtype_struct tuple tuple_struct enum
    }
}

/// A mapping's pairs or a sequence's entries, read in order.
struct Entries<'de, T> {
    entries: &'de [T],
    next: usize,
    /// The keys read so far (a mapping's).
    seen: HashSet<&'de str>,
    file: FileId,
}

impl<'de, T> Entries<'de, T> {
    fn new(entries: &'de [T], file: FileId) -> Self {
        Entries { entries, next: 0, seen: HashSet::new(), file }
    }
}

impl<'de> MapAccess<'de> for Entries<'de, (Node, Node)> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, _)) = self.entries.get(self.next) else { return Ok(None) };
        if let Some(name) = key.as_str()
            && !self.seen.insert(name)
        {
            return Err(Error::new(ErrorKind::DuplicateKey(name.to_string()), key.span.clone()));
        }
        let node = NodeDeserializer { node: key, file: self.file };
        seed.deserialize(node).map(Some).map_err(|e| e.or_at(|| key.span.clone()))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (_, value) = &self.entries[self.next];
        self.next += 1;
        let node = NodeDeserializer { node: value, file: self.file };
        seed.deserialize(node).map_err(|e| e.or_at(|| node.place()))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.next)
    }
}

impl<'de> SeqAccess<'de> for Entries<'de, Node> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(entry) = self.entries.get(self.next) else { return Ok(None) };
        self.next += 1;
        let node = NodeDeserializer { node: entry, file: self.file };
        seed.deserialize(node).map(Some).map_err(|e| e.or_at(|| node.place()))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.next)
    }
}

/// A node's place and value, as [`SPANNED_FIELDS`].
struct SpannedAccess<'de> {
    node: NodeDeserializer<'de>,
    verbatim: Option<usize>,
    field: usize,
}

impl<'de> MapAccess<'de> for SpannedAccess<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some(field) = SPANNED_FIELDS.get(self.field) else { return Ok(None) };
        seed.deserialize(field.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let span = &self.node.node.span;
        let field = self.field;
        self.field += 1;
        match field {
            0 => seed.deserialize(self.node.file.0.into_deserializer()),
            1 => seed.deserialize(span.start.into_deserializer()),
            2 => seed.deserialize(span.end.into_deserializer()),
            3 => seed.deserialize(OptionalOffset(self.verbatim)),
            _ => seed.deserialize(self.node),
        }
    }
}

/// An offset that may be absent, as an `Option<usize>`.
struct OptionalOffset(Option<usize>);

impl<'de> Deserializer<'de> for OptionalOffset {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Some(at) => visitor.visit_some(at.into_deserializer()),
            None => visitor.visit_none(),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests;
