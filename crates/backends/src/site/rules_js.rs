//! The rules as the page's script (`rules.js`): the catalog, and each
//! condition the page tags an element with compiled to a JavaScript
//! expression from the same model as the Rust dispatch: bit tests on a
//! module mask, edition and variant comparisons, one function per derived
//! flag.

use std::collections::HashMap;
use std::fmt::Write;

use carcassonne_rules_compiler::model::{Cond, Item, Rules};

use super::{default_edition, header, numbers};
use crate::escape::js;

/// The conditions the page uses, numbered in order of first use; equal
/// conditions share a number.
pub(super) struct Conds<'a> {
    rules: &'a Rules,
    numbers: HashMap<String, usize>,
    /// JavaScript expression and DSL reading, by number.
    list: Vec<(String, String)>,
}

impl<'a> Conds<'a> {
    pub(super) fn new(rules: &'a Rules) -> Self {
        Conds { rules, numbers: HashMap::new(), list: Vec::new() }
    }

    /// ` data-c="N"` for a condition, nothing for one that always holds.
    pub(super) fn attr(&mut self, cond: &Cond) -> String {
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
    pub(super) fn origins(&mut self, item: &Item) -> String {
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

/// The catalog, the derived flags and the conditions, as a classic script
/// (ES modules do not load from `file://`).
pub(super) fn rules_js(rules: &Rules, conds: &Conds<'_>) -> String {
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
    use carcassonne_rules_core::{Catalog, EditionId, ModuleId, VariantId};

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
            markers: Vec::new(),
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
