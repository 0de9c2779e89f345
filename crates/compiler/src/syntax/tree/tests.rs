#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::syntax::{DslKind, MODULES_FILE, dsl_strings};

fn keys(map: &Node) -> Vec<&str> {
    match &map.value {
        Value::Map(m) => m.entries.iter().map(|(k, _)| k.as_str().unwrap()).collect(),
        _ => panic!("not a mapping: {map:?}"),
    }
}

#[test]
fn block_and_flow_style_keep_every_pair_in_order_with_spans() {
    let text = "b: 1\na: { y: \"q\", x: [1, 'two'] }\n# a comment\nc:\n  - d\n";
    let parse = parse(text);
    assert_eq!(parse.error, None);
    let root = &parse.tree;
    assert_eq!(keys(root), ["b", "a", "c"]);
    let a = root.get("a").unwrap();
    assert_eq!(&text[a.span.clone()], "{ y: \"q\", x: [1, 'two'] }");
    assert_eq!(keys(a), ["y", "x"]);
    let y = a.get("y").unwrap();
    assert_eq!(&text[y.span.clone()], "\"q\"");
    let Value::Scalar(s) = &y.value else { panic!() };
    assert_eq!((s.plain, s.verbatim), (false, Some(y.span.start + 1)));
    let Value::Seq(x) = &a.get("x").unwrap().value else { panic!() };
    assert!(x.flow && !x.unclosed);
    assert_eq!(x.entries[1].as_str(), Some("two"));
    let Value::Seq(c) = &root.get("c").unwrap().value else { panic!() };
    assert!(!c.flow);
    assert_eq!(&text[c.entries[0].span.clone()], "d");
}

#[test]
fn escapes_and_folding_leave_no_verbatim_place() {
    let parse = parse("a: \"ab\\u0062ey\"\nb: 'it''s'\nc: one\n  two\n");
    for key in ["a", "b", "c"] {
        let Value::Scalar(s) = &parse.tree.get(key).unwrap().value else { panic!() };
        assert_eq!(s.verbatim, None, "{key}: {s:?}");
    }
    assert_eq!(parse.tree.get("a").unwrap().as_str(), Some("abbey"));
}

#[test]
fn crlf_lines_have_the_same_tree_as_lf_lines() {
    let lf = "items:\n  1B:\n    - id: a\n      when: abbey\n";
    let crlf = lf.replace('\n', "\r\n");
    let (a, b) = (parse(lf), parse(&crlf));
    assert_eq!(b.error, None);
    let when = |p: &Parse| p.tree.get("items").unwrap().get("1B").cloned().unwrap();
    let Value::Seq(sa) = when(&a).value else { panic!() };
    let Value::Seq(sb) = when(&b).value else { panic!() };
    assert_eq!(sa.entries[0].get("when").unwrap().as_str(), sb.entries[0].get("when").unwrap().as_str());
    let span = sb.entries[0].get("when").unwrap().span.clone();
    assert_eq!(&crlf[span], "abbey");
    // The query reads the same place on both.
    let at = crlf.find("abbey").unwrap() + 2;
    assert_eq!(b.tree.at(&crlf, at).keys(), ["when", "1B", "items"]);
}

#[test]
fn broken_input_keeps_what_came_before_its_error_with_every_container_closed() {
    let text = "a:\n  when: x\n  text: y\nb: [1, 2\n";
    let parse = parse(text);
    let ParseError { at, kind: ParseErrorKind::Syntax(message) } =
        parse.error.clone().expect("an unclosed flow sequence is an error")
    else {
        panic!("not a syntax error")
    };
    assert!(at >= text.find('[').unwrap() && at <= text.len() && message.contains('['), "{at}: {message}");
    assert_eq!(keys(&parse.tree), ["a", "b"]);
    assert_eq!(parse.tree.get("a").unwrap().get("text").unwrap().as_str(), Some("y"));
    let Value::Seq(b) = &parse.tree.get("b").unwrap().value else { panic!() };
    assert!(b.unclosed && b.flow);
    assert_eq!(b.entries.len(), 2);
    // A key whose value never came has an empty one.
    let parse = super::parse("a:\n  id: x\n  after:");
    assert_eq!(parse.tree.get("a").unwrap().get("after").unwrap().as_str(), Some(""));
    // Garbage at the start: an empty tree and the error.
    let parse = super::parse("]\n");
    assert!(parse.error.is_some());
    assert_eq!(keys(&parse.tree), Vec::<&str>::new());
}

#[test]
fn depth_and_size_are_bounded_by_the_readers_budget() {
    let deep = "[".repeat(100_000);
    let parse = parse(&deep);
    assert!(parse.error.is_some());
    let mut depth = 0;
    let mut node = &parse.tree;
    while let Value::Seq(seq) = &node.value {
        depth += 1;
        let Some(next) = seq.entries.first() else { break };
        node = next;
    }
    assert!(depth <= MAX_DEPTH, "{depth}");
    // Querying and walking a deep tree is a loop, not a recursion.
    assert!(parse.tree.at(&deep, deep.len()).path.len() <= depth);
    assert!(parse.tree.scalars().is_empty());
}

#[test]
fn dsl_strings_come_from_the_one_table_with_their_owner() {
    let text = "items:\n  1B:\n    - id: a-b\n      when: \"abbey or mayor\"\n      text: 'Hi {C1: x | C2: y}'\n      markers: [\"ROBBERS when robbers\", WONDER]\n    - { text: T, when: dragon, id: c }\n";
    let parse = parse(text);
    let found = dsl_strings("expansions/x.yaml", &parse.tree);
    let kinds: Vec<(DslKind, &str, Option<&str>)> = found.iter().map(|s| (s.kind, s.value, s.owner)).collect();
    assert_eq!(
        kinds,
        [
            (DslKind::Condition, "abbey or mayor", Some("a-b")),
            (DslKind::Text, "Hi {C1: x | C2: y}", Some("a-b")),
            (DslKind::Marker, "ROBBERS when robbers", None),
            (DslKind::Marker, "WONDER", None),
            (DslKind::Text, "T", Some("c")),
            (DslKind::Condition, "dragon", Some("c")),
        ]
    );
    let when = &found[0];
    assert_eq!(when.verbatim.map(|at| &text[at..at + 5]), Some("abbey"));
    assert!(!when.plain && !found[1].plain && found[4].plain);
    assert_eq!(&text[when.node.span.clone()], "\"abbey or mayor\"");
    let text = "double_turn: { from: 1B, to: 4A, when: builder }\nphases:\n  - id: \"1\"\n    steps:\n      - { id: 3B, repeat: per_feature, may_pass: true }\n";
    let parse = super::parse(text);
    let found: Vec<(DslKind, &str)> =
        dsl_strings("base.yaml", &parse.tree).into_iter().map(|s| (s.kind, s.value)).collect();
    assert_eq!(found, [(DslKind::Condition, "builder"), (DslKind::Repeat, "per_feature")]);
    let derived = super::parse("derived:\n  flag_a: abbey or mayor\n");
    let kinds: Vec<DslKind> = dsl_strings(MODULES_FILE, &derived.tree).iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [DslKind::FlagName, DslKind::Condition]);
}

/// What completion needs at the cursor `|` of a half-typed file: the keys
/// around it (innermost first), the `id:` of the item around it, and whether
/// it is where a key is written.
fn answer(marked: &str) -> (Vec<String>, Option<String>, bool, (Option<String>, String)) {
    let (head, tail) = marked.split_once('|').unwrap();
    let text = format!("{head}{tail}");
    let parse = parse(&text);
    let at = parse.tree.at(&text, head.len());
    let keys = at.keys().into_iter().map(str::to_string).collect();
    let (under, slot) = at.slot();
    (keys, at.id().map(str::to_string), at.at_key, (under.map(str::to_string), format!("{slot:?}")))
}

/// The keys around a cursor, the item's id, and whether it is at a key.
type Expected = (Vec<&'static str>, Option<String>, bool);

#[test]
fn a_half_typed_file_answers_at_twenty_cursors() {
    const P: &str = "expansion: abbey_and_mayor\nitems:\n  1B:\n    - id: mayor-take-figure\n";
    const MFT: &str = "mayor-take-figure";
    let in_value = |key: &'static str, id: &str| (vec![key, "1B", "items"], Some(id.to_string()), false);
    let at_key = |id: Option<&str>| (vec!["1B", "items"], id.map(str::to_string), true);
    let cases: Vec<(String, Expected)> = vec![
        (format!("{P}      when: |"), in_value("when", MFT)),
        (format!("{P}      when: abbey or |"), in_value("when", MFT)),
        (format!("{P}      when: \"abbey or |"), in_value("when", MFT)),
        (format!("{P}      when: (abbey or |\n      text: x\n"), in_value("when", MFT)),
        (format!("{P}      after: |"), in_value("after", MFT)),
        (format!("{P}      after: |\n    - id: next\n      text: x\n"), in_value("after", MFT)),
        (format!("{P}      aft|"), at_key(Some(MFT))),
        (format!("{P}      |"), at_key(Some(MFT))),
        (format!("{P}      # a comment|\n      text: x\n"), at_key(Some(MFT))),
        (format!("{P}      text: \"Take {{C1: a| | C2: b}}\""), in_value("text", MFT)),
        (format!("{P}      markers: [ROBBERS when robbers, |"), in_value("markers", MFT)),
        (format!("{P}      markers: [ROBBERS when |"), in_value("markers", MFT)),
        (format!("{P}      markers: [\"TREE_TRAP when x\", \"|"), in_value("markers", MFT)),
        (format!("{P}      markers:\n        - TREE_TRAP when |"), in_value("markers", MFT)),
        (format!("{P}      markers:\n        - |"), in_value("markers", MFT)),
        (format!("{P}    - {{ id: flow-item, when: |"), in_value("when", "flow-item")),
        (format!("{P}    - {{ id: flow-item, |"), at_key(Some("flow-item"))),
        (format!("{P}    - id: brand-new\n      under: |"), in_value("under", "brand-new")),
        (format!("{P}  |"), (vec!["items"], None, true)),
        (format!("{P}  2|"), (vec!["items"], None, true)),
        ("expansion: abbey_|and_mayor\n".to_string(), (vec!["expansion"], None, false)),
        (format!("{P}      after: |").replace('\n', "\r\n"), in_value("after", MFT)),
    ];
    assert!(cases.len() >= 20);
    for (marked, want) in &cases {
        let (keys, id, key, _) = answer(marked);
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        assert_eq!(&(keys, id, key), want, "at | of {marked:?}");
    }
    // Every place in a marker list is an entry under `markers:`.
    for marked in &cases[10..15] {
        assert_eq!(answer(&marked.0).3, (Some("markers".to_string()), "Entry".to_string()), "{marked:?}");
    }
    assert_eq!(answer(&cases[7].0).3, (Some("1B".to_string()), "Key".to_string()));
    assert_eq!(answer(&cases[0].0).3, (Some("1B".to_string()), "Value(\"when\")".to_string()));
}

#[test]
fn what_follows_a_broken_line_is_read_too_with_the_files_own_spans() {
    // A stray line in the middle: the keys below it are still there.
    let text = "a:\n  when: x\n- id: stray\nb:\n  after: y\n";
    let parse = super::parse(text);
    let at = parse.error.clone().expect("a sequence entry inside a mapping is an error").at;
    assert!(at >= text.find("- id").unwrap(), "the first error is kept: {at}");
    assert_eq!(keys(&parse.tree), ["a", "b"]);
    let after = parse.tree.get("b").unwrap().get("after").unwrap();
    assert_eq!(after.as_str(), Some("y"));
    assert_eq!(&text[after.span.clone()], "y");
    // A `{` left open closes on its own line: the keys after it stay its
    // mapping's siblings, at their places in the file.
    let text = "a:\n  text: {C1: one\n  when: x\nb:\n  after: [p, q\n  id: z\n";
    let parse = super::parse(text);
    assert!(parse.error.is_some());
    let a = parse.tree.get("a").unwrap();
    assert_eq!(keys(a), ["text", "when"]);
    let Value::Map(variants) = &a.get("text").unwrap().value else { panic!("{:?}", a.get("text")) };
    assert!(variants.flow && variants.unclosed);
    let when = a.get("when").unwrap();
    assert_eq!((when.as_str(), &text[when.span.clone()]), (Some("x"), "x"));
    let b = parse.tree.get("b").unwrap();
    assert_eq!(keys(b), ["after", "id"]);
    let id = b.get("id").unwrap();
    assert_eq!(&text[id.span.clone()], "z");
    let Value::Seq(after) = &b.get("after").unwrap().value else { panic!() };
    assert_eq!(after.entries.iter().map(|e| &text[e.span.clone()]).collect::<Vec<_>>(), ["p", "q"]);
    // Mending is bounded: a file broken on every line is read a fixed number of times.
    let text = "- [\n".repeat(10_000);
    let parse = super::parse(&text);
    assert!(parse.error.is_some());
}
