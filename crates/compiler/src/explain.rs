//! Why an item shows or not for one selection: its step, its parents' and its
//! own conditions evaluated term by term (derived flags opened up), where its
//! author placed it, its origin, and the smallest change of the selection that
//! would flip it.

use std::fmt::Write;

use carcassonne_rules_core::{Config, EditionId, ModuleId, ModuleSet};

use crate::diagnostics::{Sources, line_col, suggestion};
use crate::model::{Cond, Item, Rules, Step};
use crate::syntax::Spans;

/// Changes of the selection tried, at most this many at once.
const MAX_CHANGES: usize = 3;

/// The explanation of `item` for `cfg`, or why there is none (an unknown id,
/// with a suggestion).
pub fn explain(rules: &Rules, spans: &Spans, sources: &Sources, item: &str, cfg: &Config) -> Result<String, String> {
    let Some((step, path)) = find(rules, item) else {
        let ids = rules.items().into_iter().map(|i| i.id.as_str());
        return Err(match suggestion(item, ids) {
            Some(help) => format!("unknown item `{item}`; {help}"),
            None => format!("unknown item `{item}`"),
        });
    };
    let shows = |cfg: &Config| {
        step.is_none_or(|s| s.when.eval(&rules.flags, cfg)) && path.iter().all(|i| i.when.eval(&rules.flags, cfg))
    };
    let shown = shows(cfg);
    let mut out = String::new();
    let place = step.map_or_else(|| section_of(rules, item).to_string(), |s| format!("step {}", s.id));
    let _ = writeln!(out, "`{item}` in {place}: {}", if shown { "shown" } else { "not shown" });
    let explainer = Explainer { rules, cfg };
    if let Some(step) = step {
        let _ = writeln!(out, "  step {} exists: {}", step.id, explainer.value(&step.when));
        if step.when != Cond::True {
            explainer.tree(&step.when, 2, &mut out);
        }
    }
    for node in &path {
        let whose = if node.id == item { "own condition".to_string() } else { format!("parent `{}`", node.id) };
        let _ = writeln!(out, "  {whose}: {}", explainer.line(&node.when));
        if node.when != Cond::True {
            explainer.tree(&node.when, 2, &mut out);
        }
    }
    if let Some(spans) = spans.items.get(item) {
        let at = spans.placed_by.map(|span| {
            let (line, col) = line_col(sources.text(span.file), span.start);
            format!(" ({}:{line}:{col})", sources.name(span.file))
        });
        let _ = writeln!(out, "  placed: {}{}", spans.placed, at.unwrap_or_default());
    }
    if shown {
        let origin = origin(rules, &path, cfg);
        let _ = writeln!(out, "  origin: {origin}");
    }
    let support = support(rules, step, &path);
    match flip(rules, cfg, &support, &shows) {
        Some((changes, flipped)) => {
            let what = if shown { "hides" } else { "shows" };
            let _ = writeln!(out, "  smallest change that {what} it: {}", changes.join(", "));
            let _ = writeln!(out, "    {}", rules.catalog.order_command(&flipped));
        }
        None => {
            let _ = writeln!(out, "  no change of up to {MAX_CHANGES} modules or the edition flips it");
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
    for (_, items) in rules.sections() {
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
    rules.sections().into_iter().find(|(_, items)| has(items, id)).map_or("?", |(name, _)| name)
}

/// The item's origin for `cfg`, as the turn order gives it.
fn origin(rules: &Rules, path: &[&Item], cfg: &Config) -> String {
    let mut origin = "base".to_string();
    for item in path {
        if let Some(m) = item.origins.iter().find(|&&m| cfg.has(m)) {
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

/// The fewest changes (toggled modules, or another edition with up to one
/// module toggled) that flip `shows`, and the selection they make.
fn flip(
    rules: &Rules,
    cfg: &Config,
    support: &[ModuleId],
    shows: &dyn Fn(&Config) -> bool,
) -> Option<(Vec<String>, Config)> {
    let now = shows(cfg);
    let name = |m: ModuleId| rules.catalog.modules.get(usize::from(m.0)).map_or("?", |m| m.id.as_str());
    let toggled = |set: &[ModuleId]| {
        let mut modules = ModuleSet::EMPTY;
        for m in cfg.modules.iter() {
            if !set.contains(&m) {
                modules.insert(m);
            }
        }
        for &m in set {
            if !cfg.has(m) {
                modules.insert(m);
            }
        }
        Config { modules, ..*cfg }
    };
    let describe = |set: &[ModuleId]| -> Vec<String> {
        set.iter().map(|&m| format!("{} {}", if cfg.has(m) { "remove" } else { "add" }, name(m))).collect()
    };
    for size in 1..=MAX_CHANGES.min(support.len()) {
        for set in combinations(support, size) {
            let candidate = toggled(&set);
            if shows(&candidate) != now {
                return Some((describe(&set), candidate));
            }
        }
    }
    for (e, edition) in rules.catalog.editions.iter().enumerate() {
        let edition_id = EditionId(e as u8);
        if edition_id == cfg.edition {
            continue;
        }
        let moved = Config { edition: edition_id, variant: edition.default_variant, ..*cfg };
        if shows(&moved) != now {
            return Some((vec![format!("edition {} instead", edition.id)], moved));
        }
        for &m in support {
            let candidate = Config { edition: edition_id, variant: edition.default_variant, ..toggled(&[m]) };
            if shows(&candidate) != now {
                let mut changes = vec![format!("edition {} instead", edition.id)];
                changes.extend(describe(&[m]));
                return Some((changes, candidate));
            }
        }
    }
    None
}

/// Every `size`-element subset of `items`, in order.
fn combinations<T: Copy>(items: &[T], size: usize) -> Vec<Vec<T>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], size - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// Prints conditions in the DSL with their values for one selection.
struct Explainer<'a> {
    rules: &'a Rules,
    cfg: &'a Config,
}

impl Explainer<'_> {
    fn value(&self, cond: &Cond) -> bool {
        cond.eval(&self.rules.flags, self.cfg)
    }

    fn line(&self, cond: &Cond) -> String {
        format!("{} → {}", self.dsl(cond, 0), self.value(cond))
    }

    /// The terms of `cond`, one a line, derived flags opened up.
    fn tree(&self, cond: &Cond, indent: usize, out: &mut String) {
        let pad = "  ".repeat(indent);
        match cond {
            Cond::All(parts) | Cond::Any(parts) => {
                for part in parts {
                    let _ = writeln!(out, "{pad}{}", self.line(part));
                    if matches!(part, Cond::All(_) | Cond::Any(_) | Cond::Not(_) | Cond::Flag(_)) {
                        self.tree(part, indent + 1, out);
                    }
                }
            }
            Cond::Not(inner) => self.tree(inner, indent, out),
            Cond::Flag(f) => {
                if let Some(flag) = self.rules.flags.get(*f) {
                    let _ = writeln!(out, "{pad}{} = {}", flag.id, self.line(&flag.when));
                    self.tree(&flag.when, indent + 1, out);
                }
            }
            _ => {}
        }
    }

    /// `cond` in the DSL; `outer` is the binding strength around it
    /// (0: none, 1: `or`, 2: `and`, 3: `not`).
    fn dsl(&self, cond: &Cond, outer: u8) -> String {
        let catalog = &self.rules.catalog;
        let (text, strength) = match cond {
            Cond::True => ("true".to_string(), 4),
            Cond::False => ("false".to_string(), 4),
            Cond::Module(m) => (catalog.modules.get(usize::from(m.0)).map_or("?".into(), |m| m.id.clone()), 4),
            Cond::Flag(f) => (self.rules.flags.get(*f).map_or("?".into(), |f| f.id.clone()), 4),
            Cond::Edition(e) => {
                (format!("edition == {}", catalog.editions.get(usize::from(e.0)).map_or("?", |e| e.id.as_str())), 4)
            }
            Cond::Variant(v) => {
                (format!("variant == {}", catalog.variants.get(usize::from(v.0)).map_or("?", |v| v.id.as_str())), 4)
            }
            Cond::Not(inner) => (format!("not {}", self.dsl(inner, 3)), 3),
            Cond::All(parts) => (parts.iter().map(|p| self.dsl(p, 2)).collect::<Vec<_>>().join(" and "), 2),
            Cond::Any(parts) => (parts.iter().map(|p| self.dsl(p, 1)).collect::<Vec<_>>().join(" or "), 1),
        };
        if strength < outer { format!("({text})") } else { text }
    }
}
