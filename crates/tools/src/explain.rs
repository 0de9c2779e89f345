//! Why an item shows or not for one selection: its step, its parents' and its
//! own conditions evaluated term by term (derived flags opened up), where
//! `check` placed it and why (read off the model), its origin, and the
//! smallest change of the selection that would flip it (from the BDDs of
//! [`Logic`], so however many modules it takes).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use carcassonne_rules_core::{Config, EditionId, ModuleId};

use carcassonne_rules_compiler::codes::Code;
use carcassonne_rules_compiler::diagnostics::{self, Diagnostic, Sources, Span, line_col, suggestion};
use carcassonne_rules_compiler::logic::{BUDGET, Budget, Logic, TooComplex};
use carcassonne_rules_compiler::model::{Anchored, Cond, FlagIx, Item, Placed, Rules, Step, WhyEnd};
use carcassonne_rules_core::escape::terminal;

/// The explanation of `item` for `cfg`, or why there is none (an unknown id,
/// with a suggestion).
pub fn explain(rules: &Rules, sources: &Sources, item: &str, cfg: &Config) -> Result<String, String> {
    explain_within(rules, sources, item, cfg, Budget::new(BUDGET))
        .map_err(|refused| diagnostics::render(std::slice::from_ref(&refused), false))
}

/// [`explain`], charging `budget` (the run's, which `check` spent from) for
/// its search and its output.
pub fn explain_within(
    rules: &Rules,
    sources: &Sources,
    item: &str,
    cfg: &Config,
    budget: Budget,
) -> Result<String, Diagnostic> {
    let Some((step, path)) = find(rules, item) else {
        let ids = rules.items().into_iter().map(|i| i.id.as_str());
        return Err(Diagnostic::global(
            Code::CommandLine,
            match suggestion(item, ids) {
                Some(help) => format!("unknown item `{item}`; {help}"),
                None => format!("unknown item `{item}`"),
            },
        ));
    };
    let logic = Logic::within(rules, budget);
    // Within the logic's budget, as `check` decided the same conditions.
    // Past it, refused at the item's own condition (or its id).
    let too_complex = |_| {
        let message = format!("the conditions of `{item}` are too complex to explain");
        let help = format!(
            "explain decides them, searches the smallest change and writes its answer within a budget of \
             {BUDGET} steps for the whole run"
        );
        match path.last().map(|i| i.spans.when.unwrap_or(i.spans.id)) {
            Some(span) => Diagnostic::at(
                Code::TooComplex,
                sources,
                span,
                message,
                "explaining it takes more work than a run may do",
            ),
            None => Diagnostic::global(Code::TooComplex, message),
        }
        .with_help(help)
    };
    let mut shows_set = logic.everything().clone();
    for c in step.map(|s| &s.when).into_iter().chain(path.iter().map(|i| &i.when)) {
        shows_set = logic.try_cond(c).and_then(|own| logic.and(&shows_set, &own)).map_err(too_complex)?;
    }
    let shows = |cfg: &Config| logic.contains(&shows_set, cfg);
    let shown = shows(cfg);
    let mut out = String::new();
    let place = step.map_or_else(|| section_of(rules, item).to_string(), |s| format!("step {}", s.id));
    push_line(&mut out, &format!("`{item}` in {place}: {}", if shown { "shown" } else { "not shown" }));
    let explainer = Explainer {
        rules,
        cfg,
        opened: RefCell::default(),
        lines: Cell::new(0),
        written: Cell::new(0),
        budget: logic.budget(),
    };
    if let Some(step) = step {
        push_line(&mut out, &format!("  step {} exists: {}", step.id, explainer.value(&step.when)));
        if step.when != Cond::True {
            explainer.tree(&step.when, 2, &mut out);
        }
    }
    for node in &path {
        let whose = if node.id == item { "own condition".to_string() } else { format!("parent `{}`", node.id) };
        push_line(&mut out, &format!("  {whose}: {}", explainer.line(&node.when)));
        if node.when != Cond::True {
            explainer.tree(&node.when, 2, &mut out);
        }
    }
    let left_out = explainer.lines.get() - explainer.written.get();
    if left_out > 0 {
        push_line(&mut out, &format!("  … and {left_out} more lines of its conditions"));
    }
    if let Some(placed) = path.last().map(|i| &i.placed) {
        let list = match path.len() {
            1 => format!("the top level of {place}"),
            _ if placed.under.is_some() => "its sub-items".to_string(),
            n => format!("the sub-items of `{}`", path[n - 2].id),
        };
        push_line(&mut out, &format!("  placed: {}", placement(placed, &list, sources)));
    }
    if shown {
        let origin = origin(rules, &path, cfg);
        push_line(&mut out, &format!("  origin: {origin}"));
    }
    let support = support(rules, step, &path);
    let flips =
        if shown { logic.and_not(logic.everything(), &shows_set).map_err(too_complex)? } else { shows_set.clone() };
    match flip(rules, &logic, &flips, cfg, &support).map_err(too_complex)? {
        Some((changes, flipped)) => {
            let what = if shown { "hides" } else { "shows" };
            push_line(&mut out, &format!("  smallest change that {what} it: {}", changes.join(", ")));
            push_line(
                &mut out,
                &format!("    {}", carcassonne_rules_compiler::command::order(&rules.catalog, &flipped)),
            );
        }
        None => {
            let what = if shown { "hides" } else { "shows" };
            push_line(&mut out, &format!("  no change of the modules or the edition {what} it"));
        }
    }
    Ok(out)
}

/// The step holding `id` (none for notes, setup, any time, final scoring)
/// and the path of items from the top of its list down to it.
fn find<'r>(rules: &'r Rules, id: &str) -> Option<(Option<&'r Step>, Vec<&'r Item>)> {
    fn path<'r>(items: &'r [Item], id: &str, out: &mut Vec<&'r Item>) -> bool {
        for item in items {
            out.push(item);
            if item.id == id || path(&item.children, id, out) {
                return true;
            }
            out.pop();
        }
        false
    }
    let mut out = Vec::new();
    for step in rules.steps() {
        if path(&step.items, id, &mut out) {
            return Some((Some(step), out));
        }
    }
    for (_, items) in rules.sections.iter() {
        if path(items, id, &mut out) {
            return Some((None, out));
        }
    }
    None
}

fn section_of(rules: &Rules, id: &str) -> &'static str {
    fn has(items: &[Item], id: &str) -> bool {
        items.iter().any(|i| i.id == id || has(&i.children, id))
    }
    rules.sections.iter().find(|(_, items)| has(items, id)).map_or("?", |(section, _)| section.name())
}

/// The item's origin for `cfg`, as the turn order gives it.
fn origin(rules: &Rules, path: &[&Item], cfg: &Config) -> String {
    let mut origin = "base".to_string();
    for item in path {
        if let Some(m) = item.origin(&rules.flags, cfg) {
            origin = rules.catalog.modules.get(usize::from(m.0)).map_or(origin, |m| m.id.clone());
        }
    }
    origin
}

/// The modules that the item's visibility depends on.
fn support(rules: &Rules, step: Option<&Step>, path: &[&Item]) -> Vec<ModuleId> {
    let mut modules = Vec::new();
    let conds = step.map(|s| &s.when).into_iter().chain(path.iter().map(|i| &i.when));
    for cond in conds {
        for m in cond.modules(&rules.flags) {
            if !modules.contains(&m) {
                modules.push(m);
            }
        }
    }
    modules
}

/// Where `check` placed the item in `list`, and why, with the place of each
/// reference that did it.
fn placement(placed: &Placed, list: &str, sources: &Sources) -> String {
    let at = |span: Span| {
        let (line, col) = line_col(sources.text(span.file), span.start);
        format!(" ({}:{line}:{col})", sources.name(span.file))
    };
    let mut out = String::new();
    if let Some((parent, span)) = &placed.under {
        out.push_str(&format!("under `{parent}`{}, ", at(*span)));
    }
    out.push_str(&match &placed.anchor {
        Anchored::After(x, span) => format!("after `{x}`{}", at(*span)),
        Anchored::Before(x, span) => format!("before `{x}`{}", at(*span)),
        Anchored::Above(x, _) => format!("after `{x}`, the item above it in its file"),
        Anchored::End(why) => {
            let why = match why {
                WhyEnd::FirstInFile => "it is first in its list in its file".to_string(),
                WhyEnd::AboveElsewhere { id, parent, .. } => {
                    let there =
                        parent.as_ref().map_or_else(|| "at the top level".to_string(), |p| format!("under `{p}`"));
                    format!("`{id}`, the item above it in its file, is {there}")
                }
            };
            format!("at the end of {list}, in file order (the base game's first): {why}")
        }
    });
    out
}

/// The fewest changes that move `cfg` into `flips` (toggled modules of
/// `support`; failing that, another edition in its default variant with
/// modules toggled), and the selection they make.
fn flip(
    rules: &Rules,
    logic: &Logic,
    flips: &biodivine_lib_bdd::Bdd,
    cfg: &Config,
    support: &[ModuleId],
) -> Result<Option<(Vec<String>, Config)>, TooComplex> {
    let name = |m: ModuleId| rules.catalog.modules.get(usize::from(m.0)).map_or("?", |m| m.id.as_str());
    let describe = |toggled: &[ModuleId]| -> Vec<String> {
        toggled.iter().map(|&m| format!("{} {}", if cfg.has(m) { "remove" } else { "add" }, name(m))).collect()
    };
    if let Some((toggled, flipped)) = logic.nearest(flips, cfg, support)? {
        return Ok(Some((describe(&toggled), flipped)));
    }
    let mut best: Option<(&String, Vec<ModuleId>, Config)> = None;
    for (e, edition) in rules.catalog.editions.iter().enumerate().filter(|&(e, _)| EditionId(e as u8) != cfg.edition) {
        let moved = Config { edition: EditionId(e as u8), variant: edition.default_variant, ..*cfg };
        if let Some((toggled, flipped)) = logic.nearest(flips, &moved, support)?
            && best.as_ref().is_none_or(|(_, fewest, _)| toggled.len() < fewest.len())
        {
            best = Some((&edition.id, toggled, flipped));
        }
    }
    let Some((id, toggled, flipped)) = best else { return Ok(None) };
    let mut changes = vec![format!("edition {id} instead")];
    changes.extend(describe(&toggled));
    Ok(Some((changes, flipped)))
}

/// Adds one line of the explanation: whatever the names in it hold, it stays
/// one line, its control characters shown (`\u{1b}`), and at most
/// [`MAX_LINE_CHARS`] characters (the rest counted): a condition of 100,000
/// terms is not printed whole.
fn push_line(out: &mut String, line: &str) {
    let shown = match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => {
            let more = line[cut..].chars().count();
            format!("{} … and {more} more characters", &line[..cut])
        }
        None => line.to_string(),
    };
    out.push_str(&terminal::line(&shown));
    out.push('\n');
}

/// The most characters of one line of an explanation.
const MAX_LINE_CHARS: usize = 1_000;

/// The most lines of conditions an explanation prints; the rest are counted.
const MAX_TREE_LINES: usize = 1_000;

/// Prints conditions in the DSL with their values for one selection. Each
/// derived flag is opened once (a flag named again says so), and at most
/// [`MAX_TREE_LINES`] lines are written: rules that nest flags in flags
/// would otherwise explain in exponential time and gigabytes.
struct Explainer<'a> {
    rules: &'a Rules,
    cfg: &'a Config,
    /// The derived flags opened up already.
    opened: RefCell<HashSet<FlagIx>>,
    /// The lines of conditions, written or not.
    lines: Cell<usize>,
    /// The lines of conditions written.
    written: Cell<usize>,
    /// The run's budget, charged for each line's work.
    budget: &'a Budget,
}

impl Explainer<'_> {
    fn value(&self, cond: &Cond) -> bool {
        cond.eval(&self.rules.flags, self.cfg)
    }

    fn line(&self, cond: &Cond) -> String {
        format!("{} → {}", self.rules.dsl(cond), self.value(cond))
    }

    /// Writes one line of conditions, while there is room and budget
    /// (what is left out is counted either way).
    fn push(&self, out: &mut String, line: impl FnOnce() -> String) {
        self.lines.set(self.lines.get() + 1);
        if self.written.get() < MAX_TREE_LINES {
            let line = line();
            // Rendering a part took work in its size: past the budget, the
            // line is left out (and the search after it refused).
            if self.budget.charge(line.len()).is_ok() {
                self.written.set(self.written.get() + 1);
                push_line(out, &line);
            }
        }
    }

    /// The terms of `cond`, one a line, derived flags opened up (once).
    fn tree(&self, cond: &Cond, indent: usize, out: &mut String) {
        let pad = "  ".repeat(indent);
        match cond {
            Cond::All(parts) | Cond::Any(parts) => {
                for part in parts {
                    self.push(out, || format!("{pad}{}", self.line(part)));
                    if matches!(part, Cond::All(_) | Cond::Any(_) | Cond::Not(_) | Cond::Flag(_)) {
                        self.tree(part, indent + 1, out);
                    }
                }
            }
            Cond::Not(inner) => self.tree(inner, indent, out),
            Cond::Flag(f) => {
                let Some(flag) = self.rules.flags.get(*f) else { return };
                if !self.opened.borrow_mut().insert(*f) {
                    self.push(out, || format!("{pad}{} (opened above)", flag.id));
                    return;
                }
                self.push(out, || format!("{pad}{} = {}", flag.id, self.line(&flag.when)));
                self.tree(&flag.when, indent + 1, out);
            }
            _ => {}
        }
    }
}
