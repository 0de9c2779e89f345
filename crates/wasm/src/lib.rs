//! The bundled rules' runtime for JavaScript: one request in, one answer
//! out, both JSON, so the module needs no bindings generator and imports
//! nothing. The package in `js/` wraps it (`load()`, `modules()`, `order`,
//! `play`, `resume`); `js/build.sh` builds it.
//!
//! A request is `{"op": "modules"}`, `{"op": "order", "selection": S}`,
//! `{"op": "play", "selection": S, "answers": [A, …]}` or `{"op": "resume",
//! "state": STATE, "answers": [A, …]}`, where `S` is `{"edition", "variant"?,
//! "with": [ids], "lang"?}`, `A` the `play` contract's answers and `STATE`
//! what `play --save` writes. The answer is the JSON the command line prints
//! (`modules --format json`, `order --format json`, `play --format json` with
//! `"state"` beside it), or a [`Refused`].

#![deny(unsafe_code)]

use carcassonne_rules_runtime::core::Config;
use carcassonne_rules_runtime::core::catalog::{SelectionError, summary};
use carcassonne_rules_runtime::render;
use std::cell::RefCell;

use carcassonne_rules_runtime::turn::SharedPlan;
use carcassonne_rules_runtime::wire::{Output, Play, Saved};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A request larger than this is refused unread: a saved turn is a few
/// kilobytes, a turn's answers a few hundred bytes.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;

/// Why a request was refused: the command line's diagnostic code
/// (`command-line`, `answers`), its message and help, and for an answer the
/// index of the refused one in `answers`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// The diagnostic code `carcassonne-rules` gives the same mistake.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// How to put it right, where that can be said.
    pub help: Option<String>,
    /// The refused answer's index in the request's `answers`.
    pub answer: Option<usize>,
    /// Why the turn refused it, where it did: a stable code (`not-offered`,
    /// `stale`, …) to act on instead of the English message.
    pub reason: Option<&'static str>,
}

impl Refused {
    fn new(code: &'static str, message: impl Into<String>, help: Option<String>) -> Refused {
        Refused { code, message: message.into(), help, answer: None, reason: None }
    }

    /// The refusal as the JSON the module answers with.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| String::from(r#"{"code":"io","message":"unprintable"}"#))
    }
}

const COMMAND_LINE: &str = "command-line";
const ANSWERS: &str = "answers";

/// A request as read: one struct, not an enum tagged by `op`, so that serde
/// reads it in one pass (a tagged enum buffers the whole request first).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request<'r> {
    op: Op,
    selection: Option<Selection>,
    #[serde(borrow)]
    state: Option<&'r serde_json::value::RawValue>,
    answers: Option<Vec<Value>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum Op {
    Modules,
    Order,
    Play,
    Resume,
}

impl Op {
    const fn name(self) -> &'static str {
        match self {
            Op::Modules => "modules",
            Op::Order => "order",
            Op::Play => "play",
            Op::Resume => "resume",
        }
    }
}

/// What `--edition`, `--variant`, `--with` and `--lang` say on the command line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Selection {
    edition: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    with: Vec<String>,
    #[serde(default)]
    lang: Option<String>,
}

/// `play`'s and `resume`'s answer: `play --format json` and the saved state.
#[derive(Serialize)]
struct Played {
    #[serde(flatten)]
    output: Output,
    state: Saved,
}

/// Answers one request.
pub fn handle(request: &[u8]) -> Result<String, Refused> {
    if request.len() > MAX_REQUEST_BYTES {
        return Err(Refused::new(
            COMMAND_LINE,
            format!("a request of {} bytes is more than {MAX_REQUEST_BYTES}", request.len()),
            None,
        ));
    }
    let request: Request =
        serde_json::from_slice(request).map_err(|e| Refused::new(COMMAND_LINE, format!("not a request: {e}"), None))?;
    let json = |r: Result<String, serde_json::Error>| r.map_err(|e| Refused::new("io", e.to_string(), None));
    let wanted: &[&str] = match request.op {
        Op::Modules => &[],
        Op::Order => &["selection"],
        Op::Play => &["selection", "answers"],
        Op::Resume => &["state", "answers"],
    };
    let given = [
        ("selection", request.selection.is_some()),
        ("state", request.state.is_some()),
        ("answers", request.answers.is_some()),
    ];
    if given.iter().filter(|(_, is)| *is).map(|(name, _)| *name).ne(wanted.iter().copied()) {
        let takes = if wanted.is_empty() { "nothing else".to_string() } else { wanted.join(" and ") };
        return Err(Refused::new(COMMAND_LINE, format!("`{}` takes {takes}", request.op.name()), None));
    }
    let answers = request.answers.unwrap_or_default();
    match (request.op, request.selection, request.state) {
        (Op::Modules, ..) => json(render::catalog_json(carcassonne_rules_runtime::catalog())),
        (Op::Order, Some(selection), _) => json(render::json(&turn_order(&selection)?)),
        (Op::Play, Some(selection), _) => {
            let plan = plan(&selection)?;
            played(Play::start(plan.plan()), &answers)
        }
        (Op::Resume, _, Some(state)) => {
            let saved: Saved = serde_json::from_str(state.get()).map_err(|_| {
                // Said without a line and column: the caller gave an object, not a file.
                let e = serde_json::from_str::<Value>(state.get()).and_then(serde_json::from_value::<Saved>).err();
                let why = e.map_or_else(|| "unreadable".to_string(), |e| e.to_string());
                Refused::new(ANSWERS, format!("not a saved turn: {why}"), None)
            })?;
            let s = saved.turn.selection();
            let selection = Selection {
                edition: s.edition.clone(),
                variant: Some(s.variant.clone()),
                with: vec![s.modules.clone()],
                lang: None,
            };
            let plan = plan(&selection)?;
            let play = Play::resume(plan.plan(), saved)
                .map_err(|r| Refused { reason: r.reason, ..Refused::new(ANSWERS, r.message, r.help) })?;
            played(play, &answers)
        }
        _ => Err(Refused::new(COMMAND_LINE, "not a request", None)),
    }
}

fn played(mut play: Play, answers: &[Value]) -> Result<String, Refused> {
    for (at, answer) in answers.iter().enumerate() {
        play.answer(answer).map_err(|r| Refused {
            answer: Some(at),
            reason: r.reason,
            ..Refused::new(ANSWERS, r.message, r.help)
        })?;
    }
    let output = play.output().map_err(|r| Refused::new(ANSWERS, r.message, r.help))?;
    serde_json::to_string(&Played { output, state: play.saved() }).map_err(|e| Refused::new("io", e.to_string(), None))
}

/// The plans of the selections played last, most recent first: a game
/// plays one selection for many requests, and building a plan costs far
/// more than an answer.
const PLANS_KEPT: usize = 8;

thread_local! {
    static PLANS: RefCell<Vec<(String, SharedPlan)>> = const { RefCell::new(Vec::new()) };
}

/// The selection's plan, from the ones kept or made and kept.
fn plan(selection: &Selection) -> Result<SharedPlan, Refused> {
    let key =
        format!("{}\n{:?}\n{}\n{:?}", selection.edition, selection.variant, selection.with.join(","), selection.lang);
    let kept = PLANS.with(|plans| {
        let mut plans = plans.borrow_mut();
        let at = plans.iter().position(|(k, _)| *k == key)?;
        let entry = plans.remove(at);
        let plan = entry.1.clone();
        plans.insert(0, entry);
        Some(plan)
    });
    if let Some(plan) = kept {
        return Ok(plan);
    }
    let plan = SharedPlan::new(turn_order(selection)?);
    PLANS.with(|plans| {
        let mut plans = plans.borrow_mut();
        plans.insert(0, (key, plan.clone()));
        plans.truncate(PLANS_KEPT);
    });
    Ok(plan)
}

/// The selection's turn order, in its language.
fn turn_order(selection: &Selection) -> Result<carcassonne_rules_runtime::core::TurnOrder<'static>, Refused> {
    let catalog = carcassonne_rules_runtime::catalog();
    let cfg: Config = catalog
        .config(&selection.edition, selection.variant.as_deref(), &selection.with.join(","))
        .map_err(|errors| {
            // The first part's ids (the edition's before the modules'), as the command line's first diagnostic.
            let part = errors.first().map(|e| e.part);
            let errors: Vec<&SelectionError> = errors.iter().filter(|e| Some(e.part) == part).collect();
            let (message, help) = summary(&errors).unwrap_or_else(|| ("no such selection".into(), String::new()));
            Refused::new(COMMAND_LINE, message, Some(help))
        })?;
    match selection.lang.as_deref() {
        None | Some("en") => Ok(carcassonne_rules_runtime::turn_order(&cfg)),
        Some(tag) => match carcassonne_rules_runtime::locale(tag) {
            Some(lang) => Ok(carcassonne_rules_runtime::turn_order_in(&cfg, lang)),
            None => {
                let mut known = vec!["en"];
                known.extend(carcassonne_rules_runtime::languages().iter().map(|l| l.lang));
                Err(Refused::new(
                    COMMAND_LINE,
                    format!("unknown language `{tag}`"),
                    Some(format!("the rules are written in: {}", known.join(", "))),
                ))
            }
        },
    }
}

/// The module's exports: memory in, memory out, no imports. JavaScript
/// calls `alloc(len)`, writes the request there and calls `run(ptr, len)`,
/// which takes the buffer back; the answer is `output_len()` bytes at
/// `output_ptr()` until the next `run`. `run` returns 0, or 1 for a refusal.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
mod exports {
    use std::cell::RefCell;
    use std::ptr::slice_from_raw_parts_mut;

    thread_local! {
        static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    /// `len` bytes for a request.
    #[unsafe(no_mangle)]
    pub extern "C" fn alloc(len: usize) -> *mut u8 {
        Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
    }

    /// Frees what `alloc` gave, unused.
    ///
    /// # Safety
    /// `ptr` and `len` are an `alloc` call's, not given to `run`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
        // SAFETY: the caller hands back a buffer `alloc` made of this length.
        drop(unsafe { Box::from_raw(slice_from_raw_parts_mut(ptr, len)) });
    }

    /// Answers the request in the buffer, and frees it.
    ///
    /// # Safety
    /// `ptr` and `len` are an `alloc` call's.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn run(ptr: *mut u8, len: usize) -> u32 {
        // SAFETY: as for `dealloc`; the buffer is dropped when done.
        let request = unsafe { Box::from_raw(slice_from_raw_parts_mut(ptr, len)) };
        let (status, answer) = match super::handle(&request) {
            Ok(json) => (0, json),
            Err(refused) => (1, refused.to_json()),
        };
        OUTPUT.with(|out| *out.borrow_mut() = answer.into_bytes());
        status
    }

    /// Where the last answer starts.
    #[unsafe(no_mangle)]
    pub extern "C" fn output_ptr() -> *const u8 {
        OUTPUT.with(|out| out.borrow().as_ptr())
    }

    /// How long the last answer is.
    #[unsafe(no_mangle)]
    pub extern "C" fn output_len() -> usize {
        OUTPUT.with(|out| out.borrow().len())
    }
}
