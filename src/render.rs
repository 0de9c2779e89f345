//! Printing a turn order as text, Markdown or JSON.

use std::fmt::Write;

use crate::catalog::Catalog;
use crate::turn::{Entry, Repeat, StepOrder, TurnOrder};

pub const NO_ACTIONS: &str = "There are no actions in this step.";
pub const CHOOSE_ONE: &str = "You may do exactly one of the following:";

/// ", HiG rules" style note for headers, when the rules have variants.
fn variant_note(order: &TurnOrder) -> String {
    if order.variant.is_empty() { String::new() } else { format!(" ({} rules)", order.variant.to_uppercase()) }
}

pub fn json(order: &TurnOrder) -> String {
    serde_json::to_string_pretty(order).expect("a turn order always serializes")
}

pub fn text(order: &TurnOrder) -> String {
    let mut out = String::new();
    let modules = if order.modules.is_empty() {
        "none".to_string()
    } else {
        order.modules.join(", ")
    };
    let _ = writeln!(
        out,
        "Order of play: edition {}{}, modules: {modules}",
        order.edition,
        variant_note(order)
    );
    for (title, items) in [
        ("Notes", &order.notes),
        ("Setup", &order.setup),
        ("At any time during your turn", &order.any_time),
    ] {
        if !items.is_empty() {
            let _ = writeln!(out, "\n{title}");
            text_items(&mut out, items, 1, false);
        }
    }
    for phase in &order.phases {
        let _ = writeln!(out, "\n{}. {}", phase.id, phase.title);
        for step in &phase.steps {
            let _ = writeln!(
                out,
                "  Step {}: {}{}",
                step.id,
                step.title,
                repeat_note(step)
            );
            if step.items.is_empty() {
                let _ = writeln!(out, "    {NO_ACTIONS}");
            } else if step.choose_one {
                let _ = writeln!(out, "    {CHOOSE_ONE}");
            }
            text_items(&mut out, &step.items, 2, true);
        }
    }
    if !order.final_scoring.is_empty() {
        let _ = writeln!(out, "\nFinal scoring");
        text_items(&mut out, &order.final_scoring, 1, false);
    }
    out
}

fn repeat_note(step: &StepOrder) -> &'static str {
    match step.repeat {
        None => "",
        Some(Repeat::DoubleTurn) => " (once, or twice on a double turn)",
        Some(Repeat::PerFeature) => " (once per completed feature)",
    }
}

fn text_items(out: &mut String, items: &[Entry], depth: usize, numbered: bool) {
    for (n, item) in items.iter().enumerate() {
        let indent = "  ".repeat(depth);
        let bullet = if numbered {
            format!("{}.", n + 1)
        } else {
            "-".to_string()
        };
        let _ = writeln!(
            out,
            "{indent}{bullet} {}{}",
            describe(item),
            origin_note(item)
        );
        text_items(out, &item.children, depth + 1, false);
    }
}

/// The item's text with its markers and, when foreign, a note saying so.
fn describe(item: &Entry) -> String {
    let mut s = item.text.trim().to_string();
    for marker in &item.markers {
        s.push_str(&format!(" [{marker}]"));
    }
    if item.foreign {
        s.push_str(" (from another edition)");
    }
    s
}

fn origin_note(item: &Entry) -> String {
    if item.origin == "base" {
        String::new()
    } else {
        format!("  ({})", item.origin)
    }
}

pub fn markdown(order: &TurnOrder) -> String {
    let mut out = String::new();
    let modules = if order.modules.is_empty() {
        "none".to_string()
    } else {
        order
            .modules
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        out,
        "# Order of play\n\nEdition **{}**{}, modules: {modules}.",
        order.edition,
        variant_note(order)
    );
    for (title, items) in [
        ("Notes", &order.notes),
        ("Setup", &order.setup),
        ("At any time during your turn", &order.any_time),
    ] {
        if !items.is_empty() {
            let _ = writeln!(out, "\n## {title}\n");
            markdown_items(&mut out, items, 0, false);
        }
    }
    for phase in &order.phases {
        let _ = writeln!(out, "\n## {}. {}", phase.id, phase.title);
        for step in &phase.steps {
            let _ = writeln!(
                out,
                "\n### Step {}: {}{}\n",
                step.id,
                step.title,
                repeat_note(step)
            );
            if step.items.is_empty() {
                let _ = writeln!(out, "*{NO_ACTIONS}*");
            } else if step.choose_one {
                let _ = writeln!(out, "{CHOOSE_ONE}\n");
            }
            markdown_items(&mut out, &step.items, 0, true);
        }
    }
    if !order.final_scoring.is_empty() {
        let _ = writeln!(out, "\n## Final scoring\n");
        markdown_items(&mut out, &order.final_scoring, 0, false);
    }
    out
}

fn markdown_items(out: &mut String, items: &[Entry], depth: usize, numbered: bool) {
    for item in items {
        let indent = "   ".repeat(depth);
        let bullet = if numbered { "1." } else { "-" };
        let mut line = item.text.trim().to_string();
        for marker in &item.markers {
            line.push_str(&format!(" **{marker}**"));
        }
        if item.foreign {
            line.push_str(" *(from another edition)*");
        }
        if item.origin != "base" {
            line.push_str(&format!(" — *{}*", item.origin));
        }
        let _ = writeln!(out, "{indent}{bullet} {line}");
        markdown_items(out, &item.children, depth + 1, false);
    }
}

/// `modules` as text: one expansion per paragraph.
pub fn catalog_text(catalog: &Catalog) -> String {
    let mut out = String::new();
    for x in &catalog.expansions {
        let _ = writeln!(out, "{} — {} [{}]", x.id, x.name, x.editions.join(", "));
        for m in &x.modules {
            let _ = writeln!(out, "  {} — {}", m.id, m.name);
        }
    }
    out
}

pub fn catalog_json(catalog: &Catalog) -> String {
    serde_json::to_string_pretty(catalog).expect("a catalog always serializes")
}
