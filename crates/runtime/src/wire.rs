//! The `play` contract's JSON, in one place for every engine: answers read
//! from JSON values, the prompts and the output `play --format json` prints,
//! and the saved state `play --save` writes. The command line, a Rust engine
//! and the JavaScript package all go through [`Play`], so a turn saved by
//! one resumes in the others.

use carcassonne_rules_core::escape::terminal;
use carcassonne_rules_core::words::{Word, Words};
use carcassonne_rules_core::{Actor, ItemId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::history::{self, Said};
use crate::trace::{NamedEvent, Trace};
use crate::turn::{Answer, Ask, MAX_FEATURES, Plan, Prompt, Turn, TurnError};

/// What `--save` writes: the turn, and the trace so far (which `play` prints).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saved {
    /// Where the turn stands.
    pub turn: Turn,
    /// What happened in it so far, by the rules' ids.
    pub trace: Vec<NamedEvent>,
}

/// Why an answer or a saved turn was refused: what a diagnostic says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What is wrong.
    pub message: String,
    /// What the place it points at is.
    pub label: &'static str,
    /// How to put it right, where that can be said.
    pub help: Option<String>,
    /// The turn's [`TurnError::code`], where the turn refused it.
    pub reason: Option<&'static str>,
}

impl Refusal {
    fn new(message: impl Into<String>, label: &'static str, help: Option<String>) -> Refusal {
        Refusal { message: message.into(), label, help, reason: None }
    }

    fn by_turn(err: &TurnError, message: String, label: &'static str, help: Option<String>) -> Refusal {
        Refusal { reason: Some(err.code()), ..Refusal::new(message, label, help) }
    }
}

/// Help for a saved turn that no play of its rules leaves.
const CHANGED: &str =
    "the saved turn was changed since `play --save` wrote it: resume an unchanged one, or start the turn again";

/// An answer as the `play` contract writes it, by the rules' ids:
/// `{"do": true}`, `{"choose": "item-id"}`, `{"choose": null}`,
/// `{"count": 2}`, `{"any_time": "item-id"}` — what an engine sends to
/// [`Play::answer`] (as a JSON value) or stores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum AnswerJson {
    /// Done (holds), or not.
    Do(bool),
    /// The option taken, or none.
    Choose(Option<String>),
    /// The number of completed features.
    Count(u32),
    /// An "at any time" item used.
    AnyTime(String),
}

impl AnswerJson {
    /// What was said, by the rules' ids (`?` for an item `plan` lacks).
    pub fn of(said: Said, plan: &Plan) -> AnswerJson {
        let name = |item| plan.item_name(item).unwrap_or("?").to_string();
        match said {
            Said::Answer(Answer::Do(done)) => AnswerJson::Do(done),
            Said::Answer(Answer::Choose(item)) => AnswerJson::Choose(item.map(name)),
            Said::Answer(Answer::Count(n)) => AnswerJson::Count(n),
            Said::AnyTime(item) => AnswerJson::AnyTime(name(item)),
        }
    }
}

const ANSWER_FORMS: &str = "an answer is {\"do\": true|false}, {\"choose\": \"item-id\"|null}, {\"count\": n} or {\"any_time\": \"item-id\"}, with an optional \"seq\"";

/// One answer from its JSON value, with the `seq` it names if any; a
/// message and help when it is not one.
pub fn parse_reply(plan: &Plan, value: &Value) -> Result<(Said, Option<u32>), Refusal> {
    let refused = |message: String, help: Option<String>| Refusal::new(message, "this answer", help);
    let Some(object) = value.as_object() else {
        return Err(refused("an answer is a JSON object".into(), Some(ANSWER_FORMS.into())));
    };
    let seq = match object.get("seq") {
        None => None,
        Some(seq) => Some(
            seq.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| refused("`seq` is a prompt's number".into(), None))?,
        ),
    };
    let keys: Vec<&String> = object.keys().filter(|k| *k != "seq").collect();
    let [key] = keys[..] else {
        return Err(refused(
            "an answer has exactly one of `do`, `choose`, `count`, `any_time`".into(),
            Some(ANSWER_FORMS.into()),
        ));
    };
    let item = |value: &Value, key: &str| -> Result<ItemId, Refusal> {
        let id = value.as_str().ok_or_else(|| refused(format!("`{key}` takes an item id"), None))?;
        plan.item_named(id).ok_or_else(|| refused(format!("`{}` is no item of this turn", terminal::quoted(id)), None))
    };
    let value = &object[key];
    let said = match key.as_str() {
        "do" => {
            Said::Answer(Answer::Do(value.as_bool().ok_or_else(|| refused("`do` takes true or false".into(), None))?))
        }
        "choose" if value.is_null() => Said::Answer(Answer::Choose(None)),
        "choose" => Said::Answer(Answer::Choose(Some(item(value, "choose")?))),
        "count" => {
            Said::Answer(Answer::Count(value.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| {
                refused(format!("`count` takes a number of features from 0 to {MAX_FEATURES}"), None)
            })?))
        }
        "any_time" => Said::AnyTime(item(value, "any_time")?),
        other => {
            return Err(refused(format!("unknown answer `{}`", terminal::quoted(other)), Some(ANSWER_FORMS.into())));
        }
    };
    Ok((said, seq))
}

/// Why a turn refused an answer, naming items by their ids.
pub fn refusal(plan: &Plan, err: &TurnError) -> String {
    let name = |item| terminal::quoted(plan.item_name(item).unwrap_or("?"));
    match err {
        TurnError::NotOffered(item) => format!("`{}` is not offered here", name(*item)),
        TurnError::DoneOnce(item) => format!("`{}` is allowed only once per turn, and was done", name(*item)),
        TurnError::NotAnyTime(item) => format!("`{}` is not an \"at any time\" item", name(*item)),
        other => other.to_string(),
    }
}

/// A prompt as `play --format json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptJson {
    /// Counts the prompts from the start of the turn.
    pub seq: u32,
    /// `do`, `choose` or `count`.
    pub kind: String,
    /// 1, or 2 in the second part of a double turn.
    pub part: u8,
    /// The step's id.
    pub step: String,
    /// `[n, of]` in a per-feature step.
    pub feature: Option<[u32; 2]>,
    /// The item asked, for a `do` prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// The options offered, for a `choose` prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// For a `choose` prompt, the item whose options these are, or `null`
    /// for the step's own choice.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub of: Option<Option<String>>,
    /// `{"choose": null}` is allowed, for a `choose` prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub may_pass: Option<bool>,
    /// For a `do` or `choose` prompt: the item cannot be declined
    /// (`{"do": false}` is refused), or an option must be taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must: Option<bool>,
    /// Who answers: `active`, `left`, `each`, `each_from_left`, `owner` or `scorers`.
    pub actor: Actor,
    /// For a `do` prompt of an `until_done` item: whether to play its
    /// sub-items again, not the item itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub again: bool,
    /// The prompt still waits for its answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
}

impl PromptJson {
    /// `prompt` by the rules' ids.
    pub fn new(prompt: &Prompt, pending: bool) -> PromptJson {
        let (item, options, of, may_pass) = match &prompt.ask {
            Ask::Do(entry) => (Some(entry.id().to_string()), None, None, None),
            Ask::Choose { of, options, may_pass } => (
                None,
                Some(options.iter().map(|o| o.id().to_string()).collect()),
                Some(of.map(|e| e.id().to_string())),
                Some(*may_pass),
            ),
            Ask::Count => (None, None, None, None),
        };
        let must = match prompt.ask {
            Ask::Count => None,
            _ => Some(prompt.must),
        };
        PromptJson {
            seq: prompt.seq,
            kind: prompt.ask.kind().name().to_string(),
            part: prompt.part,
            step: prompt.step.id.to_string(),
            feature: prompt.feature.map(|(n, of)| [n, of]),
            item,
            options,
            of,
            may_pass,
            must,
            actor: prompt.actor,
            again: prompt.again,
            pending,
        }
    }
}

/// A key that is there, even as `null`: `Some(None)`; a missing one is
/// `None` (by `default`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::deserialize(deserializer).map(Some)
}

/// `play --format json` (the contract).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// Nothing more is asked.
    pub over: bool,
    /// This run's prompts in order, the pending one last.
    pub prompts: Vec<PromptJson>,
    /// The whole turn so far.
    pub trace: Vec<NamedEvent>,
}

/// A turn of one plan played from JSON answers: what `play` does between
/// reading its files and printing.
#[derive(Debug)]
pub struct Play<'p, 'o> {
    plan: &'p Plan<'o>,
    turn: Turn,
    trace: Trace,
    /// The prompts answered in this run.
    answered: Vec<PromptJson>,
}

impl<'p, 'o> Play<'p, 'o> {
    /// A new turn of `plan`.
    pub fn start(plan: &'p Plan<'o>) -> Play<'p, 'o> {
        let mut trace = Trace::default();
        let turn = Turn::start(plan, &mut trace);
        Play { plan, turn, trace, answered: Vec::new() }
    }

    /// Goes on from a saved turn, refused when it is not one of `plan`'s.
    pub fn resume(plan: &'p Plan<'o>, saved: Saved) -> Result<Play<'p, 'o>, Refusal> {
        let label = "the rules it was saved from";
        match saved.turn.check(plan) {
            Ok(()) => {}
            Err(err @ TurnError::OtherRules { .. }) => {
                let s = saved.turn.selection();
                let help = format!(
                    "resume it with the rules it was saved from: edition {}, variant {}, modules `{}`",
                    terminal::quoted(&s.edition),
                    terminal::quoted(&s.variant),
                    terminal::quoted(&s.modules)
                );
                return Err(Refusal::by_turn(&err, err.to_string(), label, Some(help)));
            }
            Err(err) => return Err(Refusal::by_turn(&err, err.to_string(), label, Some(CHANGED.into()))),
        }
        let events: Option<Vec<_>> = saved.trace.iter().map(|e| e.typed(plan)).collect();
        let Some(events) = events else {
            return Err(Refusal::new("the saved trace names steps or items these rules lack", "its rules", None));
        };
        let trace = Trace(events);
        history::verify(plan, &saved.turn, &trace)
            .map_err(|err| Refusal::by_turn(&err, err.to_string(), label, Some(CHANGED.into())))?;
        Ok(Play { plan, turn: saved.turn, trace, answered: Vec::new() })
    }

    /// Takes one answer, as its JSON value. A refused answer changes nothing.
    pub fn answer(&mut self, value: &Value) -> Result<(), Refusal> {
        let plan = self.plan;
        let (said, seq) = parse_reply(plan, value)?;
        let prompt = self.turn.prompt(plan).map_err(|e| Refusal::by_turn(&e, e.to_string(), "this answer", None))?;
        let result = match (said, &prompt) {
            // Taken after the last prompt too, until the engine ends the turn.
            (Said::AnyTime(item), _) => self.turn.any_time(plan, item, &mut self.trace),
            (Said::Answer(_), None) => {
                let over = Refusal::new("an answer after the turn is over", "nothing is asked any more", None);
                return Err(Refusal { reason: Some(TurnError::Over.code()), ..over });
            }
            (Said::Answer(answer), Some(prompt)) => {
                let result = self.turn.answer(plan, seq.unwrap_or(prompt.seq), answer, &mut self.trace);
                if result.is_ok() {
                    self.answered.push(PromptJson::new(prompt, false));
                }
                result
            }
        };
        result.map_err(|e| {
            let help = match &prompt {
                Some(prompt) => format!("prompt {} asks: {}", prompt.seq, describe(prompt, &Words::english())),
                None => "the turn is over: nothing is asked any more".to_string(),
            };
            Refusal::by_turn(&e, refusal(plan, &e), "this answer", Some(help))
        })
    }

    /// The plan the turn plays.
    pub fn plan(&self) -> &'p Plan<'o> {
        self.plan
    }

    /// Where the turn stands.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// What happened so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Answers the pending prompt with a typed answer (the terminal's play,
    /// which reads its own keys). A refused answer changes nothing.
    pub fn answer_pending(&mut self, answer: Answer) -> Result<(), TurnError> {
        let Some(prompt) = self.turn.prompt(self.plan)? else {
            return Err(TurnError::Over);
        };
        self.turn.answer(self.plan, prompt.seq, answer, &mut self.trace)?;
        self.answered.push(PromptJson::new(&prompt, false));
        Ok(())
    }

    /// The pending prompt, if the turn is not over.
    pub fn pending(&self) -> Result<Option<Prompt<'o>>, Refusal> {
        self.turn.prompt(self.plan).map_err(|e| Refusal::new(e.to_string(), "the saved turn", None))
    }

    /// `play --format json`: this run's prompts, the pending one last, and the whole trace.
    pub fn output(&self) -> Result<Output, Refusal> {
        let mut prompts = self.answered.clone();
        if let Some(prompt) = self.pending()? {
            prompts.push(PromptJson::new(&prompt, true));
        }
        Ok(Output { over: self.turn.is_over(), prompts, trace: self.trace.named(self.plan) })
    }

    /// What `--save` writes.
    pub fn saved(&self) -> Saved {
        Saved { turn: self.turn.clone(), trace: self.trace.named(self.plan) }
    }
}

/// The prompt in one line, for the text output and for help on a refusal.
pub fn describe(prompt: &Prompt, words: &Words) -> String {
    let what = match &prompt.ask {
        Ask::Do(entry) => {
            let word = match (prompt.again, prompt.must) {
                (true, _) => Word::PlayDoAgain,
                (false, true) => Word::PlayDoMust,
                (false, false) => Word::PlayDo,
            };
            words.fill(word, &[("item", &format!("`{}`", entry.id()))])
        }
        Ask::Choose { options, may_pass, .. } => {
            let ids: Vec<&str> = options.iter().map(|o| o.id()).collect();
            let word = if *may_pass { Word::PlayChooseOrNone } else { Word::PlayChoose };
            words.fill(word, &[("ids", &ids.join(", "))])
        }
        Ask::Count => words.get(Word::PlayCountFeatures).to_string(),
    };
    let who = match prompt.actor {
        Actor::Active => String::new(),
        actor => format!("; {}", words.fill(Word::PlayAsks, &[("actor", words.actor(actor))])),
    };
    terminal::line(&format!("{what} ({}{who})", heading(prompt, words))).into_owned()
}

/// The prompt's part, step (and feature) and the step's title.
pub fn heading(prompt: &Prompt, words: &Words) -> String {
    let part = prompt.part.to_string();
    let mut text = words.fill(Word::PlayHeading, &[("part", &part), ("step", &prompt.step.id)]);
    if let Some((n, of)) = prompt.feature {
        text.push_str(", ");
        text.push_str(&words.fill(Word::TraceFeature, &[("n", &n.to_string()), ("of", &of.to_string())]));
    }
    format!("{text}: {}", prompt.step.title)
}
