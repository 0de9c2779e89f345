//! The DSL inside YAML strings (grammar in `grammar/dsl.pest`): conditions,
//! text with edition variants, markers, step repetition, effects and item
//! references. Parsing yields syntax trees whose names carry their byte range
//! inside the string, so `check` can point at the exact column.

use pest::Parser;
use pest::iterators::Pair;

use parser::{DslParser, Rule};

/// The pest parser. Its derive generates a `pub enum Rule` (one variant per
/// grammar rule) that cannot carry doc comments; keeping it in this private
/// module keeps it out of the crate's API, and so out of `missing_docs`.
mod parser {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/dsl.pest"]
    pub(super) struct DslParser;
}

/// A byte range inside the parsed string.
pub type Range = (usize, usize);

/// A name as written, with its place in the string.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// The name exactly as written.
    pub text: String,
    /// Where it stands in the string, for pointing diagnostics at it.
    pub at: Range,
}

/// A parsed `when:` condition, its names not yet bound.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// `true` or `false`.
    Bool(bool),
    /// A module, expansion or derived flag, by name.
    Name(Name),
    /// `edition == C1` (`equal`) or `edition != C1`.
    Edition {
        /// `==` rather than `!=`.
        equal: bool,
        /// The edition compared against.
        edition: Name,
    },
    /// `variant == rgg` (`equal`) or `variant != rgg`.
    Variant {
        /// `==` rather than `!=`.
        equal: bool,
        /// The rule variant compared against.
        variant: Name,
    },
    /// `not …`.
    Not(Box<Condition>),
    /// `… and …`, with at least two parts.
    And(Vec<Condition>),
    /// `… or …`, with at least two parts.
    Or(Vec<Condition>),
}

impl Condition {
    /// Every name the condition mentions, in written order.
    pub fn names(&self) -> Vec<&Name> {
        let mut out = Vec::new();
        self.collect_names(&mut out);
        out
    }

    fn collect_names<'a>(&'a self, out: &mut Vec<&'a Name>) {
        match self {
            Condition::Name(n) => out.push(n),
            Condition::Bool(_) | Condition::Edition { .. } | Condition::Variant { .. } => {}
            Condition::Not(c) => c.collect_names(out),
            Condition::And(cs) | Condition::Or(cs) => cs.iter().for_each(|c| c.collect_names(out)),
        }
    }
}

/// A piece of an item's text: the same for every edition, or worded per edition.
#[derive(Debug, Clone, PartialEq)]
pub enum TextPart {
    /// Text outside `{…}`, shown as is.
    Literal(String),
    /// `{C1: follower | C2, WE: meeple}`: each alternative with its editions.
    Variants(Vec<(Vec<Name>, String)>),
}

/// A marker as written on an item (`MESSAGES "#1B" when messages and edition
/// == C1`), its names not yet bound; `check` makes it a `model::Marker`.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenMarker {
    /// The marker, in capitals (`TREE_TRAP`).
    pub name: Name,
    /// The quoted argument, without its quotes.
    pub arg: Option<String>,
    /// The condition after `when`; without one the marker always shows.
    pub when: Option<Condition>,
}

/// A step's `repeat:` as written (`double_turn when builder`); `check` makes it
/// a core `Repeat` and its condition.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenRepeat {
    /// `double_turn` or `per_feature`.
    pub kind: Name,
    /// The condition after `when`; the step always repeats without one.
    pub when: Option<Condition>,
}

/// An item's `effect:` as written, its step names not yet bound; `check` makes
/// it a core `Effect`.
#[derive(Debug, Clone, PartialEq)]
pub enum WrittenEffect {
    /// `skip 2B-1, 2B-2`: these steps are skipped for the rest of this part of the turn.
    Skip(Vec<Name>),
    /// `go back to 1B`: the turn continues at that step.
    GoBack(Name),
    /// `double turn`: the builder's block is played once more.
    DoubleTurn,
    /// `next feature`: the completed feature is settled; its round of the
    /// per-feature step ends.
    NextFeature,
    /// `forbid ITEM, …` (`for the turn`): these items are ruled out for the
    /// rest of this part of the turn (or the whole turn).
    Forbid(Vec<Name>, bool),
}

/// Why a string did not parse: a message and where in the string.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    /// What was expected, in the grammar's words.
    pub message: String,
    /// The offending part of the string (never empty).
    pub at: Range,
    /// Where a `)` would close the parenthesis the error is about, if it is
    /// an unclosed one: the end of the condition.
    pub close_at: Option<usize>,
}

impl SyntaxError {
    fn new(message: impl Into<String>, at: Range) -> Self {
        SyntaxError { message: message.into(), at, close_at: None }
    }
}

/// A condition (`dragon and not edition == C1`).
pub fn condition(input: &str) -> Result<Condition, SyntaxError> {
    let mut pairs = parse(Rule::condition_input, input).map_err(|err| match unclosed(input) {
        // pest would say what it expected at the end; the cause is the `(`.
        Some(open) if err.at.0 >= input.trim_end().len() => SyntaxError {
            message: "this `(` is never closed".into(),
            at: (open, open + 1),
            close_at: Some(input.trim_end().len()),
        },
        _ => err,
    })?;
    Ok(build_condition(grammar(pairs.next(), "grammar: condition")))
}

/// The offset of the last `(` of `input` that no `)` closes, if any.
fn unclosed(input: &str) -> Option<usize> {
    let mut open = Vec::new();
    for (at, c) in input.char_indices() {
        match c {
            '(' => open.push(at),
            ')' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.pop()
}

/// An item's text, split into literal runs and `{C1: … | C2, WE: …}` variants.
///
/// The braces are balanced and never nested (`check_braces`), so the text
/// is cut at them here and only each `{…}` goes through the grammar's
/// `alternatives`: the grammar's `literal`, a lookahead per character, cost
/// most of a text's parse.
pub fn text(input: &str) -> Result<Vec<TextPart>, SyntaxError> {
    check_braces(input)?;
    let mut parts = Vec::new();
    let mut rest = 0;
    while let Some(open) = input[rest..].find('{').map(|at| rest + at) {
        let close = input[open..].find('}').map_or(input.len(), |at| open + at + 1);
        if open > rest {
            parts.push(TextPart::Literal(input[rest..open].to_string()));
        }
        parts.push(alternatives(&input[open..close], open)?);
        rest = close;
    }
    if rest < input.len() {
        parts.push(TextPart::Literal(input[rest..].to_string()));
    }
    Ok(parts)
}

/// One `{C1: … | C2, WE: …}` of a text, which starts at byte `offset` of it:
/// places are given in the text.
fn alternatives(braced: &str, offset: usize) -> Result<TextPart, SyntaxError> {
    let shift = |err: SyntaxError| SyntaxError {
        at: (err.at.0 + offset, err.at.1 + offset),
        close_at: err.close_at.map(|at| at + offset),
        ..err
    };
    let pair = grammar(parse(Rule::alternatives, braced).map_err(shift)?.next(), "grammar: alternatives");
    let variants = pair
        .into_inner()
        .map(|variant| {
            let mut inner = variant.into_inner();
            let editions = grammar(inner.next(), "grammar: editions")
                .into_inner()
                .map(|pair| {
                    let Name { text, at } = name(pair);
                    Name { text, at: (at.0 + offset, at.1 + offset) }
                })
                .collect();
            let text = grammar(inner.next(), "grammar: variant text").as_str().trim().to_string();
            (editions, text)
        })
        .collect();
    Ok(TextPart::Variants(variants))
}

/// Unbalanced braces get a clearer message than the grammar's.
fn check_braces(input: &str) -> Result<(), SyntaxError> {
    let mut open: Option<usize> = None;
    for (at, c) in input.char_indices() {
        match (c, open) {
            ('{', Some(_)) => {
                return Err(SyntaxError::new("`{` inside `{…}`: variants do not nest", (at, at + 1)));
            }
            ('{', None) => open = Some(at),
            ('}', None) => return Err(SyntaxError::new("`}` without a `{`", (at, at + 1))),
            ('}', Some(_)) => open = None,
            _ => {}
        }
    }
    match open {
        Some(at) => Err(SyntaxError::new("this `{` is never closed", (at, at + 1))),
        None => Ok(()),
    }
}

/// Rejects parentheses nested deeper than [`MAX_NESTING`] before the parser,
/// which recurses per level, can run out of stack.
fn check_nesting(input: &str) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    for (at, c) in input.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let message = format!("parentheses nest more than {MAX_NESTING} deep");
                    return Err(SyntaxError::new(message, (at, at + 1)));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// A marker with its optional argument and condition.
pub fn marker(input: &str) -> Result<WrittenMarker, SyntaxError> {
    let mut marker = WrittenMarker { name: Name { text: String::new(), at: (0, 0) }, arg: None, when: None };
    for pair in parse(Rule::marker_input, input)? {
        match pair.as_rule() {
            Rule::marker_name => marker.name = name(pair),
            Rule::marker_arg => marker.arg = pair.into_inner().next().map(|p| p.as_str().to_string()),
            Rule::condition => marker.when = Some(build_condition(pair)),
            Rule::when_kw => {}
            _ => {}
        }
    }
    Ok(marker)
}

/// A step's repetition with its optional condition.
pub fn repeat(input: &str) -> Result<WrittenRepeat, SyntaxError> {
    let mut repeat = WrittenRepeat { kind: Name { text: String::new(), at: (0, 0) }, when: None };
    for pair in parse(Rule::repeat_input, input)? {
        match pair.as_rule() {
            Rule::repeat_kind => repeat.kind = name(pair),
            Rule::condition => repeat.when = Some(build_condition(pair)),
            _ => {}
        }
    }
    Ok(repeat)
}

/// An effect: `skip STEP, …`, `go back to STEP`, `double turn`, `next feature`
/// or `forbid ITEM, …` (`for the turn`).
pub fn effect(input: &str) -> Result<WrittenEffect, SyntaxError> {
    let pair = grammar(parse(Rule::effect_input, input)?.next(), "grammar: effect");
    Ok(match pair.as_rule() {
        Rule::skip => WrittenEffect::Skip(pair.into_inner().map(name).collect()),
        Rule::go_back => WrittenEffect::GoBack(name(grammar(pair.into_inner().next(), "grammar: step"))),
        Rule::next_feature => WrittenEffect::NextFeature,
        Rule::forbid => {
            let parts: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
            let turn = parts.iter().any(|p| p.as_rule() == Rule::for_turn);
            WrittenEffect::Forbid(parts.into_iter().filter(|p| p.as_rule() == Rule::item_id).map(name).collect(), turn)
        }
        _ => WrittenEffect::DoubleTurn,
    })
}

/// A step id of `base.yaml` (`1B`, `2B-1`).
pub fn step(input: &str) -> Result<Name, SyntaxError> {
    let pair = grammar(parse(Rule::step_input, input)?.next(), "grammar: step id");
    Ok(name(pair))
}

/// An item reference (`after`, `before`, `under`).
pub fn reference(input: &str) -> Result<Name, SyntaxError> {
    let pair = grammar(parse(Rule::reference_input, input)?.next(), "grammar: item id");
    Ok(name(pair))
}

/// A part that `grammar/dsl.pest` guarantees once the input has parsed: the
/// single pair an `*_input` rule yields, or a child its rule always has (an
/// alternative's edition list and text, a test's operator and value, …).
/// `None` here means this file and the grammar disagree, a bug rather than bad
/// input, so it panics with `what` instead of inventing a syntax error.
#[track_caller]
#[allow(clippy::expect_used)]
fn grammar<T>(part: Option<T>, what: &str) -> T {
    part.expect(what)
}

/// How deep parentheses may nest in a condition. The parser and every walk
/// over a condition recurse once per level; real rules use three.
pub const MAX_NESTING: usize = 32;

fn parse(rule: Rule, input: &str) -> Result<pest::iterators::Pairs<'_, Rule>, SyntaxError> {
    check_nesting(input)?;
    DslParser::parse(rule, input).map_err(|err| {
        let (start, end) = match err.location {
            pest::error::InputLocation::Pos(p) => (p, p),
            pest::error::InputLocation::Span((s, e)) => (s, e),
        };
        SyntaxError::new(describe(&err.variant), whole_characters(input, start, end))
    })
}

/// `start..end` as a range of whole characters of `input`, covering at least
/// the character at `start`; `(len, len + 1)` when `start` is the end of the
/// input (more was expected). A range that ended inside a multi-byte
/// character would make the diagnostic's label cut that character.
fn whole_characters(input: &str, start: usize, end: usize) -> Range {
    let mut start = start.min(input.len());
    while !input.is_char_boundary(start) {
        start -= 1;
    }
    let Some(first) = input[start..].chars().next() else {
        return (input.len(), input.len() + 1);
    };
    let mut end = end.clamp(start + first.len_utf8(), input.len());
    while !input.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// pest's error, in the words of our grammar.
fn describe(variant: &pest::error::ErrorVariant<Rule>) -> String {
    match variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            let mut wanted: Vec<&str> = positives.iter().map(|r| rule_name(*r)).collect();
            wanted.sort_unstable();
            wanted.dedup();
            format!("expected {}", wanted.join(" or "))
        }
        pest::error::ErrorVariant::ParsingError { .. } => "unexpected input".to_string(),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    }
}

fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::name | Rule::keyword | Rule::name_char | Rule::atom => "a module or flag name",
        Rule::edition_id | Rule::edition_list => "an edition",
        Rule::variant_id => "a rule variant",
        Rule::edition_op => "`==` or `!=`",
        Rule::step_id => "a step id such as 1B or 2B-1",
        Rule::item_id => "an item id (kebab-case)",
        Rule::marker_name => "a marker name in capitals",
        Rule::marker_arg | Rule::marker_arg_text => "a quoted argument",
        Rule::repeat_kind => "`double_turn` or `per_feature`",
        Rule::skip | Rule::go_back | Rule::double_turn | Rule::next_feature | Rule::forbid => {
            "`skip STEP`, `go back to STEP`, `double turn`, `next feature` or `forbid ITEM`"
        }
        Rule::for_turn => "`for the turn`",
        Rule::condition
        | Rule::disjunction
        | Rule::conjunction
        | Rule::negation
        | Rule::edition_test
        | Rule::variant_test
        | Rule::boolean => "a condition",
        Rule::or_op | Rule::and_op => "`and` or `or`",
        Rule::not_op => "`not`",
        Rule::when_kw => "`when`",
        Rule::text_input | Rule::literal => "text",
        Rule::alternatives | Rule::alternative => "`{`",
        // Inside `{…}`, after an alternative's text comes `|` or the closing `}`.
        Rule::alternative_text => "`|` or `}`",
        Rule::EOI => "end of input",
        Rule::WHITESPACE => "a space",
        Rule::condition_input
        | Rule::marker_input
        | Rule::repeat_input
        | Rule::effect_input
        | Rule::reference_input
        | Rule::step_input => "the start of the string",
    }
}

fn name(pair: Pair<'_, Rule>) -> Name {
    let span = pair.as_span();
    Name { text: pair.as_str().to_string(), at: (span.start(), span.end()) }
}

fn build_condition(pair: Pair<'_, Rule>) -> Condition {
    match pair.as_rule() {
        Rule::condition => build_condition(grammar(pair.into_inner().next(), "grammar: disjunction")),
        Rule::disjunction | Rule::conjunction => {
            let is_or = pair.as_rule() == Rule::disjunction;
            let mut parts: Vec<Condition> = pair
                .into_inner()
                .filter(|p| !matches!(p.as_rule(), Rule::or_op | Rule::and_op))
                .map(build_condition)
                .collect();
            if parts.len() == 1
                && let Some(only) = parts.pop()
            {
                only
            } else if is_or {
                Condition::Or(parts)
            } else {
                Condition::And(parts)
            }
        }
        Rule::negation => {
            let mut nots = 0;
            let mut atom = None;
            for p in pair.into_inner() {
                if p.as_rule() == Rule::not_op {
                    nots += 1;
                } else {
                    atom = Some(build_condition(p));
                }
            }
            // `not not x` is `x`: however many there are, one `not` at most
            // remains, so a long run of them cannot deepen the tree.
            let c = grammar(atom, "grammar: atom");
            if nots % 2 == 1 { Condition::Not(Box::new(c)) } else { c }
        }
        Rule::edition_test | Rule::variant_test => {
            let is_edition = pair.as_rule() == Rule::edition_test;
            let mut inner = pair.into_inner();
            let equal = grammar(inner.next(), "grammar: op").as_str() == "==";
            let value = name(grammar(inner.next(), "grammar: value"));
            if is_edition {
                Condition::Edition { equal, edition: value }
            } else {
                Condition::Variant { equal, variant: value }
            }
        }
        Rule::name => Condition::Name(name(pair)),
        Rule::boolean => Condition::Bool(pair.as_str() == "true"),
        rule => unreachable!("grammar: unexpected {rule:?} in a condition"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text read by the grammar's `text_input` alone: what [`text`] gave
    /// before it cut the text at its braces.
    fn text_by_grammar(input: &str) -> Result<Vec<TextPart>, SyntaxError> {
        check_braces(input)?;
        let top = grammar(parse(Rule::text_input, input)?.next(), "grammar: text");
        let mut parts = Vec::new();
        for pair in top.into_inner() {
            match pair.as_rule() {
                Rule::literal => parts.push(TextPart::Literal(pair.as_str().to_string())),
                Rule::alternatives => parts.push(TextPart::Variants(
                    pair.into_inner()
                        .map(|variant| {
                            let mut inner = variant.into_inner();
                            let editions = grammar(inner.next(), "grammar: editions").into_inner().map(name).collect();
                            let text = grammar(inner.next(), "grammar: variant text").as_str().trim().to_string();
                            (editions, text)
                        })
                        .collect(),
                )),
                _ => {}
            }
        }
        Ok(parts)
    }

    /// Cutting a text at its braces reads it as the grammar does, parts,
    /// names' places and errors alike, valid or not.
    #[test]
    fn a_text_cut_at_its_braces_reads_as_the_grammar_reads_it() {
        let pieces = [
            "{",
            "}",
            "|",
            ":",
            ",",
            " ",
            "C1",
            "C2",
            "WE",
            "farm",
            "é",
            "\n",
            "(",
            "Тянуть",
            "{C1: a | C2, WE: b}",
            "{WE: c}",
            "{C1, C2: d | WE:e}",
            "{C1:",
            " | C2: x}",
        ];
        let mut rng = fastrand::Rng::with_seed(23);
        let mut next = |n: usize| rng.usize(..n);
        let mut valid = 0;
        for _ in 0..20_000 {
            let input: String = (0..next(14)).map(|_| pieces[next(pieces.len())]).collect();
            let (cut, whole) = (text(&input), text_by_grammar(&input));
            assert_eq!(cut, whole, "{input:?}");
            valid += usize::from(cut.is_ok_and(|parts| parts.iter().any(|p| matches!(p, TextPart::Variants(_)))));
        }
        for input in
            ["Place a {C1: follower | C2, WE: meeple}.", "{C1: a}{C2: b} and {WE:c}", "{C1 follower}", "x {C1: a | }"]
        {
            assert_eq!(text(input), text_by_grammar(input), "{input:?}");
        }
        assert!(valid > 2000, "only {valid} random texts had variants that read");
    }

    fn n(text: &str, at: Range) -> Name {
        Name { text: text.to_string(), at }
    }

    #[test]
    fn precedence_not_and_or() {
        let c = condition("a or not b and c").unwrap();
        assert_eq!(
            c,
            Condition::Or(vec![
                Condition::Name(n("a", (0, 1))),
                Condition::And(vec![
                    Condition::Not(Box::new(Condition::Name(n("b", (9, 10))))),
                    Condition::Name(n("c", (15, 16))),
                ]),
            ])
        );
    }

    #[test]
    fn parentheses_and_edition_tests() {
        let c = condition("dragon and not (plague or edition == C1)").unwrap();
        let Condition::And(parts) = c else { panic!("not an and") };
        let Condition::Not(inner) = &parts[1] else { panic!("not a not") };
        let Condition::Or(alts) = inner.as_ref() else { panic!("not an or") };
        assert_eq!(alts[1], Condition::Edition { equal: true, edition: n("C1", (37, 39)) });
    }

    #[test]
    fn variant_tests() {
        let c = condition("dragon and variant == rgg").unwrap();
        let Condition::And(parts) = c else { panic!("not an and") };
        assert_eq!(parts[1], Condition::Variant { equal: true, variant: n("rgg", (22, 25)) });
    }

    #[test]
    fn names_may_start_with_digits_but_not_be_keywords() {
        assert!(condition("20th_anniversary_expansion").is_ok());
        assert!(condition("android").is_ok(), "a name that starts with a keyword");
        let err = condition("abbey and").unwrap_err();
        assert_eq!(err.at.0, 9);
        assert!(err.message.contains("condition") || err.message.contains("name"), "{}", err.message);
    }

    #[test]
    fn error_points_at_offending_column() {
        let err = condition("abbey or or mayor").unwrap_err();
        assert_eq!(err.at.0, 9);
    }

    #[test]
    fn errors_cover_whole_characters() {
        // Found by the proptest of tests/properties.rs: pest reports a
        // position, and `(p, p + 1)` ended inside a two-byte character.
        assert_eq!(condition("é").unwrap_err().at, (0, 2));
        assert_eq!(condition("abbey and 🐉").unwrap_err().at, (10, 14));
        assert_eq!(marker("¡").unwrap_err().at, (0, 2));
        assert_eq!(text("{é}").unwrap_err().at, (1, 3));
        // At the end of the input: just past it.
        assert_eq!(condition("abbey and").unwrap_err().at, (9, 10));
        assert_eq!(condition("").unwrap_err().at, (0, 1));
    }

    #[test]
    fn text_variants() {
        let parts = text("Place a {C1: follower | C2, WE: meeple} here.").unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0], TextPart::Literal("Place a ".into()));
        let TextPart::Variants(vs) = &parts[1] else { panic!("no variants") };
        assert_eq!(vs[0].1, "follower");
        assert_eq!(vs[1].0.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["C2", "WE"]);
        assert_eq!(vs[1].0[1].at, (28, 30));
        assert!(text("unbalanced { brace").is_err());
        assert_eq!(text("x {C1: a").unwrap_err(), SyntaxError::new("this `{` is never closed", (2, 3)));
        assert_eq!(text("a } b").unwrap_err().at, (2, 3));
        assert!(text("{: nothing}").is_err(), "a variant must name an edition");
    }

    #[test]
    fn markers_with_argument_and_condition() {
        let m = marker(r##"MESSAGES "#1B" when messages and edition == C1"##).unwrap();
        assert_eq!(m.name.text, "MESSAGES");
        assert_eq!(m.arg.as_deref(), Some("#1B"));
        assert!(matches!(m.when, Some(Condition::And(_))));
        let m = marker("TREE_TRAP").unwrap();
        assert_eq!((m.arg, m.when), (None, None));
    }

    #[test]
    fn effects_and_references() {
        assert_eq!(
            effect("skip 2B-1, 2B-2").unwrap(),
            WrittenEffect::Skip(vec![n("2B-1", (5, 9)), n("2B-2", (11, 15))])
        );
        assert_eq!(effect("go back to 1B").unwrap(), WrittenEffect::GoBack(n("1B", (11, 13))));
        assert_eq!(effect("double turn").unwrap(), WrittenEffect::DoubleTurn);
        assert_eq!(effect("next feature").unwrap(), WrittenEffect::NextFeature);
        assert_eq!(
            effect("forbid abbey-play-from-supply, draw-tile for the turn").unwrap(),
            WrittenEffect::Forbid(vec![n("abbey-play-from-supply", (7, 29)), n("draw-tile", (31, 40))], true)
        );
        assert_eq!(effect("forbid a").unwrap(), WrittenEffect::Forbid(vec![n("a", (7, 8))], false));
        assert!(effect("forbid").is_err() && effect("forbid a for the part").is_err());
        assert!(effect("jump to 1B").is_err());
        assert_eq!(reference("place-tile").unwrap().text, "place-tile");
        assert!(reference("place tile").is_err());
    }

    #[test]
    fn repeat_with_condition() {
        let r = repeat("double_turn when builder").unwrap();
        assert_eq!(r.kind.text, "double_turn");
        assert!(r.when.is_some());
        assert!(repeat("triple_turn").is_err());
    }
}
