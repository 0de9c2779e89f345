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

/// Every string literal of `code`, as the value it holds.
fn literals(code: &str) -> Vec<String> {
    fn walk(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Group(group) => walk(group.stream(), out),
                proc_macro2::TokenTree::Literal(literal) => {
                    if let Ok(s) = syn::parse_str::<syn::LitStr>(&literal.to_string()) {
                        out.push(s.value());
                    }
                }
                _ => {}
            }
        }
    }
    let tokens: proc_macro2::TokenStream = code.parse().unwrap_or_else(|err| panic!("not Rust tokens: {err}"));
    let mut out = Vec::new();
    walk(tokens, &mut out);
    out
}

#[test]
fn hostile_translations_become_string_literals_that_hold_exactly_them() {
    use carcassonne_rules_compiler::model::{Wording, WordingPart};
    use carcassonne_rules_core::EditionId;
    let compiled = compiled();
    let Ok(rules) = compiled.result else { panic!("the bundled rules compile") };
    let dutch = compiled.translations.locale("nl").expect("Dutch");
    let plain = kinds(&codegen::generate_language(&rules, dutch));
    let hostile = [
        "\"); pub static X: u8 = 0; //",
        "*/ } ]; fn x() {",
        "back\\slash \\u{41} {C1: x}",
        "line\nbreak\r\u{1b}[31m\0",
        "\u{202e}bidi\u{2066}\u{2069}\u{200b}",
        "r#\"raw\"#",
    ];
    let mut nl = dutch.clone();
    nl.name = "Neder\"lands\n".to_string();
    let mut expected: Vec<String> = Vec::new();
    for (i, (id, unit)) in nl.units.iter_mut().enumerate() {
        let text = format!("{}{i}", hostile[i % hostile.len()]);
        unit.text = if id == "pig-deploy" {
            // An item with edition variants: one literal per edition.
            let (first, rest) = (format!("{text}\"C1"), format!("{text}\\rest"));
            expected.extend([first.clone(), rest.clone()]);
            Wording(vec![WordingPart::ByEdition(vec![
                (vec![EditionId(0)], first),
                (vec![EditionId(1), EditionId(2)], rest),
            ])])
        } else {
            expected.push(text.clone());
            Wording(vec![WordingPart::Literal(text)])
        };
    }
    assert!(expected.len() > 500, "{}", expected.len());
    let code = codegen::generate_language(&rules, &nl);
    assert!(code.contains("EditionText::ByEdition"), "an item with edition variants");
    assert_eq!(kinds(&code), plain, "hostile translations changed the generated items");
    let held = literals(&code);
    for text in expected.iter().chain([&nl.name]) {
        assert!(held.contains(text), "no literal holds {text:?}");
    }
    // Nothing but the table: one `use` and one `static`, whatever the texts hold.
    assert_eq!(plain, ["0 use", "0 static"]);
}
