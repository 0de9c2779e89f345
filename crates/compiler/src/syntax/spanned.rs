//! A YAML string with the place it came from, deserialized straight into the
//! raw records.
//!
//! serde hands a `Deserialize` impl nothing but the deserializer, and the
//! deserializer knows byte offsets but not which [`FileId`] the text has in
//! [`Sources`], nor the text itself (needed to tell whether a scalar stands
//! verbatim in the file). [`in_file`] lends both to every [`Spanned`] read on
//! this thread while one file is deserialized. The alternatives were a
//! `DeserializeSeed` for every record (hand-written, since serde's derive
//! cannot pass a seed to fields) or a second walk over the records to fill
//! the file in, which is the copy this module replaces.

use std::cell::RefCell;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer, Error as _};

use crate::diagnostics::{FileId, Sources, Span};

/// A YAML value with the place it came from.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    /// The value as deserialized (quotes and escapes resolved).
    pub value: T,
    /// The whole scalar in the file, quotes included.
    pub span: Span,
    /// Offset of the value's first character when the scalar's text stands
    /// verbatim in the file (plain scalars, and quoted ones without escapes).
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

/// The file being deserialized on this thread, if any.
struct Reading {
    file: FileId,
    text: Arc<String>,
}

thread_local! {
    static READING: RefCell<Option<Reading>> = const { RefCell::new(None) };
}

/// Runs `read` (one file's deserialization) with `file` of `sources` lent to
/// every [`Spanned`] it reads. The previous file, if any, is restored after,
/// even if `read` panics.
pub(crate) fn in_file<R>(sources: &Sources, file: FileId, read: impl FnOnce() -> R) -> R {
    struct Restore(Option<Reading>);
    impl Drop for Restore {
        fn drop(&mut self) {
            READING.set(self.0.take());
        }
    }
    let reading = Reading { file, text: sources.shared_text(file) };
    let _restore = Restore(READING.replace(Some(reading)));
    read()
}

/// Reads a string with its span in the file [`in_file`] lends; outside
/// [`in_file`] it fails (a serde error, not a panic).
impl<'de> Deserialize<'de> for Spanned<String> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let read = serde_saphyr::Spanned::<String>::deserialize(deserializer)?;
        READING.with_borrow(|reading| match reading {
            Some(reading) => Ok(reading.spanned(read)),
            None => Err(D::Error::custom("a spanned string is read only from a rules file (syntax::read_yaml)")),
        })
    }
}

/// Reads a boolean with its span, as [`Spanned<String>`] does (a boolean
/// never stands for text: no verbatim start).
impl<'de> Deserialize<'de> for Spanned<bool> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let read = serde_saphyr::Spanned::<bool>::deserialize(deserializer)?;
        READING.with_borrow(|reading| match reading {
            Some(reading) => {
                let span = read.referenced.span();
                let start = span.byte_offset().unwrap_or(0) as usize;
                let len = span.byte_len().unwrap_or(0) as usize;
                Ok(Spanned {
                    value: read.value,
                    span: Span { file: reading.file, start, len: len.max(1) },
                    verbatim_start: None,
                })
            }
            None => Err(D::Error::custom("a spanned value is read only from a rules file (syntax::read_yaml)")),
        })
    }
}

impl Reading {
    /// `read` with its span in this file, and where its text stands verbatim.
    fn spanned(&self, read: serde_saphyr::Spanned<String>) -> Spanned<String> {
        let span = read.referenced.span();
        let start = span.byte_offset().unwrap_or(0) as usize;
        let len = span.byte_len().unwrap_or(0) as usize;
        // A plain scalar starts right at its span; a quoted one one character later.
        let verbatim_start = [start, start + 1]
            .into_iter()
            .find(|&at| self.text.get(at..).is_some_and(|rest| rest.starts_with(read.value.as_str())));
        Spanned { value: read.value, span: Span { file: self.file, start, len: len.max(1) }, verbatim_start }
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

    fn read(text: &str) -> (FileId, Result<Vec<Spanned<String>>, serde_saphyr::Error>) {
        let mut sources = Sources::default();
        sources.add("a.yaml", "padding".to_string());
        let file = sources.add("b.yaml", text.to_string());
        (file, in_file(&sources, file, || serde_saphyr::from_str(text)))
    }

    #[test]
    fn a_string_knows_its_file_span_and_verbatim_start() {
        let text = "- plain\n- \"quoted\"\n- \"esc\\taped\"\n- 'it''s'\n";
        let (file, read) = read(text);
        let [plain, quoted, escaped, doubled] = <[_; 4]>::try_from(read.expect("YAML")).expect("four strings");
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
    fn outside_a_file_a_string_is_an_error_and_the_file_is_lent_only_while_read() {
        let err = serde_saphyr::from_str::<Spanned<String>>("x").expect_err("refused");
        assert!(err.to_string().contains("only from a rules file"), "{err}");
        assert!(read("[x]").1.is_ok());
        assert!(serde_saphyr::from_str::<Spanned<String>>("x").is_err(), "the file stays lent after reading");
    }
}
