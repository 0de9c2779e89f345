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
//!
//! One concern a file: `tokens.rs` turns the markup into events (tags,
//! headers, rules boxes), `classes.rs` reads classes as conditions, this file
//! builds the page's elements, items and turn order, `compare.rs` compares
//! them with the rules' for a selection and tallies many, `sample.rs` draws
//! the selections, and [`nested`] compares what lies below the top level.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use carcassonne_rules_compiler::model::{Candidate, Cond, Rules};
use carcassonne_rules_core::{
    Catalog, Config, EditionId, Entry, ItemId, ItemRepeat, ModuleId, Origin, PhaseOrder, Repeat, Section, StepId,
    StepOrder, TurnOrder, VariantId,
};
use carcassonne_rules_tools::interpret;
use regex::Regex;

use crate::errata::{Difference, Errata, SECTIONS};
use crate::export;
use crate::keys::{camel_words, snake_case};

mod classes;
mod compare;
pub mod nested;
mod sample;
mod tokens;

use classes::*;
pub use compare::{SectionComparison, Tally, Verdict, compare, compare_selection, describe, stale_page_lines};
pub use sample::{Selection, selections};
use tokens::*;

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
    /// Sub-items played again until done (`wica-repeat-action`).
    Action,
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
                    } else if has("wica-repeat-action") {
                        Some(RepeatBox::Action)
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
        // A publisher label is the export's words, left out, unless it holds
        // all the item says besides its markers: then it stands around the
        // item's text ("Z-Man Games rules only: …").
        let said = |run: &Run| !marker.replace_all(&run.text, "").trim().is_empty();
        let around =
            |e: usize| item.runs.iter().map(|&r| &self.runs[r]).filter(|r| said(r)).all(|r| r.via.contains(&e));
        for run in item.runs.iter().map(|&r| &self.runs[r]) {
            let shown = run.via.iter().all(|&e| {
                let element = &self.elements[e];
                (!element.label || around(e)) && element.show.as_ref().is_none_or(|s| s.eval(&rules.flags, cfg))
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
            flow: carcassonne_rules_core::Flow {
                repeat: self.until_done(i).then_some(ItemRepeat::UntilDone),
                ..carcassonne_rules_core::Flow::ACTION
            },
            none_of: &[],
            children: item.children.iter().filter_map(|&c| self.entry(c, rules, cfg)).collect(),
            translation: None,
        })
    }

    /// List item `i`'s sub-items stand in a `wica-repeat-action` box: they
    /// are played again until done.
    fn until_done(&self, i: usize) -> bool {
        let item = &self.list_items[i];
        item.children.iter().any(|&c| {
            let mut at = self.elements[self.list_items[c].element].parent;
            while let Some(e) = at.filter(|&e| e != item.element) {
                if matches!(self.elements[e].repeat, Some(RepeatBox::Action)) {
                    return true;
                }
                at = self.elements[e].parent;
            }
            false
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
