//! The page against the rules below the top level, for every selection at
//! once: each conditional sub-item and each conditional inline span of the
//! page must have a counterpart in the rules whose condition is equivalent
//! under the page's context (the conditions of the elements around it), as
//! binary decision diagrams ([`Logic`]) prove — or an erratum must name it.
//!
//! The mapping:
//! - a top-level page item is paired with the rule item at its place in a
//!   selection that shows it (the fewest modules), when that step's items come
//!   from the same modules in the same order there;
//! - a sub-item of a paired item is paired with the first rule sub-item, after
//!   the one the previous sub-item was paired with, whose condition is
//!   equivalent; one found only before it is a difference of order;
//! - an inline span holding a marker template (`{{ColorRed|ROVERS}}`) maps to a
//!   marker of the same kind with an equivalent condition;
//! - an inline span of text maps to a text variant of the item (`{C1: … | …}`)
//!   whose editions are equivalent to it; text whose span is equivalent to the
//!   item's own condition is part of the item's text; text shown under a
//!   module's condition maps to a sub-item with an equivalent condition (the
//!   rules write such an aside as a sub-item), else it differs.
//!
//! Besides, every marker of a paired rule item must be matched by one on the
//! page (the page shows it where the rules do); a paired item is marked
//! foreign (`markC1`, on it or around it) in the editions the rule item's
//! `foreign` names, where it shows; a span with a mark of its own carries the
//! marks of the sub-item it stands for, or else of its item (the format has no
//! foreign mark on a part of a sentence or on a marker); every step's "no
//! actions in this step" line must not show together with one of the step's
//! items; and
//! every repair the reader makes to broken markup ([`Page::repairs`]) must be
//! named by an erratum (`repair_lines`).

use std::collections::{BTreeMap, HashMap};

use biodivine_lib_bdd::Bdd;
use carcassonne_rules_compiler::logic::Logic;
use carcassonne_rules_compiler::model::{Item, Rules, WordingPart};
use carcassonne_rules_core::EditionId;
use carcassonne_rules_tools::interpret;

use super::{MARKER, Page, compare, decode};
use crate::errata::{Difference, Errata};

/// What a nested comparison compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A conditional sub-item of the page.
    SubItem,
    /// A conditional inline span of the page (text or marker).
    Span,
    /// A marker of the rules, looked for on the page.
    RuleMarker,
    /// A foreign mark (`markC1`) of a paired item, or one of a span's own.
    Mark,
    /// A step's "no actions in this step" line.
    Placeholder,
    /// A place where the reader repairs broken markup.
    Repair,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::SubItem => "sub-items",
            Kind::Span => "inline spans",
            Kind::RuleMarker => "rule markers",
            Kind::Mark => "foreign marks",
            Kind::Placeholder => "placeholders",
            Kind::Repair => "repairs",
        }
    }
}

/// One nested comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What was compared.
    pub kind: Kind,
    /// 1-based line of the page element.
    pub line: usize,
    /// What it is and what it was compared with.
    pub what: String,
    /// `None` when it agrees; else why it does not.
    pub difference: Option<String>,
    /// The erratum that explains the difference, if any.
    pub erratum: Option<String>,
}

/// The nested comparison's outcome.
#[derive(Debug, Default)]
pub struct NestedTally {
    /// Every comparison, in page order per kind.
    pub findings: Vec<Finding>,
    /// Lines named by an erratum's `nested_lines`, `mark_lines` or `repair_lines` that
    /// explain nothing: `(erratum id, line)`.
    pub stale: Vec<(String, usize)>,
}

impl NestedTally {
    /// The comparisons that differ and that no erratum explains.
    pub fn unexplained(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.difference.is_some() && f.erratum.is_none())
    }

    /// `nested compared: …, agreeing: …, explained by errata: …, unexplained:
    /// …`, with the same per kind, then how many each erratum explains.
    pub fn summary(&self) -> String {
        let count = |kind: Option<Kind>| {
            let of = |f: &&Finding| kind.is_none_or(|k| f.kind == k);
            let all = self.findings.iter().filter(of).count();
            let agreeing = self.findings.iter().filter(of).filter(|f| f.difference.is_none()).count();
            let unexplained = self.unexplained().filter(of).count();
            (all, agreeing, all - agreeing - unexplained, unexplained)
        };
        let (all, agreeing, explained, unexplained) = count(None);
        let mut out = format!(
            "nested compared: {all}, agreeing: {agreeing}, explained by errata: {explained}, unexplained: {unexplained}"
        );
        for kind in [Kind::SubItem, Kind::Span, Kind::RuleMarker, Kind::Mark, Kind::Placeholder, Kind::Repair] {
            let (all, agreeing, explained, unexplained) = count(Some(kind));
            out.push_str(&format!(
                "\n  {}: {all} compared, {agreeing} agree, {explained} explained, {unexplained} unexplained",
                kind.name()
            ));
        }
        let mut by_erratum: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &self.findings {
            if let Some(id) = &f.erratum {
                *by_erratum.entry(id).or_default() += 1;
            }
        }
        for (id, n) in by_erratum {
            out.push_str(&format!("\n  erratum {id}: {n} nested"));
        }
        out
    }
}

/// `line 97 inline span showBuilder: …  DIFFERS: …`
pub fn describe(f: &Finding) -> String {
    let verdict = match (&f.difference, &f.erratum) {
        (None, _) => String::new(),
        (Some(d), Some(e)) => format!("  explained by {e}: {d}"),
        (Some(d), None) => format!("  DIFFERS: {d}"),
    };
    format!("line {} {}: {}{verdict}", f.line, f.kind.name(), f.what)
}

/// A marker's kind, from the page's Dutch or the rules' English label:
/// `ROVERKEUZE` and `ROBBER CHOICE` are both `ROBBER CHOICE`.
fn marker_kind(label: &str) -> String {
    const KINDS: [(&str, &str); 14] = [
        ("ROVERKEUZE", "ROBBER CHOICE"),
        ("ROBBER CHOICE", "ROBBER CHOICE"),
        ("ROVERS", "ROBBERS"),
        ("ROBBERS", "ROBBERS"),
        ("NIEUWSBERICHTEN", "MESSAGES"),
        ("MESSAGES", "MESSAGES"),
        ("HANS-BEELDJE", "HANS STATUE"),
        ("HANS", "HANS STATUE"),
        ("BOOM-VAL", "TREE TRAP"),
        ("TREE", "TREE TRAP"),
        ("MEER-VAL", "LAKE TRAP"),
        ("LAKE", "LAKE TRAP"),
        ("WONDER", "WONDER"),
        ("WONDERS", "WONDER"),
    ];
    let label = label.trim().to_uppercase();
    KINDS.iter().find(|(prefix, _)| label.starts_with(prefix)).map_or(label.clone(), |(_, kind)| (*kind).to_string())
}

/// Where the page has got to in a rule item's sub-items.
#[derive(Default)]
struct Order {
    /// The first sub-item the page's next sub-item may stand for.
    next: usize,
    /// The first sub-item the page's next aside may stand for, if any is
    /// left there (asides before a sub-list each take their own).
    next_aside: usize,
}

impl Order {
    /// Places an aside that may stand for any of the sub-items `candidates`
    /// (ascending) and returns the one it stands for: the first not taken by
    /// an aside before it, else the first the next sub-item may stand for.
    /// The next sub-item of the page may stand for it as well (a span can
    /// head the sub-list after it). Otherwise the page has it in another
    /// order (the error is the sub-item it stands for), or no sub-item can
    /// stand for it (`None`).
    fn aside(&mut self, candidates: &[usize]) -> Result<usize, Option<usize>> {
        let found = candidates
            .iter()
            .find(|&&j| j >= self.next_aside.max(self.next))
            .or_else(|| candidates.iter().find(|&&j| j >= self.next));
        match found {
            Some(&j) => {
                (self.next, self.next_aside) = (j, j + 1);
                Ok(j)
            }
            None => Err(candidates.first().copied()),
        }
    }

    /// Takes sub-item `j` for a sub-item of the page.
    fn sub_item(&mut self, j: usize) {
        self.next = j + 1;
        self.next_aside = self.next_aside.max(self.next);
    }
}

/// A part of a page list item that stands for a part of a rule item.
#[derive(Clone, Copy)]
enum Part {
    /// A conditional span (an element).
    Span(usize),
    /// A sub-item (a list item).
    Sub(usize),
}

/// Which of an erratum's lists of lines explains a kind of finding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Names {
    /// `nested_lines`.
    Nested,
    /// `mark_lines`.
    Marks,
    /// `repair_lines` and `ignored_start_tags`.
    Repairs,
}

impl Names {
    fn of(kind: Kind) -> Names {
        match kind {
            Kind::Mark => Names::Marks,
            Kind::Repair => Names::Repairs,
            Kind::SubItem | Kind::Span | Kind::RuleMarker | Kind::Placeholder => Names::Nested,
        }
    }
}

/// The page's class for a foreign mark in edition `id`: `markC1`.
fn mark(id: &str) -> String {
    format!("mark{id}")
}

/// Whether two sets of selections are the same.
fn same(a: &Bdd, b: &Bdd) -> bool {
    a.xor(b).is_false()
}

struct Run<'a, 'r> {
    page: &'a Page,
    rules: &'r Rules,
    errata: &'a Errata,
    logic: &'a Logic<'r>,
    findings: Vec<Finding>,
    /// The list item of each element that is one.
    list_item_of: HashMap<usize, usize>,
    /// For each conditional span compared, the rule item it stands for and
    /// that item's foreign editions.
    marks_of: HashMap<usize, (String, Vec<EditionId>)>,
}

/// Compares the page with the rules below the top level (see the module
/// documentation), with the errata's `nested_lines` and `repair_lines`.
pub fn compare_nested(page: &Page, rules: &Rules, errata: &Errata) -> NestedTally {
    let logic = Logic::new(rules);
    let list_item_of = page.list_items.iter().enumerate().map(|(i, item)| (item.element, i)).collect();
    let mut run =
        Run { page, rules, errata, logic: &logic, findings: Vec::new(), list_item_of, marks_of: HashMap::new() };
    let by_id: HashMap<&str, &Item> = rules.items().into_iter().map(|i| (i.id.as_str(), i)).collect();
    for top in &page.items {
        let Some(&li) = run.list_item_of.get(&top.element) else { continue };
        let shows = run.chain(top.element, None);
        match run.pair_top(top.header, top.line, &shows) {
            Ok(id) => match by_id.get(id.as_str()) {
                Some(item) => run.item(li, item, &shows),
                None => run.unmapped(li, &format!("rule item `{id}` not found")),
            },
            Err(why) => run.unmapped(li, &why),
        }
    }
    run.placeholders();
    for repair in &page.repairs {
        run.push(Kind::Repair, repair.line, repair.what.clone(), Some("the reader repairs the page's markup".into()));
    }
    run.findings.sort_by_key(|f| (f.kind, f.line));
    let mut tally = NestedTally { findings: run.findings, stale: Vec::new() };
    for d in &errata.differences {
        let ignored: Vec<usize> = d.ignored_start_tags.iter().map(|t| t.line).collect();
        let lists =
            [(&d.nested_lines, Names::Nested), (&d.mark_lines, Names::Marks), (&d.repair_lines, Names::Repairs)];
        for (lines, names) in lists.into_iter().chain([(&ignored, Names::Repairs)]) {
            for &line in lines {
                let used = tally.findings.iter().any(|f| {
                    f.line == line && f.erratum.as_deref() == Some(d.id.as_str()) && Names::of(f.kind) == names
                });
                if !used {
                    tally.stale.push((d.id.clone(), line));
                }
            }
        }
    }
    tally
}

impl Run<'_, '_> {
    /// Where `element` shows: its condition and those of the elements around
    /// it, up to (not including) `stop`.
    fn chain(&self, element: usize, stop: Option<usize>) -> Bdd {
        let mut shows = self.logic.everything().clone();
        let mut at = Some(element);
        while let Some(e) = at {
            if Some(e) == stop {
                break;
            }
            let element = &self.page.elements[e];
            if let Some(show) = &element.show {
                shows = shows.and(&self.logic.cond(show));
            }
            at = element.parent;
        }
        shows
    }

    /// Whether any element from `element` up to `stop` has a show condition.
    fn conditional(&self, element: usize, stop: Option<usize>) -> bool {
        let mut at = Some(element);
        while let Some(e) = at {
            if Some(e) == stop {
                return false;
            }
            if self.page.elements[e].show.is_some() {
                return true;
            }
            at = self.page.elements[e].parent;
        }
        false
    }

    /// Records a comparison; a difference takes the erratum that names its
    /// line in the list for its kind.
    fn push(&mut self, kind: Kind, line: usize, what: String, difference: Option<String>) {
        let erratum = difference.as_ref().and_then(|_| {
            let names = |d: &&Difference| match Names::of(kind) {
                Names::Nested => d.nested_lines.contains(&line),
                Names::Marks => d.mark_lines.contains(&line),
                Names::Repairs => d.names_repair(line),
            };
            self.errata.differences.iter().find(names).map(|d| d.id.clone())
        });
        self.findings.push(Finding { kind, line, what, difference, erratum });
    }

    /// The rule item a top-level page item stands for: the one at its place
    /// in a selection that shows it, when the step agrees there.
    fn pair_top(&self, header: usize, line: usize, shows: &Bdd) -> Result<String, String> {
        let section = &self.page.headers[header].section;
        // Where an erratum lets the whole step differ, look elsewhere first.
        let mut whole = self.logic.everything().clone();
        for d in self.errata.differences.iter().filter(|d| d.steps.contains(section)) {
            whole = whole.and_not(&self.logic.cond(&d.when));
        }
        let mut why = "never shown".to_string();
        for set in [shows.and(&whole), shows.clone()] {
            let Some(cfg) = self.logic.witness(&set) else { continue };
            let order = interpret::turn_order(self.rules, &cfg);
            let comparisons = compare(self.page, self.rules, self.errata, &cfg, &order);
            let Some(c) = comparisons.iter().find(|c| c.section == *section) else { continue };
            let applying: Vec<_> = self.errata.applying(self.rules, &cfg).collect();
            let page: Vec<_> = c
                .page
                .iter()
                .flatten()
                .filter(|i| i.line == line || !applying.iter().any(|d| d.page_lines.contains(&i.line)))
                .collect();
            let rules: Vec<_> =
                c.rules.iter().flatten().filter(|i| !applying.iter().any(|d| d.items.contains(&i.id))).collect();
            if let Some(d) = applying.iter().find(|d| d.page_lines.contains(&line)) {
                why = format!("left out of the comparison by erratum {}", d.id);
                continue;
            }
            let same = page.len() == rules.len() && page.iter().zip(&rules).all(|(p, r)| p.origin == r.origin);
            let command = self.logic.command(&cfg);
            match page.iter().position(|i| i.line == line) {
                Some(at) if same => return Ok(rules[at].id.clone()),
                _ => why = format!("step {section} differs from the rules in `{command}`"),
            }
        }
        Err(why)
    }

    /// Every conditional sub-item and span of a page item with no rule item
    /// to compare with: each differs.
    fn unmapped(&mut self, li: usize, why: &str) {
        let item = &self.page.list_items[li];
        let element = item.element;
        for e in self.spans(li) {
            let line = self.page.elements[e].line;
            self.push(Kind::Span, line, self.span_name(e), Some(format!("its item is not paired: {why}")));
        }
        for &c in &item.children {
            let child = self.page.list_items[c].element;
            if self.conditional(child, Some(element)) {
                let line = self.page.list_items[c].line;
                self.push(Kind::SubItem, line, self.name(child), Some(format!("its parent is not paired: {why}")));
            }
            self.unmapped(c, why);
        }
    }

    /// `li showAcrobats`: an element by its tag and show classes.
    fn name(&self, element: usize) -> String {
        let e = &self.page.elements[element];
        let classes: Vec<&str> =
            e.classes.iter().filter(|c| c.starts_with("show") || c.starts_with("hide")).map(String::as_str).collect();
        let dynamic = if e.show.is_some() && classes.is_empty() { " (data-dynamic-selector)" } else { "" };
        format!("{} {}{dynamic}", e.tag, classes.join(" "))
    }

    fn span_name(&self, element: usize) -> String {
        let text = self.direct(element).0;
        let text: String = text.chars().take(40).collect();
        format!("{} \"{}\"", self.name(element), text.trim())
    }

    /// The conditional inline elements of list item `li`, in page order
    /// (publisher labels left out).
    fn spans(&self, li: usize) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &r in &self.page.list_items[li].runs {
            for &e in &self.page.runs[r].via {
                let element = &self.page.elements[e];
                if element.show.is_some() && !element.label && !out.contains(&e) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// The text and marker labels directly in `element`: in runs whose
    /// innermost conditional element it is.
    fn direct(&self, element: usize) -> (String, Vec<String>) {
        let (mut text, mut markers) = (String::new(), Vec::new());
        for run in &self.page.runs {
            let innermost = run.via.iter().rev().find(|&&e| self.page.elements[e].show.is_some());
            if innermost == Some(&element) {
                markers.extend(MARKER.captures_iter(&run.text).map(|c| decode(c[1].trim())));
                text.push_str(&MARKER.replace_all(&run.text, ""));
            }
        }
        (decode(&text.replace(['\n', '\r'], "")), markers)
    }

    /// Compares page list item `li` with rule item `rule`; `shows` is where
    /// the page shows `li`.
    fn item(&mut self, li: usize, rule: &Item, shows: &Bdd) {
        let element = self.page.list_items[li].element;
        let line = self.page.list_items[li].line;
        let difference = self.marks_differ(element, &rule.foreign, shows);
        self.push(Kind::Mark, line, format!("{} = `{}`", self.name(element), rule.id), difference);
        let mut page_markers: Vec<(String, Bdd)> = Vec::new();
        // Unconditional markers of the item's own text.
        for r in self.page.list_items[li].runs.clone() {
            let run = &self.page.runs[r];
            if run.via.iter().all(|&e| self.page.elements[e].show.is_none()) {
                page_markers.extend(MARKER.captures_iter(&run.text).map(|c| (marker_kind(&c[1]), shows.clone())));
            }
        }
        // Spans and sub-items in page order: the rule item's sub-items that
        // they stand for must come in the same order.
        let mut parts: Vec<(usize, Part)> = self.spans(li).into_iter().map(|e| (e, Part::Span(e))).collect();
        parts
            .extend(self.page.list_items[li].children.iter().map(|&c| (self.page.list_items[c].element, Part::Sub(c))));
        parts.sort_by_key(|&(element, _)| element);
        let mut order = Order::default();
        for (_, part) in parts {
            match part {
                Part::Span(e) => self.span(li, e, rule, shows, &mut order, &mut page_markers),
                Part::Sub(c) => self.sub_item(li, c, rule, shows, &mut order),
            }
        }
        self.marked_text_parts(li, rule, shows);
        // Every marker of the rules is one the page shows where they do.
        for m in &rule.markers {
            let cond = shows.and(&self.logic.cond(&m.when));
            if cond.is_false() {
                continue;
            }
            let kind = marker_kind(&m.label);
            let found = page_markers.iter().any(|(k, c)| *k == kind && same(c, &cond));
            let line = self.page.list_items[li].line;
            let difference =
                (!found).then(|| "the page item has no such marker with an equivalent condition".to_string());
            self.push(Kind::RuleMarker, line, format!("`{}` marker {}", rule.id, m.label), difference);
        }
    }

    /// Compares conditional span `e` of page list item `li` with rule item
    /// `rule`: a marker, a text variant, words that hold wherever the item
    /// shows, or an aside that the rules write as a sub-item.
    fn span(
        &mut self,
        li: usize,
        e: usize,
        rule: &Item,
        shows: &Bdd,
        order: &mut Order,
        page_markers: &mut Vec<(String, Bdd)>,
    ) {
        let element = self.page.list_items[li].element;
        let cond = shows.and(&self.chain(e, Some(element)));
        // Where the span around it shows (the item, or an outer span).
        let around = match self.page.elements[e].parent {
            Some(p) if p != element => shows.and(&self.chain(p, Some(element))),
            _ => shows.clone(),
        };
        let (text, markers) = self.direct(e);
        let line = self.page.elements[e].line;
        let what = self.span_name(e);
        if !markers.is_empty() {
            let mut missing = Vec::new();
            for label in &markers {
                let kind = marker_kind(label);
                page_markers.push((kind.clone(), cond.clone()));
                // A marker the page can never show matches none in the rules.
                let found = cond.is_false()
                    || rule
                        .markers
                        .iter()
                        .any(|m| marker_kind(&m.label) == kind && same(&shows.and(&self.logic.cond(&m.when)), &cond));
                if !found {
                    missing.push(label.clone());
                }
            }
            let difference = (!missing.is_empty())
                .then(|| format!("`{}` has no marker {} with an equivalent condition", rule.id, missing.join(", ")));
            self.push(Kind::Span, line, what, difference);
            self.span_marks(e, rule, &cond);
            return;
        }
        if !text.chars().any(char::is_alphanumeric) {
            // Spacing or punctuation only, or a wrapper of other spans.
            self.span_marks(e, rule, &cond);
            return;
        }
        // The rule item whose foreign marks the span's own must be.
        let mut stands_for = rule;
        let difference = if cond.is_false() {
            Some("never shown: its condition contradicts its item's".to_string())
        } else if same(&cond, &around)
            || self.same_word(li, e, &text, &around)
            || std::iter::once(rule).chain(&rule.children).any(|r| self.variant(r, &around, &cond))
        {
            None
        } else {
            // An aside the rules write as a sub-item, in the page's order.
            match order.aside(&self.asides(rule, shows, &cond)) {
                Ok(j) => {
                    stands_for = &rule.children[j];
                    None
                }
                Err(Some(j)) => Some(format!("`{}` has it as `{}`, in another order", rule.id, rule.children[j].id)),
                Err(None) => Some(format!(
                    "`{}` has no text variant or sub-item with an equivalent condition (a {}-part wording)",
                    rule.id,
                    if self.edition_only(&around, &cond) { "missing edition" } else { "module-conditional" }
                )),
            }
        };
        self.push(Kind::Span, line, what, difference);
        self.span_marks(e, stands_for, &cond);
    }

    /// Spans of list item `li` with a foreign mark and no condition
    /// (`<span class="markC2"> or plague source</span>`): a mark on a part of
    /// the text of `rule`, or of the sub-item the span around it stands for.
    fn marked_text_parts(&mut self, li: usize, rule: &Item, shows: &Bdd) {
        let element = self.page.list_items[li].element;
        let mut marked: Vec<usize> = Vec::new();
        for &r in &self.page.list_items[li].runs {
            for &e in &self.page.runs[r].via {
                let x = &self.page.elements[e];
                if x.show.is_none() && x.tag == "span" && self.own_mark(e) && !marked.contains(&e) {
                    marked.push(e);
                }
            }
        }
        for e in marked {
            let cond = shows.and(&self.chain(e, Some(element)));
            if cond.is_false() {
                continue;
            }
            let mut at = self.page.elements[e].parent;
            let (id, foreign) = loop {
                match at {
                    Some(x) if x != element => match self.marks_of.get(&x) {
                        Some(found) => break found.clone(),
                        None => at = self.page.elements[x].parent,
                    },
                    _ => break (rule.id.clone(), rule.foreign.clone()),
                }
            };
            let difference = self.marks_differ(e, &foreign, &cond);
            let x = &self.page.elements[e];
            let text: String =
                self.page.runs.iter().filter(|r| r.via.last() == Some(&e)).map(|r| r.text.as_str()).collect();
            let what = format!("span {} \"{}\" = `{id}`", x.classes.join(" "), decode(text.trim()));
            self.push(Kind::Mark, x.line, what, difference);
        }
    }

    /// Whether element `e` has a foreign mark (`markC1`) of its own.
    fn own_mark(&self, e: usize) -> bool {
        self.rules.catalog.editions.iter().any(|x| self.page.elements[e].classes.contains(&mark(&x.id)))
    }

    /// The sub-items of `rule` that an aside shown where `cond` holds may
    /// stand for: those with an equivalent condition.
    fn asides(&self, rule: &Item, shows: &Bdd, cond: &Bdd) -> Vec<usize> {
        (0..rule.children.len()).filter(|&j| same(&shows.and(&self.logic.cond(&rule.children[j].when)), cond)).collect()
    }

    /// Where span `e` has a foreign mark of its own, the marks on it and
    /// around it are those of `rule` (its item, or the sub-item it stands
    /// for) wherever it shows (`cond`).
    fn span_marks(&mut self, e: usize, rule: &Item, cond: &Bdd) {
        self.marks_of.insert(e, (rule.id.clone(), rule.foreign.clone()));
        if !self.own_mark(e) || cond.is_false() {
            return;
        }
        let difference = self.marks_differ(e, &rule.foreign, cond);
        let what = format!("{} = `{}`", self.span_name(e), rule.id);
        self.push(Kind::Mark, self.page.elements[e].line, what, difference);
    }

    /// In the editions where `element` can show (within `shows`), whether
    /// the page marks it foreign (on it or around it) as `foreign` says.
    fn marks_differ(&self, element: usize, foreign: &[EditionId], shows: &Bdd) -> Option<String> {
        let (mut page_only, mut rules_only) = (Vec::new(), Vec::new());
        for (e, info) in self.rules.catalog.editions.iter().enumerate() {
            let edition = EditionId(e as u8);
            if shows.and(&self.logic.edition(edition)).is_false() {
                continue;
            }
            let class = mark(&info.id);
            let mut marked = false;
            let mut at = Some(element);
            while let Some(x) = at {
                marked |= self.page.elements[x].classes.contains(&class);
                at = self.page.elements[x].parent;
            }
            match (marked, foreign.contains(&edition)) {
                (true, false) => page_only.push(info.id.as_str()),
                (false, true) => rules_only.push(info.id.as_str()),
                _ => {}
            }
        }
        let mut parts = Vec::new();
        if !page_only.is_empty() {
            parts.push(format!("the page marks it foreign in {}, the rules do not", page_only.join(", ")));
        }
        if !rules_only.is_empty() {
            parts.push(format!("the rules mark it foreign in {}, the page does not", rules_only.join(", ")));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// Pairs sub-item `c` of page list item `li` with the first sub-item of
    /// `rule` at or after `order` whose condition is equivalent, and compares
    /// the two.
    fn sub_item(&mut self, li: usize, c: usize, rule: &Item, shows: &Bdd, order: &mut Order) {
        let element = self.page.list_items[li].element;
        let child = self.page.list_items[c].element;
        let cond = shows.and(&self.chain(child, Some(element)));
        let conditional = self.conditional(child, Some(element));
        let line = self.page.list_items[c].line;
        let what = self.name(child);
        let equivalent = |r: &Item| same(&shows.and(&self.logic.cond(&r.when)), &cond);
        // A sub-list inside a conditional span (the page's aside) belongs to
        // the rule sub-item that span stands for.
        if let Some(holder) = self.holder(child, element, rule, shows) {
            let inner = &rule.children[holder];
            let within = shows.and(&self.logic.cond(&inner.when));
            let found = inner.children.iter().position(|r| same(&within.and(&self.logic.cond(&r.when)), &cond));
            if let Some(j) = found {
                if conditional {
                    self.push(Kind::SubItem, line, format!("{what} = `{}`", inner.children[j].id), None);
                }
                self.item(c, &inner.children[j], &cond);
                return;
            }
        }
        let found = rule.children.iter().skip(order.next).position(equivalent).map(|j| j + order.next);
        match found {
            Some(j) => {
                order.sub_item(j);
                if conditional {
                    self.push(Kind::SubItem, line, format!("{what} = `{}`", rule.children[j].id), None);
                }
                self.item(c, &rule.children[j], &cond);
            }
            None => {
                let earlier = rule.children.iter().take(order.next).position(equivalent);
                let difference = match earlier {
                    Some(j) => format!("`{}` has it as `{}`, in another order", rule.id, rule.children[j].id),
                    None => format!("`{}` has no sub-item with an equivalent condition", rule.id),
                };
                // Unconditional sub-items count only where they differ.
                self.push(Kind::SubItem, line, what, Some(difference.clone()));
                match earlier {
                    Some(j) => self.item(c, &rule.children[j], &cond),
                    None => self.unmapped(c, &format!("line {line}: {difference}")),
                }
            }
        }
    }

    /// Whether the spans of `li` with the same text as span `e` (`showC1`
    /// "deel", `showC2` "deel") together show wherever `around` does: then
    /// the words do not depend on the condition.
    fn same_word(&self, li: usize, e: usize, text: &str, around: &Bdd) -> bool {
        let element = self.page.list_items[li].element;
        let mut union = self.chain(e, Some(element)).and(around);
        for other in self.spans(li) {
            if other != e && self.direct(other).0.trim() == text.trim() {
                union = union.or(&self.chain(other, Some(element)).and(around));
            }
        }
        same(&union, around)
    }

    /// The rule sub-item standing for the innermost conditional span between
    /// page element `child` and its item `element`, if any.
    fn holder(&self, child: usize, element: usize, rule: &Item, shows: &Bdd) -> Option<usize> {
        let mut at = self.page.elements[child].parent;
        while let Some(e) = at {
            if e == element {
                return None;
            }
            let x = &self.page.elements[e];
            if matches!(x.tag.as_str(), "span" | "div") && x.show.is_some() {
                let cond = shows.and(&self.chain(e, Some(element)));
                return rule.children.iter().position(|r| same(&shows.and(&self.logic.cond(&r.when)), &cond));
            }
            at = x.parent;
        }
        None
    }

    /// Whether a text variant of `rule` shows exactly where `cond` does.
    fn variant(&self, rule: &Item, shows: &Bdd, cond: &Bdd) -> bool {
        rule.text.0.iter().any(|part| match part {
            WordingPart::ByEdition(alternatives) => alternatives.iter().any(|(editions, _)| {
                let these =
                    editions.iter().fold(self.logic.everything().not(), |acc, &e| acc.or(&self.logic.edition(e)));
                same(&shows.and(&these), cond)
            }),
            WordingPart::Literal(_) => false,
        })
    }

    /// Whether `cond` is `shows` narrowed to some editions.
    fn edition_only(&self, shows: &Bdd, cond: &Bdd) -> bool {
        let editions = self.rules.catalog.editions.len();
        (1..1u32 << editions).any(|mask| {
            let these = (0..editions).filter(|e| mask & (1 << e) != 0).fold(self.logic.everything().not(), |acc, e| {
                acc.or(&self.logic.edition(carcassonne_rules_core::EditionId(e as u8)))
            });
            same(&shows.and(&these), cond)
        })
    }

    /// No step's placeholder shows together with one of its items.
    fn placeholders(&mut self) {
        let page = self.page;
        for p in &page.placeholders {
            let shows = self.chain(p.element, None);
            let mut clash: Option<usize> = None;
            for top in self.page.items.iter().filter(|t| Some(t.header) == p.header) {
                if !shows.and(&self.chain(top.element, None)).is_false() {
                    clash = Some(top.line);
                    break;
                }
            }
            let both = clash.map(|line| {
                let witness =
                    self.logic
                        .witness(&shows.and(&self.chain(
                            self.page.items.iter().find(|t| t.line == line).map_or(p.element, |t| t.element),
                            None,
                        )))
                        .map(|s| self.logic.command(&s))
                        .unwrap_or_default();
                format!("shows together with the item at line {line}, e.g. `{witness}`")
            });
            let what = self.name(p.element);
            self.findings.push(Finding {
                kind: Kind::Placeholder,
                line: p.line,
                what,
                difference: both,
                erratum: None,
            });
            if let Some(f) = self.findings.last_mut()
                && f.difference.is_some()
            {
                f.erratum =
                    self.errata.differences.iter().find(|d| d.nested_lines.contains(&p.line)).map(|d| d.id.clone());
            }
        }
    }
}
