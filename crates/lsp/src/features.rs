//! What the server answers, on byte offsets into the rules files' texts:
//! completion, hover, definition, references and rename. The protocol's
//! positions are converted in `server`.

use std::collections::BTreeMap;

use carcassonne_rules_compiler::diagnostics::{FileId, Span};
use carcassonne_rules_compiler::dsl;
use carcassonne_rules_compiler::lexicon::{self, IdKind, MAX_ID_LEN};
use carcassonne_rules_compiler::logic::Logic;
use carcassonne_rules_compiler::model::{Cond, Item, Rules, Step};
use carcassonne_rules_compiler::syntax::tree::{self, Node, Slot, Value};
use carcassonne_rules_compiler::syntax::{self, DslKind};
use carcassonne_rules_core::escape::markdown::{code, inline};
use carcassonne_rules_core::escape::terminal::quoted;
use carcassonne_rules_core::{EditionId, Section};

use crate::workspace::{Place, TranslationSite};

/// One completion: the name to insert, a one-line detail and documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    /// What is inserted.
    pub label: String,
    /// What kind of name it is.
    pub kind: Offered,
    /// Where it stands in the list: the likeliest names first (0), then by
    /// label.
    pub rank: u8,
    /// What kind of name it is, and its short name.
    pub detail: String,
    /// Markdown documentation.
    pub doc: String,
}

/// What a completion names, for an editor's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// An item id.
    Item,
    /// A step id or a section.
    Step,
    /// A module or an expansion.
    Module,
    /// A derived flag.
    Flag,
    /// An edition or a rule variant.
    Edition,
    /// A marker.
    Marker,
    /// A word of the condition language.
    Keyword,
}

/// Characters of the names the rules use (ids, modules, flags, steps).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The name around `offset`, with its start.
pub fn word_at(text: &str, offset: usize) -> Option<(usize, &str)> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let start =
        text[..offset].char_indices().rev().find(|&(_, c)| !is_name_char(c)).map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[offset..].find(|c: char| !is_name_char(c)).map_or(text.len(), |i| offset + i);
    (start < end).then(|| (start, &text[start..end]))
}

/// Where `id` is, with its step (none in the setup, notes…) and the list
/// it is in.
pub(crate) struct Found<'r> {
    item: &'r Item,
    ancestors: Vec<&'r Item>,
    step: Option<&'r Step>,
    siblings: &'r [Item],
}

pub(crate) fn find<'r>(rules: &'r Rules, id: &str) -> Option<Found<'r>> {
    fn walk<'r>(list: &'r [Item], id: &str, path: &mut Vec<&'r Item>) -> Option<(&'r Item, Vec<&'r Item>, &'r [Item])> {
        for item in list {
            if item.id == id {
                return Some((item, path.clone(), list));
            }
            path.push(item);
            if let Some(found) = walk(&item.children, id, path) {
                return Some(found);
            }
            path.pop();
        }
        None
    }
    for step in rules.steps() {
        if let Some((item, ancestors, siblings)) = walk(&step.items, id, &mut Vec::new()) {
            return Some(Found { item, ancestors, step: Some(step), siblings });
        }
    }
    for (_, list) in rules.sections.iter() {
        if let Some((item, ancestors, siblings)) = walk(list, id, &mut Vec::new()) {
            return Some(Found { item, ancestors, step: None, siblings });
        }
    }
    None
}

fn first_text(item: &Item) -> String {
    item.text.render(EditionId(0)).chars().take(200).collect::<String>().replace('\n', " ")
}

fn item_completion(item: &Item) -> Completion {
    Completion {
        label: item.id.clone(),
        kind: Offered::Item,
        rank: 0,
        detail: "item".into(),
        doc: inline(&first_text(item)).into_owned(),
    }
}

/// The expansion an expansion file holds, by the file's name
/// (`expansions/abbey-and-mayor.yaml` holds `abbey_and_mayor`).
fn expansion_of<'r>(rules: &'r Rules, file: &str) -> Option<&'r carcassonne_rules_core::catalog::ExpansionInfo> {
    rules.catalog.expansions.iter().find(|x| syntax::expansion_file(&x.id) == file)
}

/// An edition or a rule variant to complete, with its name.
fn choice(id: &str, detail: &str, name: &str) -> Completion {
    Completion {
        label: id.to_string(),
        kind: Offered::Edition,
        rank: 0,
        detail: detail.into(),
        doc: inline(name).into_owned(),
    }
}

fn module_doc(rules: &Rules, id: &str) -> Option<String> {
    let catalog = &rules.catalog;
    let expansion = catalog.expansions.iter().find(|x| x.modules.iter().any(|m| m.id == id))?;
    let module = expansion.modules.iter().find(|m| m.id == id)?;
    Some(format!(
        "**{}** — module of *{}* ({})\n\neditions: {}",
        inline(&module.name),
        inline(&expansion.name),
        code(&expansion.id),
        inline(&expansion.editions.join(", "))
    ))
}

/// Completions at `offset` of the text of `file`, whose tree is `tree`.
pub fn complete(rules: &Rules, file: &str, text: &str, tree: &Node, offset: usize) -> Vec<Completion> {
    let at = tree.at(text, offset);
    let keys = at.keys();
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let typed_start = word_at(text, offset).map_or(offset, |(start, _)| start.min(offset));
    let before = text[line_start..typed_start].trim_end();
    // What the cursor's place holds, by the compiler's table of DSL strings.
    let (under, slot) = at.slot();
    let kind = syntax::dsl_kind(file, under, slot);
    // Right after `markers:` the list is still to be written: a marker's place.
    let in_marker = kind == Some(DslKind::Marker) || slot == Slot::Value("markers");
    let in_condition = in_marker || matches!(kind, Some(DslKind::Condition | DslKind::Repeat));
    if let Some(offered) = record_values(rules, &at, slot, text, line_start, typed_start, offset) {
        return offered;
    }
    match keys.first() {
        Some(&("after" | "before")) => {
            let me = at.id();
            let Some(found) = me.and_then(|id| find(rules, id)) else {
                // An item being written, not in the last rules that checked:
                // the children of the item its `under:` names, else the items
                // of the step or section it is written in.
                let parent = at.field("under").and_then(|id| find(rules, id));
                let list = match &parent {
                    Some(parent) => parent.item.children.as_slice(),
                    None => items_under(rules, &keys),
                };
                return list.iter().map(item_completion).collect();
            };
            return found.siblings.iter().filter(|s| s.id != found.item.id).map(item_completion).collect();
        }
        Some(&("under" | "none_of")) => {
            let me = at.id();
            let found = me.and_then(|id| find(rules, id));
            let mut all = Vec::new();
            let list = match &found {
                Some(found) => found.step.map_or(found.siblings, |s| s.items.as_slice()),
                None => items_under(rules, &keys),
            };
            collect(list, &mut all);
            let me = found.map(|f| f.item.id.as_str());
            return all.into_iter().filter(|s| Some(s.id.as_str()) != me).map(item_completion).collect();
        }
        _ => {}
    }
    if keys.first() == Some(&"items") {
        // A section key: a step id or a section of the setup, notes…
        let steps = rules.steps().map(|s| Completion {
            label: s.id.clone(),
            kind: Offered::Step,
            rank: 0,
            detail: "step".into(),
            doc: format!("**{}** {}", inline(&s.id), inline(&s.title)),
        });
        let sections = Section::ALL.into_iter().map(|s| Completion {
            label: s.name().to_string(),
            kind: Offered::Step,
            rank: 1,
            detail: "section".into(),
            doc: String::new(),
        });
        return steps.chain(sections).collect();
    }
    if !in_condition && !line.contains(" when ") {
        return Vec::new();
    }
    let catalog = &rules.catalog;
    if before.ends_with("==") {
        let word = before.trim_end_matches('=').trim_end();
        if word.ends_with("variant") {
            return catalog.variants.iter().map(|v| choice(&v.id, "rule variant", &v.name)).collect();
        }
        return catalog.editions.iter().map(|e| choice(&e.id, "edition", &e.name)).collect();
    }
    // In a marker's place (the start of a list entry under `markers:`), the
    // markers alone; in a condition, the modules of the file's own
    // expansion, then the derived flags, the other modules and the keywords.
    let entry = before.rsplit(['[', ',']).next().unwrap_or(before);
    let marker_here = in_marker && !entry.contains(" when");
    if marker_here {
        // Only a marker can start an entry: its condition comes after `when`.
        return rules
            .markers
            .iter()
            .map(|m| Completion {
                label: m.id.clone(),
                kind: Offered::Marker,
                rank: 0,
                detail: "marker".into(),
                doc: m.meaning.clone(),
            })
            .collect();
    }
    let own = expansion_of(rules, file);
    let mut out: Vec<Completion> = catalog
        .modules
        .iter()
        .map(|m| Completion {
            label: m.id.clone(),
            kind: Offered::Module,
            rank: if own.is_some_and(|x| x.modules.iter().any(|o| o.id == m.id)) { 0 } else { 2 },
            detail: format!("module: {}", m.name),
            doc: module_doc(rules, &m.id).unwrap_or_default(),
        })
        .collect();
    out.extend(rules.flags.iter().map(|f| Completion {
        label: f.id.clone(),
        kind: Offered::Flag,
        rank: 1,
        detail: "derived flag".into(),
        doc: code(&format!("{} := {}", f.id, rules.dsl(&f.when))),
    }));
    for word in ["edition", "variant", "not", "and", "or"] {
        out.push(Completion {
            label: word.into(),
            kind: Offered::Keyword,
            rank: 3,
            detail: "keyword".into(),
            doc: String::new(),
        });
    }
    out.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    out
}

/// What an item's `role:`, `effect:` and `foreign:` accept at the cursor,
/// and those keys themselves where a key of an item is written; `None`
/// elsewhere.
fn record_values(
    rules: &Rules,
    at: &tree::At<'_>,
    slot: Slot<'_>,
    text: &str,
    line_start: usize,
    typed_start: usize,
    offset: usize,
) -> Option<Vec<Completion>> {
    let keys = at.keys();
    let written = &text[line_start..offset];
    if !keys.contains(&"items") || written.trim_start().starts_with('#') || written.contains(" #") {
        return None;
    }
    let rest = text[offset..].lines().next().unwrap_or("").trim_start();
    let word = |label: &str, detail: &str, doc: &str| Completion {
        label: label.into(),
        kind: Offered::Keyword,
        rank: 0,
        detail: detail.into(),
        doc: doc.into(),
    };
    let container = at.containers.last().copied();
    match (slot, keys.first().copied()) {
        // A new key of an item (a mapping that is an entry of a list), at a
        // blank place or at the end of the key being typed.
        (Slot::Key, _)
            if matches!(at.path.last(), Some(tree::Segment::Index(_)))
                && at.node.is_none_or(|n| n.span.end == offset)
                && (rest.is_empty() || rest.starts_with(':'))
                && !written.trim_start().trim_start_matches("- ").contains([':', ' ']) =>
        {
            let written = |key: &str| {
                container.is_some_and(|c| c.get(key).is_some()) && at.node.and_then(Node::as_str) != Some(key)
            };
            let offered = [
                ("role", "`action` (the default), `condition`, `group` or `note`"),
                (
                    "effect",
                    "what carrying the item out does to the turn: `skip`, `go back to`, `double turn`, `next feature`, `forbid`",
                ),
                ("foreign", "the editions in which the item comes from another edition"),
            ];
            Some(
                offered
                    .into_iter()
                    .filter(|(key, _)| !written(key))
                    .map(|(key, doc)| word(key, "item key", doc))
                    .collect(),
            )
        }
        (Slot::Value("role"), _) => Some(
            [
                ("action", "the default: the player carries it out"),
                ("condition", "its sub-items and effect apply only when it holds"),
                ("group", "a heading: never asked"),
                ("note", "read, never played"),
            ]
            .into_iter()
            .map(|(role, doc)| word(role, "role", doc))
            .collect(),
        ),
        (Slot::Value("foreign"), _) | (Slot::Entry, Some("foreign")) => {
            // The editions not named yet (the one under the cursor aside).
            let mut named = Vec::new();
            if let Some(Node { value: Value::Seq(seq), .. }) = container {
                for entry in &seq.entries {
                    if at.node.is_none_or(|n| !std::ptr::eq(n, entry)) {
                        named.extend(entry.as_str());
                    }
                }
            }
            Some(
                rules
                    .catalog
                    .editions
                    .iter()
                    .filter(|e| !named.contains(&e.id.as_str()))
                    .map(|e| choice(&e.id, "edition", &e.name))
                    .collect(),
            )
        }
        (Slot::Value("effect"), _) => Some(effect_words(rules, at, text, line_start, typed_start)),
        _ => None,
    }
}

/// What can stand at the cursor in an effect (the grammar's `effect_input`),
/// by the words written before it.
fn effect_words(
    rules: &Rules,
    at: &tree::At<'_>,
    text: &str,
    line_start: usize,
    typed_start: usize,
) -> Vec<Completion> {
    let line = &text[line_start..typed_start];
    let Some((_, written)) = line.split_once("effect:") else { return Vec::new() };
    let written = written.trim_start().trim_start_matches(['"', '\'']);
    let words: Vec<&str> = written.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let after_comma = written.trim_end().ends_with(',');
    let keyword = |label: &str, doc: &str| Completion {
        label: label.into(),
        kind: Offered::Keyword,
        rank: 0,
        detail: "effect".into(),
        doc: doc.into(),
    };
    let steps = |named: &[&str]| -> Vec<Completion> {
        rules
            .steps()
            .filter(|s| !named.contains(&s.id.as_str()))
            .map(|s| Completion {
                label: s.id.clone(),
                kind: Offered::Step,
                rank: 0,
                detail: "step".into(),
                doc: format!("**{}** {}", inline(&s.id), inline(&s.title)),
            })
            .collect()
    };
    match words.as_slice() {
        [] => vec![
            keyword("skip", "`skip 2B-1, 2B-2`: these steps are skipped for the rest of this part of the turn"),
            keyword("go back to", "`go back to 1B`: the turn continues at that step"),
            keyword("double turn", "the builder's block is played once more"),
            keyword("next feature", "the completed feature is settled; its round of the per-feature step ends"),
            keyword("forbid", "`forbid ITEM, …`: these items are ruled out for the rest of this part of the turn"),
        ],
        ["go"] => vec![keyword("back to", "`go back to 1B`")],
        ["go", "back"] => vec![keyword("to", "`go back to 1B`")],
        ["go", "back", "to"] => steps(&[]),
        ["double"] => vec![keyword("turn", "`double turn`")],
        ["next"] => vec![keyword("feature", "`next feature`")],
        ["skip"] => steps(&[]),
        ["skip", named @ ..] if after_comma => steps(named),
        ["forbid"] => forbidden(rules, at, &[]),
        ["forbid", named @ ..] if after_comma => forbidden(rules, at, named),
        ["forbid", .., last] if *last != "for" && !named_turn(&words) => {
            vec![keyword("for the turn", "the items are ruled out for the whole turn")]
        }
        ["forbid", .., "for"] => vec![keyword("the turn", "the items are ruled out for the whole turn")],
        ["forbid", .., "for", "the"] => vec![keyword("turn", "the items are ruled out for the whole turn")],
        _ => Vec::new(),
    }
}

/// Whether `for the turn` is being written already.
fn named_turn(words: &[&str]) -> bool {
    words.contains(&"for")
}

/// The items an effect's `forbid` may name: every item but the one being
/// written and those named already.
fn forbidden(rules: &Rules, at: &tree::At<'_>, named: &[&str]) -> Vec<Completion> {
    let me = at.id();
    let mut all = Vec::new();
    for step in rules.steps() {
        collect(&step.items, &mut all);
    }
    for (_, list) in rules.sections.iter() {
        collect(list, &mut all);
    }
    all.into_iter()
        .filter(|i| Some(i.id.as_str()) != me && !named.contains(&i.id.as_str()))
        .map(item_completion)
        .collect()
}

/// The items of the step or section whose key (under `items:`) holds the
/// cursor, by the keys around it.
fn items_under<'r>(rules: &'r Rules, keys: &[&str]) -> &'r [Item] {
    let key = keys.iter().position(|k| *k == "items").and_then(|at| keys.get(at.checked_sub(1)?));
    let Some(key) = key else { return &[] };
    match rules.steps().find(|s| s.id == *key) {
        Some(step) => &step.items,
        None => Section::named(key).map_or(&[], |section| rules.section(section)),
    }
}

fn collect<'r>(list: &'r [Item], out: &mut Vec<&'r Item>) {
    for item in list {
        out.push(item);
        collect(&item.children, out);
    }
}

/// How many items' conditions (their own, markers' included) name `cond`'s part.
fn naming(rules: &Rules, named: &dyn Fn(&Cond) -> bool) -> usize {
    fn mentions(cond: &Cond, named: &dyn Fn(&Cond) -> bool) -> bool {
        named(cond)
            || match cond {
                Cond::Not(inner) => mentions(inner, named),
                Cond::All(parts) | Cond::Any(parts) => parts.iter().any(|p| mentions(p, named)),
                _ => false,
            }
    }
    rules
        .items()
        .iter()
        .filter(|item| mentions(&item.when, named) || item.markers.iter().any(|m| mentions(&m.when, named)))
        .count()
}

/// Markdown for the name at `offset`.
pub fn hover(rules: &Rules, text: &str, offset: usize) -> Option<String> {
    let (_, word) = word_at(text, offset)?;
    let catalog = &rules.catalog;
    if let Some(found) = find(rules, word) {
        return Some(item_hover(rules, &found));
    }
    if let Some(module) = catalog.module(word) {
        let bit = module.bit;
        let count = naming(rules, &|c| *c == Cond::Module(bit));
        return Some(format!("{}\n\nnamed by {count} items' conditions", module_doc(rules, word)?));
    }
    if let Some((ix, flag)) = rules.flags.iter().enumerate().find(|(_, f)| f.id == word) {
        let count = naming(rules, &|c| *c == Cond::Flag(ix));
        return Some(format!(
            "**{}** — derived flag\n\n{}\n\nnamed by {count} items' conditions",
            inline(&flag.id),
            code(&format!("{} := {}", flag.id, rules.dsl(&flag.when)))
        ));
    }
    if let Some((phase, step)) =
        rules.phases.iter().flat_map(|p| p.steps.iter().map(move |s| (p, s))).find(|(_, s)| s.id == word)
    {
        let mut out = format!(
            "**{}** — step {} of phase {} ({})",
            inline(&step.title),
            inline(&step.id),
            inline(&phase.id),
            inline(&phase.title)
        );
        if step.when != Cond::True {
            out.push_str(&format!("\n\nonly when {}", code(&rules.dsl(&step.when).to_string())));
        }
        if let Some((repeat, when)) = &step.repeat {
            out.push_str(&format!("\n\nrepeats: {repeat:?} when {}", code(&rules.dsl(when).to_string())));
        }
        if step.choose_one {
            out.push_str(if step.may_pass {
                "\n\nthe player does at most one of its items"
            } else {
                "\n\nthe player does exactly one of its items"
            });
        }
        return Some(out);
    }
    if let Some(edition) = catalog.editions.iter().find(|e| e.id == word) {
        return Some(format!("**{}** — edition {}", inline(&edition.name), code(&edition.id)));
    }
    if let Some(variant) = catalog.variants.iter().find(|v| v.id == word) {
        return Some(format!("**{}** — rule variant {}", inline(&variant.name), code(&variant.id)));
    }
    if let Some(expansion) = catalog.expansion(word) {
        let modules: Vec<String> = expansion.modules.iter().map(|m| code(&m.id)).collect();
        return Some(format!(
            "**{}** — expansion {}

modules: {}",
            inline(&expansion.name),
            code(&expansion.id),
            modules.join(", ")
        ));
    }
    if let Some(marker) = rules.markers.iter().find(|m| m.id == word) {
        // An item's marker is shown by its label, an argument after it.
        let carries = |m: &carcassonne_rules_compiler::model::Marker| {
            m.label == marker.label || m.label.starts_with(&format!("{} (", marker.label))
        };
        let count = rules.items().iter().filter(|i| i.markers.iter().any(carries)).count();
        return Some(format!(
            "**{}** — marker {}

{}

carried by {count} items",
            inline(&marker.label),
            code(&marker.id),
            inline(&marker.meaning)
        ));
    }
    None
}

/// Where the item shows: its step's, its ancestors' and its own conditions.
pub(crate) fn shown_when(found: &Found<'_>) -> Cond {
    let mut when = found.step.map_or(Cond::True, |s| s.when.clone());
    for ancestor in &found.ancestors {
        when = when.and(ancestor.when.clone());
    }
    when.and(found.item.when.clone())
}

/// A counter of the share (0–100) of each edition's selections in which a
/// condition holds, in edition order: the BDD counts them. Each edition's
/// selections are counted once, for every condition asked about.
pub(crate) fn share_counter<'a>(rules: &Rules, logic: &'a Logic<'_>) -> impl Fn(&Cond) -> Vec<f64> + 'a {
    let editions: Vec<_> = (0..rules.catalog.editions.len())
        .map_while(|i| u8::try_from(i).ok())
        .map(|ix| {
            let in_edition = logic.edition(EditionId(ix));
            let all = logic.everything().and(&in_edition).cardinality();
            (in_edition, all)
        })
        .collect();
    move |when| {
        let shows = logic.cond(when);
        editions
            .iter()
            .map(|(in_edition, all)| if *all > 0.0 { 100.0 * shows.and(in_edition).cardinality() / all } else { 0.0 })
            .collect()
    }
}

fn item_hover(rules: &Rules, found: &Found<'_>) -> String {
    let item = found.item;
    let logic = Logic::new(rules);
    let shares = share_counter(rules, &logic)(&shown_when(found));
    let mut out = format!("**{}**", inline(&item.id));
    if item.when != Cond::True {
        out.push_str(&format!("\n\nwhen {}", code(&rules.dsl(&item.when).to_string())));
    }
    out.push_str("\n\n| edition | text | shows in |\n|---|---|---|");
    for (i, (edition, share)) in rules.catalog.editions.iter().zip(shares).enumerate() {
        let Ok(ix) = u8::try_from(i) else { break };
        let wording = inline(&item.text.render(EditionId(ix))).replace('\n', " ");
        out.push_str(&format!("\n| {} | {wording} | {share:.1}% of selections |", inline(&edition.id)));
    }
    // Its first candidate that holds is its origin.
    let origins: Vec<String> = item
        .origins
        .iter()
        .filter_map(|c| {
            let module = rules.catalog.modules.get(usize::from(c.module.0))?;
            Some(match c.guard {
                Cond::True => code(&module.id),
                ref guard => format!("{} where {}", code(&module.id), code(&rules.dsl(guard).to_string())),
            })
        })
        .collect();
    out.push_str(&format!(
        "\n\norigin: {}",
        if origins.is_empty() { "its parent's, else the base game".to_string() } else { origins.join(", then ") }
    ));
    if let Some((under, _)) = &item.placed.under {
        out.push_str(&format!("\n\nplaced under {} by its `under:`", code(under)));
    }
    use carcassonne_rules_compiler::model::{Anchored, WhyEnd};
    let why = match &item.placed.anchor {
        Anchored::After(id, _) => format!("right after {} (its `after:`)", code(id)),
        Anchored::Before(id, _) => format!("right before {} (its `before:`)", code(id)),
        Anchored::Above(id, _) => format!("after {}, the item written above it", code(id)),
        Anchored::End(WhyEnd::FirstInFile) => "at the end of its list: it is the first of its list in its file".into(),
        Anchored::End(WhyEnd::AboveElsewhere { id, .. }) => {
            format!("at the end of its list: {}, written above it, went elsewhere", code(id))
        }
    };
    out.push_str(&format!("\n\nplaced {why}"));
    if let Some(step) = found.step {
        out.push_str(&format!("\n\nin step {} ({})", inline(&step.id), inline(&step.title)));
    }
    out
}

/// The place that defines the name at `offset`.
pub fn definition(rules: &Rules, text: &str, offset: usize) -> Option<Place> {
    let (_, word) = word_at(text, offset)?;
    if let Some(found) = find(rules, word) {
        return place(rules, found.item.spans.id);
    }
    if let Some(step) = rules.steps().find(|s| s.id == word) {
        return place(rules, step.span);
    }
    if let Some(marker) = rules.markers.iter().find(|m| m.id == word) {
        return place(rules, marker.span);
    }
    catalog_definition(rules, word)
}

/// The `id:` of a module, an expansion, an edition or a variant, where
/// `check` read it.
fn catalog_definition(rules: &Rules, word: &str) -> Option<Place> {
    place(rules, rules.defined.get(word)?)
}

/// Where `span` of `rules` is, by file name.
pub(crate) fn place(rules: &Rules, span: Span) -> Option<Place> {
    let file = rules.inputs.get(span.file.0)?.clone();
    Some(Place { file, start: span.start, len: span.len })
}

/// What a name written in the rules names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An item id: its `id:`, and the `after`, `before` and `under` naming it.
    Item,
    /// A module, an expansion or a derived flag (one namespace): as named in
    /// conditions (items', markers', steps', derived flags'), and a derived
    /// flag's name in `derived:`.
    Selector,
    /// A group of alternatives, by the `one_of` of each of its items.
    Group,
    /// A marker: its declaration in `base.yaml` and each item's use.
    Marker,
    /// An edition: its `id:` in `editions.yaml`, conditions' `edition ==`,
    /// `editions:` and `foreign:` lists, a text variant's labels.
    Edition,
    /// A rule variant: its `id:` in `editions.yaml`, an edition's
    /// `variant:`, conditions' `variant ==`.
    Variant,
    /// A step: its `id:` in `base.yaml`, a step key under `items:`, the
    /// double turn's `from:`/`to:`, an effect's `skip`/`go back to`, the
    /// translations' `step.` keys.
    Step,
}

/// One place where the model says a name is written as a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// What it names.
    pub kind: Kind,
    /// The name as written.
    pub name: String,
    /// Where.
    pub at: Place,
}

/// The string the model's `span` points at in `texts`, without its quotes:
/// its file, and its value with that value's offset in the file.
fn written<'t>(rules: &Rules, texts: &'t BTreeMap<String, String>, span: Span) -> Option<(&'t str, usize, &'t str)> {
    let file = rules.inputs.get(span.file.0)?;
    let (file, text) = texts.get_key_value(file)?;
    let raw = text.get(span.start..span.start.checked_add(span.len)?)?;
    let (start, value) = match raw.chars().next() {
        Some(quote @ ('"' | '\'')) => (span.start + 1, raw[1..].trim_end().trim_end_matches(quote)),
        _ => (span.start, raw.trim_end()),
    };
    Some((file.as_str(), start, value))
}

/// The names of a DSL string, each as a site, where the text holds them
/// verbatim (a name shifted by an escape in a quoted string is skipped
/// rather than misplaced).
fn sites_of(
    rules: &Rules,
    texts: &BTreeMap<String, String>,
    span: Span,
    kind: Kind,
    names: impl Fn(&str) -> Vec<dsl::Name>,
    out: &mut Vec<Site>,
) {
    let Some((file, start, value)) = written(rules, texts, span) else { return };
    for name in names(value) {
        if value.get(name.at.0..name.at.1) == Some(name.text.as_str()) {
            let at = Place { file: file.to_string(), start: start + name.at.0, len: name.text.len() };
            out.push(Site { kind, name: name.text, at });
        }
    }
}

fn condition_names(value: &str) -> Vec<dsl::Name> {
    dsl::condition(value).map(|c| c.names().into_iter().cloned().collect()).unwrap_or_default()
}

/// The editions (`variants` false) or rule variants a condition compares with.
fn compared(cond: &dsl::Condition, variants: bool, out: &mut Vec<dsl::Name>) {
    match cond {
        dsl::Condition::Edition { edition, .. } if !variants => out.push(edition.clone()),
        dsl::Condition::Variant { variant, .. } if variants => out.push(variant.clone()),
        dsl::Condition::Not(inner) => compared(inner, variants, out),
        dsl::Condition::And(parts) | dsl::Condition::Or(parts) => parts.iter().for_each(|p| compared(p, variants, out)),
        _ => {}
    }
}

/// Where a DSL string's conditions sit: a condition's own, a marker's or a
/// repeat's after `when`.
#[derive(Clone, Copy)]
enum Held {
    Condition,
    Marker,
    Repeat,
}

fn held_condition(value: &str, held: Held) -> Option<dsl::Condition> {
    match held {
        Held::Condition => dsl::condition(value).ok(),
        Held::Marker => dsl::marker(value).ok()?.when,
        Held::Repeat => dsl::repeat(value).ok()?.when,
    }
}

/// The editions and the rule variants a DSL string's condition names.
fn compared_sites(rules: &Rules, texts: &BTreeMap<String, String>, span: Span, held: Held, out: &mut Vec<Site>) {
    for (kind, variants) in [(Kind::Edition, false), (Kind::Variant, true)] {
        let names = |v: &str| {
            let mut names = Vec::new();
            if let Some(cond) = held_condition(v, held) {
                compared(&cond, variants, &mut names);
            }
            names
        };
        sites_of(rules, texts, span, kind, names, out);
    }
}

fn text_editions(value: &str) -> Vec<dsl::Name> {
    let Ok(parts) = dsl::text(value) else { return Vec::new() };
    parts
        .into_iter()
        .flat_map(|part| match part {
            dsl::TextPart::Variants(alternatives) => alternatives.into_iter().flat_map(|(names, _)| names).collect(),
            dsl::TextPart::Literal(_) => Vec::new(),
        })
        .collect()
}

fn effect_steps(value: &str) -> Vec<dsl::Name> {
    match dsl::effect(value) {
        Ok(dsl::WrittenEffect::Skip(steps)) => steps,
        Ok(dsl::WrittenEffect::GoBack(step)) => vec![step],
        _ => Vec::new(),
    }
}

fn marker_names(value: &str) -> Vec<dsl::Name> {
    dsl::marker(value).ok().and_then(|m| m.when).map(|c| c.names().into_iter().cloned().collect()).unwrap_or_default()
}

fn marker_name(value: &str) -> Vec<dsl::Name> {
    dsl::marker(value).ok().map(|m| vec![m.name]).unwrap_or_default()
}

fn repeat_names(value: &str) -> Vec<dsl::Name> {
    dsl::repeat(value).ok().and_then(|r| r.when).map(|c| c.names().into_iter().cloned().collect()).unwrap_or_default()
}

fn reference_name(value: &str) -> Vec<dsl::Name> {
    dsl::reference(value).into_iter().collect()
}

/// Every place the checked rules write a name as a name, from the spans the
/// model keeps: never a name in a text, a title or a comment.
pub fn sites(rules: &Rules, texts: &BTreeMap<String, String>) -> Vec<Site> {
    use carcassonne_rules_compiler::model::Anchored;
    let mut out = Vec::new();
    for item in rules.items() {
        sites_of(rules, texts, item.spans.id, Kind::Item, reference_name, &mut out);
        let placed = [
            item.placed.under.as_ref().map(|(_, span)| *span),
            match &item.placed.anchor {
                Anchored::After(_, span) | Anchored::Before(_, span) => Some(*span),
                Anchored::Above(..) | Anchored::End(_) => None,
            },
        ];
        // "None of the above" names items as references too.
        let none_of = item.spans.none_of.iter().map(|(_, span)| Some(*span));
        for span in placed.into_iter().chain(none_of).flatten() {
            sites_of(rules, texts, span, Kind::Item, reference_name, &mut out);
        }
        if let Some(span) = item.spans.when {
            sites_of(rules, texts, span, Kind::Selector, condition_names, &mut out);
            compared_sites(rules, texts, span, Held::Condition, &mut out);
        }
        for marker in &item.markers {
            sites_of(rules, texts, marker.span, Kind::Marker, marker_name, &mut out);
            sites_of(rules, texts, marker.span, Kind::Selector, marker_names, &mut out);
            compared_sites(rules, texts, marker.span, Held::Marker, &mut out);
        }
        sites_of(rules, texts, item.spans.text, Kind::Edition, text_editions, &mut out);
        if let Some(span) = item.spans.effect {
            sites_of(rules, texts, span, Kind::Step, effect_steps, &mut out);
        }
        if let (Some(group), Some(span)) = (&item.one_of, item.spans.one_of) {
            let group = group.clone();
            sites_of(rules, texts, span, Kind::Group, |v| whole_name(v, &group), &mut out);
        }
    }
    for marker in &rules.markers {
        let id = marker.id.clone();
        sites_of(rules, texts, marker.span, Kind::Marker, |v| whole_name(v, &id), &mut out);
    }
    for flag in &rules.flags {
        let id = flag.id.clone();
        sites_of(rules, texts, flag.name_span, Kind::Selector, |v| whole_name(v, &id), &mut out);
        sites_of(rules, texts, flag.span, Kind::Selector, condition_names, &mut out);
        compared_sites(rules, texts, flag.span, Held::Condition, &mut out);
    }
    for step in rules.steps() {
        let id = step.id.clone();
        sites_of(rules, texts, step.span, Kind::Step, |v| whole_name(v, &id), &mut out);
        if let Some(span) = step.when_span {
            sites_of(rules, texts, span, Kind::Selector, condition_names, &mut out);
            compared_sites(rules, texts, span, Held::Condition, &mut out);
        }
        if let Some(span) = step.repeat_span {
            sites_of(rules, texts, span, Kind::Selector, repeat_names, &mut out);
            compared_sites(rules, texts, span, Held::Repeat, &mut out);
        }
    }
    if let Some(span) = rules.double_turn.as_ref().and_then(|block| block.when_span) {
        sites_of(rules, texts, span, Kind::Selector, condition_names, &mut out);
        compared_sites(rules, texts, span, Held::Condition, &mut out);
    }
    for (kind, defined) in [(Kind::Edition, &rules.defined.editions), (Kind::Variant, &rules.defined.variants)] {
        for (name, &span) in defined {
            sites_of(rules, texts, span, kind, |v| whole_name(v, name), &mut out);
        }
    }
    for (file, text) in texts {
        if !file.starts_with("translations/") {
            tree_sites(rules, file, text, &mut out);
        }
    }
    out
}

/// The names a rules file writes as plain YAML values, by its syntax tree:
/// step keys under `items:`, the double turn's `from:`/`to:`, `editions:`
/// and `foreign:` lists, an edition's `variant:`.
fn tree_sites(rules: &Rules, file: &str, text: &str, out: &mut Vec<Site>) {
    let parse = tree::parse(text);
    for visit in parse.tree.scalars() {
        let Value::Scalar(scalar) = &visit.node.value else { continue };
        let Some(start) = scalar.verbatim else { continue };
        let name = scalar.value.as_str();
        let kind = match (visit.slot, visit.under) {
            (Slot::Key, Some("items")) => Kind::Step,
            (Slot::Value("from" | "to"), Some("double_turn")) if file == syntax::BASE_FILE => Kind::Step,
            (Slot::Entry, Some("editions")) if file == "modules.yaml" => Kind::Edition,
            (Slot::Entry, Some("foreign")) | (Slot::Value("foreign"), _) => Kind::Edition,
            (Slot::Value("variant"), Some("editions")) if file == "editions.yaml" => Kind::Variant,
            _ => continue,
        };
        let known = match kind {
            Kind::Step => rules.steps().any(|s| s.id == name),
            Kind::Edition => rules.defined.editions.contains_key(name),
            Kind::Variant => rules.defined.variants.contains_key(name),
            _ => false,
        };
        if known && text.get(start..start + name.len()) == Some(name) {
            let at = Place { file: file.to_string(), start, len: name.len() };
            out.push(Site { kind, name: name.to_string(), at });
        }
    }
}

/// The translation files' keys that name an item, a step, an edition or a
/// rule variant (`1B` under `steps:` is `step.1B`), as sites.
pub fn translation_sites(rules: &Rules, translations: &[TranslationSite]) -> Vec<Site> {
    translations
        .iter()
        .filter_map(|t| {
            let (kind, name) = match t.unit.split_once('.') {
                Some(("step", name)) => (Kind::Step, name),
                Some(("edition", name)) => (Kind::Edition, name),
                Some(("variant", name)) => (Kind::Variant, name),
                Some(_) => return None,
                None if find(rules, &t.unit).is_some() => (Kind::Item, t.unit.as_str()),
                None => return None,
            };
            (t.key.len == name.len()).then(|| Site { kind, name: name.to_string(), at: t.key.clone() })
        })
        .collect()
}

/// `value` as the one name `name`, if that is what it is.
fn whole_name(value: &str, name: &str) -> Vec<dsl::Name> {
    let start = value.len() - value.trim_start().len();
    if value.trim() == name {
        vec![dsl::Name { text: name.to_string(), at: (start, start + name.len()) }]
    } else {
        Vec::new()
    }
}

/// The site at `offset` of `file`, if the cursor is on one.
pub fn site_at<'s>(sites: &'s [Site], file: &str, offset: usize) -> Option<&'s Site> {
    sites.iter().find(|s| s.at.file == file && (s.at.start..=s.at.start + s.at.len).contains(&offset))
}

/// Every place `name` of `kind` is written, definitions included (a module's
/// or an expansion's `id:` in `modules.yaml`), in file order.
pub fn references(rules: &Rules, sites: &[Site], kind: Kind, name: &str) -> Vec<Place> {
    let mut out: Vec<Place> = sites.iter().filter(|s| s.kind == kind && s.name == name).map(|s| s.at.clone()).collect();
    if kind == Kind::Selector && !rules.flags.iter().any(|f| f.id == name) {
        out.extend(catalog_definition(rules, name));
    }
    out.sort_by(|a, b| (&a.file, a.start).cmp(&(&b.file, b.start)));
    out.dedup();
    out
}

/// What `name` names, when no site is under the cursor (the buffer is not
/// the text the model was read from).
pub fn kind_of(rules: &Rules, name: &str) -> Option<Kind> {
    if find(rules, name).is_some() {
        Some(Kind::Item)
    } else if rules.flags.iter().any(|f| f.id == name)
        || rules.catalog.module(name).is_some()
        || rules.catalog.expansion(name).is_some()
    {
        Some(Kind::Selector)
    } else if rules.markers.iter().any(|m| m.id == name) {
        Some(Kind::Marker)
    } else if rules.steps().any(|s| s.id == name) {
        Some(Kind::Step)
    } else if rules.defined.editions.contains_key(name) {
        Some(Kind::Edition)
    } else if rules.defined.variants.contains_key(name) {
        Some(Kind::Variant)
    } else {
        rules.items().iter().any(|i| i.one_of.as_deref() == Some(name)).then_some(Kind::Group)
    }
}

/// What kind of id `old` is, if it can be renamed (an item or a derived
/// flag); else why not.
pub fn renamable(rules: &Rules, kind: Kind, old: &str) -> Result<IdKind, String> {
    if kind == Kind::Item && find(rules, old).is_some() {
        Ok(IdKind::Item)
    } else if kind == Kind::Selector && rules.flags.iter().any(|f| f.id == old) {
        Ok(IdKind::Flag)
    } else {
        Err(format!("`{old}` is not an item or a derived flag: only those can be renamed"))
    }
}

/// Why a rename of `old` to `new` is refused, if it is.
pub fn refuse_rename(rules: &Rules, kind: Kind, old: &str, new: &str) -> Option<String> {
    // The compiler's own rules for ids, length included.
    let id_kind = match renamable(rules, kind, old) {
        Ok(id_kind) => id_kind,
        Err(refusal) => return Some(refusal),
    };
    if !id_kind.accepts(new) {
        return Some(format!(
            "`{}` is not a valid {} id: use {} of at most {MAX_ID_LEN} characters",
            quoted(new),
            id_kind.what(),
            id_kind.described()
        ));
    }
    let taken = find(rules, new).is_some()
        || rules.flags.iter().any(|f| f.id == new)
        || rules.catalog.module(new).is_some()
        || rules.catalog.expansion(new).is_some()
        || lexicon::is_keyword(new);
    taken.then(|| format!("`{new}` is already a name in the rules"))
}

/// One entry of a file's outline: a step or section, or an item.
pub struct Symbol {
    /// The step's or item's id.
    pub name: String,
    /// The step's title or the item's text.
    pub detail: String,
    /// Where its id is written (the first item's, for a step written elsewhere).
    pub at: carcassonne_rules_compiler::diagnostics::Span,
    /// Its items (an item's sub-items), as written in this file.
    pub children: Vec<Symbol>,
}

/// The outline of the rules file `file`: each step or section with the
/// items this file gives it.
pub fn outline(rules: &Rules, file: FileId) -> Vec<Symbol> {
    fn items(list: &[Item], file: FileId) -> Vec<Symbol> {
        let mut out = Vec::new();
        for item in list {
            let children = items(&item.children, file);
            if item.spans.id.file == file {
                out.push(Symbol { name: item.id.clone(), detail: first_text(item), at: item.spans.id, children });
            } else {
                // A child written in this file under another file's item.
                out.extend(children);
            }
        }
        out
    }
    let mut out = Vec::new();
    let steps = rules.steps().map(|s| (s.id.clone(), s.title.clone(), Some(s.span), s.items.as_slice()));
    let sections =
        rules.sections.iter().map(|(section, list)| (section.name().to_string(), String::new(), None, list.as_slice()));
    for (name, detail, span, list) in steps.chain(sections) {
        let children = items(list, file);
        let at = match span.filter(|s| s.file == file) {
            Some(span) => span,
            None => match children.first() {
                Some(first) => first.at,
                None => continue,
            },
        };
        out.push(Symbol { name, detail, at, children });
    }
    out
}

/// What a workspace symbol names, for the protocol's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// An item.
    Item,
    /// A step.
    Step,
    /// A module.
    Module,
    /// An expansion.
    Expansion,
    /// A derived flag.
    Flag,
    /// An edition or a rule variant.
    Edition,
    /// A marker.
    Marker,
}

/// Every name the rules define whose id holds `query` (case aside), at its
/// definition, by kind then name; at most `limit`.
pub fn workspace_symbols(rules: &Rules, query: &str, limit: usize) -> Vec<(String, SymbolKind, Place)> {
    let query = query.to_lowercase();
    let wanted = |name: &str| name.to_lowercase().contains(&query);
    let mut out = Vec::new();
    let mut items = Vec::new();
    for step in rules.steps() {
        out.push((step.id.clone(), SymbolKind::Step, step.span));
        collect(&step.items, &mut items);
    }
    for (_, list) in rules.sections.iter() {
        collect(list, &mut items);
    }
    out.extend(items.iter().map(|item| (item.id.clone(), SymbolKind::Item, item.spans.id)));
    let catalog = &rules.catalog;
    for (name, &span) in &rules.defined.names {
        let kind = if rules.flags.iter().any(|f| f.id == *name) {
            SymbolKind::Flag
        } else if catalog.modules.iter().any(|m| m.id == *name) {
            SymbolKind::Module
        } else {
            SymbolKind::Expansion
        };
        out.push((name.clone(), kind, span));
    }
    for (name, &span) in rules.defined.editions.iter().chain(&rules.defined.variants) {
        out.push((name.clone(), SymbolKind::Edition, span));
    }
    out.extend(rules.markers.iter().map(|m| (m.id.clone(), SymbolKind::Marker, m.span)));
    out.into_iter()
        .filter(|(name, _, _)| wanted(name))
        .filter_map(|(name, kind, span)| Some((name, kind, place(rules, span)?)))
        .take(limit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_ends_at_any_character_that_is_not_part_of_one() {
        let text = "é abbey-x→mayor_2 ü";
        assert_eq!(word_at(text, 4), Some((3, "abbey-x")));
        assert_eq!(word_at(text, 14), Some((13, "mayor_2")));
        assert_eq!(word_at(text, 1), None, "inside é");
        assert_eq!(word_at(text, text.len()), None);
    }
}
