//! The order of play as a static web page (`carcassonne-rules site --out DIR`).
//!
//! `index.html` holds every section, step and item of the rules once, in the
//! model's final order and nesting, each tagged with the number of its
//! condition (`data-c`); `rules.js` holds the catalog and those conditions
//! compiled to JavaScript from the same [`model`](carcassonne_rules_compiler::model) the Rust
//! dispatch is generated from: bit tests on a module mask, edition and variant
//! comparisons, one function per derived flag. `app.js` and `style.css` are
//! fixed assets that know no rule: the script reads the selection from the
//! controls (and the URL), evaluates the conditions and shows what they allow,
//! taking each item's origin as the runtime does (the module of the first of
//! its origin candidates that holds, else its parent's, else the base game).
//! Its "Play a turn" mode plays the order shown as the runtime's `Turn` does,
//! from each item's flow attributes (`data-role`, `data-flow`, the effects)
//! and the double-turn block (`#double-turn-block`) written here.
//!
//! Everything is local (no server, no external URL; classic scripts, so the
//! page works from `file://`), and the output is deterministic: model order
//! only, no timestamps, `\n` newlines.

use std::collections::HashMap;
use std::fmt::Write;

use carcassonne_rules_core::order::{CHOOSE_ONE, NO_ACTIONS};
use carcassonne_rules_core::tables::{Flow, Role};
use carcassonne_rules_core::{Catalog, EditionId, Effect, NamedEffect, Repeat, Section};

use crate::codegen::GENERATOR;
use crate::escape::{html, js};
use carcassonne_rules_compiler::model::{Cond, Item, Marker, Rules, Step, Wording, WordingPart};

/// The script that runs the page: reads the controls, evaluates the conditions.
const APP_JS: &str = include_str!("site/app.js");
/// The page's screen and print styles.
const STYLE_CSS: &str = include_str!("site/style.css");

/// The "Play a turn" mode's frame; `app.js` fills it from the order shown
/// (the items' data attributes) and knows no rule.
const PLAY_PANEL: &str = "<section id=\"play\" class=\"play\" aria-labelledby=\"play-title\" hidden>\n\
     <h2 id=\"play-title\">Play a turn</h2>\n\
     <p class=\"play-where\" id=\"play-where\"></p>\n\
     <div class=\"play-prompt\" id=\"play-prompt\" aria-live=\"polite\"></div>\n\
     <p class=\"play-error\" id=\"play-error\" role=\"alert\" hidden></p>\n\
     <p class=\"play-controls\"><button type=\"button\" id=\"play-undo\">Undo</button> \
     <button type=\"button\" id=\"play-restart\">Start over</button> \
     <button type=\"button\" id=\"play-leave\">Back to the order of play</button></p>\n\
     <section class=\"play-any-time\" id=\"play-any-time\" aria-labelledby=\"play-any-time-title\" hidden>\n\
     <h3 id=\"play-any-time-title\">At any time during your turn</h3>\n<ul id=\"play-any-time-list\"></ul>\n</section>\n\
     <section class=\"play-log\" aria-labelledby=\"play-log-title\">\n\
     <h3 id=\"play-log-title\">What happened</h3>\n<ol id=\"play-log\"></ol>\n</section>\n\
     </section>\n";

/// The edition the page shows when the link names none, if the rules have it
/// (else their first edition): the game's current edition.
const DEFAULT_EDITION: &str = "C2";

/// One file of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    /// Its name inside the output folder.
    pub name: &'static str,
    /// Its contents.
    pub contents: String,
}

/// The page's files: `index.html`, `rules.js`, `app.js` and `style.css`.
pub fn generate(rules: &Rules) -> Vec<SiteFile> {
    let mut conds = Conds::new(rules);
    let html = index_html(rules, &mut conds);
    let js = rules_js(rules, &conds);
    vec![
        SiteFile { name: "index.html", contents: html },
        SiteFile { name: "rules.js", contents: js },
        SiteFile { name: "app.js", contents: APP_JS.to_string() },
        SiteFile { name: "style.css", contents: STYLE_CSS.to_string() },
    ]
}

/// The conditions the page uses, numbered in order of first use; equal
/// conditions share a number.
struct Conds<'a> {
    rules: &'a Rules,
    numbers: HashMap<String, usize>,
    /// JavaScript expression and DSL reading, by number.
    list: Vec<(String, String)>,
}

impl<'a> Conds<'a> {
    fn new(rules: &'a Rules) -> Self {
        Conds { rules, numbers: HashMap::new(), list: Vec::new() }
    }

    /// ` data-c="N"` for a condition, nothing for one that always holds.
    fn attr(&mut self, cond: &Cond) -> String {
        if *cond == Cond::True {
            return String::new();
        }
        format!(" data-c=\"{}\"", self.number(cond))
    }

    /// The condition's number.
    fn number(&mut self, cond: &Cond) -> usize {
        let js = js(self.rules, cond);
        let next = self.list.len();
        let n = *self.numbers.entry(js.clone()).or_insert(next);
        if n == next {
            self.list.push((js, self.rules.dsl(cond).to_string()));
        }
        n
    }

    /// ` data-o="6 12:3"`: the item's origin candidates in order, each a
    /// module's bit and, unless the rest of its part of the condition always
    /// holds, the number of that rest.
    fn origins(&mut self, item: &Item) -> String {
        if item.origins.is_empty() {
            return String::new();
        }
        let candidates: Vec<String> = item
            .origins
            .iter()
            .map(|c| match c.guard {
                Cond::True => c.module.0.to_string(),
                ref guard => format!("{}:{}", c.module.0, self.number(guard)),
            })
            .collect();
        format!(" data-o=\"{}\"", candidates.join(" "))
    }
}

/// A condition as a JavaScript expression over `e` (edition index), `v`
/// (variant index) and `m` (the module mask: 32-bit words, bit `b` in word
/// `b >> 5`).
fn js(rules: &Rules, cond: &Cond) -> String {
    match cond {
        Cond::True => "true".to_string(),
        Cond::False => "false".to_string(),
        Cond::Module(m) => {
            let bit = u32::from(m.0);
            format!("(m[{}] & {:#x}) !== 0", bit >> 5, 1u32 << (bit & 31))
        }
        Cond::Flag(f) => {
            rules.flags.get(*f).map_or_else(|| "false".to_string(), |flag| format!("{}(e, v, m)", flag_fn(&flag.id)))
        }
        Cond::Edition(e) => format!("e === {}", e.0),
        Cond::Variant(v) => format!("v === {}", v.0),
        Cond::Not(c) => format!("!({})", js(rules, c)),
        Cond::All(cs) => join(cs.iter().map(|c| js(rules, c)), " && ", "true"),
        Cond::Any(cs) => join(cs.iter().map(|c| js(rules, c)), " || ", "false"),
    }
}

fn join(parts: impl Iterator<Item = String>, op: &str, empty: &str) -> String {
    let parts: Vec<String> = parts.map(|p| format!("({p})")).collect();
    if parts.is_empty() { empty.to_string() } else { parts.join(op) }
}

/// The JavaScript function of a derived flag.
fn flag_fn(id: &str) -> String {
    format!("flag_{}", js::ident(id))
}

/// Space-separated numbers, for data attributes.
fn numbers(ns: impl Iterator<Item = u8>) -> String {
    ns.map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

fn default_edition(rules: &Rules) -> usize {
    rules.catalog.editions.iter().position(|e| e.id == DEFAULT_EDITION).unwrap_or(0)
}

/// The files' header comment; `comment` makes an input's name safe in it.
fn header(rules: &Rules, open: &str, prefix: &str, close: &str, comment: fn(&str) -> String) -> String {
    let mut out = format!(
        "{open}@generated by {GENERATOR}: do not edit by hand. Edit the YAML under rules/\n\
         {prefix}and run `carcassonne-rules site --out DIR`. Compiled from these files of the rules folder:\n"
    );
    for input in &rules.inputs {
        let _ = writeln!(out, "{prefix}  {}", comment(input));
    }
    out.push_str(close);
    out
}

/// The page: the selection form from the catalog, the order of play from the model.
fn index_html(rules: &Rules, conds: &mut Conds<'_>) -> String {
    let mut out = String::from("<!doctype html>\n");
    out.push_str(&header(rules, "<!-- ", "     ", "-->\n", html::comment));
    out.push_str(
        "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Carcassonne: order of play</title>\n\
         <link rel=\"stylesheet\" href=\"style.css\">\n\
         <script src=\"rules.js\" defer></script>\n\
         <script src=\"app.js\" defer></script>\n\
         </head>\n<body>\n\
         <a class=\"skip\" href=\"#order\">Skip to the order of play</a>\n\
         <header class=\"top\">\n<h1>Carcassonne: order of play</h1>\n\
         <p class=\"summary\" id=\"summary\"></p>\n</header>\n\
         <div class=\"layout\">\n",
    );
    selection_form(&mut out, rules);
    out.push_str(
        "<main id=\"order\" class=\"order\" tabindex=\"-1\" aria-labelledby=\"order-title\">\n\
         <h2 id=\"order-title\" class=\"visually-hidden\">Order of play</h2>\n\
         <noscript><p class=\"notice\">This page needs JavaScript to show the rules of your selection.</p></noscript>\n\
         <p class=\"play-start\"><button type=\"button\" id=\"play-start\" hidden>Play a turn</button></p>\n",
    );
    out.push_str(PLAY_PANEL);
    out.push_str("<div id=\"turn\" hidden>\n");
    for outside in Section::BEFORE_STEPS {
        section(&mut out, conds, rules, outside);
    }
    for phase in &rules.phases {
        let _ = writeln!(
            out,
            "<section class=\"phase\" id=\"phase-{id}\" data-phase=\"{id}\" aria-labelledby=\"phase-{id}-title\">\n\
             <h2 id=\"phase-{id}-title\">{id}. {title}</h2>",
            id = html::text(&phase.id),
            title = html::text(&phase.title),
        );
        for step in &phase.steps {
            self::step(&mut out, conds, rules, step);
        }
        out.push_str("</section>\n");
    }
    for outside in Section::AFTER_STEPS {
        section(&mut out, conds, rules, outside);
    }
    if let Some(block) = &rules.double_turn {
        // The play mode's double turn: the block's first and last step, where its condition holds.
        let name = |s: carcassonne_rules_core::StepId| {
            rules
                .steps()
                .find(|step| step.number == s)
                .map_or_else(String::new, |step| html::text(&step.id).into_owned())
        };
        let _ = writeln!(
            out,
            "<span id=\"double-turn-block\" data-first=\"{}\" data-last=\"{}\"{} hidden></span>",
            name(block.first),
            name(block.last),
            conds.attr(&block.when),
        );
    }
    out.push_str("</div>\n</main>\n</div>\n");
    let _ = writeln!(
        out,
        "<footer class=\"foot\"><p>Generated from the project's checked rules by {} — \
         the same rules the <code>carcassonne-rules</code> command line runs.</p></footer>",
        html::text(GENERATOR)
    );
    out.push_str("</body>\n</html>\n");
    out
}

fn selection_form(out: &mut String, rules: &Rules) {
    let catalog = &rules.catalog;
    let default = default_edition(rules);
    out.push_str(
        "<form id=\"selection\" class=\"selection\" aria-labelledby=\"selection-title\">\n\
         <h2 id=\"selection-title\">Your game</h2>\n\
         <fieldset class=\"choice\" id=\"editions\">\n<legend>Edition</legend>\n",
    );
    for (i, edition) in catalog.editions.iter().enumerate() {
        let _ = writeln!(
            out,
            "<label><input type=\"radio\" name=\"edition\" value=\"{id}\" data-index=\"{i}\"{checked}> \
             {name} <span class=\"code\">({id})</span></label>",
            id = html::text(&edition.id),
            name = html::text(&edition.name),
            checked = if i == default { " checked" } else { "" },
        );
    }
    out.push_str("</fieldset>\n");
    let default_variant = catalog.editions.get(default).map_or(0, |e| usize::from(e.default_variant.0));
    if !catalog.variants.is_empty() {
        out.push_str(
            "<fieldset class=\"choice\" id=\"variants\" aria-describedby=\"variants-help\">\n\
             <legend>Publisher's rules</legend>\n",
        );
        for (i, variant) in catalog.variants.iter().enumerate() {
            let _ = writeln!(
                out,
                "<label><input type=\"radio\" name=\"variant\" value=\"{id}\" data-index=\"{i}\"{checked}> {name}</label>",
                id = html::text(&variant.id),
                name = html::text(&variant.name),
                checked = if i == default_variant { " checked" } else { "" },
            );
        }
        out.push_str(
            "<p class=\"help\" id=\"variants-help\">Where the publishers' rules differ (as the dragon's moves do).</p>\n\
             </fieldset>\n",
        );
    }
    out.push_str(
        "<fieldset class=\"expansions\" id=\"expansions\">\n\
         <legend>Expansions <span id=\"selected-count\" class=\"count\"></span></legend>\n\
         <p class=\"help\">Ticking an expansion ticks all its modules; each module can be ticked alone.</p>\n\
         <p class=\"actions\"><button type=\"button\" id=\"clear\">Clear: base game only</button></p>\n\
         <ul class=\"expansion-list\">\n",
    );
    for expansion in &catalog.expansions {
        let editions = expansion.editions.iter().map(|e| html::text(e)).collect::<Vec<_>>();
        let _ = write!(out, "<li class=\"expansion\" data-editions=\"{}\">", editions.join(" "));
        let tags = format!(
            " <span class=\"editions\" title=\"Published for {}\">{}</span>",
            editions.join(", "),
            editions.join(" · ")
        );
        match expansion.modules.as_slice() {
            [module] => {
                // One module: the expansion's box is the module's.
                let _ = write!(
                    out,
                    "<label><input type=\"checkbox\" data-expansion=\"{x}\" data-module=\"{m}\" data-bit=\"{bit}\"> \
                     {name}</label>{tags}",
                    x = html::text(&expansion.id),
                    m = html::text(&module.id),
                    bit = module.bit.0,
                    name = html::text(&expansion.name),
                );
            }
            modules => {
                let _ = write!(
                    out,
                    "<label><input type=\"checkbox\" data-expansion=\"{x}\"{disabled}> {name}</label>{tags}\n\
                     <ul class=\"modules\" aria-label=\"Modules of {name}\">\n",
                    x = html::text(&expansion.id),
                    name = html::text(&expansion.name),
                    disabled = if modules.is_empty() { " disabled" } else { "" },
                );
                for module in modules {
                    let _ = writeln!(
                        out,
                        "<li><label><input type=\"checkbox\" data-module=\"{m}\" data-bit=\"{bit}\"> {name}</label></li>",
                        m = html::text(&module.id),
                        bit = module.bit.0,
                        name = html::text(&module.name),
                    );
                }
                out.push_str("</ul>");
            }
        }
        out.push_str("</li>\n");
    }
    out.push_str(
        "</ul>\n</fieldset>\n\
         <fieldset class=\"view\">\n<legend>View</legend>\n\
         <label><input type=\"checkbox\" id=\"changes\" aria-describedby=\"changes-help\"> What changed</label>\n\
         <p class=\"help\" id=\"changes-help\">Highlights what your selection adds to the base game.</p>\n\
         </fieldset>\n\
         <p class=\"share\"><label for=\"share-url\">Link to this selection</label>\n\
         <input id=\"share-url\" type=\"text\" readonly>\n\
         <button type=\"button\" id=\"copy\">Copy link</button></p>\n\
         <p id=\"status\" class=\"status\" role=\"status\" aria-live=\"polite\"></p>\n\
         </form>\n",
    );
}

/// An item's flow for the play mode, where it is not a must action without
/// effect: ` data-role="condition"`, ` data-flow="optional choose-one once"`,
/// ` data-skip="2B-1 2B-2"`, ` data-go-back="1B"`, ` data-double-turn`.
fn flow_attrs(flow: Flow, effect: Option<&Effect>, catalog: &Catalog) -> String {
    let mut out = String::new();
    let role = match flow.role {
        Role::Action => None,
        Role::Condition => Some("condition"),
        Role::Group => Some("group"),
        Role::Note => Some("note"),
    };
    if let Some(role) = role {
        let _ = write!(out, " data-role=\"{role}\"");
    }
    let flags: Vec<&str> = [(flow.optional, "optional"), (flow.choose_one, "choose-one"), (flow.once, "once")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
    if !flags.is_empty() {
        let _ = write!(out, " data-flow=\"{}\"", flags.join(" "));
    }
    match effect.map(|e| e.named(catalog)) {
        None => {}
        Some(NamedEffect::Skip(steps)) => {
            let steps: Vec<String> = steps.iter().map(|s| html::text(s).into_owned()).collect();
            let _ = write!(out, " data-skip=\"{}\"", steps.join(" "));
        }
        Some(NamedEffect::GoBack(to)) => {
            let _ = write!(out, " data-go-back=\"{}\"", html::text(to));
        }
        Some(NamedEffect::DoubleTurn) => out.push_str(" data-double-turn"),
    }
    out
}

/// A section outside the steps (notes, setup, any time, final scoring).
fn section(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, section: Section) {
    let (id, title, items) = (section.name(), section.title(), rules.section(section));
    let _ = writeln!(
        out,
        "<section class=\"section\" id=\"{id}\" data-section=\"{id}\" aria-labelledby=\"{id}-title\">\n\
         <h2 id=\"{id}-title\">{title}</h2>",
        id = html::text(id),
        title = html::text(title),
    );
    list(out, conds, rules, "ul", items);
    out.push_str("</section>\n");
}

fn step(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, step: &Step) {
    let id = html::text(&step.id);
    let _ = write!(
        out,
        "<section class=\"step\" id=\"step-{id}\" data-step=\"{id}\"{c}{flow} aria-labelledby=\"step-{id}-title\">\n\
         <h3 id=\"step-{id}-title\">Step {id}: {title}",
        c = conds.attr(&step.when),
        flow = match (step.choose_one, step.may_pass) {
            (false, _) => "",
            (true, false) => " data-choose-one",
            (true, true) => " data-choose-one data-may-pass",
        },
        title = html::text(&step.title),
    );
    if let Some((repeat, when)) = &step.repeat {
        let (name, text) = match repeat {
            Repeat::DoubleTurn => ("double_turn", Repeat::DoubleTurn.label()),
            Repeat::PerFeature => ("per_feature", Repeat::PerFeature.label()),
        };
        let _ = write!(
            out,
            " <span class=\"badge repeat\" data-repeat=\"{name}\"{c} hidden>{text}</span>",
            c = conds.attr(when),
        );
    }
    out.push_str("</h3>\n");
    let _ = writeln!(out, "<p class=\"lead empty\" hidden>{NO_ACTIONS}</p>");
    if step.choose_one {
        let _ = writeln!(out, "<p class=\"lead choose\" hidden>{CHOOSE_ONE}</p>");
    }
    list(out, conds, rules, "ol", &step.items);
    out.push_str("</section>\n");
}

fn list(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, tag: &str, items: &[Item]) {
    let _ = writeln!(out, "<{tag} class=\"items\">");
    for item in items {
        self::item(out, conds, rules, item);
    }
    let _ = writeln!(out, "</{tag}>");
}

fn item(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, item: &Item) {
    let id = html::text(&item.id);
    let _ = write!(out, "<li class=\"item\" id=\"item-{id}\" data-id=\"{id}\"{}", conds.attr(&item.when));
    out.push_str(&conds.origins(item));
    if !item.foreign.is_empty() {
        let _ = write!(out, " data-f=\"{}\"", numbers(item.foreign.iter().map(|e| e.0)));
    }
    out.push_str(&flow_attrs(item.flow, item.effect.as_ref(), &rules.catalog));
    out.push_str(" hidden>");
    out.push_str("<div class=\"line\"><span class=\"text\">");
    text(out, &item.text);
    out.push_str("</span>");
    for marker in &item.markers {
        self::marker(out, conds, marker);
    }
    if !item.foreign.is_empty() {
        let eds: Vec<&str> = rules
            .catalog
            .editions
            .iter()
            .enumerate()
            .filter(|(i, _)| !item.foreign.contains(&EditionId(*i as u8)))
            .map(|(_, e)| e.id.as_str())
            .collect();
        let _ = write!(
            out,
            " <span class=\"badge foreign-badge\" hidden title=\"A rule of {from}, shown for other editions\">\
             <span class=\"visually-hidden\">from another edition: </span>{from}</span>",
            from = html::text(&eds.join("/")),
        );
    }
    out.push_str(
        " <span class=\"badge origin\" hidden></span>\
         <span class=\"badge added-badge\" hidden>added</span></div>",
    );
    if !item.children.is_empty() {
        out.push('\n');
        list(out, conds, rules, "ul", &item.children);
    }
    out.push_str("</li>\n");
}

fn marker(out: &mut String, conds: &mut Conds<'_>, marker: &Marker) {
    let _ = write!(
        out,
        " <span class=\"badge marker\"{c} hidden><span class=\"visually-hidden\">marker: </span>{label}</span>",
        c = conds.attr(&marker.when),
        label = html::text(&marker.label),
    );
}

/// An item's text: literal parts as they are, edition alternatives each in a
/// span naming its editions (the script shows the selected edition's).
fn text(out: &mut String, text: &Wording) {
    for part in &text.0 {
        match part {
            WordingPart::Literal(s) => out.push_str(&html::text(s)),
            WordingPart::ByEdition(alternatives) => {
                for (editions, s) in alternatives {
                    let _ = write!(
                        out,
                        "<span class=\"ed\" data-ed=\"{}\">{}</span>",
                        numbers(editions.iter().map(|e| e.0)),
                        html::text(s)
                    );
                }
            }
        }
    }
}

/// The catalog, the derived flags and the conditions, as a classic script
/// (ES modules do not load from `file://`).
fn rules_js(rules: &Rules, conds: &Conds<'_>) -> String {
    let catalog = &rules.catalog;
    let mut out = header(rules, "// ", "// ", "", js::comment);
    out.push_str(
        "//\n\
         // The page's conditions, compiled from the same model as the Rust dispatch. Each takes\n\
         // e (edition index), v (variant index) and m (the module mask: 32-bit words, module bit b\n\
         // in word b >> 5) and says whether an element tagged data-c=\"N\" shows.\n\
         \"use strict\";\n(function () {\n",
    );
    if !rules.flags.is_empty() {
        out.push_str("  // Derived flags.\n");
    }
    for flag in &rules.flags {
        let _ = writeln!(
            out,
            "  // {id} := {dsl}\n  function {name}(e, v, m) {{\n    return {js};\n  }}",
            id = js::comment(&flag.id),
            dsl = js::comment(&rules.dsl(&flag.when).to_string()),
            name = flag_fn(&flag.id),
            js = js(rules, &flag.when),
        );
    }
    let words = catalog.modules.len().max(1).div_ceil(32);
    out.push_str("  window.carcassonneRules = Object.freeze({\n");
    let _ = writeln!(out, "    words: {words},");
    let _ = writeln!(out, "    defaultEdition: {},", default_edition(rules));
    out.push_str("    editions: [\n");
    for edition in &catalog.editions {
        let _ = writeln!(
            out,
            "      {{ id: {}, name: {}, variant: {} }},",
            js::string(&edition.id),
            js::string(&edition.name),
            edition.default_variant.0
        );
    }
    out.push_str("    ],\n    variants: [\n");
    for variant in &catalog.variants {
        let _ = writeln!(out, "      {{ id: {}, name: {} }},", js::string(&variant.id), js::string(&variant.name));
    }
    out.push_str("    ],\n    // By bit.\n    modules: [\n");
    for module in &catalog.modules {
        let _ = writeln!(out, "      {{ id: {}, name: {} }},", js::string(&module.id), js::string(&module.name));
    }
    out.push_str("    ],\n    // In the registry's order, with their modules' bits.\n    expansions: [\n");
    for expansion in &catalog.expansions {
        let _ = writeln!(
            out,
            "      {{ id: {}, name: {}, editions: [{}], modules: [{}] }},",
            js::string(&expansion.id),
            js::string(&expansion.name),
            expansion.editions.iter().map(|e| js::string(e)).collect::<Vec<_>>().join(", "),
            numbers(expansion.modules.iter().map(|m| m.bit.0)).replace(' ', ", "),
        );
    }
    out.push_str("    ],\n    conds: [\n");
    for (n, (js, dsl)) in conds.list.iter().enumerate() {
        let _ = writeln!(out, "      // {n}: {}\n      (e, v, m) => {js},", js::comment(dsl));
    }
    out.push_str("    ],\n  });\n})();\n");
    out
}

#[cfg(test)]
mod tests {
    use carcassonne_rules_core::{Catalog, ModuleId, VariantId};

    use super::*;
    use carcassonne_rules_compiler::model::Flag;

    fn rules() -> Rules {
        Rules {
            catalog: Catalog::new(
                &[("C1", "1st", VariantId(0)), ("C2", "new", VariantId(0))],
                &[("hig", "HiG"), ("rgg", "RGG")],
                &[("abbey", "Abbey", true), ("zz", "Z", true)],
                &[("x", "X", &["C1"], &[ModuleId(0), ModuleId(1)])],
            ),
            flags: vec![Flag {
                id: "any".to_string(),
                when: Cond::Any(vec![Cond::Module(ModuleId(1))]),
                span: carcassonne_rules_compiler::model::Span {
                    file: carcassonne_rules_compiler::diagnostics::FileId(0),
                    start: 0,
                    len: 0,
                },
                name_span: carcassonne_rules_compiler::model::Span {
                    file: carcassonne_rules_compiler::diagnostics::FileId(0),
                    start: 0,
                    len: 0,
                },
            }],
            phases: Vec::new(),
            double_turn: None,
            sections: Default::default(),
            inputs: Vec::new(),
            defined: Default::default(),
        }
    }

    #[test]
    fn conditions_read_as_the_dsl_and_compile_to_bit_tests() {
        let rules = rules();
        let cond = Cond::All(vec![
            Cond::Module(ModuleId(0)),
            Cond::Not(Box::new(Cond::Any(vec![Cond::Flag(0), Cond::Edition(EditionId(0))]))),
        ]);
        assert_eq!(rules.dsl(&cond).to_string(), "abbey and not (any or edition == C1)");
        assert_eq!(js(&rules, &cond), "((m[0] & 0x1) !== 0) && (!((flag_any(e, v, m)) || (e === 0)))");
        assert_eq!(js(&rules, &Cond::Module(ModuleId(1))), "(m[0] & 0x2) !== 0");
    }

    #[test]
    fn equal_conditions_share_a_number() {
        let rules = rules();
        let mut conds = Conds::new(&rules);
        assert_eq!(conds.attr(&Cond::True), "");
        assert_eq!(conds.attr(&Cond::Module(ModuleId(1))), " data-c=\"0\"");
        assert_eq!(conds.attr(&Cond::Variant(VariantId(1))), " data-c=\"1\"");
        assert_eq!(conds.attr(&Cond::Module(ModuleId(1))), " data-c=\"0\"");
    }
}
