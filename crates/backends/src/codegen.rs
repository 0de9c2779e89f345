//! Rust source from the checked rules: static tables of everything that does
//! not depend on the selection, named constants for editions, variants,
//! modules, steps, items and markers, one predicate per derived flag, and one
//! dispatch function per section and step that marks what a selection shows
//! in a `Visible` without allocating; and, per language of the rules, a
//! file of its translated tables (`lang`: [`generate_language`]), which the
//! rules' file includes only where asked (`LANGUAGES`, [`generate_with`]).
//!
//! One writer lays out every line of every file, as prost-build's does: a
//! `Writer` (`writer.rs`) writes the items one after another — modules, functions and
//! their `if`s as code blocks, the `static` tables and the catalog as data
//! nested in them (tests too long for a line are broken by `wrap`, strings by
//! `literal`). Nothing is re-parsed or re-formatted. The output stays within
//! 120 columns (bar long string literals' first lines), is deterministic
//! (model order only, no timestamps, `\n` newlines), and names the types it
//! uses through the compiler's own dependency on the core crate, so a renamed
//! type breaks this crate's build rather than the generated code's.

use carcassonne_rules_core::catalog::Catalog;
use carcassonne_rules_core::tables::{Flow, StepId};
use carcassonne_rules_core::{EditionId, Effect, ModuleId, Repeat, Section};

use crate::escape::markdown;
use crate::escape::rust;
use carcassonne_rules_compiler::model::{Cond, Item, Rules, Step};

mod lang;
mod names;
mod writer;

use names::Names;
use writer::{WIDTH, Writer, doc, literal, wrap};

pub use lang::{Languages, feature, generate_language, language_file};

/// The generator's name and version, as the header gives it.
pub const GENERATOR: &str = concat!("carcassonne-rules-compiler ", env!("CARGO_PKG_VERSION"));

/// The path by which the generated code names a type of the core crate,
/// checked here: moving or renaming the type breaks this crate's build rather
/// than the generated code's.
macro_rules! core_path {
    ($module:ident :: $name:ident) => {{
        #[allow(unused_imports)]
        use carcassonne_rules_core::$module::$name as _;
        concat!("carcassonne_rules_core::", stringify!($module), "::", stringify!($name))
    }};
}

/// The Rust source of the rules' dispatch and tables, with no language.
pub fn generate(rules: &Rules) -> String {
    generate_with(rules, &Languages::default())
}

/// The Rust source of the rules' dispatch and tables, and of the list of
/// their `languages` (`LANGUAGES`), each one's tables in a file of its own
/// ([`generate_language`]) that the list's module includes.
pub fn generate_with(rules: &Rules, languages: &Languages<'_>) -> String {
    let names = Names::new(rules);
    let mut out = Writer::default();
    header(rules, &mut out);
    let mut paths = [
        core_path!(catalog::Catalog),
        core_path!(select::Config),
        core_path!(select::EditionId),
        core_path!(order::Effect),
        core_path!(select::ModuleId),
        core_path!(order::Repeat),
        core_path!(select::VariantId),
        core_path!(tables::ItemId),
        core_path!(tables::ItemInfo),
        core_path!(tables::MarkerId),
        core_path!(tables::OriginId),
        core_path!(tables::PhaseInfo),
        core_path!(tables::StepId),
        core_path!(tables::StepInfo),
        core_path!(tables::Tables),
        core_path!(tables::EditionText),
        core_path!(tables::Flow),
        core_path!(lang::LangTable),
        core_path!(lang::LangUnit),
        "std::borrow::Cow",
    ]
    .to_vec();
    // Only rules that give an item a role name it (no unused import).
    if rules.items().iter().any(|item| item.flow.role != Flow::ACTION.role) {
        paths.push(core_path!(tables::Role));
    }
    if rules.items().iter().any(|item| item.flow.actor != Flow::ACTION.actor) {
        paths.push(core_path!(tables::Actor));
    }
    if rules.items().iter().any(|item| item.flow.repeat.is_some()) {
        paths.push(core_path!(tables::ItemRepeat));
    }
    paths.sort_unstable();
    // One `use` a line: a joined list of `tables`' names would pass 120 columns.
    out.line("");
    paths.iter().for_each(|path| out.line(&format!("use {path};")));
    constants(rules, &names, &mut out);
    let (steps, items, markers, origins) = words(rules);
    out.line("");
    out.line(&doc("What one selection shows: bit sets over steps, items, markers and origin candidates."));
    out.line(&format!("pub type Visible = {}<{steps}, {items}, {markers}, {origins}>;", core_path!(visible::Visible)));
    out.line("");
    flags(rules, &names, &mut out);
    out.line("");
    visible_fn(rules, &names, &mut out);
    let section = |out: &mut Writer, section: Section| {
        let name = section.name();
        out.line("");
        section_fn(name, &format!("The `{name}` section."), None, rules.section(section), &names, out);
    };
    Section::BEFORE_STEPS.into_iter().for_each(|s| section(&mut out, s));
    for step in rules.steps() {
        let doc = format!("Step {}: {}.", markdown::inline(&step.id), markdown::inline(&step.title));
        out.line("");
        section_fn(names.step_fn(step), &doc, Some(step), &step.items, &names, &mut out);
    }
    Section::AFTER_STEPS.into_iter().for_each(|s| section(&mut out, s));
    out.line("");
    out.line(&doc("Everything about the rules that does not depend on the selection."));
    tables(rules, &names, &mut out);
    out.line("");
    lang::languages(languages, &mut out);
    out.line("");
    catalog_fn(&rules.catalog, &names, &mut out);
    out.text
}

fn header(rules: &Rules, out: &mut Writer) {
    out.line(&format!("// @generated by {GENERATOR}: do not edit by hand. Edit the YAML under rules/"));
    out.line("// and run `cargo run -- gen`. Compiled from these files of the rules folder:");
    for input in &rules.inputs {
        out.line(&format!("//   {}", rust::comment(input)));
    }
}

/// 64-bit words a [`Visible`](carcassonne_rules_core::Visible) needs for these
/// rules' steps, items, markers and origin candidates.
fn words(rules: &Rules) -> (usize, usize, usize, usize) {
    let items = rules.items();
    let markers = items.iter().map(|i| i.markers.len()).sum::<usize>();
    let origins = items.iter().map(|i| i.origins.len()).sum::<usize>();
    let words = |n: usize| n.max(1).div_ceil(64);
    (words(rules.steps().count()), words(items.len()), words(markers), words(origins))
}

fn constants(rules: &Rules, names: &Names, out: &mut Writer) {
    let catalog = &rules.catalog;
    let mut module = |name: &str, doc: &str, ty: &str, consts: Vec<(String, String, String)>| {
        out.line("");
        out.module(name, doc, ty, |out| {
            for (doc_text, constant, value) in consts {
                out.line(&self::doc(&doc_text));
                out.line(&format!("pub const {constant}: {ty} = {ty}({value});"));
            }
        });
    };
    let last = |path: &str| path.rsplit("::").next().unwrap_or(path).to_string();
    module(
        "edition",
        "The editions, numbered as in `editions.yaml`.",
        "EditionId",
        catalog
            .editions
            .iter()
            .enumerate()
            .map(|(i, e)| (markdown::inline(&e.name).into_owned(), last(&names.editions[i]), i.to_string()))
            .collect(),
    );
    module(
        "variant",
        "Publishers' rule variants, numbered as in `editions.yaml`.",
        "VariantId",
        catalog
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| (markdown::inline(&v.name).into_owned(), last(&names.variants[i]), i.to_string()))
            .collect(),
    );
    module(
        "module",
        "The modules; a module's bit is its rank among the module ids in sorted order.",
        "ModuleId",
        catalog
            .modules
            .iter()
            .enumerate()
            .map(|(i, m)| (markdown::inline(&m.name).into_owned(), last(&names.modules[i]), i.to_string()))
            .collect(),
    );
    module(
        "step",
        "The steps, numbered in turn order.",
        "StepId",
        rules
            .steps()
            .map(|s| {
                let doc = format!("{}: {}", markdown::inline(&s.id), markdown::inline(&s.title));
                (doc, last(names.step(s)), s.number.0.to_string())
            })
            .collect(),
    );
    let items = rules.items();
    module(
        "item",
        "The items, numbered in turn order (pre-order: an item, then its sub-items).",
        "ItemId",
        items.iter().map(|i| (markdown::code(&i.id), last(names.item(i)), i.number.0.to_string())).collect(),
    );
    module(
        "marker",
        "The items' markers, numbered in item order.",
        "MarkerId",
        items
            .iter()
            .flat_map(|i| {
                i.markers.iter().map(move |m| {
                    let doc = format!("{} on {}", markdown::inline(&m.label), markdown::code(&i.id));
                    (doc, last(names.marker(m.number)), m.number.0.to_string())
                })
            })
            .collect(),
    );
    let module_id = |m: ModuleId| catalog.modules.get(usize::from(m.0)).map_or("", |m| m.id.as_str());
    module(
        "origin",
        "The items' origin candidates, numbered in item order.",
        "OriginId",
        items
            .iter()
            .flat_map(|i| {
                i.origins.iter().map(move |c| {
                    (
                        format!("{} on {}", markdown::code(module_id(c.module)), markdown::code(&i.id)),
                        last(names.origin(c.number)),
                        c.number.0.to_string(),
                    )
                })
            })
            .collect(),
    );
}

fn flags(rules: &Rules, names: &Names, out: &mut Writer) {
    out.module("flag", "The derived flags of `modules.yaml`.", "*", |out| {
        for (i, (flag, name)) in rules.flags.iter().zip(&names.flags).enumerate() {
            if i > 0 {
                out.line("");
            }
            out.line(&doc(&format!("Derived flag {}.", markdown::code(&flag.id))));
            out.code(&format!("pub fn {}(cfg: &Config) -> bool", name.trim_start_matches("flag::")), |out| {
                out.line(&wrap(&cond(&flag.when, names, Prec::Top), out.indent, 0));
            });
        }
    });
}

fn visible_fn(rules: &Rules, names: &Names, out: &mut Writer) {
    out.line(&doc("What `cfg` shows: the steps that exist and repeat, the visible items and markers."));
    out.code("pub fn visible(cfg: &Config) -> Visible", |out| {
        out.line("let mut v = Visible::default();");
        for section in Section::BEFORE_STEPS {
            out.line(&format!("{}(cfg, &mut v);", section.name()));
        }
        for step in rules.steps() {
            out.line(&format!("{}(cfg, &mut v);", names.step_fn(step)));
        }
        for section in Section::AFTER_STEPS {
            out.line(&format!("{}(cfg, &mut v);", section.name()));
        }
        if let Some(block) = &rules.double_turn {
            out.line(&wrap(&format!("v.double_turn = {};", cond(&block.when, names, Prec::Top)), out.indent, 0));
        }
        out.line("v");
    });
}

fn section_fn(name: &str, doc_text: &str, step: Option<&Step>, items: &[Item], names: &Names, out: &mut Writer) {
    out.line(&doc(doc_text));
    // Sub-items after all their parents, each list under one test of its
    // parent's bit: the code is as deep for any nesting of the rules.
    // (An `if` of one `if` stays two: one shape for every list of sub-items.)
    if items.iter().any(|i| !i.children.is_empty()) {
        out.line("#[allow(clippy::collapsible_if)]");
    }
    out.code(&format!("fn {name}(cfg: &Config, v: &mut Visible)"), |out| {
        if let Some(step) = step {
            if step.when != Cond::True {
                out.if_block(&format!("!({})", cond(&step.when, names, Prec::Top)), |out| out.line("return;"));
            }
            out.line(&format!("v.step({});", names.step(step)));
            if let Some((_, when)) = &step.repeat {
                guarded(when, names, out, |out| out.line(&format!("v.repeat({});", names.step(step))));
            }
        }
        if items.is_empty() && step.is_none() {
            out.line("let _ = (cfg, v);");
        }
        items_code(items, names, out);
        let mut parents: Vec<&Item> = items.iter().rev().collect();
        while let Some(parent) = parents.pop() {
            if !parent.children.is_empty() {
                out.if_block(&format!("v.has_item({})", names.item(parent)), |out| {
                    items_code(&parent.children, names, out);
                });
            }
            parents.extend(parent.children.iter().rev());
        }
    });
}

/// Marks a list of sibling items. Siblings whose conditions start with the
/// same test (`abbey`, `abbey and …`) make it once, in one block where the
/// first of them stands (the order of marking does not matter; the tables keep
/// the rules' order), so a selection without the module skips all of them
/// with one test.
fn items_code(items: &[Item], names: &Names, out: &mut Writer) {
    let mut done: Vec<Cond> = Vec::new();
    let mut plain: Vec<(&Item, Cond)> = Vec::new();
    for item in items {
        match lead(&item.when) {
            None => plain.push((item, item.when.clone())),
            Some((first, _)) if done.contains(&first) => {}
            Some((first, _)) => {
                same_conditions(&plain, names, out);
                plain.clear();
                let group: Vec<(&Item, Cond)> = items
                    .iter()
                    .filter_map(|i| lead(&i.when).filter(|(f, _)| *f == first).map(|(_, rest)| (i, rest)))
                    .collect();
                // One test for all of them; or, where they also share the rest
                // of their condition, the whole condition (no `if` in an `if`).
                let shared_rest = group.iter().all(|(_, rest)| *rest == group[0].1);
                if shared_rest {
                    guarded(&first.clone().and(group[0].1.clone()), names, out, |out| {
                        group.iter().for_each(|(item, _)| item_body(item, names, out));
                    });
                } else {
                    guarded(&first, names, out, |out| same_conditions(&group, names, out));
                }
                done.push(first);
            }
        }
    }
    same_conditions(&plain, names, out);
}

/// The test a condition makes first (`abbey` in `abbey and …`), and the rest
/// of the condition; `None` for a disjunction or no test at all.
fn lead(when: &Cond) -> Option<(Cond, Cond)> {
    match when {
        Cond::True | Cond::Any(_) => None,
        Cond::All(parts) => match parts.split_first() {
            Some((Cond::Any(_), _)) | None => None,
            Some((first, [one])) => Some((first.clone(), one.clone())),
            Some((first, rest)) => Some((first.clone(), Cond::All(rest.to_vec()))),
        },
        atom => Some((atom.clone(), Cond::True)),
    }
}

/// Marks items under their conditions; neighbours with the same condition
/// share one test.
fn same_conditions(items: &[(&Item, Cond)], names: &Names, out: &mut Writer) {
    for same in items.chunk_by(|a, b| a.1 == b.1) {
        guarded(&same[0].1, names, out, |out| same.iter().for_each(|(item, _)| item_body(item, names, out)));
    }
}

/// Marks an item and its markers, once its condition holds.
fn item_body(item: &Item, names: &Names, out: &mut Writer) {
    out.line(&format!("v.item({});", names.item(item)));
    for marker in &item.markers {
        guarded(&marker.when, names, out, |out| out.line(&format!("v.marker({});", names.marker(marker.number))));
    }
    for candidate in &item.origins {
        let holds = Cond::Module(candidate.module).and(candidate.guard.clone());
        // The item's own condition often is the test already (`when: abbey`).
        let shown = conjuncts(&item.when);
        let test = if conjuncts(&holds).iter().all(|c| shown.contains(c)) { Cond::True } else { holds };
        guarded(&test, names, out, |out| out.line(&format!("v.origin({});", names.origin(candidate.number))));
    }
}

/// The parts of a conjunction (a condition that is none: itself).
fn conjuncts(when: &Cond) -> Vec<&Cond> {
    match when {
        Cond::True => Vec::new(),
        Cond::All(parts) => parts.iter().collect(),
        other => vec![other],
    }
}

/// What `code` writes, run only where `when` holds.
fn guarded(when: &Cond, names: &Names, out: &mut Writer, code: impl FnOnce(&mut Writer)) {
    match when {
        Cond::True => code(out),
        when => out.if_block(&cond(when, names, Prec::Top), code),
    }
}

fn tables(rules: &Rules, names: &Names, out: &mut Writer) {
    out.block("pub static TABLES: Tables = Tables {", "};", |out| {
        out.block("phases: &[", "],", |out| {
            for phase in &rules.phases {
                out.block("PhaseInfo {", "},", |out| {
                    out.field("id", &literal(&phase.id));
                    out.field("title", &literal(&phase.title));
                    out.list(
                        "steps: &",
                        &phase.steps.iter().map(|s| names.step(s).to_string()).collect::<Vec<_>>(),
                        ",",
                    );
                });
            }
        });
        out.block("steps: &[", "],", |out| {
            for step in rules.steps() {
                let repeat = match &step.repeat {
                    None => "None",
                    Some((Repeat::DoubleTurn, _)) => "Some(Repeat::DoubleTurn)",
                    Some((Repeat::PerFeature, _)) => "Some(Repeat::PerFeature)",
                };
                out.block("StepInfo {", "},", |out| {
                    out.field("id", &literal(&step.id));
                    out.field("title", &literal(&step.title));
                    out.field("repeat", repeat);
                    out.field("choose_one", &step.choose_one.to_string());
                    out.field("may_pass", &step.may_pass.to_string());
                    out.list("items: &", &names.items(&step.items), ",");
                });
            }
        });
        let items = rules.items();
        out.block("items: &[", "],", |out| {
            for item in &items {
                item_info(item, rules, names, out);
            }
        });
        let markers: Vec<String> = items.iter().flat_map(|i| &i.markers).map(|m| literal(&m.label)).collect();
        out.list("markers: &", &markers, ",");
        let origins: Vec<String> =
            items.iter().flat_map(|i| &i.origins).map(|c| names.module(c.module).to_string()).collect();
        out.list("origins: &", &origins, ",");
        // Indexed by `Section`: the lists in the order of `Section::ALL`.
        out.block(&format!("sections: {}::new([", core_path!(section::Sections)), "]),", |out| {
            for section in Section::ALL {
                out.line(&format!("// {}", section.name()));
                out.list("&", &names.items(rules.section(section)), ",");
            }
        });
        let step =
            |n: StepId| rules.steps().find(|s| s.number == n).map_or_else(String::new, |s| names.step(s).to_string());
        let block = rules.double_turn.as_ref().map_or_else(
            || "None".to_string(),
            |b| {
                let path = core_path!(order::DoubleTurnBlock);
                format!("Some({path} {{ first: {}, last: {} }})", step(b.first), step(b.last))
            },
        );
        out.field("double_turn", &block);
    });
}

fn item_info(item: &Item, rules: &Rules, names: &Names, out: &mut Writer) {
    out.block("ItemInfo {", "},", |out| {
        out.field("id", &literal(&item.id));
        if item.text.is_uniform() {
            out.field("text", &format!("EditionText::Same({})", literal(&item.text.render(EditionId(0)))));
        } else {
            let by_edition: Vec<String> = (0..rules.catalog.editions.len())
                .map(|e| EditionId(e as u8))
                .map(|e| format!("({}, {})", names.edition(e), literal(&item.text.render(e))))
                .collect();
            out.list("text: EditionText::ByEdition(&", &by_edition, "),");
        }
        let origins: Vec<String> = item.origins.iter().map(|c| names.origin(c.number).to_string()).collect();
        out.list("origins: &", &origins, ",");
        let markers: Vec<String> = item.markers.iter().map(|m| names.marker(m.number).to_string()).collect();
        out.list("markers: &", &markers, ",");
        let foreign: Vec<String> = item.foreign.iter().map(|&e| names.edition(e).to_string()).collect();
        out.list("foreign: &", &foreign, ",");
        // A forbid names items: a block of its own, whose list wraps.
        if let Some(Effect::Forbid { items, turn }) = &item.effect {
            let items: Vec<String> = items.iter().map(|&i| names.items[usize::from(i.0)].clone()).collect();
            out.block("effect: Some(Effect::Forbid {", "}),", |out| {
                out.list("items: Cow::Borrowed(&", &items, "),");
                out.field("turn", &turn.to_string());
            });
        }
        let effect = match &item.effect {
            None => "None".to_string(),
            Some(Effect::Skip(steps)) => {
                let steps: Vec<&str> = steps.iter().map(|&s| names.step_const(s)).collect();
                format!("Some(Effect::Skip(Cow::Borrowed(&[{}])))", steps.join(", "))
            }
            Some(Effect::GoBack(step)) => format!("Some(Effect::GoBack({}))", names.step_const(*step)),
            Some(Effect::DoubleTurn) => "Some(Effect::DoubleTurn)".to_string(),
            Some(Effect::NextFeature) => "Some(Effect::NextFeature)".to_string(),
            Some(Effect::Forbid { .. }) => String::new(),
        };
        if !effect.is_empty() {
            out.field("effect", &effect);
        }
        out.field("flow", &flow(item.flow));
        let none_of: Vec<String> = item.none_of.iter().map(|&i| names.items[usize::from(i.0)].clone()).collect();
        out.list("none_of: &", &none_of, ",");
        out.list("children: &", &names.items(&item.children), ",");
    });
}

/// An item's [`Flow`] as a constant expression: the fields that differ from
/// [`Flow::ACTION`], the rest taken from it.
fn flow(flow: Flow) -> String {
    if flow == Flow::ACTION {
        return "Flow::ACTION".to_string();
    }
    let Flow { role, optional, choose_one, once, otherwise, must, actor, repeat } = flow;
    let mut fields = Vec::new();
    if role != Flow::ACTION.role {
        fields.push(format!("role: Role::{role:?}"));
    }
    let flags =
        [("optional", optional), ("choose_one", choose_one), ("once", once), ("otherwise", otherwise), ("must", must)];
    for (name, set) in flags {
        if set {
            fields.push(format!("{name}: true"));
        }
    }
    if actor != Flow::ACTION.actor {
        fields.push(format!("actor: Actor::{actor:?}"));
    }
    if let Some(repeat) = repeat {
        fields.push(format!("repeat: Some(ItemRepeat::{repeat:?})"));
    }
    format!("Flow {{ {}, ..Flow::ACTION }}", fields.join(", "))
}

fn catalog_fn(catalog: &Catalog, names: &Names, out: &mut Writer) {
    out.line(&doc(
        "The editions, variants, expansions and modules of these rules, and the ids of their steps and items.",
    ));
    // One expression of tables, laid out as the tables are, in the function's body.
    out.code("pub fn catalog() -> Catalog", |out| {
        out.line("Catalog::new(");
        out.indent += 4;
        let editions: Vec<String> = catalog
            .editions
            .iter()
            .map(|e| format!("({}, {}, VariantId({}))", literal(&e.id), literal(&e.name), e.default_variant.0))
            .collect();
        out.list("&", &editions, ",");
        let variants: Vec<String> =
            catalog.variants.iter().map(|v| format!("({}, {})", literal(&v.id), literal(&v.name))).collect();
        out.list("&", &variants, ",");
        let modules: Vec<String> = catalog
            .modules
            .iter()
            .map(|m| format!("({}, {}, {})", literal(&m.id), literal(&m.name), m.on_wiki_page))
            .collect();
        out.list("&", &modules, ",");
        out.line("&[");
        out.indent += 4;
        for x in &catalog.expansions {
            let editions: Vec<String> = x.editions.iter().map(|e| literal(e)).collect();
            let modules: Vec<String> = x
                .modules
                .iter()
                .filter_map(|m| catalog.modules.iter().position(|n| n.id == m.id))
                .map(|m| names.modules[m].clone())
                .collect();
            let one = format!(
                "({}, {}, &[{}], &[{}]),",
                literal(&x.id),
                literal(&x.name),
                editions.join(", "),
                modules.join(", ")
            );
            if out.indent + one.len() <= WIDTH {
                out.line(&one);
                continue;
            }
            out.block("(", "),", |out| {
                out.line(&format!("{},", literal(&x.id)));
                out.line(&format!("{},", literal(&x.name)));
                out.list("&", &editions, ",");
                out.list("&", &modules, ",");
            });
        }
        out.indent -= 4;
        out.line("],");
        out.indent -= 4;
        // The names of the typed ids, read from the tables rather than written twice.
        out.line(")");
        out.line(".with_ids(TABLES.steps.iter().map(|s| s.id), TABLES.items.iter().map(|i| i.id))");
    });
}

/// Operator precedence, to print only the parentheses that are needed.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Prec {
    Top,
    Or,
    And,
    Unary,
}

fn cond(c: &Cond, names: &Names, outer: Prec) -> String {
    let (text, prec) = match c {
        Cond::True => ("true".to_string(), Prec::Unary),
        Cond::False => ("false".to_string(), Prec::Unary),
        Cond::Module(m) => (format!("cfg.has({})", names.module(*m)), Prec::Unary),
        Cond::Flag(f) => (format!("{}(cfg)", names.flags[*f]), Prec::Unary),
        Cond::Edition(e) => (format!("cfg.edition == {}", names.edition(*e)), Prec::And),
        Cond::Variant(v) => (format!("cfg.variant == {}", names.variants[usize::from(v.0)]), Prec::And),
        Cond::Not(inner) => match inner.as_ref() {
            Cond::Edition(e) => (format!("cfg.edition != {}", names.edition(*e)), Prec::And),
            Cond::Variant(v) => (format!("cfg.variant != {}", names.variants[usize::from(v.0)]), Prec::And),
            inner => (format!("!{}", cond(inner, names, Prec::Unary)), Prec::Unary),
        },
        Cond::All(parts) => {
            let parts: Vec<String> = parts.iter().map(|p| cond(p, names, Prec::And)).collect();
            (parts.join(" && "), Prec::And)
        }
        Cond::Any(parts) => {
            let parts: Vec<String> = parts.iter().map(|p| cond(p, names, Prec::Or)).collect();
            (parts.join(" || "), Prec::Or)
        }
    };
    if prec < outer { format!("({text})") } else { text }
}
