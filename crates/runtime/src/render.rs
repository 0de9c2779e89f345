//! Printing a turn order as text, Markdown or JSON (feature `render`; JSON
//! also needs `json`, which brings serde_json).
//!
//! Every string from the rules goes through its language's escaper: text for
//! the terminal (control characters shown, never sent) or Markdown (shown as
//! written, never markup); serde escapes JSON.

use std::borrow::Cow;
use std::fmt::Write;

use carcassonne_rules_core::escape::{markdown, terminal};
use carcassonne_rules_core::order::Translation;
pub use carcassonne_rules_core::order::{CHOOSE_ONE, NO_ACTIONS};
use carcassonne_rules_core::words::{Word, Words};
use carcassonne_rules_core::{Catalog, Entry, Flow, Origin, Section, StepOrder, TurnOrder};

/// ", variant hig" for headers, when the rules have variants.
fn variant_note(order: &TurnOrder, style: &dyn Style, words: &Words) -> String {
    if order.variant.is_empty() {
        String::new()
    } else {
        format!(", {} {}", style.escape(words.get(Word::Variant)), style.escape(&order.variant))
    }
}

/// The turn order as JSON (the `order --format json` contract; feature `json`).
#[cfg(feature = "json")]
pub fn json(order: &TurnOrder) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(order)
}

/// The turn order as indented text.
pub fn text(order: &TurnOrder) -> String {
    render(order, &PlainText { ids: false })
}

/// The turn order as indented text with each item's id instead of its number:
/// what `diff` compares, so that a change reads as the items it concerns.
pub fn text_with_ids(order: &TurnOrder) -> String {
    render(order, &PlainText { ids: true })
}

/// The turn order as Markdown.
pub fn markdown(order: &TurnOrder) -> String {
    // Headings need a blank line before them whatever precedes; one is enough.
    let mut out = render(order, &Markdown);
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out
}

/// What differs between the text and Markdown layouts; `render` does the rest.
trait Style {
    /// A string from the rules, made safe for the output's language.
    fn escape<'a>(&self, text: &'a str) -> Cow<'a, str>;
    /// What stands for an empty text, so that an item keeps its sub-items.
    fn blank(&self) -> &'static str;
    /// The turn order's heading and selection.
    fn title(&self, order: &TurnOrder, words: &Words) -> String;
    /// A section's heading; `title` is escaped already.
    fn section(&self, title: &str) -> String;
    fn step(&self, step: &StepOrder, words: &Words) -> String;
    /// A line about the step as a whole (no actions, choose one).
    fn lead(&self, text: &str) -> String;
    /// How deep a section's own items sit (steps nest one level deeper in text).
    fn depth(&self, in_step: bool) -> usize;
    /// One item; `number` is set for a step's own items.
    fn item(&self, item: &Entry, depth: usize, number: Option<usize>, words: &Words) -> String;
    /// An item's flow note ("you may") after its text and markers.
    fn flow(&self, note: &str) -> String;
}

fn items(out: &mut String, style: &dyn Style, items: &[Entry], depth: usize, numbered: bool, words: &Words) {
    for (n, item) in items.iter().enumerate() {
        out.push_str(&style.item(item, depth, numbered.then_some(n + 1), words));
        self::items(out, style, &item.children, depth + 1, false, words);
    }
}

fn render(order: &TurnOrder, style: &dyn Style) -> String {
    let english = Words::english();
    // A translated order brings its language's words; they are the
    // translators', so they are escaped as the rules' texts are.
    let words = order.words.as_ref().unwrap_or(&english);
    let mut out = style.title(order, words);
    let sections = |out: &mut String, sections: &[Section]| {
        for &section in sections {
            let list = order.section(section);
            if !list.is_empty() {
                out.push_str(&style.section(&style.escape(words.heading(section))));
                items(out, style, list, style.depth(false), false, words);
            }
        }
    };
    sections(&mut out, &Section::BEFORE_STEPS);
    for phase in &order.phases {
        out.push_str(&style.section(&format!("{}. {}", style.escape(&phase.id), style.escape(&phase.title))));
        for step in &phase.steps {
            out.push_str(&style.step(step, words));
            if step.items.is_empty() {
                out.push_str(&style.lead(&style.escape(words.get(Word::NoActions))));
            } else if step.choose_one {
                out.push_str(&style.lead(&style.escape(words.get(Word::ChooseOneLead))));
            }
            items(&mut out, style, &step.items, style.depth(true), true, words);
        }
    }
    sections(&mut out, &Section::AFTER_STEPS);
    out
}

/// What a player reads of an item's flow beside its text: a choice among
/// its sub-items, and "only once". "You may" is left to the texts, which say it.
fn flow_note(flow: Flow) -> Option<Word> {
    match (flow.choose_one, flow.optional, flow.once) {
        (true, true, _) => Some(Word::ChooseOneOrNone),
        (true, false, _) => Some(Word::ChooseOne),
        (false, _, true) => Some(Word::OnlyOnce),
        (false, _, false) => None,
    }
}

/// ` (once per completed feature)`, or nothing for a step done once.
fn repeat_note(step: &StepOrder, style: &dyn Style, words: &Words) -> String {
    step.repeat.map_or_else(String::new, |r| format!(" ({})", style.escape(words.get(r.word()))))
}

fn module_list(order: &TurnOrder, style: &dyn Style, words: &Words, module: impl Fn(&str) -> String) -> String {
    if order.modules.is_empty() {
        return style.escape(words.get(Word::NoModules)).into_owned();
    }
    order.modules.iter().map(|m| module(m)).collect::<Vec<_>>().join(", ")
}

/// One item on a line: prefix, text, markers, foreign note, origin; `marker`
/// and `origin` are given escaped strings.
fn item_line(
    style: &dyn Style,
    item: &Entry,
    prefix: String,
    words: &Words,
    marker: impl Fn(&str) -> String,
    foreign: &str,
    origin: impl Fn(&str) -> String,
) -> String {
    let text = item.text.trim();
    let mut line = prefix + &if text.is_empty() { Cow::Borrowed(style.blank()) } else { style.escape(text) };
    for m in &item.markers {
        line.push_str(&marker(&style.escape(m)));
    }
    if let Some(note) = flow_note(item.flow) {
        line.push_str(&style.flow(&style.escape(words.get(note))));
    }
    // In a language: a text translated from English that has changed since,
    // or one shown in English, says so (JSON says it in `translation`).
    let mark = match item.translation {
        Some(Translation::Outdated) => Some(Word::TranslationOutdated),
        Some(Translation::Missing) => Some(Word::TranslationMissing),
        _ => None,
    };
    if let Some(mark) = mark {
        line.push_str(&style.flow(&style.escape(words.get(mark))));
    }
    if item.foreign {
        line.push_str(foreign);
    }
    if item.origin != Origin::Base {
        line.push_str(&origin(&style.escape(item.origin_id())));
    }
    line + "\n"
}

/// The plain-text style (beside [`Markdown`]); with `ids`, each item is bulleted with its id, not numbered.
struct PlainText {
    ids: bool,
}

impl Style for PlainText {
    fn escape<'a>(&self, text: &'a str) -> Cow<'a, str> {
        terminal::line(text)
    }
    fn blank(&self) -> &'static str {
        ""
    }
    fn title(&self, order: &TurnOrder, words: &Words) -> String {
        let word = |w| self.escape(words.get(w));
        format!(
            "{}: {} {}{}, {}: {}\n",
            word(Word::OrderOfPlay),
            word(Word::Edition),
            self.escape(&order.edition),
            variant_note(order, self, words),
            word(Word::Modules),
            module_list(order, self, words, |m| self.escape(m).into_owned())
        )
    }
    fn section(&self, title: &str) -> String {
        format!("\n{title}\n")
    }
    fn step(&self, step: &StepOrder, words: &Words) -> String {
        format!(
            "  {} {}: {}{}\n",
            self.escape(words.get(Word::Step)),
            self.escape(&step.id),
            self.escape(&step.title),
            repeat_note(step, self, words)
        )
    }
    fn lead(&self, text: &str) -> String {
        format!("    {text}\n")
    }
    fn depth(&self, in_step: bool) -> usize {
        if in_step { 2 } else { 1 }
    }
    fn item(&self, item: &Entry, depth: usize, number: Option<usize>, words: &Words) -> String {
        let bullet = match number {
            _ if self.ids => format!("- [{}]", self.escape(item.id())),
            Some(n) => format!("{n}."),
            None => "-".to_string(),
        };
        let prefix = format!("{}{bullet} ", "  ".repeat(depth));
        let foreign = format!(" ({})", self.escape(words.get(Word::FromAnotherEdition)));
        item_line(self, item, prefix, words, |m| format!(" [{m}]"), &foreign, |o| format!("  ({o})"))
    }
    fn flow(&self, note: &str) -> String {
        format!(" ({note})")
    }
}

struct Markdown;

impl Style for Markdown {
    fn escape<'a>(&self, text: &'a str) -> Cow<'a, str> {
        // `order --format markdown` is a pull-request comment too.
        markdown::github(text)
    }
    fn blank(&self) -> &'static str {
        // An empty list item would end its list, its sub-items starting another.
        "&#32;"
    }
    fn title(&self, order: &TurnOrder, words: &Words) -> String {
        let word = |w| self.escape(words.get(w));
        format!(
            "# {}\n\n{} **{}**{}, {}: {}.\n",
            word(Word::OrderOfPlay),
            capitalized(&word(Word::Edition)),
            self.escape(&order.edition),
            variant_note(order, self, words),
            word(Word::Modules),
            module_list(order, self, words, markdown::code)
        )
    }
    fn section(&self, title: &str) -> String {
        format!("\n## {title}\n\n")
    }
    fn step(&self, step: &StepOrder, words: &Words) -> String {
        format!(
            "\n### {} {}: {}{}\n\n",
            self.escape(words.get(Word::Step)),
            self.escape(&step.id),
            self.escape(&step.title),
            repeat_note(step, self, words)
        )
    }
    fn lead(&self, text: &str) -> String {
        format!("*{text}*\n\n")
    }
    fn depth(&self, _in_step: bool) -> usize {
        0
    }
    fn item(&self, item: &Entry, depth: usize, number: Option<usize>, words: &Words) -> String {
        let prefix = format!("{}{} ", "   ".repeat(depth), if number.is_some() { "1." } else { "-" });
        let foreign = format!(" *({})*", self.escape(words.get(Word::FromAnotherEdition)));
        item_line(self, item, prefix, words, |m| format!(" **{m}**"), &foreign, |o| format!(" — *{o}*"))
    }
    fn flow(&self, note: &str) -> String {
        format!(" *({note})*")
    }
}

/// `text` with its first letter in upper case (`edition` → `Edition`).
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// `modules` as text: one expansion per paragraph.
pub fn catalog_text(catalog: &Catalog) -> String {
    let mut out = String::new();
    for x in &catalog.expansions {
        let editions = x.editions.join(", ");
        let _ =
            writeln!(out, "{} — {} [{}]", terminal::line(&x.id), terminal::line(&x.name), terminal::line(&editions));
        for m in &x.modules {
            let _ = writeln!(out, "  {} — {}", terminal::line(&m.id), terminal::line(&m.name));
        }
    }
    out
}

/// `modules --format json`: `{"expansions": [...]}` (feature `json`).
#[cfg(feature = "json")]
pub fn catalog_json(catalog: &Catalog) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(catalog)
}
