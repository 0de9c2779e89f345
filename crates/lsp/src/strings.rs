//! The DSL strings of one rules file as it stands in the editor, found by
//! the YAML event parser the compiler's reader is built on (so flow and block
//! style, quoting and comments are read as `check` reads them), with where
//! each stands. A broken buffer yields the strings before its first error.

use granit_parser::{Event, Parser, ScalarStyle};

use carcassonne_rules_compiler::syntax::MODULES_FILE;

/// What a string holds, by the key it is the value of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `when:` of an item, a step or the double-turn block, or a derived
    /// flag's definition.
    Condition,
    /// An entry of `markers:` (`ROBBERS when robbers`).
    Marker,
    /// A step's `repeat:` (`per_feature`).
    Repeat,
    /// An item's `text:`, with its edition variants.
    Text,
    /// A derived flag's name (a key of `derived:` in `modules.yaml`).
    FlagName,
}

/// One DSL string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DslString {
    /// What it holds.
    pub kind: Kind,
    /// Its value, quotes and escapes resolved.
    pub value: String,
    /// The whole scalar in the file (quotes included), as byte offsets.
    pub scalar: (usize, usize),
    /// Where the value stands verbatim in the file (`None` when escapes or
    /// line folding make the file's text differ from the value).
    pub verbatim: Option<usize>,
    /// Written without quotes.
    pub plain: bool,
    /// The `id:` of the mapping that holds it (an item or a step).
    pub owner: Option<String>,
}

/// A mapping or sequence being read, with the key it is the value of.
struct Frame {
    under: Option<String>,
    /// For a mapping: the key whose value comes next (`None`: a key comes next).
    key: Option<String>,
    is_map: bool,
    id: Option<String>,
    /// The strings found directly in this mapping, to learn their owner at its end.
    found: Vec<usize>,
}

/// Every DSL string of `text`, the rules file `file`, in the order written.
pub fn dsl_strings(file: &str, text: &str) -> Vec<DslString> {
    let mut out: Vec<DslString> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    for next in Parser::new_from_str(text) {
        let Ok((event, span)) = next else { break };
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let under = stack.last().and_then(|f| if f.is_map { f.key.clone() } else { f.under.clone() });
                let is_map = matches!(event, Event::MappingStart(..));
                stack.push(Frame { under, key: None, is_map, id: None, found: Vec::new() });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(frame) = stack.pop() {
                    for &i in &frame.found {
                        out[i].owner.clone_from(&frame.id);
                    }
                }
                // The collection was the value of its parent's key.
                if let Some(parent) = stack.last_mut().filter(|f| f.is_map) {
                    parent.key = None;
                }
            }
            Event::Scalar(value, style, ..) => {
                let Some(range) = span.byte_range() else { continue };
                let Some(frame) = stack.last_mut() else { continue };
                let under = frame.under.as_deref();
                let kind = if frame.is_map {
                    match frame.key.take() {
                        None => {
                            frame.key = Some(value.to_string());
                            // A derived flag's name is a key.
                            if file == MODULES_FILE && under == Some("derived") { Some(Kind::FlagName) } else { None }
                        }
                        Some(key) => match key.as_str() {
                            "id" => {
                                frame.id = Some(value.to_string());
                                None
                            }
                            "when" => Some(Kind::Condition),
                            "repeat" => Some(Kind::Repeat),
                            "text" => Some(Kind::Text),
                            _ if file == MODULES_FILE && under == Some("derived") => Some(Kind::Condition),
                            _ => None,
                        },
                    }
                } else {
                    (under == Some("markers")).then_some(Kind::Marker)
                };
                let Some(kind) = kind else { continue };
                // A plain scalar starts right at its span; a quoted one one
                // character later (as the compiler's reader finds it).
                let verbatim = [range.start, range.start + 1]
                    .into_iter()
                    .find(|&at| text.get(at..).is_some_and(|rest| rest.starts_with(value.as_ref())));
                if frame.is_map {
                    frame.found.push(out.len());
                }
                out.push(DslString {
                    kind,
                    value: value.into_owned(),
                    scalar: (range.start, range.end),
                    verbatim,
                    plain: style == ScalarStyle::Plain,
                    owner: None,
                });
            }
            _ => {}
        }
    }
    // A broken buffer: the mappings still open keep their strings' owners.
    for frame in stack {
        for &i in &frame.found {
            out[i].owner.clone_from(&frame.id);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_found_in_block_and_flow_style_with_their_owner() {
        let text = "items:\n  1B:\n    - id: a-b\n      when: \"abbey or mayor\"\n      text: 'Hi {C1: x | C2: y}'\n      markers: [\"ROBBERS when robbers\", WONDER]\n    - { text: T, when: dragon, id: c }\n";
        let found = dsl_strings("expansions/x.yaml", text);
        let kinds: Vec<(Kind, &str, Option<&str>)> =
            found.iter().map(|s| (s.kind, s.value.as_str(), s.owner.as_deref())).collect();
        assert_eq!(
            kinds,
            [
                (Kind::Condition, "abbey or mayor", Some("a-b")),
                (Kind::Text, "Hi {C1: x | C2: y}", Some("a-b")),
                (Kind::Marker, "ROBBERS when robbers", None),
                (Kind::Marker, "WONDER", None),
                (Kind::Text, "T", Some("c")),
                (Kind::Condition, "dragon", Some("c")),
            ]
        );
        let when = &found[0];
        assert_eq!(when.verbatim.map(|at| &text[at..at + 5]), Some("abbey"));
        assert!(!when.plain && !found[1].plain && found[4].plain);
        assert_eq!(&text[when.scalar.0..when.scalar.1], "\"abbey or mayor\"");
    }

    #[test]
    fn the_double_turn_blocks_condition_is_a_condition_and_its_steps_are_no_dsl() {
        let text = "double_turn: { from: 1B, to: 4A, when: builder }\nphases:\n  - id: \"1\"\n    steps:\n      - { id: 3B, repeat: per_feature, may_pass: true }\n";
        let found: Vec<(Kind, String)> =
            dsl_strings("base.yaml", text).into_iter().map(|s| (s.kind, s.value)).collect();
        assert_eq!(found, [(Kind::Condition, "builder".to_string()), (Kind::Repeat, "per_feature".to_string())]);
    }

    #[test]
    fn escapes_leave_no_verbatim_place_and_broken_yaml_keeps_what_came_before() {
        let found = dsl_strings("base.yaml", "a:\n  when: \"ab\\u0062ey\"\n  text: x\nb: [\n");
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].value.as_str(), found[0].verbatim), ("abbey", None));
        let derived = dsl_strings(MODULES_FILE, "derived:\n  flag_a: abbey or mayor\n");
        let kinds: Vec<Kind> = derived.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, [Kind::FlagName, Kind::Condition]);
    }
}
