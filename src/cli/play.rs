//! `play`: play one turn of a selection, one prompt at a time — interactive
//! on a terminal, or scripted with JSON Lines answers — and save it to go on
//! later (`--save`, `--resume`). The turn is the runtime's resumable
//! [`Turn`]; this file reads answers, reports wrong ones at their line, and
//! prints the prompts and the trace (the `play` contract).

use carcassonne_rules_compiler::codes::Code;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::diagnostics::Span;
use carcassonne_rules_compiler::translation::Locale;
use carcassonne_rules_compiler::{Diagnostic, Sources};
use carcassonne_rules_runtime::core::escape::terminal;
use carcassonne_rules_runtime::core::words::{Word, Words};
use carcassonne_rules_runtime::core::{Catalog, Config, TurnOrder};
use carcassonne_rules_runtime::trace::{NamedEvent, Trace};
use carcassonne_rules_runtime::turn::{Answer, Ask, MAX_FEATURES, Plan, Prompt, Turn, TurnError};
use carcassonne_rules_tools::interpret;
use clap::Args;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::shared::{LangArgs, ListFormat, Outcome, json_error, load, print_out, selection, write_error};
use crate::output;

#[derive(Args)]
pub struct PlayArgs {
    /// C1 (1st edition), C2 (new edition) or WE (Winter edition); with
    /// `--resume`, the saved turn's selection when left out.
    #[arg(long, required_unless_present = "resume")]
    edition: Option<String>,
    /// A publisher's rule variant (hig, zmg, rgg); each edition has a default.
    #[arg(long, value_name = "ID")]
    variant: Option<String>,
    /// Module and expansion ids, comma-separated.
    #[arg(long, value_name = "IDS")]
    with: Option<String>,
    /// JSON Lines, one answer per prompt: {"do": true|false},
    /// {"choose": "item-id"|null}, {"count": n} (and {"any_time": "item-id"}
    /// for an "at any time" item); `-` reads stdin. Without it the turn is
    /// played on the terminal.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    /// Write the turn's state here when the answers run out (or on leaving).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Go on from a state written by `--save`.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
    #[command(flatten)]
    lang: LangArgs,
}

/// What `--save` writes: the turn, and the trace so far (which `play` prints).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    turn: Turn,
    trace: Vec<NamedEvent>,
}

/// A file read for the turn, kept to locate problems in it.
struct Input {
    sources: Sources,
    file: carcassonne_rules_compiler::diagnostics::FileId,
}

impl Input {
    fn new(name: &str, text: String) -> Input {
        let mut sources = Sources::default();
        let file = sources.add(name, text);
        Input { sources, file }
    }

    fn text(&self) -> &str {
        self.sources.text(self.file)
    }

    fn at(&self, start: usize, len: usize, message: impl Into<String>, label: &str) -> Diagnostic {
        Diagnostic::at(Code::Answers, &self.sources, Span { file: self.file, start, len: len.max(1) }, message, label)
    }

    /// Where serde_json stopped, as a byte offset.
    fn json_error(&self, err: &serde_json::Error, what: &str) -> Diagnostic {
        let offset = line_col_offset(self.text(), err.line(), err.column());
        self.at(offset, 1, format!("{what}: {err}"), "here")
    }
}

fn line_col_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column.saturating_sub(1)).min(text.len())
}

fn read(path: &Path, what: &str) -> Result<Input, Vec<Diagnostic>> {
    let (name, text) = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| vec![Diagnostic::global(Code::Io, format!("cannot read the {what} from stdin: {e}"))])?;
        ("<stdin>".to_string(), text)
    } else {
        let text = std::fs::read_to_string(path).map_err(|e| {
            vec![Diagnostic::global(
                Code::Io,
                format!("cannot read {} ({what}): {e}", terminal::quoted(&path.display().to_string())),
            )]
        })?;
        (path.display().to_string(), text)
    };
    Ok(Input::new(&name, text))
}

pub fn run(rules: Option<&Path>, args: &PlayArgs) -> Outcome {
    let saved = match &args.resume {
        None => None,
        Some(path) => {
            let input = read(path, "saved turn")?;
            let saved: Saved =
                serde_json::from_str(input.text()).map_err(|e| vec![input.json_error(&e, "not a saved turn")])?;
            Some((input, saved))
        }
    };
    // The selection: the options', else the saved turn's.
    let (edition, variant, with) = match (&args.edition, &saved) {
        (Some(edition), _) => (edition.clone(), args.variant.clone(), args.with.clone().unwrap_or_default()),
        (None, Some((_, saved))) => {
            let s = saved.turn.selection();
            (s.edition.clone(), Some(s.variant.clone()), s.modules.clone())
        }
        (None, None) => {
            return Err(vec![Diagnostic::global(Code::CommandLine, "`--edition` is needed without `--resume`")]);
        }
    };
    let config = |catalog| selection(catalog, &edition, variant.as_deref(), &with);
    // The turn is played in the language's texts; its ids stay the rules'.
    let locale = args.lang.locale(rules)?;
    fn translated<'o>(locale: Option<&Locale>, mut order: TurnOrder<'o>, catalog: &Catalog) -> TurnOrder<'o> {
        if let Some(locale) = locale {
            locale.translate(&mut order, catalog);
        }
        order
    }
    let locale = locale.as_ref();
    match rules {
        None => {
            let catalog = carcassonne_rules_runtime::catalog();
            let cfg: Config = config(catalog)?;
            play(&translated(locale, carcassonne_rules_runtime::turn_order(&cfg), catalog), args, saved)
        }
        Some(dir) => {
            let rules = load(dir)?;
            let cfg = config(&rules.catalog)?;
            play(&translated(locale, interpret::turn_order(&rules, &cfg), &rules.catalog), args, saved)
        }
    }
}

fn play(order: &TurnOrder, args: &PlayArgs, saved: Option<(Input, Saved)>) -> Outcome {
    let plan = Plan::new(order);
    let (mut turn, mut trace) = match saved {
        None => {
            let mut trace = Trace::default();
            (Turn::start(&plan, &mut trace), trace)
        }
        Some((input, saved)) => restore(&plan, &input, saved)?,
    };
    let mut prompts = Vec::new();
    match &args.answers {
        Some(path) => {
            let input = read(path, "answers")?;
            scripted(&plan, &mut turn, &mut trace, &input, &mut prompts)?;
        }
        None => {
            output::finish_writing_on_signal();
            interactive(&plan, &mut turn, &mut trace, &mut prompts)?;
        }
    }
    let pending = turn.prompt(&plan).map_err(|e| vec![Diagnostic::global(Code::Answers, e.to_string())])?;
    if let Some(prompt) = &pending {
        prompts.push(PromptJson::new(prompt, true));
    }
    let named = trace.named(&plan);
    if let Some(path) = &args.save {
        let state =
            serde_json::to_string_pretty(&Saved { turn: turn.clone(), trace: named.clone() }).map_err(json_error)?;
        output::finish_writing_on_signal();
        output::write_file(path, &(state + "\n")).map_err(write_error)?;
    }
    match args.format {
        ListFormat::Json => {
            let out = Output { over: turn.is_over(), prompts, trace: named };
            print_out(serde_json::to_string_pretty(&out).map_err(json_error)? + "\n");
        }
        // Interactive play printed the trace as it went.
        ListFormat::Text if args.answers.is_none() => {}
        ListFormat::Text => {
            let mut text = trace.text(&plan);
            if let Some(prompt) = &pending {
                let words = plan.words();
                // The word is a translation's: untrusted, escaped for the terminal like the rest.
                text.push_str(&terminal::line(
                    &words.fill(Word::PlayPending, &[("prompt", &describe(prompt, &words))]),
                ));
                text.push('\n');
            }
            print_out(text);
        }
    }
    Ok(())
}

/// The saved turn, checked against the rules and selection it resumes on.
fn restore(plan: &Plan, input: &Input, saved: Saved) -> Result<(Turn, Trace), Vec<Diagnostic>> {
    // Problems are shown at the stamp (or the whole file, if it is not found).
    let text = input.text();
    let (start, len) = match text.find("\"rules\"") {
        Some(at) => (at, text[at..].find('\n').unwrap_or(text.len() - at)),
        None => (0, text.trim_end().len()),
    };
    if let Err(err) = saved.turn.check(plan) {
        let s = saved.turn.selection();
        let help = format!(
            "resume it with the rules it was saved from: edition {}, variant {}, modules `{}`",
            terminal::quoted(&s.edition),
            terminal::quoted(&s.variant),
            terminal::quoted(&s.modules)
        );
        return Err(vec![input.at(start, len, err.to_string(), "the rules it was saved from").with_help(help)]);
    }
    let events: Option<Vec<_>> = saved.trace.iter().map(|e| e.typed(plan)).collect();
    let Some(events) = events else {
        return Err(vec![input.at(start, len, "the saved trace names steps or items these rules lack", "its rules")]);
    };
    Ok((saved.turn, Trace(events)))
}

/// Answers from JSON Lines, until they run out or the turn is over.
fn scripted(plan: &Plan, turn: &mut Turn, trace: &mut Trace, input: &Input, prompts: &mut Vec<PromptJson>) -> Outcome {
    let mut offset = 0;
    for line in input.text().split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let line = line.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let at = |message: String, label: &str| vec![input.at(start, line.len(), message, label)];
        let value: Value = serde_json::from_str(line).map_err(|e| {
            vec![input.at(start + e.column().saturating_sub(1).min(line.len()), 1, format!("not JSON: {e}"), "here")]
        })?;
        let line_answer = parse(plan, &value).map_err(|(message, help)| {
            let mut d = input.at(start, line.len(), message, "this answer");
            if let Some(help) = help {
                d = d.with_help(help);
            }
            vec![d]
        })?;
        let Some(prompt) = turn.prompt(plan).map_err(|e| at(e.to_string(), "this answer"))? else {
            return Err(at("an answer after the turn is over".into(), "nothing is asked any more"));
        };
        let result = match line_answer {
            LineAnswer::AnyTime(item) => turn.any_time(plan, item, trace),
            LineAnswer::Answer(answer, seq) => {
                let result = turn.answer(plan, seq.unwrap_or(prompt.seq), answer, trace);
                if result.is_ok() {
                    prompts.push(PromptJson::new(&prompt, false));
                }
                result
            }
        };
        result.map_err(|e| {
            let help = format!("prompt {} asks: {}", prompt.seq, describe(&prompt, &Words::english()));
            vec![input.at(start, line.len(), refusal(plan, &e), "this answer").with_help(help)]
        })?;
    }
    Ok(())
}

/// Why an answer was refused, naming items by their ids.
fn refusal(plan: &Plan, err: &TurnError) -> String {
    let name = |item| terminal::quoted(plan.item_name(item).unwrap_or("?"));
    match err {
        TurnError::NotOffered(item) => format!("`{}` is not offered here", name(*item)),
        TurnError::DoneOnce(item) => format!("`{}` is allowed only once per turn, and was done", name(*item)),
        TurnError::NotAnyTime(item) => format!("`{}` is not an \"at any time\" item", name(*item)),
        other => other.to_string(),
    }
}

enum LineAnswer {
    Answer(Answer, Option<u32>),
    AnyTime(carcassonne_rules_runtime::core::ItemId),
}

const ANSWER_FORMS: &str = "an answer is {\"do\": true|false}, {\"choose\": \"item-id\"|null}, {\"count\": n} or {\"any_time\": \"item-id\"}, with an optional \"seq\"";

/// One JSON Lines answer; a message and help when it is not one.
fn parse(plan: &Plan, value: &Value) -> Result<LineAnswer, (String, Option<String>)> {
    let Some(object) = value.as_object() else {
        return Err(("an answer is a JSON object".into(), Some(ANSWER_FORMS.into())));
    };
    let seq = match object.get("seq") {
        None => None,
        Some(seq) => Some(
            seq.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| ("`seq` is a prompt's number".to_string(), None))?,
        ),
    };
    let keys: Vec<&String> = object.keys().filter(|k| *k != "seq").collect();
    let [key] = keys[..] else {
        return Err((
            "an answer has exactly one of `do`, `choose`, `count`, `any_time`".into(),
            Some(ANSWER_FORMS.into()),
        ));
    };
    let item = |value: &Value, key: &str| -> Result<_, (String, Option<String>)> {
        let id = value.as_str().ok_or_else(|| (format!("`{key}` takes an item id"), None))?;
        plan.item_named(id).ok_or_else(|| (format!("`{}` is no item of this turn", terminal::quoted(id)), None))
    };
    let value = &object[key];
    Ok(match key.as_str() {
        "do" => LineAnswer::Answer(
            Answer::Do(value.as_bool().ok_or_else(|| ("`do` takes true or false".to_string(), None))?),
            seq,
        ),
        "choose" if value.is_null() => LineAnswer::Answer(Answer::Choose(None), seq),
        "choose" => LineAnswer::Answer(Answer::Choose(Some(item(value, "choose")?)), seq),
        "count" => LineAnswer::Answer(
            Answer::Count(
                value
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| (format!("`count` takes a number of features from 0 to {MAX_FEATURES}"), None))?,
            ),
            seq,
        ),
        "any_time" => LineAnswer::AnyTime(item(value, "any_time")?),
        other => return Err((format!("unknown answer `{}`", terminal::quoted(other)), Some(ANSWER_FORMS.into()))),
    })
}

/// Plays on the terminal: the trace as it goes, each prompt with numbered
/// options, y/n or a count. End of input leaves the turn where it is.
fn interactive(plan: &Plan, turn: &mut Turn, trace: &mut Trace, prompts: &mut Vec<PromptJson>) -> Outcome {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(vec![
            Diagnostic::global(Code::CommandLine, "no terminal to play on")
                .with_help("give the answers with `--answers FILE` (or `-` for stdin)"),
        ]);
    }
    let words = plan.words();
    let mut out = std::io::stdout();
    let mut shown = 0;
    let mut lines = stdin.lock().lines();
    loop {
        let _ = write!(out, "{}", Trace(trace.0[shown..].to_vec()).text(plan));
        shown = trace.0.len();
        let Some(prompt) = turn.prompt(plan).map_err(|e| vec![Diagnostic::global(Code::Answers, e.to_string())])?
        else {
            return Ok(());
        };
        let _ = write!(out, "{}", question(&prompt, &words));
        let _ = out.flush();
        let Some(Ok(line)) = lines.next() else {
            let left = words.fill(Word::PlayLeft, &[("n", &prompt.seq.to_string())]);
            let _ = writeln!(out, "\n({})", terminal::line(&left));
            return Ok(());
        };
        match read_answer(&prompt, line.trim(), &words) {
            Some(answer) => match turn.answer(plan, prompt.seq, answer, trace) {
                Ok(()) => prompts.push(PromptJson::new(&prompt, false)),
                Err(e) => {
                    let refused = words.fill(Word::PlayRefused, &[("reason", &refusal(plan, &e))]);
                    let _ = writeln!(out, "  {}", terminal::line(&refused));
                }
            },
            None => {
                let answer = words.fill(Word::PlayPleaseAnswer, &[("hint", &hint(&prompt, &words))]);
                let _ = writeln!(out, "  {}", terminal::line(&answer));
            }
        }
    }
}

fn hint(prompt: &Prompt, words: &Words) -> String {
    let number =
        |from: usize, to: usize| words.fill(Word::PlayNumber, &[("from", &from.to_string()), ("to", &to.to_string())]);
    match &prompt.ask {
        Ask::Do(_) => words.get(Word::PlayYesOrNo).to_string(),
        Ask::Choose { options, may_pass, .. } => number(usize::from(!*may_pass), options.len()),
        Ask::Count => number(0, MAX_FEATURES as usize),
    }
}

/// The question, as the terminal shows it.
fn question(prompt: &Prompt, words: &Words) -> String {
    let mut text = format!("[{}] {}\n", prompt.seq, terminal::line(&heading(prompt, words)));
    match &prompt.ask {
        Ask::Do(entry) => {
            // The first of the language's answers for yes and for no: [y/n], [j/n].
            let first = |word: Word| words.get(word).split_whitespace().next().unwrap_or_default().to_string();
            let keys = format!("[{}/{}]", first(Word::PlayYesWords), first(Word::PlayNoWords));
            text.push_str(&format!(
                "  {} — {}? {} ",
                terminal::line(entry.id()),
                terminal::line(&entry.text),
                terminal::line(&keys)
            ))
        }
        Ask::Choose { options, may_pass, .. } => {
            for (n, option) in options.iter().enumerate() {
                text.push_str(&format!(
                    "  {}. {} — {}\n",
                    n + 1,
                    terminal::line(option.id()),
                    terminal::line(&option.text)
                ));
            }
            if *may_pass {
                text.push_str(&format!("  0. {}\n", terminal::line(words.get(Word::PlayNoneOfThem))));
            }
            let ask = format!("{} [{}]: ", words.get(Word::PlayChooseAsk), hint(prompt, words));
            text.push_str(&format!("  {}", terminal::line(&ask)));
        }
        Ask::Count => {
            let ask = format!("{} [0-{MAX_FEATURES}] ", words.get(Word::PlayHowMany));
            text.push_str(&format!("  {}", terminal::line(&ask)));
        }
    }
    text
}

fn heading(prompt: &Prompt, words: &Words) -> String {
    let part = prompt.part.to_string();
    let mut text = words.fill(Word::PlayHeading, &[("part", &part), ("step", &prompt.step.id)]);
    if let Some((n, of)) = prompt.feature {
        text.push_str(", ");
        text.push_str(&words.fill(Word::TraceFeature, &[("n", &n.to_string()), ("of", &of.to_string())]));
    }
    format!("{text}: {}", prompt.step.title)
}

/// The answer `line` typed at `prompt`: yes and no in the language of
/// `words`, or in English.
fn read_answer(prompt: &Prompt, line: &str, words: &Words) -> Option<Answer> {
    match &prompt.ask {
        Ask::Do(_) => {
            let line = line.to_lowercase();
            let says = |word: Word| {
                let english = Words::english();
                let mut accepted = words.get(word).split_whitespace().chain(english.get(word).split_whitespace());
                accepted.any(|w| w.to_lowercase() == line)
            };
            if says(Word::PlayYesWords) {
                Some(Answer::Do(true))
            } else if says(Word::PlayNoWords) {
                Some(Answer::Do(false))
            } else {
                None
            }
        }
        Ask::Choose { options, may_pass, .. } => match line.parse::<usize>().ok()? {
            0 if *may_pass => Some(Answer::Choose(None)),
            n => options.get(n.checked_sub(1)?).map(|o| Answer::Choose(Some(o.item))),
        },
        Ask::Count => line.parse().ok().map(Answer::Count),
    }
}

/// The prompt in one line, for the text output and for help on a refusal.
fn describe(prompt: &Prompt, words: &Words) -> String {
    let what = match &prompt.ask {
        Ask::Do(entry) => words.fill(Word::PlayDo, &[("item", &format!("`{}`", entry.id()))]),
        Ask::Choose { options, may_pass, .. } => {
            let ids: Vec<&str> = options.iter().map(|o| o.id()).collect();
            let word = if *may_pass { Word::PlayChooseOrNone } else { Word::PlayChoose };
            words.fill(word, &[("ids", &ids.join(", "))])
        }
        Ask::Count => words.get(Word::PlayCountFeatures).to_string(),
    };
    terminal::line(&format!("{what} ({})", heading(prompt, words))).into_owned()
}

/// `play --format json` (the contract).
#[derive(Serialize)]
struct Output {
    over: bool,
    prompts: Vec<PromptJson>,
    trace: Vec<NamedEvent>,
}

#[derive(Serialize)]
struct PromptJson {
    seq: u32,
    kind: &'static str,
    part: u8,
    step: String,
    feature: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    item: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    may_pass: Option<bool>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pending: bool,
}

impl PromptJson {
    fn new(prompt: &Prompt, pending: bool) -> PromptJson {
        let (item, options, may_pass) = match &prompt.ask {
            Ask::Do(entry) => (Some(entry.id().to_string()), None, None),
            Ask::Choose { options, may_pass, .. } => {
                (None, Some(options.iter().map(|o| o.id().to_string()).collect()), Some(*may_pass))
            }
            Ask::Count => (None, None, None),
        };
        PromptJson {
            seq: prompt.seq,
            kind: prompt.ask.kind().name(),
            part: prompt.part,
            step: prompt.step.id.to_string(),
            feature: prompt.feature.map(|(n, of)| [n, of]),
            item,
            options,
            may_pass,
            pending,
        }
    }
}
