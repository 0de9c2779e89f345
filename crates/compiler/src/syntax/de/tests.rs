#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde::Deserialize;

use super::*;
use crate::syntax::tree::parse_strict;
use crate::syntax::{RawExpansionFile, Spanned};

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Record {
    id: String,
    #[serde(default)]
    flag: bool,
    maybe: Option<bool>,
    note: Option<String>,
    #[serde(default)]
    list: Vec<String>,
}

fn read<T: de::DeserializeOwned>(text: &str) -> Result<T, Error> {
    let parse = parse_strict(text);
    assert_eq!(parse.error, None, "{text:?} parses");
    from_tree(&parse.tree, FileId(3))
}

/// The error's kind and the text it is placed at.
fn refused<T: de::DeserializeOwned + fmt::Debug>(text: &str) -> (ErrorKind, &str) {
    let err = read::<T>(text).expect_err("refused");
    let at = err.at.expect("placed");
    (err.kind, &text[at])
}

#[test]
fn scalars_read_as_text_unless_a_boolean_is_asked_for() {
    let record: Record = read("id: 12\nflag: yes\nmaybe: 'FALSE'\nnote: true\nlist: [1.5, \"b\", ~x]\n").unwrap();
    assert_eq!(
        record,
        Record {
            id: "12".into(),
            flag: true,
            maybe: Some(false),
            note: Some("true".into()),
            list: vec!["1.5".into(), "b".into(), "~x".into()]
        }
    );
    let (kind, at) = refused::<Record>("id: x\nflag: sometimes\n");
    assert_eq!((kind, at), (ErrorKind::InvalidBoolean, "sometimes"));
}

#[test]
fn a_number_is_read_where_one_is_asked_for() {
    assert_eq!(read::<Vec<usize>>("[144, 7]").unwrap(), [144, 7]);
    assert_eq!(read::<Vec<f64>>("[-1.5]").unwrap(), [-1.5]);
    let whole = ErrorKind::Expected("a whole number, 0 or more");
    assert_eq!(refused::<Vec<usize>>("[1, x]"), (whole.clone(), "x"));
    assert_eq!(refused::<Vec<u8>>("[-3]"), (whole.clone(), "-3"));
    assert_eq!(refused::<Vec<u8>>("['3']").0, whole, "a quoted number is text");
    assert_eq!(refused::<Vec<f32>>("[x]").0, ErrorKind::Expected("a number"));
}

#[test]
fn nothing_null_and_tilde_are_no_value_and_a_quoted_null_is_text() {
    for none in ["", " ~", " null", " NULL"] {
        let record: Record = read(&format!("id: x\nmaybe:{none}\nnote:{none}\n")).unwrap();
        assert_eq!((record.maybe, record.note), (None, None), "{none:?}");
    }
    assert_eq!(read::<Record>("id: 'null'\n").unwrap().id, "null");
    let (kind, at) = refused::<Record>("id: ~\n");
    assert_eq!((kind, at), (ErrorKind::Null, "~"));
    let err = read::<Record>("id:\n").unwrap_err();
    assert_eq!((err.kind, err.at.map(|at| at.start)), (ErrorKind::Null, Some(2)));
}

#[test]
fn each_mistake_is_placed_where_it_was_written() {
    let (kind, at) = refused::<Record>("id: x\ncolour: red\n");
    assert_eq!(at, "colour");
    assert!(matches!(kind, ErrorKind::UnknownKey { key, expected } if key == "colour" && expected.contains(&"note")));
    // A key missing: at the last key the mapping has.
    assert_eq!(refused::<Record>("note: a\nlist: [b]\n"), (ErrorKind::MissingKey("id"), "list"));
    assert_eq!(refused::<Vec<Record>>("[{}]"), (ErrorKind::MissingKey("id"), "{"));
    assert_eq!(refused::<Record>("id: x\nid: y\n"), (ErrorKind::DuplicateKey("id".into()), "id"));
    let err = read::<Record>("id: x\nid: y\n").unwrap_err();
    assert_eq!(err.at.unwrap().start, 6, "the second one");
    assert_eq!(refused::<Record>("id: [a]\n"), (ErrorKind::Expected("string scalar"), "["));
    assert_eq!(refused::<Record>("id: x\nlist: a\n"), (ErrorKind::Expected("sequence start"), "a"));
    assert_eq!(refused::<Vec<Record>>("[a]"), (ErrorKind::Expected("mapping start"), "a"));
    assert_eq!(refused::<Record>("id: x\nlist: [a, [b]]\n"), (ErrorKind::Expected("string scalar"), "["));
    assert_eq!(refused::<Record>("[a]: b\nid: x\n"), (ErrorKind::Expected("string scalar"), "["));
}

#[test]
fn an_alias_is_refused_where_it_is_read() {
    assert_eq!(refused::<Record>("id: &a x\nnote: *a\n"), (ErrorKind::Alias, "*a"));
    assert_eq!(refused::<Record>("id: &a x\nlist: [b, *a]\n"), (ErrorKind::Alias, "*a"));
    // Nine levels of ten aliases each: refused at the first, expanded never.
    let mut text = String::from("id: x\nlist: &l0 [a]\n");
    for level in 1..10 {
        text += &format!("note{level}: &l{level} [{}]\n", vec![format!("*l{}", level - 1); 10].join(", "));
    }
    assert!(matches!(refused::<Record>(&text).0, ErrorKind::UnknownKey { .. }));
}

#[test]
fn a_record_knows_its_file_and_places() {
    let text = "expansion: abbey\nitems:\n  1B:\n    - { id: a-b, when: abbey, text: 'Hi {C1: x}', optional: true }\n";
    let file: RawExpansionFile = read(text).unwrap();
    let at = |s: &Spanned<String>| (s.span.file, &text[s.span.start..][..s.span.len]);
    assert_eq!(at(&file.expansion), (FileId(3), "abbey"));
    let (section, items) = &file.sections[0];
    assert_eq!(at(section), (FileId(3), "1B"));
    assert_eq!(at(&items[0].text), (FileId(3), "'Hi {C1: x}'"));
    assert_eq!(items[0].text.verbatim_start, Some(items[0].text.span.start + 1));
    let optional = items[0].optional.as_ref().unwrap();
    assert_eq!((optional.value, &text[optional.span.start..][..optional.span.len]), (true, "true"));
}

#[test]
fn a_second_document_stops_reading() {
    let parse = parse_strict("id: x\n---\nid: y\n");
    let error = parse.error.expect("refused");
    assert_eq!((error.kind, error.at), (crate::syntax::tree::ParseErrorKind::SecondDocument, 10));
    assert_eq!(parse_strict("---\nid: x\n...\n").error, None);
}
