//! A YAML value with the place it came from, deserialized straight into the
//! raw records from a file's tree: the tree's deserializer (`super::de`)
//! hands each one its file, span and verbatim start.

use std::marker::PhantomData;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};

use super::de;
use crate::diagnostics::{FileId, Span};

/// A YAML value with the place it came from.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    /// The value as deserialized (quotes and escapes resolved).
    pub value: T,
    /// The whole scalar in the file, quotes included.
    pub span: Span,
    /// Offset of the value's first character when the scalar's text stands
    /// verbatim in the file (plain scalars, and quoted ones without escapes);
    /// none for a mapping or a sequence.
    pub verbatim_start: Option<usize>,
}

impl Spanned<String> {
    /// The span of `value[start..end]`, exact where the scalar is verbatim in
    /// the file, the whole scalar otherwise.
    pub fn sub_span(&self, start: usize, end: usize) -> Span {
        match self.verbatim_start {
            Some(base) => Span { file: self.span.file, start: base + start, len: end.saturating_sub(start).max(1) },
            None => self.span,
        }
    }

    /// The empty place before byte `at` of the value, where an edit can
    /// insert text; none where the value is not verbatim in the file (an
    /// escape in a quoted string moves every place after it).
    pub fn insertion_at(&self, at: usize) -> Option<Span> {
        self.verbatim_start.map(|base| Span { file: self.span.file, start: base + at, len: 0 })
    }

    /// The string's value, without its span.
    pub fn as_str(&self) -> &str {
        &self.value
    }
}

/// Reads a value with its place from the tree deserializer of
/// [`super::de`], which alone answers the struct name `de::SPANNED`;
/// any other deserializer refuses it (a serde error, not a panic).
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct(de::SPANNED, &de::SPANNED_FIELDS, SpannedVisitor(PhantomData))
    }
}

struct SpannedVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for SpannedVisitor<T> {
    type Value = Spanned<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a value read from a rules file's tree (syntax::de)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let [file, start, end, verbatim, value] = de::SPANNED_FIELDS;
        let file = FileId(field(&mut map, file)?);
        let start: usize = field(&mut map, start)?;
        let end: usize = field(&mut map, end)?;
        let verbatim_start = field(&mut map, verbatim)?;
        let value = field(&mut map, value)?;
        Ok(Spanned { value, span: Span { file, start, len: end.saturating_sub(start).max(1) }, verbatim_start })
    }
}

/// The value of the next key, which must be `name`.
fn field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: &mut A, name: &'static str) -> Result<T, A::Error> {
    match map.next_key_seed(KeyIs(name))? {
        Some(true) => map.next_value(),
        _ => Err(A::Error::custom("a spanned value is read only from a rules file's tree (syntax::de)")),
    }
}

/// Whether a key is the given one, compared where it is read (every value
/// of a rules file has these five keys: no string is made for them).
struct KeyIs(&'static str);

impl<'de> DeserializeSeed<'de> for KeyIs {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeyIs {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the key `{}`", self.0)
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// A spanned value's schema is its value's: the span is where it was written.
impl<T: schemars::JsonSchema> schemars::JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::tree;

    fn read(text: &str) -> Result<Vec<Spanned<String>>, de::Error> {
        de::from_tree(&tree::parse_strict(text).tree, FileId(1))
    }

    #[test]
    fn a_string_knows_its_file_span_and_verbatim_start() {
        let text = "- plain\n- \"quoted\"\n- \"esc\\taped\"\n- 'it''s'\n";
        let file = FileId(1);
        let [plain, quoted, escaped, doubled] = <[_; 4]>::try_from(read(text).expect("YAML")).expect("four strings");
        assert_eq!((plain.span.file, &text[plain.span.start..][..plain.span.len]), (file, "plain"));
        assert_eq!(plain.verbatim_start, Some(plain.span.start));
        assert_eq!(&text[quoted.span.start..][..quoted.span.len], "\"quoted\"");
        assert_eq!(quoted.verbatim_start, Some(quoted.span.start + 1));
        assert_eq!(quoted.sub_span(1, 3), Span { file, start: quoted.span.start + 2, len: 2 });
        assert_eq!((escaped.value.as_str(), escaped.verbatim_start), ("esc\taped", None));
        assert_eq!(escaped.sub_span(1, 3), escaped.span);
        assert_eq!((doubled.value.as_str(), doubled.verbatim_start), ("it's", None));
    }

    #[test]
    fn only_the_trees_reader_gives_a_place() {
        let err = serde_json::from_str::<Spanned<String>>("{\"value\": \"x\"}").expect_err("refused");
        assert!(err.to_string().contains("only from a rules file"), "{err}");
        let err = serde_json::from_str::<Spanned<String>>("\"x\"").expect_err("refused");
        assert!(err.to_string().contains("rules file"), "{err}");
    }
}
