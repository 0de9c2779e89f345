//! `play`: play one turn of a selection, one prompt at a time — interactive
//! on a terminal, or scripted with JSON Lines answers — and save it to go on
//! later (`--save`, `--resume`). The turn is the runtime's resumable
//! [`Turn`]; this file reads answers, reports wrong ones at their line, and
//! prints the prompts and the trace (the `play` contract).

use carcassonne_rules_compiler::codes::Code;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use carcassonne_rules_compiler::diagnostics::Span;
use carcassonne_rules_compiler::read::{self, Refused};
use carcassonne_rules_compiler::translation::Locale;
use carcassonne_rules_compiler::{Diagnostic, Sources};
use carcassonne_rules_runtime::core::escape::terminal;
use carcassonne_rules_runtime::core::words::{Word, Words};
use carcassonne_rules_runtime::core::{Actor, Catalog, Config, TurnOrder};
use carcassonne_rules_runtime::trace::Trace;
use carcassonne_rules_runtime::turn::{Answer, Ask, MAX_FEATURES, Plan, Prompt};
use carcassonne_rules_runtime::wire::{self, Play, Saved};
use carcassonne_rules_tools::interpret;
use clap::Args;
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
    fn refused(&self, start: usize, len: usize, refusal: wire::Refusal) -> Diagnostic {
        let d = self.at(start, len, refusal.message, refusal.label);
        match refusal.help {
            Some(help) => d.with_help(help),
            None => d,
        }
    }

    fn json_error(&self, err: &serde_json::Error, what: &str) -> Diagnostic {
        let offset = line_col_offset(self.text(), err.line(), err.column());
        self.at(offset, 1, format!("{what}: {err}"), "here")
    }
}

fn line_col_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// The most a saved turn or a file of answers may hold: a saved turn is a
/// few kilobytes, a turn's answers a few hundred bytes.
const MAX_INPUT_BYTES: u64 = 1 << 20;

/// A saved turn or the answers, through the guarded reader: a regular file
/// (no link, FIFO or device) or stdin, of at most [`MAX_INPUT_BYTES`].
fn read(path: &Path, what: &str) -> Result<Input, Vec<Diagnostic>> {
    let stdin = path == Path::new("-");
    let name = if stdin { "<stdin>".to_string() } else { path.display().to_string() };
    let shown = terminal::quoted(&name);
    let text = if stdin { read::stdin(MAX_INPUT_BYTES) } else { read::text(path, MAX_INPUT_BYTES) };
    let text = text.map_err(|refused| {
        let (message, help) = match refused {
            Refused::Missing => (format!("{shown} ({what}) is missing"), None),
            Refused::Link => (
                format!("{shown} ({what}) is a symbolic link"),
                Some(
                    "only regular files are read, never through a link (it could point anywhere): give the file itself",
                ),
            ),
            Refused::Folder => (format!("{shown} ({what}) is a folder"), None),
            Refused::NotRegular => (
                format!("{shown} ({what}) is not a regular file (a FIFO, socket or device)"),
                Some("give a file, or `-` to read stdin"),
            ),
            Refused::Changed => (format!("{shown} ({what}) changed while it was being opened"), None),
            Refused::TooLong => (
                format!("{shown} ({what}) is longer than {MAX_INPUT_BYTES} bytes"),
                Some("a saved turn is a few kilobytes: check that it is the file you meant"),
            ),
            Refused::NotUtf8 { before } => (format!("{shown} ({what}) is not UTF-8 after byte {}", before.len()), None),
            Refused::Io(err) => (format!("cannot read {shown} ({what}): {err}"), None),
        };
        let d = Diagnostic::global(Code::Io, message);
        vec![match help {
            Some(help) => d.with_help(help),
            None => d,
        }]
    })?;
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
    let mut play = match saved {
        None => Play::start(&plan),
        Some((input, saved)) => {
            // Problems are shown at the stamp (or the whole file, if it is not found).
            let text = input.text();
            let (start, len) = match text.find("\"rules\"") {
                Some(at) => (at, text[at..].find('\n').unwrap_or(text.len() - at)),
                None => (0, text.trim_end().len()),
            };
            Play::resume(&plan, saved).map_err(|refusal| vec![input.refused(start, len, refusal)])?
        }
    };
    match &args.answers {
        Some(path) => scripted(&mut play, &read(path, "answers")?)?,
        None => {
            output::finish_writing_on_signal();
            interactive(&mut play)?;
        }
    }
    let unreadable = |refusal: wire::Refusal| vec![Diagnostic::global(Code::Answers, refusal.message)];
    let out = play.output().map_err(unreadable)?;
    if let Some(path) = &args.save {
        let state = serde_json::to_string_pretty(&play.saved()).map_err(json_error)?;
        output::finish_writing_on_signal();
        output::write_file(path, &(state + "\n")).map_err(write_error)?;
    }
    match args.format {
        ListFormat::Json => print_out(serde_json::to_string_pretty(&out).map_err(json_error)? + "\n"),
        // Interactive play printed the trace as it went.
        ListFormat::Text if args.answers.is_none() => {}
        ListFormat::Text => {
            let mut text = play.trace().text(&plan);
            if let Some(prompt) = play.pending().map_err(unreadable)? {
                let words = plan.words();
                // The word is a translation's: untrusted, escaped for the terminal like the rest.
                text.push_str(&terminal::line(
                    &words.fill(Word::PlayPending, &[("prompt", &wire::describe(&prompt, &words))]),
                ));
                text.push('\n');
            }
            print_out(text);
        }
    }
    Ok(())
}

/// Answers from JSON Lines, until they run out or the turn is over; a
/// refused answer is shown at its line.
fn scripted(play: &mut Play, input: &Input) -> Outcome {
    let mut offset = 0;
    for line in input.text().split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let line = line.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let not_json = |e: serde_json::Error| {
            vec![input.at(start + e.column().saturating_sub(1).min(line.len()), 1, format!("not JSON: {e}"), "here")]
        };
        let value: Value = serde_json::from_str(line).map_err(not_json)?;
        if value.is_object() {
            // A JSON object keeps the last of two equal keys: `{"do": true, "do": false}` is refused instead.
            serde_json::from_str::<AnswerKeys>(line).map_err(not_json)?;
        }
        play.answer(&value).map_err(|refusal| vec![input.refused(start, line.len(), refusal)])?;
    }
    Ok(())
}

/// An answer's keys, each at most once (serde refuses a field named twice);
/// what they hold is checked by `wire::parse_reply`.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct AnswerKeys {
    #[serde(rename = "do")]
    done: Option<serde::de::IgnoredAny>,
    choose: Option<serde::de::IgnoredAny>,
    count: Option<serde::de::IgnoredAny>,
    any_time: Option<serde::de::IgnoredAny>,
    seq: Option<serde::de::IgnoredAny>,
}

/// Plays on the terminal: the trace as it goes, each prompt with numbered
/// options, y/n or a count. End of input leaves the turn where it is.
fn interactive(play: &mut Play) -> Outcome {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(vec![
            Diagnostic::global(Code::CommandLine, "no terminal to play on")
                .with_help("give the answers with `--answers FILE` (or `-` for stdin)"),
        ]);
    }
    let plan = play.plan();
    let words = plan.words();
    let mut out = std::io::stdout();
    let mut shown = 0;
    let mut lines = stdin.lock().lines();
    loop {
        let trace = &play.trace().0;
        let _ = write!(out, "{}", Trace(trace[shown..].to_vec()).text(plan));
        shown = trace.len();
        let Some(prompt) = play.pending().map_err(|r| vec![Diagnostic::global(Code::Answers, r.message)])? else {
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
            Some(answer) => {
                if let Err(e) = play.answer_pending(answer) {
                    let refused = words.fill(Word::PlayRefused, &[("reason", &wire::refusal(plan, &e))]);
                    let _ = writeln!(out, "  {}", terminal::line(&refused));
                }
            }
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
        Ask::Do(_) if prompt.must => words.get(Word::PlayYesOnly).to_string(),
        Ask::Do(_) => words.get(Word::PlayYesOrNo).to_string(),
        Ask::Choose { options, may_pass, .. } => number(usize::from(!*may_pass), options.len()),
        _ => number(0, MAX_FEATURES as usize),
    }
}

/// The question, as the terminal shows it.
fn question(prompt: &Prompt, words: &Words) -> String {
    let mut text = format!("[{}] {}\n", prompt.seq, terminal::line(&wire::heading(prompt, words)));
    // Who answers, where it is not the player whose turn it is.
    if prompt.actor != Actor::Active {
        let asks = words.fill(Word::PlayAsks, &[("actor", words.actor(prompt.actor))]);
        text.push_str(&format!("  {}\n", terminal::line(&asks)));
    }
    match &prompt.ask {
        Ask::Do(entry) => {
            // The first of the language's answers for yes and for no: [y/n], [j/n];
            // a must takes yes alone.
            let first = |word: Word| words.get(word).split_whitespace().next().unwrap_or_default().to_string();
            let ask = if prompt.must {
                format!(" ({}) [{}]", words.get(Word::PlayAMust), first(Word::PlayYesWords))
            } else {
                format!("? [{}/{}]", first(Word::PlayYesWords), first(Word::PlayNoWords))
            };
            // Asked again: whether to play its sub-items once more, not the item.
            let what = if prompt.again {
                words.fill(Word::PlayDoAgain, &[("item", &format!("`{}`", entry.id()))])
            } else {
                entry.text.to_string()
            };
            text.push_str(&format!(
                "  {} — {}{} ",
                terminal::line(entry.id()),
                terminal::line(&what),
                terminal::line(&ask)
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
        _ => {
            let ask = format!("{} [0-{MAX_FEATURES}] ", words.get(Word::PlayHowMany));
            text.push_str(&format!("  {}", terminal::line(&ask)));
        }
    }
    text
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
        _ => None,
    }
}
