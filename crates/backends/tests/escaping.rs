//! Ids that `check` would refuse, written into a compiled model by hand
//! (issue 13's defence in depth): codegen still writes one identifier per id,
//! and `explain` keeps its lines and sends no control character. (The wiki
//! export's refusal of ids it cannot write as class words is tested in the
//! wiki crate.)

use std::path::Path;

use carcassonne_rules_backends::codegen;
use carcassonne_rules_compiler::{Compiled, compile_dir};
use carcassonne_rules_core::escape::terminal;
use carcassonne_rules_tools::explain;

const BUNDLED: &str = "../../rules";

fn compiled() -> Compiled {
    compile_dir(Path::new(BUNDLED))
}

/// Kinds of the generated items, recursively (names come from ids here).
fn kinds(code: &str) -> Vec<String> {
    fn walk(items: &[syn::Item], out: &mut Vec<String>, depth: usize) {
        for item in items {
            let kind = match item {
                syn::Item::Const(_) => "const",
                syn::Item::Static(_) => "static",
                syn::Item::Fn(_) => "fn",
                syn::Item::Mod(_) => "mod",
                syn::Item::Type(_) => "type",
                syn::Item::Use(_) => "use",
                _ => "other",
            };
            out.push(format!("{depth} {kind}"));
            if let syn::Item::Mod(syn::ItemMod { content: Some((_, inner)), .. }) = item {
                walk(inner, out, depth + 1);
            }
        }
    }
    let file = syn::parse_file(code).unwrap_or_else(|err| panic!("the generated code does not parse: {err}"));
    let mut out = Vec::new();
    walk(&file.items, &mut out, 0);
    out
}

#[test]
fn hostile_ids_become_identifiers_not_code() {
    let compiled = compiled();
    let Ok(mut rules) = compiled.result else { panic!("the bundled rules compile") };
    let plain = kinds(&codegen::generate(&rules));
    let hostile = ["x\"); pub fn injected() {} //", "type", "self", "r#x", "a b\nc", "é\u{202e}", "9lives"];
    for (i, flag) in rules.flags.iter_mut().enumerate() {
        flag.id = format!("{}{i}", hostile[i % hostile.len()]);
    }
    for (i, module) in rules.catalog.modules.iter_mut().enumerate() {
        module.id = format!("{}{i}", hostile[(i + 3) % hostile.len()]);
    }
    rules.catalog.editions[0].id = "C\"1".to_string();
    let code = codegen::generate(&rules);
    assert_eq!(kinds(&code), plain, "hostile ids changed the generated items");
    // The id is a string literal in the catalog, and an identifier made of its word characters.
    assert!(code.contains(r#"("x\"); pub fn injected() {} //4", "#), "{code}");
    let constant = "pub const X_U22__U29__U3B__U20_PUB_U20_FN_U20_INJECTED_U28__U29__U20__U7B__U7D__U20__U2F__U2F_4:";
    assert!(code.contains(constant), "{code}");
}

#[test]
fn explain_keeps_its_lines_whatever_the_ids_hold() {
    let compiled = compiled();
    let Ok(mut rules) = compiled.result else { panic!("the bundled rules compile") };
    let cfg = match rules.catalog.config("C2", None, "builder,abbey") {
        Ok(cfg) => cfg,
        Err(errors) => panic!("{errors:?}"),
    };
    let item = "draw-tile-if-nothing-else";
    let explained = |rules: &_| match explain::explain(rules, &compiled.sources, item, &cfg) {
        Ok(text) => text,
        Err(err) => panic!("{err}"),
    };
    let plain = explained(&rules);
    for flag in &mut rules.flags {
        flag.id = format!("{}\n\u{1b}]52;c;eA==\u{7}\u{9b}2J\u{202e}", flag.id);
    }
    for module in &mut rules.catalog.modules {
        module.id = format!("{}\r\u{1b}[31m", module.id);
    }
    let hostile = explained(&rules);
    assert!(!hostile.chars().any(|c| terminal::is_unsafe(c) && c != '\n'), "{hostile:?}");
    assert_eq!(hostile.lines().count(), plain.lines().count(), "{hostile}");
    assert!(hostile.contains("tiles_in_supply\\n\\u{1b}]52;c;eA==\\u{7}\\u{9b}2J\\u{202e}"), "{hostile}");
}
