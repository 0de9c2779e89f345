//! Property tests over the entry points the fuzz targets cover (`fuzz/`): the
//! condition, text and marker parsers, and the loader and checker on one YAML
//! file. Inputs are strings made of the DSL's own tokens and any characters,
//! and the bundled rules' strings and files with characters inserted, deleted
//! or replaced. The invariants are the fuzz targets' own
//! (`fuzz/src/invariants.rs`): no panic, every error located inside the input,
//! the same result twice.
//!
//! Each property runs a fixed number of cases (`PROPTEST_CASES` overrides it).
//! A failure is saved to `properties.proptest-regressions` beside this file,
//! which is committed: every later run replays it first (and CI, which fixes
//! the seed with `PROPTEST_RNG_SEED` in `.ci/run`, cannot fail by chance).
//! Long random runs are the fuzz targets' (`fuzz/`). Turn a saved failure
//! into a case of `tests/corpus.rs` or a unit test beside the fix too.
//!
//! `write_fuzz_seeds` (ignored) writes the fuzz targets' seed corpus from the
//! bundled rules:
//! `cargo test -p carcassonne-rules-compiler --test properties -- --ignored write_fuzz_seeds`.

// Test helpers, not library code: a broken bundled rules folder should stop the test.
#![allow(clippy::expect_used)]

#[path = "../../../fuzz/src/invariants.rs"]
mod invariants;

use std::path::Path;
use std::sync::OnceLock;

use carcassonne_rules_compiler::Sources;
use carcassonne_rules_compiler::syntax::{self, RawItem};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, FileFailurePersistence};

/// The rules bundled with the project.
const BUNDLED: &str = "../../rules";

/// Cases per property for the parsers, and for the loader and checker (each
/// of whose cases compiles the whole bundled rules twice).
const PARSER_CASES: u32 = 256;
const RULES_CASES: u32 = 16;

fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    let saved = FileFailurePersistence::WithSource("proptest-regressions");
    Config { cases, failure_persistence: Some(Box::new(saved)), ..Config::default() }
}

/// The bundled rules' DSL strings and files: the valid inputs to mutate, and
/// the fuzz targets' seeds.
struct Valid {
    conditions: Vec<String>,
    texts: Vec<String>,
    markers: Vec<String>,
    /// Each rules file (path relative to the rules folder) with its bytes.
    files: Vec<(String, Vec<u8>)>,
}

fn valid() -> &'static Valid {
    static VALID: OnceLock<Valid> = OnceLock::new();
    VALID.get_or_init(|| {
        let mut sources = Sources::default();
        let mut problems = Vec::new();
        let raw = syntax::load_dir(Path::new(BUNDLED), &mut sources, &mut problems);
        assert!(problems.is_empty(), "the bundled rules do not load: {problems:?}");
        let mut valid = Valid { conditions: Vec::new(), texts: Vec::new(), markers: Vec::new(), files: Vec::new() };
        valid.conditions.extend(raw.derived.iter().map(|(_, definition)| definition.value.clone()));
        let steps = raw.phases.iter().flat_map(|p| &p.steps);
        valid.conditions.extend(steps.filter_map(|s| s.when.as_ref()).map(|w| w.value.clone()));
        let sections = raw.base_sections.iter().chain(raw.expansion_files.iter().flat_map(|f| &f.sections));
        for (_, items) in sections {
            collect(items, &mut valid);
        }
        for list in [&mut valid.conditions, &mut valid.texts, &mut valid.markers] {
            list.sort();
            list.dedup();
        }
        for name in &raw.inputs {
            let bytes = std::fs::read(Path::new(BUNDLED).join(name)).expect("read a rules file");
            valid.files.push((name.clone(), bytes));
        }
        valid
    })
}

fn collect(items: &[RawItem], valid: &mut Valid) {
    for item in items {
        valid.conditions.extend(item.when.iter().map(|w| w.value.clone()));
        valid.texts.push(item.text.value.clone());
        valid.markers.extend(item.markers.iter().map(|m| m.value.clone()));
        collect(&item.children, valid);
    }
}

/// Pieces of the DSL, and characters it has no use for.
const TOKENS: &[&str] = &[
    "and",
    "or",
    "not",
    "when",
    "edition",
    "variant",
    "true",
    "false",
    "==",
    "!=",
    "=",
    "(",
    ")",
    "{",
    "}",
    "|",
    ":",
    ",",
    "\"",
    " ",
    " ",
    "\t",
    "\n",
    "C1",
    "C2",
    "WE",
    "hig",
    "rgg",
    "abbey",
    "dragon",
    "ROBBERS",
    "TREE_TRAP",
    "\"#1B\"",
    "2B-1",
    "-",
    "_",
    "é",
    "\u{0}",
    "\u{feff}",
    "🐉",
];

/// Strings of DSL tokens and arbitrary characters.
fn soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(TOKENS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..32).prop_map(|pieces| pieces.concat())
}

/// One change to a string, at a place chosen by `Index`.
#[derive(Debug, Clone)]
enum Edit {
    Insert(Index, String),
    Delete(Index, usize),
    Replace(Index, String),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let piece = || {
        prop_oneof![
            3 => prop::sample::select(TOKENS).prop_map(str::to_string),
            1 => any::<char>().prop_map(String::from),
        ]
    };
    let edit = prop_oneof![
        any::<Index>().prop_flat_map(move |at| piece().prop_map(move |p| Edit::Insert(at, p))),
        (any::<Index>(), 1..4usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        any::<Index>().prop_flat_map(move |at| piece().prop_map(move |p| Edit::Replace(at, p))),
    ];
    prop::collection::vec(edit, 1..4)
}

/// `valid` with `edits` applied, character by character.
fn mutate(valid: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<String> = valid.chars().map(String::from).collect();
    for edit in edits {
        match edit {
            Edit::Insert(at, piece) => chars.insert(at.index(chars.len() + 1), piece.clone()),
            Edit::Delete(at, n) if !chars.is_empty() => {
                let start = at.index(chars.len());
                chars.drain(start..(start + n).min(chars.len()));
            }
            Edit::Replace(at, piece) if !chars.is_empty() => {
                let at = at.index(chars.len());
                chars[at] = piece.clone();
            }
            Edit::Delete(..) | Edit::Replace(..) => {}
        }
    }
    chars.concat()
}

/// One change to a file's bytes: the file may stop being UTF-8.
#[derive(Debug, Clone)]
enum ByteEdit {
    Insert(Index, Vec<u8>),
    Delete(Index, usize),
    Replace(Index, u8),
}

fn byte_edits() -> impl Strategy<Value = Vec<ByteEdit>> {
    let piece = prop_oneof![
        3 => prop::sample::select(TOKENS).prop_map(|t| t.as_bytes().to_vec()),
        1 => prop::sample::select(&[": ", "- ", "\n  ", "#", "'", "[", "]", "&a ", "*a", "!!str ", "\r\n"][..])
            .prop_map(|t| t.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    let edit = prop_oneof![
        (any::<Index>(), piece).prop_map(|(at, p)| ByteEdit::Insert(at, p)),
        (any::<Index>(), 1..16usize).prop_map(|(at, n)| ByteEdit::Delete(at, n)),
        (any::<Index>(), any::<u8>()).prop_map(|(at, b)| ByteEdit::Replace(at, b)),
    ];
    prop::collection::vec(edit, 1..4)
}

/// One of the bundled rules files, picked by `at`, with `edits` made to it.
fn mutated_bundled_file(at: Index, edits: &[ByteEdit]) -> Vec<u8> {
    let files = &valid().files;
    let (_, valid) = &files[at.index(files.len())];
    let mut bytes = valid.clone();
    for edit in edits {
        match edit {
            ByteEdit::Insert(at, piece) => {
                let at = at.index(bytes.len() + 1);
                bytes.splice(at..at, piece.iter().copied());
            }
            ByteEdit::Delete(at, n) if !bytes.is_empty() => {
                let start = at.index(bytes.len());
                bytes.drain(start..(start + n).min(bytes.len()));
            }
            ByteEdit::Replace(at, b) if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes[at] = *b;
            }
            ByteEdit::Delete(..) | ByteEdit::Replace(..) => {}
        }
    }
    bytes
}

fn pick(list: &[String], at: Index) -> &str {
    &list[at.index(list.len())]
}

proptest! {
    #![proptest_config(config(PARSER_CASES))]

    #[test]
    fn conditions_of_tokens_and_characters(input in soup()) {
        invariants::condition(&input);
    }

    #[test]
    fn mutated_bundled_conditions(at in any::<Index>(), edits in edits()) {
        invariants::condition(&mutate(pick(&valid().conditions, at), &edits));
    }

    #[test]
    fn texts_of_tokens_and_characters(input in soup()) {
        invariants::text(&input);
    }

    #[test]
    fn mutated_bundled_texts(at in any::<Index>(), edits in edits()) {
        invariants::text(&mutate(pick(&valid().texts, at), &edits));
    }

    #[test]
    fn markers_of_tokens_and_characters(input in soup()) {
        invariants::marker(&input);
    }

    #[test]
    fn mutated_bundled_markers(at in any::<Index>(), edits in edits()) {
        invariants::marker(&mutate(pick(&valid().markers, at), &edits));
    }

    #[test]
    fn random_conditions_over_many_modules_are_decided_within_the_bounds(
        input in proptest::collection::vec(any::<u8>(), 0..512)
    ) {
        let started = std::time::Instant::now();
        invariants::logic(&input);
        // The budget's worst case takes about 5 s in a debug build.
        prop_assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }
}

fn bed() -> invariants::RulesBed {
    invariants::RulesBed::new(Path::new(BUNDLED)).expect("copy the bundled rules")
}

/// YAML's own pieces, for rules files made from scratch.
const YAML: &[&str] = &[
    "expansion: abbey_and_mayor\n",
    "items:\n",
    "  1B:\n",
    "    - id: x\n",
    "      when: ",
    "      text: ",
    "      markers: [",
    "]",
    "      after: ",
    "phases:\n",
    "derived:\n",
    "editions:\n",
    ": ",
    "- ",
    "\n",
    "  ",
    "\"",
    "'",
    "{",
    "}",
    "[",
    "&a ",
    "*a",
    "#",
    "\t",
    "\r\n",
];

/// Rules files of YAML pieces, DSL tokens and any characters.
fn yaml_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        2 => prop::sample::select(YAML).prop_map(str::to_string),
        2 => prop::sample::select(TOKENS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..64).prop_map(|pieces| pieces.concat())
}

thread_local!(static BED: invariants::RulesBed = bed());

proptest! {
    #![proptest_config(config(RULES_CASES))]

    #[test]
    fn rules_files_of_yaml_tokens_and_characters(input in yaml_soup()) {
        BED.with(|bed| bed.check(input.as_bytes()));
    }

    #[test]
    fn mutated_bundled_rules_files(at in any::<Index>(), edits in byte_edits()) {
        BED.with(|bed| bed.check(&mutated_bundled_file(at, &edits)));
    }
}

/// Reading a tree is cheap beside compiling rules: many more cases.
const TREE_CASES: u32 = 512;

proptest! {
    #![proptest_config(config(TREE_CASES))]

    #[test]
    fn the_tree_of_any_text_has_its_spans_in_the_text(input in yaml_soup()) {
        tree_spans_hold(&input);
    }

    #[test]
    fn the_tree_of_a_mutated_rules_file_has_its_spans_in_the_text(at in any::<Index>(), edits in byte_edits()) {
        tree_spans_hold(&String::from_utf8_lossy(&mutated_bundled_file(at, &edits)));
    }
}

/// The syntax tree of `text` (mended past its errors) has every span, and
/// every verbatim place, on character boundaries of `text` itself, each
/// node inside its container, and its error inside `text`.
fn tree_spans_hold(text: &str) {
    use carcassonne_rules_compiler::syntax::tree::{self, Node, Value};
    let parse = tree::parse(text);
    if let Some(tree::ParseError { at, .. }) = &parse.error {
        assert!(*at <= text.len() && text.is_char_boundary(*at), "error at {at}");
    }
    let mut todo: Vec<(&Node, std::ops::Range<usize>)> = vec![(&parse.tree, 0..text.len())];
    while let Some((node, within)) = todo.pop() {
        let span = node.span.clone();
        assert!(span.start <= span.end && span.end <= text.len(), "{span:?} past {}", text.len());
        assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end), "{span:?}");
        assert!(within.start <= span.start && span.end <= within.end, "{span:?} outside {within:?}");
        match &node.value {
            Value::Scalar(scalar) => {
                if let Some(at) = scalar.verbatim {
                    assert_eq!(text.get(at..at + scalar.value.len()), Some(scalar.value.as_str()), "{span:?}");
                }
            }
            Value::Map(map) => {
                todo.extend(map.entries.iter().flat_map(|(k, v)| [(k, span.clone()), (v, span.clone())]))
            }
            Value::Seq(seq) => todo.extend(seq.entries.iter().map(|n| (n, span.clone()))),
        }
    }
}

/// Each kind of bundled rules file, unchanged, goes back where it came from
/// and checks: the mutations above start from rules that check.
#[test]
fn bundled_rules_files_check_in_place() {
    let bed = bed();
    let kinds = ["editions.yaml", "modules.yaml", "base.yaml", "expansions/the-messages.yaml"];
    for (name, bytes) in valid().files.iter().filter(|(name, _)| kinds.contains(&name.as_str())) {
        assert_eq!(bed.target_for(bytes), Path::new(name), "{name} is written elsewhere");
        assert!(bed.check(bytes), "the bundled {name} does not check");
    }
}

/// Writes the fuzz targets' seed corpus (`fuzz/corpus/<target>/`): every
/// distinct condition, marker and rules file of the bundled rules, and the
/// texts that have edition variants or open a section. File names are a
/// hash of the content, so running it again adds only what is new.
#[test]
#[ignore = "writes fuzz/corpus; run by hand after changing the rules"]
fn write_fuzz_seeds() {
    let valid = valid();
    let corpus = Path::new("../../fuzz/corpus");
    let write = |target: &str, content: &[u8]| {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir).expect("create the corpus folder");
        std::fs::write(dir.join(format!("{:016x}", fnv1a(content))), content).expect("write a seed");
    };
    for c in &valid.conditions {
        write("condition", c.as_bytes());
    }
    for m in &valid.markers {
        write("marker", m.as_bytes());
    }
    // Texts without variants are alike to a parser: keep one in eight.
    for (i, t) in valid.texts.iter().enumerate() {
        if t.contains('{') || i % 8 == 0 {
            write("text", t.as_bytes());
        }
    }
    for (_, bytes) in &valid.files {
        write("rules", bytes);
    }
}

/// FNV-1a, 64 bits: a stable name for a seed.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A control character before a mistake: the diagnostic's labels point into
/// the display copy (where the character is written `\u{85}`), and must be
/// whole characters of it, not of the file (found by the soup above).
#[test]
fn labels_after_a_shown_control_character_are_ranges_of_the_shown_source() {
    BED.with(|bed| {
        bed.check("expansion: abbey_and_mayor\nitems:\n  1B:\n    - id: x\u{85}é\n      when: abey\n".as_bytes());
        bed.check("\u{85}\u{1b}[2J: [\n".as_bytes());
        bed.check("expansion: \"\u{85}abbey\u{0}\"\n".as_bytes());
    });
}

/// The records `check` reads are read from the tree (`syntax::de`); before,
/// serde-saphyr read them from the text. On any text that parses, the two
/// readers agree on every value and every mistake (its words and its place),
/// but where the tree's reader means to differ: it refuses an alias (which
/// serde-saphyr expands), a tag is not looked at, and it says in its own
/// words that a text has no value. The records here mirror `syntax`'s, with
/// plain values in place of `Spanned` ones (which only the tree's reader
/// places).
mod mirror {
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct EditionsFile {
        editions: Vec<Edition>,
        #[serde(default)]
        variants: Vec<Named>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Edition {
        id: String,
        name: String,
        variant: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Named {
        id: String,
        name: String,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ModulesFile {
        expansions: Vec<Expansion>,
        #[serde(default, deserialize_with = "entries")]
        derived: Vec<(String, String)>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Expansion {
        id: String,
        name: String,
        editions: Vec<String>,
        modules: Vec<Module>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Module {
        id: String,
        name: String,
        #[serde(default)]
        wiki: Option<bool>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct BaseFile {
        phases: Vec<Phase>,
        double_turn: Option<DoubleTurn>,
        #[serde(default, deserialize_with = "entries")]
        items: Vec<(String, Vec<Item>)>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Phase {
        id: String,
        title: String,
        steps: Vec<Step>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Step {
        id: String,
        title: String,
        when: Option<String>,
        repeat: Option<String>,
        #[serde(default)]
        choose_one: bool,
        may_pass: Option<bool>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct DoubleTurn {
        from: String,
        to: String,
        when: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct ExpansionFile {
        expansion: String,
        #[serde(default, deserialize_with = "entries")]
        items: Vec<(String, Vec<Item>)>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Item {
        id: String,
        text: String,
        when: Option<String>,
        #[serde(default)]
        markers: Vec<String>,
        #[serde(default)]
        foreign: Vec<String>,
        after: Option<String>,
        before: Option<String>,
        under: Option<String>,
        effect: Option<String>,
        role: Option<String>,
        optional: Option<bool>,
        choose_one: Option<bool>,
        once: Option<bool>,
        one_of: Option<String>,
        #[serde(default)]
        children: Vec<Item>,
    }

    fn entries<'de, D: serde::Deserializer<'de>, V: Deserialize<'de>>(
        deserializer: D,
    ) -> Result<Vec<(String, V)>, D::Error> {
        Ok(indexmap::IndexMap::<String, V>::deserialize(deserializer)?.into_iter().collect())
    }
}

/// How a reader took a text: the value, or the mistake's words and offset.
fn outcome<T: std::fmt::Debug, E: std::fmt::Display>(read: Result<T, E>, at: Option<usize>) -> String {
    match read {
        Ok(value) => format!("{value:?}"),
        Err(err) => format!("{err} at {at:?}"),
    }
}

/// Both readers' outcomes on `text`, read as a `T`, if the tree's reader
/// is meant to agree with serde-saphyr's there.
fn both_readers<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> Option<(String, String)> {
    use carcassonne_rules_compiler::diagnostics::FileId;
    use carcassonne_rules_compiler::syntax::{de, tree};
    // Meant to differ: aliases and tags, and a text that parses only in part
    // (the tree's reader reports the parser's stop, not what serde-saphyr
    // happened to read before it).
    let parse = tree::parse_strict(text);
    let alias = parse.tree.scalars().iter().any(|v| matches!(&v.node.value, tree::Value::Scalar(s) if s.alias));
    // A tag is a `!` where a node starts (taken broadly: after a space, a
    // bracket or a comma), not the DSL's `!=`.
    let tag = text.match_indices('!').any(|(at, _)| {
        let starts = at == 0 || text[..at].ends_with([' ', '\n', '[', '{', ',']);
        starts && !text[at + 1..].starts_with('=')
    });
    if parse.error.is_some() || alias || tag || parse.tree.span.is_empty() {
        return None;
    }
    let ours = de::from_tree::<T>(&parse.tree, FileId(0));
    if matches!(&ours, Err(e) if e.kind == de::ErrorKind::Null) {
        // Its words are its own; serde-saphyr's name a Rust type.
        let theirs = serde_saphyr::from_str::<T>(text).expect_err("serde-saphyr refuses it too");
        assert!(theirs.to_string().contains("null"), "{theirs}");
        return None;
    }
    let at = ours.as_ref().err().and_then(|e| e.at.as_ref()).map(|at| at.start);
    let ours = outcome(ours, at);
    let theirs = serde_saphyr::from_str::<T>(text);
    let at =
        theirs.as_ref().err().and_then(|e| e.location()).and_then(|l| l.span().byte_offset()).map(|at| at as usize);
    let words = |e: serde_saphyr::Error| {
        use serde_saphyr::{DefaultMessageFormatter, MessageFormatter};
        DefaultMessageFormatter.format_message(e.without_snippet()).into_owned()
    };
    let theirs = outcome(theirs.map_err(words), at);
    // serde-saphyr's advice names its own options.
    let theirs = theirs.replace(", set DuplicateKeyPolicy in Options if acceptable", "");
    Some((ours, theirs))
}

/// Whether the two readers agree on `text` read as every kind of rules file.
fn readers_agree(text: &str) {
    let pairs = [
        both_readers::<mirror::EditionsFile>(text),
        both_readers::<mirror::ModulesFile>(text),
        both_readers::<mirror::BaseFile>(text),
        both_readers::<mirror::ExpansionFile>(text),
    ];
    for (ours, theirs) in pairs.into_iter().flatten() {
        assert_eq!(ours, theirs, "on {text:?}");
    }
}

proptest! {
    #![proptest_config(config(TREE_CASES))]

    #[test]
    fn the_trees_reader_reads_any_text_as_serde_saphyr_did(input in yaml_soup()) {
        readers_agree(&input);
    }

    #[test]
    fn the_trees_reader_reads_a_mutated_rules_file_as_serde_saphyr_did(at in any::<Index>(), edits in byte_edits()) {
        readers_agree(&String::from_utf8_lossy(&mutated_bundled_file(at, &edits)));
    }
}

#[test]
fn the_trees_reader_reads_the_bundled_rules_as_serde_saphyr_did() {
    for (name, bytes) in &valid().files {
        let text = std::str::from_utf8(bytes).expect("UTF-8");
        readers_agree(text);
        assert!(both_readers::<mirror::ExpansionFile>(text).is_some(), "{name} is compared");
    }
}
