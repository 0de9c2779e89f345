//! Reading the wiki's "Order of Play" source the way a browser shows it, to
//! check the rules against the page: for a selection, which top-level items
//! each step shows, and which module brings each.
//!
//! The page decides visibility with CSS classes (`showDragonAndNotPlague`,
//! `showMessages_ForC1`, `data-dynamic-selector`). Class names are read against
//! the rules' own module and derived-flag ids; names that cannot be read that
//! way are listed, with their meaning, in the errata (`errata.yaml`).
//!
//! An item's origin follows the rules' contract: on the way up (innermost
//! element first), the first selected module, in the classes' order, of a part
//! of the classes' condition that holds (derived flags count as the modules
//! they name; nothing under a `not` counts), else `base`.
//!
//! Besides the comparison's top-level items, [`Page::turn_order`] reads the
//! whole turn order a page shows, as the rules' [`TurnOrder`]: steps with their
//! titles, repeats and choices, and every item with its children, text, markers
//! and foreign mark. It reads the Dutch page and the English markup the
//! rules' wiki export writes (`'''Step 1B: …'''`, `'''Introduction'''`), and
//! the export's publisher labels (`data-publishers="hig zmg"`), which the page
//! itself does not have.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use carcassonne_rules_compiler::model::{Candidate, Cond, Rules};
use carcassonne_rules_core::{
    Catalog, Config, EditionId, Entry, ItemId, ModuleId, Origin, PhaseOrder, Repeat, Section, StepId, StepOrder,
    TurnOrder, VariantId,
};
use carcassonne_rules_tools::interpret;
use regex::Regex;

use crate::errata::{Difference, Errata, SECTIONS};
use crate::export;
use crate::keys::{camel_words, snake_case};

pub mod nested;

/// Compiles one of this module's regular expressions.
#[allow(clippy::expect_used)]
fn regex(pattern: &str) -> Regex {
    // The patterns are constants of this module, known to be valid (the tests
    // run every one of them).
    Regex::new(pattern).expect("valid regex")
}

/// A marker in an item's text, with the space before it: a coloured template
/// (`{{ColorRed|ROBBERS}}`; yellow is the page's colour for other publishers'
/// rules, not a marker).
static MARKER: LazyLock<Regex> = LazyLock::new(|| regex(r"\s*\{\{Color(?:Green|Red|Pink|Orange|White)\|([^{}]*)\}\}"));

/// One element of the page: a `div`, `span`, `ul`, `ol` or `li`.
#[derive(Debug)]
struct Element {
    tag: String,
    parent: Option<usize>,
    /// The show condition of the element's own classes; `None` = always.
    show: Option<Cond>,
    /// The candidates for the origin of the items inside, from `show`.
    origins: Vec<Candidate>,
    /// Its class names.
    classes: Vec<String>,
    /// Its `id` attribute.
    id: Option<String>,
    /// A publisher label (`data-publishers`): its text is not the item's.
    label: bool,
    /// Its part in a repeat box.
    repeat: Option<RepeatBox>,
    /// 1-based line of its start tag in the page source.
    line: usize,
}

/// The page's repeat boxes.
#[derive(Debug, Clone, Copy)]
enum RepeatBox {
    /// The heading of the builder's block (`wica-box-header wica-repeat-block`).
    Heading,
    /// The builder's block, after the heading it belongs to.
    Block(Option<usize>),
    /// A step done once per completed feature (`wica-repeat-step`).
    Step,
}

/// A step header on the page and the element it stands in.
#[derive(Debug)]
struct Header {
    section: String,
    parent: Option<usize>,
    /// The step's title (empty for the other sections).
    title: String,
    /// The rules box the header stands in, if any.
    template: Option<usize>,
    /// The step's items are alternatives ("exactly one of the following").
    choose_one: bool,
}

/// A list item anywhere on the page.
#[derive(Debug)]
struct ListItem {
    element: usize,
    /// The latest header before it.
    header: Option<usize>,
    /// The list item it is nested in.
    parent: Option<usize>,
    /// Its nested list items, in page order.
    children: Vec<usize>,
    /// Its text, in page order (indexes into `Page::runs`).
    runs: Vec<usize>,
    /// 1-based line of the item in the page source.
    line: usize,
}

/// Source text inside a list item (outside its nested lists), and the
/// elements between the item and the text, which must show for it to show.
#[derive(Debug)]
struct Run {
    via: Vec<usize>,
    text: String,
}

/// A list item that is not inside another list item: a candidate top-level
/// item of the section whose header precedes it.
#[derive(Debug)]
struct TopItem {
    element: usize,
    header: usize,
    /// 1-based line of the item in the page source.
    line: usize,
}

/// The page, parsed once, read against one set of rules and its errata.
#[derive(Debug)]
pub struct Page {
    elements: Vec<Element>,
    headers: Vec<Header>,
    items: Vec<TopItem>,
    list_items: Vec<ListItem>,
    runs: Vec<Run>,
    /// The title parameter of each rules box (`1. Place a tile`).
    templates: Vec<Title>,
    /// Class names that could not be read (they count as never shown), sorted.
    pub unreadable: Vec<String>,
    /// Where the reader read broken markup its own way, in page order: each
    /// must be named by an erratum (`repair_lines`).
    pub repairs: Vec<Repair>,
    /// The steps' "no actions in this step" lines.
    placeholders: Vec<Placeholder>,
    /// The rules' catalog, with the ids of the page's items that the rules
    /// lack after theirs: it names the items of [`Page::turn_order`].
    catalog: Catalog,
}

/// A rules box's title, in pieces: each with the condition of the span it
/// stands in, if any (`2. Een <span class="showC1">horige</span>…`: the
/// title by edition).
#[derive(Debug, Clone, Default)]
struct Title(Vec<(Option<Cond>, String)>);

impl Title {
    /// The title as `cfg` shows it.
    fn shown(&self, rules: &Rules, cfg: &Config) -> String {
        let shown = |c: &Option<Cond>| c.as_ref().is_none_or(|c| c.eval(&rules.flags, cfg));
        self.0.iter().filter(|(c, _)| shown(c)).map(|(_, text)| text.as_str()).collect()
    }
}

/// A place where the page's markup is broken and the reader repairs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// 1-based line in the page source.
    pub line: usize,
    /// What the reader did.
    pub what: String,
}

/// A step's "there are no actions in this step" span.
#[derive(Debug)]
struct Placeholder {
    element: usize,
    /// The header of its step.
    header: Option<usize>,
    line: usize,
}

/// The text of a step's placeholder, in Dutch and English.
const PLACEHOLDERS: [&str; 2] = ["Er zijn geen acties in deze stap", "There are no actions in this step"];

/// One visible top-level item of a page section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageItem {
    /// The selected module that brings the item, or `base`.
    pub origin: String,
    /// 1-based line of the item in the page source.
    pub line: usize,
}

/// One top-level item of a section of the rules' turn order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleItem {
    /// The selected module that brings the item, or `base`.
    pub origin: String,
    /// The item's id.
    pub id: String,
}

/// Two or more quotes in a row: bold, italics or both.
static BOLD_OR_ITALIC: LazyLock<Regex> = LazyLock::new(|| regex(r"'{2,}"));

/// The Translate extension's markup, which a page's English source holds
/// around its units: `<translate>`, `</translate>`, `<!--T:unit--> `, and a
/// unit's variables (`<tvar name="publishers">`, `</tvar>`).
static TRANSLATE_MARKUP: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"</?translate>|<!--T:[A-Za-z0-9._-]*--> ?|<tvar name="?[A-Za-z0-9_]*"?>|</tvar>"#));

/// `text` without Translate's markup: what the page shows.
fn without_translate_markup(text: &str) -> Cow<'_, str> {
    TRANSLATE_MARKUP.replace_all(text, "")
}

/// A span in a rules box's title: its attributes and its text.
static TITLE_SPAN: LazyLock<Regex> = LazyLock::new(|| regex(r"<span([^>]*)>([^<]*)</span>"));

/// The lead of a step whose items are alternatives, in Dutch and English.
const CHOOSE_ONE_LEADS: [&str; 2] = ["precies één van de volgende", "exactly one of the following"];

enum Event {
    /// A start tag: its name and attributes.
    Open(String, String),
    /// An end tag: its name, and whether it lacks its `>` (`</span<span …>`,
    /// `</span, …)</span>`), so that it runs on to the next `>`.
    Close(String, bool),
    /// A section header: the section and the step's title.
    Header(String, String),
    /// A rules box: its title parameter.
    TemplateStart(String),
    TemplateEnd,
}

/// The page's tags, section headers and rules boxes, in source order, each
/// with where it starts and ends (markup other than tags ends where it starts:
/// its text is part of the text around it).
fn events(source: &str) -> Vec<(usize, usize, Event)> {
    let tag = regex(r"(?s)<(/?)([a-zA-Z]+)([^>]*)>");
    let step = regex(r"'''(?:Stap|Step) ([0-9][A-D](?:-[0-9])?):");
    let title = regex(r"^ ?([^\n]*?)'''");
    let template_start = regex(r"\{\{Rules[A-Za-z]*\|");
    let template_end = regex(r"(?m)^\}\}[ \t]*$");

    let mut events: Vec<(usize, usize, Event)> = Vec::new();
    for c in tag.captures_iter(source) {
        let name = c[2].to_lowercase();
        if matches!(name.as_str(), "div" | "span" | "ul" | "ol" | "li")
            && let Some(m) = c.get(0)
        {
            let event =
                if &c[1] == "/" { Event::Close(name, c[3].contains('<')) } else { Event::Open(name, c[3].to_string()) };
            events.push((m.start(), m.end(), event));
        }
    }
    for c in step.captures_iter(source) {
        if let Some(m) = c.get(0) {
            let title = title
                .captures(&source[m.end()..])
                .map_or_else(String::new, |t| decode(&without_translate_markup(&t[1])));
            events.push((m.start(), m.start(), Event::Header(c[1].to_string(), title)));
        }
    }
    for m in template_start.find_iter(source) {
        // The box's title: the last `title=` parameter before `rules=`.
        let rest = &source[m.end()..];
        let parameters = &rest[..rest.find("rules=").unwrap_or(0)];
        let title = parameters.split('|').rev().find_map(|p| p.strip_prefix("title=")).unwrap_or_default();
        events.push((m.start(), m.start(), Event::TemplateStart(decode(without_translate_markup(title).trim()))));
    }
    events.extend(template_end.find_iter(source).map(|m| (m.start(), m.start(), Event::TemplateEnd)));
    let headings = [&export::DUTCH, &export::ENGLISH]
        .into_iter()
        .flat_map(|page| Section::ALL.map(|section| (page.heading(section), section)));
    for (header, section) in headings {
        if let Some(at) = source.find(&header) {
            events.push((at, at, Event::Header(section.name().to_string(), String::new())));
        }
    }
    events.sort_by_key(|(at, _, _)| *at);
    events
}

/// The attribute `name="…"` of a start tag.
fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = attributes;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().last();
        let after = &rest[at + name.len()..];
        if before.is_none_or(char::is_whitespace)
            && let Some(value) = after.strip_prefix("=\"")
        {
            return value.find('"').map(|end| &value[..end]);
        }
        rest = after;
    }
    None
}

/// Character references (`&amp;`, `&#124;`, `&times;`) as the characters they stand for.
fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let reference = rest.find(';').filter(|&end| end <= 10).map(|end| &rest[1..end]);
        let c = reference.and_then(|r| match r {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            "times" => Some('×'),
            _ => {
                let number = r.strip_prefix('#')?;
                let code = match number.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => number.parse().ok()?,
                };
                char::from_u32(code)
            }
        });
        match (c, reference) {
            (Some(c), Some(r)) => {
                out.push(c);
                rest = &rest[r.len() + 2..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

impl Page {
    /// Parses the page's wiki source, reading its class names against the
    /// rules' module, derived-flag and edition ids and the errata's class
    /// readings.
    pub fn parse(source: &str, rules: &Rules, errata: &Errata) -> Page {
        // Translate's markup holds no line break: without it, the lines are
        // the source's.
        let source = &*without_translate_markup(source);
        let reader = ClassReader::new(rules, errata);
        let mut page = Page {
            elements: Vec::new(),
            headers: Vec::new(),
            items: Vec::new(),
            list_items: Vec::new(),
            runs: Vec::new(),
            templates: Vec::new(),
            unreadable: Vec::new(),
            repairs: Vec::new(),
            placeholders: Vec::new(),
            catalog: Catalog::default(),
        };
        let mut open: Vec<usize> = Vec::new();
        // Open rules boxes: how many elements were open at their start, and which box.
        let mut templates: Vec<(usize, usize)> = Vec::new();
        // The list item of each element that is one.
        let mut list_item_of: HashMap<usize, usize> = HashMap::new();
        let mut repeat_heading: Option<usize> = None;
        // Source line of the current event, counted as the events go by; the
        // end of the last tag, where the text before this event starts.
        let (mut line, mut scanned, mut text_from) = (1, 0, 0);
        let events = events(source);
        let header_starts: Vec<usize> =
            events.iter().filter(|(_, _, e)| matches!(e, Event::Header(..))).map(|(at, _, _)| *at).collect();
        for (at, end, event) in events {
            line += source[scanned..at].matches('\n').count();
            scanned = at;
            if at > text_from {
                // Text inside a list item, outside its nested lists.
                if let Some(pos) = open.iter().rposition(|&e| page.elements[e].tag == "li")
                    && !open[pos + 1..].iter().any(|&e| matches!(page.elements[e].tag.as_str(), "ul" | "ol"))
                    && let Some(&item) = list_item_of.get(&open[pos])
                {
                    let text = source[text_from..at].to_string();
                    page.list_items[item].runs.push(page.runs.len());
                    page.runs.push(Run { via: open[pos + 1..].to_vec(), text });
                }
            }
            text_from = text_from.max(end);
            match event {
                Event::Header(section, title) => {
                    let next = header_starts.iter().copied().find(|&h| h > at).unwrap_or(source.len());
                    let lead = &source[at..next];
                    // The lead stands between the header and the step's list.
                    let list = ["<ol", "<ul", "<li"].iter().filter_map(|t| lead.find(t)).min();
                    let lead = &lead[..list.unwrap_or(lead.len())];
                    let choose_one = CHOOSE_ONE_LEADS.iter().any(|l| lead.contains(l));
                    let template = templates.last().map(|&(_, t)| t);
                    page.headers.push(Header { section, parent: open.last().copied(), title, template, choose_one });
                }
                // Each rules box is a template: what it leaves open ends with it.
                Event::TemplateStart(title) => {
                    templates.push((open.len(), page.templates.len()));
                    let mut pieces = Vec::new();
                    let mut rest = title.as_str();
                    while let Some(c) = TITLE_SPAN.captures(rest) {
                        let (Some(all), Some(inner)) = (c.get(0), c.get(2)) else { break };
                        pieces.push((None, rest[..all.start()].to_string()));
                        pieces.push((reader.attributes(&c[1], &mut page.unreadable), inner.as_str().to_string()));
                        rest = &rest[all.end()..];
                    }
                    pieces.push((None, rest.to_string()));
                    page.templates.push(Title(pieces));
                }
                Event::TemplateEnd => {
                    if let Some((depth, _)) = templates.pop() {
                        // A list, box or span the rules box leaves open would
                        // run on past it; the reader closes it with the box (an
                        // item left open is ordinary wiki markup, not a repair).
                        for &e in open.iter().skip(depth) {
                            let element = &page.elements[e];
                            if element.tag != "li" {
                                page.repairs.push(Repair {
                                    line: element.line,
                                    what: format!("<{}> left open, closed at the end of its rules box", element.tag),
                                });
                            }
                        }
                        open.truncate(depth);
                    }
                }
                Event::Close(name, broken) => {
                    if broken {
                        page.repairs.push(Repair {
                            line,
                            what: format!("</{name} without its `>`, read as an end tag up to the next `>`"),
                        });
                    }
                    // An end tag closes the innermost open element of its kind, and
                    // everything opened inside it; a stray one is ignored.
                    if let Some(pos) = open.iter().rposition(|&e| page.elements[e].tag == name) {
                        // A list left open inside the element would, in a
                        // browser, keep the end tag from reaching it (a list is
                        // the boundary of its items); the reader closes it.
                        for &e in &open[pos + 1..] {
                            let element = &page.elements[e];
                            if matches!(element.tag.as_str(), "ul" | "ol") {
                                page.repairs.push(Repair {
                                    line: element.line,
                                    what: format!("<{}> left open, closed by </{name}> at line {line}", element.tag),
                                });
                            }
                        }
                        open.truncate(pos);
                    }
                }
                Event::Open(name, attributes) => {
                    let ignored = errata.differences.iter().find(|d| {
                        d.ignored_start_tags.iter().any(|t| t.line == line && t.tag.eq_ignore_ascii_case(&name))
                    });
                    if let Some(d) = ignored {
                        page.repairs.push(Repair {
                            line,
                            what: format!(
                                "<{name}> skipped as erratum {} says, so that its end tag closes the one around it",
                                d.id
                            ),
                        });
                        continue;
                    }
                    if attributes.contains('<') {
                        page.repairs.push(Repair {
                            line,
                            what: format!("<{name} without its `>`, read as a start tag up to the next `>`"),
                        });
                    }
                    if name == "span" && PLACEHOLDERS.iter().any(|p| source[end..].trim_start().starts_with(p)) {
                        page.placeholders.push(Placeholder {
                            element: page.elements.len(),
                            header: page.headers.len().checked_sub(1),
                            line,
                        });
                    }
                    if name == "li" {
                        // A new item closes the previous one of the same list.
                        for pos in (0..open.len()).rev() {
                            match page.elements[open[pos]].tag.as_str() {
                                "li" => {
                                    open.truncate(pos);
                                    break;
                                }
                                "ul" | "ol" => break,
                                _ => {}
                            }
                        }
                    }
                    let show = reader.attributes(&attributes, &mut page.unreadable);
                    let origins = show.as_ref().map(|c| c.origins(&rules.flags)).unwrap_or_default();
                    let element = page.elements.len();
                    let top_level = name == "li" && !open.iter().any(|&e| page.elements[e].tag == "li");
                    let classes: Vec<String> = attribute(&attributes, "class")
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(String::from)
                        .collect();
                    let has = |class: &str| classes.iter().any(|c| c == class);
                    let repeat = if has("wica-repeat-step") {
                        Some(RepeatBox::Step)
                    } else if has("wica-repeat-block") && has("wica-box-header") {
                        repeat_heading = Some(element);
                        Some(RepeatBox::Heading)
                    } else if has("wica-repeat-block") && has("wica-box-body") {
                        Some(RepeatBox::Block(repeat_heading))
                    } else {
                        None
                    };
                    let publishers = attribute(&attributes, "data-publishers");
                    if let Some(publishers) = publishers
                        && let Some(&parent) = open.last()
                    {
                        // A publisher label: its element shows only under these
                        // publishers' rules where the label shows.
                        let mut only: Vec<Cond> = show.iter().map(|s| Cond::Not(Box::new(s.clone()))).collect();
                        for id in publishers.split_whitespace() {
                            match rules.catalog.variants.iter().position(|v| v.id == id) {
                                Some(v) => only.push(Cond::Variant(VariantId(v as u8))),
                                None => page.unreadable.push(format!("data-publishers={id}")),
                            }
                        }
                        let restricted = page.elements[parent].show.take().unwrap_or(Cond::True).and(Cond::Any(only));
                        page.elements[parent].show = Some(restricted);
                    }
                    page.elements.push(Element {
                        tag: name,
                        parent: open.last().copied(),
                        show,
                        origins,
                        id: attribute(&attributes, "id").map(decode),
                        label: publishers.is_some(),
                        classes,
                        repeat,
                        line,
                    });
                    if top_level && !page.headers.is_empty() {
                        page.items.push(TopItem { element, header: page.headers.len() - 1, line });
                    }
                    if page.elements[element].tag == "li" {
                        let index = page.list_items.len();
                        let parent = open.iter().rev().find_map(|e| list_item_of.get(e).copied());
                        if let Some(parent) = parent {
                            page.list_items[parent].children.push(index);
                        }
                        let header = page.headers.len().checked_sub(1);
                        page.list_items.push(ListItem {
                            element,
                            header,
                            parent,
                            children: Vec::new(),
                            runs: Vec::new(),
                            line,
                        });
                        list_item_of.insert(element, index);
                    }
                    open.push(element);
                }
            }
        }
        page.unreadable.sort();
        page.unreadable.dedup();
        let mut items = rules.catalog.items.clone();
        for i in 0..page.list_items.len() {
            let id = page.item_id(i);
            if !items.contains(&id) {
                items.push(id);
            }
        }
        page.catalog = rules
            .catalog
            .clone()
            .with_ids(rules.catalog.steps.iter().map(String::as_str), items.iter().map(String::as_str));
        page
    }

    /// List item `i`'s id: its HTML `id`, else `line-N`.
    fn item_id(&self, i: usize) -> String {
        let item = &self.list_items[i];
        self.elements[item.element].id.clone().unwrap_or_else(|| format!("line-{}", item.line))
    }

    fn visible(&self, element: Option<usize>, rules: &Rules, cfg: &Config) -> bool {
        let mut at = element;
        while let Some(e) = at {
            let element = &self.elements[e];
            if let Some(show) = &element.show
                && !show.eval(&rules.flags, cfg)
            {
                return false;
            }
            at = element.parent;
        }
        true
    }

    /// The module of the first origin candidate that holds on the way up from
    /// an element, innermost element first; else the base game.
    fn origin(&self, element: usize, rules: &Rules, cfg: &Config) -> Origin {
        let mut at = Some(element);
        while let Some(e) = at {
            let element = &self.elements[e];
            if let Some(c) = element.origins.iter().find(|c| c.holds(&rules.flags, cfg)) {
                return Origin::Module(c.module);
            }
            at = element.parent;
        }
        Origin::Base
    }

    /// [`Page::origin`] by name: the module's id, or `base`.
    fn origin_id<'r>(&self, element: usize, rules: &'r Rules, cfg: &Config) -> &'r str {
        match self.origin(element, rules, cfg) {
            Origin::Module(m) => rules.catalog.modules.get(usize::from(m.0)).map_or(Origin::BASE, |m| &m.id),
            Origin::Base => Origin::BASE,
        }
    }

    /// The 1-based source lines of the page's top-level items, in page order.
    pub fn item_lines(&self) -> impl Iterator<Item = usize> + '_ {
        self.items.iter().map(|item| item.line)
    }

    /// For each section the page shows for `cfg` (`notes`, `any_time`, step
    /// ids): its visible top-level items, in page order.
    pub fn sections(&self, rules: &Rules, cfg: &Config) -> Vec<(String, Vec<PageItem>)> {
        let mut out: Vec<(String, Vec<PageItem>)> = Vec::new();
        for (h, header) in self.headers.iter().enumerate() {
            if !self.visible(header.parent, rules, cfg) {
                continue;
            }
            let items: Vec<PageItem> = self
                .items
                .iter()
                .filter(|item| item.header == h && self.visible(Some(item.element), rules, cfg))
                .map(|item| PageItem { origin: self.origin_id(item.element, rules, cfg).to_string(), line: item.line })
                .collect();
            match out.iter_mut().find(|(section, _)| *section == header.section) {
                Some((_, existing)) => existing.extend(items),
                None => out.push((header.section.clone(), items)),
            }
        }
        out
    }

    /// The whole turn order the page shows for `cfg`, in the form of the
    /// rules' turn order: the sections and steps whose headers show, each
    /// step's title, repeat (inside the builder's block while its heading
    /// shows; a per-feature box) and choice, and every visible item with its
    /// children, text, markers (the coloured templates in it) and foreign mark
    /// (a `mark…` class of the edition on it or around it). An item's id is its
    /// HTML `id`, else `line-N`. The page does not say what an item does to the
    /// turn: every `effect` is `None`.
    pub fn turn_order<'r>(&'r self, rules: &'r Rules, cfg: &Config) -> TurnOrder<'r> {
        let catalog = &rules.catalog;
        let name = |id: Option<&String>| Cow::Owned(id.cloned().unwrap_or_default());
        let mut order = TurnOrder {
            edition: name(catalog.editions.get(usize::from(cfg.edition.0)).map(|e| &e.id)),
            variant: name(catalog.variants.get(usize::from(cfg.variant.0)).map(|v| &v.id)),
            modules: catalog.module_ids(cfg.modules).into_iter().map(Cow::Owned).collect(),
            sections: Default::default(),
            phases: Vec::new(),
            double_turn: None,
            lang: None,
            words: None,
        };
        // The phases, from their boxes' titles (`1. Place a tile`).
        for title in self.templates.iter().map(|t| t.shown(rules, cfg)) {
            if let Some((id, title)) = title.split_once(". ").filter(|(id, _)| id.chars().all(|c| c.is_ascii_digit()))
                && !order.phases.iter().any(|p| p.id == id)
            {
                let (id, title) = (Cow::Owned(id.to_string()), Cow::Owned(title.to_string()));
                order.phases.push(PhaseOrder { id, title, steps: Vec::new() });
            }
        }
        for (h, header) in self.headers.iter().enumerate() {
            if !self.visible(header.parent, rules, cfg) {
                continue;
            }
            let items: Vec<Entry<'r>> = self
                .list_items
                .iter()
                .enumerate()
                .filter(|(_, item)| item.header == Some(h) && item.parent.is_none())
                .filter_map(|(i, _)| self.entry(i, rules, cfg))
                .collect();
            let section = match Section::named(&header.section) {
                Some(section) => &mut order.sections[section],
                None => {
                    let step = header.section.as_str();
                    // The step's phase: its box's number, else its own.
                    let digits = |s: &str| s.chars().take_while(char::is_ascii_digit).collect::<String>();
                    let phase_id = header
                        .template
                        .and_then(|t| self.templates.get(t))
                        .map(|t| digits(&t.shown(rules, cfg)))
                        .filter(|d| !d.is_empty())
                        .unwrap_or_else(|| digits(step));
                    let phase = match order.phases.iter().position(|p| p.id == phase_id) {
                        Some(p) => p,
                        None => {
                            let id = Cow::Owned(phase_id);
                            order.phases.push(PhaseOrder { id, title: Cow::Borrowed(""), steps: Vec::new() });
                            order.phases.len() - 1
                        }
                    };
                    let steps = &mut order.phases[phase].steps;
                    match steps.iter_mut().find(|s| s.id == step) {
                        Some(existing) => existing.items.extend(items),
                        None => steps.push(StepOrder {
                            step: step_id(rules, step),
                            id: Cow::Owned(step.to_string()),
                            title: Cow::Owned(header.title.clone()),
                            repeat: self.repeat(header, rules, cfg),
                            choose_one: header.choose_one,
                            may_pass: false,
                            items,
                        }),
                    }
                    continue;
                }
            };
            section.extend(items);
        }
        order
    }

    /// List item `i` as the turn order shows it, if it is visible.
    fn entry<'r>(&'r self, i: usize, rules: &'r Rules, cfg: &Config) -> Option<Entry<'r>> {
        let item = &self.list_items[i];
        if !self.visible(Some(item.element), rules, cfg) {
            return None;
        }
        // Its own text: the runs in it whose elements show, labels left out;
        // markers (with the space before them) taken out of it; line breaks
        // in the source are not text.
        let marker = &*MARKER;
        let mut markers = Vec::new();
        let mut text = String::new();
        for run in item.runs.iter().map(|&r| &self.runs[r]) {
            let shown = run.via.iter().all(|&e| {
                let e = &self.elements[e];
                !e.label && e.show.as_ref().is_none_or(|s| s.eval(&rules.flags, cfg))
            });
            if shown {
                markers.extend(marker.captures_iter(&run.text).map(|c| decode(c[1].trim())));
                text.push_str(&marker.replace_all(&run.text, ""));
            }
        }
        // Bold and italics (`'''mag'''`) are markup, not text: a quote that is
        // text is written as `&#39;` where it could be read as one.
        let text = BOLD_OR_ITALIC.replace_all(&text, "");
        let text = decode(&without_translate_markup(&text.replace(['\n', '\r'], "")));
        let edition = rules.catalog.editions.get(usize::from(cfg.edition.0)).map(|e| format!("mark{}", e.id));
        let mut foreign = false;
        let mut at = Some(item.element);
        while let Some(e) = at {
            foreign |= edition.as_ref().is_some_and(|mark| self.elements[e].classes.contains(mark));
            at = self.elements[e].parent;
        }
        let id = self.item_id(i);
        let number = self.catalog.items.iter().position(|known| *known == id).unwrap_or(self.catalog.items.len());
        Some(Entry {
            item: ItemId(number as u16),
            catalog: &self.catalog,
            origin: self.origin(item.element, rules, cfg),
            text: Cow::Owned(text),
            markers: markers.into_iter().map(Cow::Owned).collect(),
            foreign,
            effect: None,
            flow: carcassonne_rules_core::Flow::ACTION,
            none_of: &[],
            children: item.children.iter().filter_map(|&c| self.entry(c, rules, cfg)).collect(),
            translation: None,
        })
    }

    /// How the step of `header` repeats: once per feature in a per-feature
    /// box; on a double turn in the builder's block while its heading shows.
    fn repeat(&self, header: &Header, rules: &Rules, cfg: &Config) -> Option<Repeat> {
        let mut at = header.parent;
        while let Some(e) = at {
            match self.elements[e].repeat {
                Some(RepeatBox::Step) => return Some(Repeat::PerFeature),
                Some(RepeatBox::Block(heading)) => {
                    // The heading shows when its first element does.
                    let shown = heading.is_some_and(|h| {
                        let first = self.elements.iter().position(|x| x.parent == Some(h)).unwrap_or(h);
                        self.visible(Some(first), rules, cfg)
                    });
                    return shown.then_some(Repeat::DoubleTurn);
                }
                _ => at = self.elements[e].parent,
            }
        }
        None
    }
}

enum Reading {
    /// Not about visibility (`markC1`, `wica-list`, `showAll`).
    Ignored,
    Cond(Cond),
    Unreadable,
}

/// Reads `show…` class names against the rules' ids.
struct ClassReader {
    class: Regex,
    dynamic: Regex,
    names: HashMap<String, Cond>,
    editions: Vec<String>,
    /// What each edition's class means (`showC2` may include WE).
    edition_conds: Vec<Cond>,
    overrides: HashMap<String, Cond>,
}

/// What the page's word for the edition `at` means: the second edition's
/// (`C2`, the new edition) is every edition but the first, the wording the
/// later editions share (the page has no word for the Winter edition); the
/// others are themselves. The export writes editions so.
fn edition_means(at: usize, rules: &Rules) -> Cond {
    if at == 1 && rules.catalog.editions.len() > 2 {
        Cond::Not(Box::new(Cond::Edition(EditionId(0))))
    } else {
        Cond::Edition(EditionId(at as u8))
    }
}

impl ClassReader {
    fn new(rules: &Rules, errata: &Errata) -> Self {
        let mut names: HashMap<String, Cond> =
            rules.catalog.modules.iter().map(|m| (m.id.clone(), Cond::Module(m.bit))).collect();
        names.extend(rules.flags.iter().enumerate().map(|(i, flag)| (flag.id.clone(), Cond::Flag(i))));
        let overrides: HashMap<String, Cond> =
            errata.classes.iter().map(|r| (r.class.clone(), r.means.clone())).collect();
        // `showDragonAndC1`: an edition may stand among the flags, and reads
        // like its own class (`showC2`), so a reading of `showC2` in the errata
        // applies there too.
        let editions: Vec<Cond> = rules
            .catalog
            .editions
            .iter()
            .enumerate()
            .map(|(i, e)| overrides.get(&format!("show{}", e.id)).cloned().unwrap_or_else(|| edition_means(i, rules)))
            .collect();
        for (e, cond) in rules.catalog.editions.iter().zip(&editions) {
            names.insert(e.id.to_lowercase(), cond.clone());
        }
        ClassReader {
            class: regex(r#"class="([^"]*)""#),
            dynamic: regex(r#"data-dynamic-selector="\[([^\]]*)\]""#),
            names,
            editions: rules.catalog.editions.iter().map(|e| e.id.clone()).collect(),
            edition_conds: editions,
            overrides,
        }
    }

    /// The show condition of an element's attributes (`class`, and
    /// `data-dynamic-selector`); `None` = always shown. Names that cannot be
    /// read count as never shown and are added to `unreadable`.
    fn attributes(&self, attributes: &str, unreadable: &mut Vec<String>) -> Option<Cond> {
        let mut read = |class: &str| match self.read(class) {
            Reading::Ignored => None,
            Reading::Cond(cond) => Some(cond),
            Reading::Unreadable => {
                unreadable.push(class.to_string());
                Some(Cond::False)
            }
        };
        let mut conditions: Vec<Cond> = Vec::new();
        if let Some(c) = self.class.captures(attributes) {
            conditions.extend(c[1].split_whitespace().filter_map(&mut read));
        }
        if let Some(c) = self.dynamic.captures(attributes) {
            let mut parts = c[1].split(',').map(|p| p.trim().trim_matches('\'').trim_matches('"'));
            let all = parts.next() == Some("AND");
            let classes: Vec<Cond> = parts.map(|class| read(class).unwrap_or(Cond::True)).collect();
            conditions.push(if all { Cond::All(classes) } else { Cond::Any(classes) });
        }
        match conditions.len() {
            0 => None,
            1 => conditions.pop(),
            _ => Some(Cond::All(conditions)),
        }
    }

    fn read(&self, class: &str) -> Reading {
        if let Some(cond) = self.overrides.get(class) {
            return Reading::Cond(cond.clone());
        }
        if class.starts_with("hide") {
            return Reading::Cond(Cond::False);
        }
        let Some(rest) = class.strip_prefix("show") else { return Reading::Ignored };
        if matches!(rest, "All" | "WhenDone") {
            return Reading::Ignored;
        }
        if let Some(e) = self.editions.iter().position(|e| e == rest) {
            return Reading::Cond(self.edition_conds[e].clone());
        }
        // `…_ForC1`: the rest holds in that edition only.
        let (flags, edition) = match rest.rsplit_once("_For") {
            Some((flags, e)) => match self.editions.iter().position(|x| x == e) {
                Some(e) => (flags, Some(e)),
                None => (rest, None),
            },
            None => (rest, None),
        };
        let Some(cond) = self.expression(flags) else { return Reading::Unreadable };
        Reading::Cond(match edition {
            Some(e) => Cond::All(vec![cond, self.edition_conds[e].clone()]),
            None => cond,
        })
    }

    /// `DragonAndNotPlagueOrFairy`: flags joined by `And`, `Or` and `Not`;
    /// `Not` binds tightest, then `And`, then `Or`. A flag is the longest run of
    /// words whose snake_case is a module or derived flag, so `KingAndRobber`
    /// stays one flag.
    fn expression(&self, text: &str) -> Option<Cond> {
        let words = camel_words(text);
        let mut alternatives = Vec::new();
        let mut conjunction = Vec::new();
        let mut negate = false;
        let mut i = 0;
        let mut expect_flag = true;
        while i < words.len() {
            if expect_flag {
                if words[i] == "Not" && !self.is_flag_start(&words[i..]) {
                    negate = !negate;
                    i += 1;
                    continue;
                }
                let (len, cond) = (1..=words.len() - i).rev().find_map(|len| {
                    self.names.get(&snake_case(&words[i..i + len].concat())).map(|c| (len, c.clone()))
                })?;
                conjunction.push(if negate { Cond::Not(Box::new(cond)) } else { cond });
                negate = false;
                i += len;
                expect_flag = false;
            } else {
                match words[i].as_str() {
                    "And" => {}
                    "Or" => alternatives.push(Cond::All(std::mem::take(&mut conjunction))),
                    _ => return None,
                }
                i += 1;
                expect_flag = true;
            }
        }
        if expect_flag {
            return None;
        }
        alternatives.push(Cond::All(conjunction));
        Some(if alternatives.len() == 1 { alternatives.pop()? } else { Cond::Any(alternatives) })
    }

    fn is_flag_start(&self, words: &[String]) -> bool {
        (1..=words.len()).any(|len| self.names.contains_key(&snake_case(&words[..len].concat())))
    }
}

/// One section's comparison for one selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionComparison {
    /// `notes`, `any_time` or a step id.
    pub section: String,
    /// The page's visible top-level items (`None`: the page does not show the
    /// section).
    pub page: Option<Vec<PageItem>>,
    /// The rules' top-level items, without those of modules the page has no
    /// selector for (`None`: the step does not exist for the selection).
    pub rules: Option<Vec<RuleItem>>,
    /// Whether they agree.
    pub verdict: Verdict,
}

/// The outcome of comparing one section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The same number of items, from the same modules, in the same order.
    Agrees,
    /// Differs, as these errata say it should (by id).
    Explained(Vec<String>),
    /// Differs, and no erratum says why.
    Differs,
}

impl SectionComparison {
    /// Whether the page and the rules agree without any erratum.
    pub fn agrees(&self) -> bool {
        self.verdict == Verdict::Agrees
    }
}

/// The ids of the modules the wiki page has no selector for.
fn off_page(rules: &Rules) -> Vec<&str> {
    rules.catalog.modules.iter().filter(|m| !m.on_wiki_page).map(|m| m.id.as_str()).collect()
}

/// Compares the page and a turn order of `cfg` section by section, taking the
/// errata's deliberate differences into account. Rule items whose origin is a
/// module the page has no selector for (`wiki: false`) are left out: the page
/// cannot show them.
pub fn compare(page: &Page, rules: &Rules, errata: &Errata, cfg: &Config, order: &TurnOrder) -> Vec<SectionComparison> {
    let off_page = off_page(rules);
    let top = |items: &[Entry]| {
        items
            .iter()
            .filter(|i| !off_page.contains(&i.origin_id()))
            .map(|i| RuleItem { origin: i.origin_id().to_string(), id: i.id().to_string() })
            .collect::<Vec<_>>()
    };
    let mut ours: Vec<(String, Vec<RuleItem>)> =
        SECTIONS.into_iter().map(|section| (section.name().to_string(), top(order.section(section)))).collect();
    ours.extend(order.steps().map(|s| (s.id.to_string(), top(&s.items))));
    let theirs = page.sections(rules, cfg);
    let errata: Vec<&Difference> = errata.applying(rules, cfg).collect();

    let mut sections: Vec<String> = ours.iter().map(|(s, _)| s.clone()).collect();
    for (s, _) in &theirs {
        if !sections.contains(s) {
            sections.push(s.clone());
        }
    }
    sections
        .into_iter()
        .map(|section| {
            let page_items = theirs.iter().find(|(s, _)| *s == section).map(|(_, items)| items.clone());
            let rule_items = ours.iter().find(|(s, _)| *s == section).map(|(_, items)| items.clone());
            let mut used: Vec<String> = Vec::new();
            let page_origins = kept(
                page_items.iter().flatten().map(|i| (i.origin.as_str(), &i.line)),
                |line| errata.iter().copied().find(|d| d.page_lines.contains(line)),
                &mut used,
            );
            let rule_origins = kept(
                rule_items.iter().flatten().map(|i| (i.origin.as_str(), &i.id)),
                |id| errata.iter().copied().find(|d| d.items.contains(id)),
                &mut used,
            );
            // A section missing on one side compares as an empty one (the page
            // has no header for a step with nothing in it).
            let verdict = if page_origins == rule_origins {
                if used.is_empty() { Verdict::Agrees } else { Verdict::Explained(used) }
            } else if let Some(d) = errata.iter().find(|d| d.steps.contains(&section)) {
                used.push(d.id.clone());
                Verdict::Explained(used)
            } else {
                Verdict::Differs
            };
            SectionComparison { section, page: page_items, rules: rule_items, verdict }
        })
        .collect()
}

/// The origins of `items` that no erratum takes out of the comparison; the
/// errata that take some out are added to `used`.
fn kept<'a, K: 'a>(
    items: impl Iterator<Item = (&'a str, &'a K)>,
    erratum: impl Fn(&K) -> Option<&'a Difference>,
    used: &mut Vec<String>,
) -> Vec<&'a str> {
    let mut origins = Vec::new();
    for (origin, key) in items {
        match erratum(key) {
            Some(d) if !used.contains(&d.id) => used.push(d.id.clone()),
            Some(_) => {}
            None => origins.push(origin),
        }
    }
    origins
}

/// Page lines the errata name (`page_lines`) that hold no top-level item of
/// the page, as `(erratum id, line)`: an erratum left behind by an edit of the
/// page.
pub fn stale_page_lines(page: &Page, errata: &Errata) -> Vec<(String, usize)> {
    let lines: Vec<usize> = page.item_lines().collect();
    errata
        .differences
        .iter()
        .flat_map(|d| d.page_lines.iter().filter(|l| !lines.contains(l)).map(|&l| (d.id.clone(), l)))
        .collect()
}

/// Compares the page and the rules' interpreted turn order for `cfg`.
pub fn compare_selection(page: &Page, rules: &Rules, errata: &Errata, cfg: &Config) -> Vec<SectionComparison> {
    compare(page, rules, errata, cfg, &interpret::turn_order(rules, cfg))
}

/// One selection to compare: a label (`C2 [abbey,builder]`) and the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The edition and the module ids, as `C2 [abbey,builder]`.
    pub label: String,
    /// The edition (with its default rule variant) and modules.
    pub config: Config,
}

/// Selections to compare: the base game and every module alone, in every
/// edition, then `random` selections drawn from `seed` (each module chosen
/// with probability 1/10, the edition uniformly), all in each edition's default
/// rule variant. Modules the page has no selector for (`wiki: false`) are never
/// selected.
pub fn selections(catalog: &Catalog, random: usize, seed: u64) -> Vec<Selection> {
    // In the registry's order, so a seed draws the same selections as long as
    // the registry does not change.
    let mut modules: Vec<(ModuleId, &str)> = Vec::new();
    for m in catalog.expansions.iter().flat_map(|x| &x.modules).filter(|m| m.on_wiki_page) {
        if !modules.iter().any(|(bit, _)| *bit == m.bit) {
            modules.push((m.bit, m.id.as_str()));
        }
    }
    let selection = |edition: usize, with: &[(ModuleId, &str)]| {
        let info = &catalog.editions[edition];
        let ids: Vec<&str> = with.iter().map(|(_, id)| *id).collect();
        Selection {
            label: format!("{} [{}]", info.id, ids.join(",")),
            config: Config {
                edition: EditionId(edition as u8),
                variant: info.default_variant,
                modules: with.iter().map(|(bit, _)| *bit).collect(),
            },
        }
    };
    let mut out = Vec::new();
    for edition in 0..catalog.editions.len() {
        out.push(selection(edition, &[]));
        out.extend(modules.iter().map(|m| selection(edition, std::slice::from_ref(m))));
    }
    if catalog.editions.is_empty() {
        return out;
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    for _ in 0..random {
        let edition = rng.usize(..catalog.editions.len());
        let with: Vec<(ModuleId, &str)> = modules.iter().copied().filter(|_| rng.u8(..10) == 0).collect();
        out.push(selection(edition, &with));
    }
    out
}

/// Agreement over many selections.
#[derive(Debug, Default)]
pub struct Tally {
    /// Sections compared.
    pub compared: usize,
    /// Sections that agree without any erratum.
    pub agreeing: usize,
    /// Differences the errata explain: how many sections each erratum explains.
    pub explained: BTreeMap<String, usize>,
    /// Differences nothing explains: the selection's label and the comparison.
    pub unexplained: Vec<(String, SectionComparison)>,
}

impl Tally {
    /// Counts one selection's comparisons.
    pub fn add(&mut self, selection: &str, comparisons: &[SectionComparison]) {
        for c in comparisons {
            self.compared += 1;
            match &c.verdict {
                Verdict::Agrees => self.agreeing += 1,
                Verdict::Explained(ids) => {
                    for id in ids {
                        *self.explained.entry(id.clone()).or_default() += 1;
                    }
                }
                Verdict::Differs => self.unexplained.push((selection.to_string(), c.clone())),
            }
        }
    }

    /// Sections that differ as the errata say they should.
    pub fn explained_sections(&self) -> usize {
        self.compared - self.agreeing - self.unexplained.len()
    }

    /// `steps compared: …, agreeing: …, explained by errata: …, unexplained: …`,
    /// then one line per erratum used.
    pub fn summary(&self) -> String {
        let explained = self.explained_sections();
        let share = |n: usize| 100.0 * n as f64 / self.compared.max(1) as f64;
        let mut out = format!(
            "steps compared: {}, agreeing: {} ({:.2}%), explained by errata: {explained} ({:.2}%), unexplained: {} ({:.2}%)",
            self.compared,
            self.agreeing,
            share(self.agreeing),
            share(explained),
            self.unexplained.len(),
            share(self.unexplained.len()),
        );
        for (id, n) in &self.explained {
            out.push_str(&format!("\n  erratum {id}: {n} steps"));
        }
        out
    }
}

/// `1B: page [base@144, abbey@166], rules [abbey:abbey-play, base:draw-tile]`
pub fn describe(c: &SectionComparison) -> String {
    let list = |items: Option<Vec<String>>| match items {
        None => "(no such step)".to_string(),
        Some(items) => format!("[{}]", items.join(", ")),
    };
    let page = list(c.page.as_ref().map(|items| items.iter().map(|i| format!("{}@{}", i.origin, i.line)).collect()));
    let rules = list(c.rules.as_ref().map(|items| items.iter().map(|i| format!("{}:{}", i.origin, i.id)).collect()));
    let verdict = match &c.verdict {
        Verdict::Agrees => String::new(),
        Verdict::Explained(ids) => format!("  explained by {}", ids.join(", ")),
        Verdict::Differs => "  DIFFERS".to_string(),
    };
    format!("{}: page {page}, rules {rules}{verdict}", c.section)
}

/// The rules' step with this id; a step the rules do not have gets a number
/// past theirs.
fn step_id(rules: &Rules, id: &str) -> StepId {
    let n = rules.steps().position(|s| s.id == id).unwrap_or(rules.steps().count());
    StepId(n as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        let events = events("'''Inleiding'''\n{{RulesX|'''Stap 1B: x'''<ul><li class=\"a\">x</li></ul>\n}}\n");
        assert_eq!(events.len(), 8);
    }
}
